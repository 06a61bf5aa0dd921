"""A user's price list: unit prices by BOM item key or part number, in one currency.

No price ships as fact; prices come only from a file the user gives (see docs/build.md, "Prices").
"""

from __future__ import annotations

import unicodedata
from functools import cached_property
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator

# strict: a price is a number in the file, never true or "100" coerced into one
Price = Annotated[float, Field(strict=True, ge=0, le=1e12, allow_inf_nan=False)]


def sku(text: str) -> str:
    """How two item keys or part numbers compare: Unicode-normalised and case-folded, so
    'MCP7Y00-N001' and 'mcp7y00-n001' are one part."""
    return unicodedata.normalize("NFC", text).strip().casefold()


class PriceList(BaseModel):
    model_config = ConfigDict(extra="forbid")

    currency: str = Field(pattern=r"^[A-Z]{3}$")
    source: str = Field(
        default="", max_length=2000, description="Quote or list the prices are from"
    )
    prices: dict[str, Price] = Field(
        description="BOM item key (e.g. 'server:dell-xe9680') or part number -> unit price"
    )

    @field_validator("prices")
    @classmethod
    def _one_price_per_sku(cls, value: dict[str, float]) -> dict[str, float]:
        seen: dict[str, str] = {}
        for key in value:
            other = seen.setdefault(sku(key), key)
            if other != key:
                raise ValueError(
                    f"'{other}' and '{key}' are the same item written two ways; give it one price"
                )
        return {key: price + 0.0 for key, price in value.items()}  # -0.0 reads as 0.00

    def price(self, key: str) -> float | None:
        """The price of an item key or part number, compared as :func:`sku` does."""
        return self._by_sku.get(sku(key))

    @cached_property
    def _by_sku(self) -> dict[str, float]:
        return {sku(key): price for key, price in self.prices.items()}
