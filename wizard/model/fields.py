"""The field types and the strict base every part of a design file is made of: names and text
that stay plain text, shares and positive figures with finite bounds, unknown fields refused."""

from __future__ import annotations

from typing import Annotated

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
)

from wizard.model.text import plain_text

Name = Annotated[str, Field(min_length=1, max_length=200), AfterValidator(plain_text)]
Text = Annotated[str, Field(max_length=20_000), AfterValidator(plain_text)]
Short = Annotated[str, Field(max_length=200), AfterValidator(plain_text)]
Ref = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9._-]{0,63}$")]
# Every float has finite bounds: a share below 0.001 or a positive figure below 1e-6 is no
# design a customer makes, and subnormal numbers (5e-324) would overflow the arithmetic.
Fraction = Annotated[float, Field(ge=0.001, le=1, allow_inf_nan=False)]
Positive = Annotated[float, Field(ge=1e-6, le=1e18, allow_inf_nan=False)]

# Bounds that keep numbers physical without getting in the way of very large designs.
MAX_GROUP_COUNT = 1_000_000
MAX_PARAMETERS = 1e14


class Model(BaseModel):
    # Each model's validator is built on its first use, not on import: the wizard's first page
    # validates only the project section, long before a whole Design.
    model_config = ConfigDict(extra="forbid", defer_build=True)
