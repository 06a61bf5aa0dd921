"""The strict base of every catalog entry: identifiers, bounded figures, and the source every
figure carries (with what is derived, third party or unsettled about it)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, model_validator

from wizard.model.text import plain_text

Identifier = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9._-]{0,63}$")]
# Finite bounds on every catalog figure: 1e-6 to 1e15 holds every real one (parameters up to
# 1e14) and keeps a typo (1e308, a subnormal) out of the arithmetic.
PositiveFloat = Annotated[float, Field(ge=1e-6, le=1e15, allow_inf_nan=False)]
NonNegativeFloat = Annotated[float, Field(ge=0, le=1e15, allow_inf_nan=False)]


class Strict(BaseModel):
    """Base for everything read from a file: unknown keys are errors, not silently dropped; its
    text passes the same gate as a design's (no control character but tab and newline)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @model_validator(mode="after")
    def _plain_text(self) -> Strict:
        for name in type(self).model_fields:
            value = getattr(self, name)
            if isinstance(value, str):
                try:
                    plain_text(value)
                except ValueError as exc:
                    raise ValueError(f"{name}: {exc}") from None
        return self


class Sourced(Strict):
    id: Identifier
    source: str = Field(min_length=3, description="Datasheet, vendor document or paper.")
    source_note: str = Field(
        default="",
        description="How a figure was obtained when it is derived or third party.",
    )
    unsettled: list[Annotated[str, Field(pattern=r"^[a-z0-9_]+(\.[a-z0-9_]+)?$")]] = Field(
        default_factory=list,
        max_length=40,
        description="Figures the vendor does not publish or that are estimated, third party or "
        "left out (e.g. power_w_per_node, tflops.fp32): each is a field of the entry and is "
        "explained in source_note, so a reader knows which numbers to confirm.",
    )

    @model_validator(mode="after")
    def _unsettled_are_fields(self) -> Sourced:
        for path in self.unsettled:
            head, _, tail = path.partition(".")
            if head not in type(self).model_fields:
                raise ValueError(f"unsettled: {path!r} is not a figure of this entry")
            if tail:
                inner = type(self).model_fields[head].annotation
                fields = getattr(inner, "model_fields", None)
                if fields is None:
                    args = [a for a in getattr(inner, "__args__", ()) if hasattr(a, "model_fields")]
                    fields = args[0].model_fields if args else {}
                if tail not in fields:
                    raise ValueError(f"unsettled: {path!r} is not a figure of this entry")
        return self


class Product(Sourced):
    """A catalog entry sold under a vendor's model name (server, NIC, switch, storage, CDU)."""

    vendor: str
    model: str

    @property
    def product_name(self) -> str:
        """The name an order and a proposal give it: vendor, then model."""
        return f"{self.vendor} {self.model}"
