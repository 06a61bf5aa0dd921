"""A user's price list: unit prices by BOM item key or part number, in one currency.

No price ships as fact; prices come only from a file the user gives (see README, "Prices").
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

Price = Annotated[float, Field(ge=0, le=1e12, allow_inf_nan=False)]


class PriceList(BaseModel):
    model_config = ConfigDict(extra="forbid")

    currency: str = Field(pattern=r"^[A-Z]{3}$")
    source: str = Field(
        default="", max_length=2000, description="Quote or list the prices are from"
    )
    prices: dict[str, Price] = Field(
        description="BOM item key (e.g. 'server:dell-xe9680') or part number -> unit price"
    )
