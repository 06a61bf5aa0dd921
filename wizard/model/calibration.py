"""A group's efficiency factors fitted to the customer's own benchmark results, with where they
came from, so a design stays self-contained and reproducible. The engine reads a group's factors
through :func:`group_assumptions`: the calibrated ones in place of the design's defaults."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from wizard.model.text import plain_text


class Model(BaseModel):
    # as the design's sections: strict keys, validators built on first use
    model_config = ConfigDict(extra="forbid", defer_build=True)


Fraction = Annotated[float, Field(gt=0, le=1, allow_inf_nan=False)]
Text = Annotated[str, Field(max_length=500), AfterValidator(plain_text)]

# The factors a measurement can set, as the design's assumptions name them, with the physical
# bounds the fit keeps to (a share of a peak rate cannot pass 1; below these the model and the
# file disagree on something other than efficiency).
FACTORS: dict[str, tuple[float, float]] = {
    "decode_bandwidth_efficiency": (0.2, 0.95),
    "prefill_compute_efficiency": (0.1, 0.9),
    "link_efficiency": (0.3, 1.0),
    "achievable_utilization": (0.1, 0.8),
}
# each factor's range field in the design's assumptions (the ranges narrow to the fit's spread)
RANGES = {
    "decode_bandwidth_efficiency": "decode_bandwidth_efficiency_range",
    "prefill_compute_efficiency": "prefill_compute_efficiency_range",
    "achievable_utilization": "achievable_utilization_range",
}


class MeasurementSource(Model):
    """One benchmark file the factors were fitted on."""

    file: Text = Field(description="The file's name as imported (no folder)")
    sha256: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
    tool: Text
    version: Text | None = None
    run_date: Text | None = Field(default=None, description="The run's date, as the file says")
    imported: dt.date
    points: int = Field(ge=1, le=100_000)


class MeasuredFigure(Model):
    """One figure a file measured, where the design was sized (for the 'measured' label)."""

    metric: Literal["ttft_ms", "itl_ms", "tokens_per_s", "busbw_gbs", "step_s"]
    value: float = Field(gt=0, le=1e12, allow_inf_nan=False)
    concurrency: float | None = Field(default=None, gt=0, le=1e9, allow_inf_nan=False)
    input_tokens: float | None = Field(default=None, gt=0, le=1e9, allow_inf_nan=False)
    output_tokens: float | None = Field(default=None, gt=0, le=1e9, allow_inf_nan=False)
    predicted: float = Field(
        gt=0, le=1e12, allow_inf_nan=False, description="The calibrated model's figure"
    )
    fitted: bool = Field(
        default=True, description="False: shown beside the model, not fitted (queueing under load)"
    )
    gpu: Text | None = Field(default=None, description="The GPU (catalog id) the run was on")
    slot: Text | None = Field(
        default=None, description="The slice of it the group had: a vGPU or MIG profile, or none"
    )
    tensor_parallel: int | None = Field(default=None, ge=1, le=1024)


class FittedFactor(Model):
    name: Literal[
        "decode_bandwidth_efficiency",
        "prefill_compute_efficiency",
        "link_efficiency",
        "achievable_utilization",
    ]
    value: Fraction
    default: float | None = Field(default=None, ge=0, le=1, allow_inf_nan=False)
    low: Fraction = Field(description="Pessimistic end of the fit's spread")
    high: Fraction = Field(description="Optimistic end of the fit's spread")

    @model_validator(mode="after")
    def _ordered(self) -> FittedFactor:
        if not self.low <= self.value <= self.high:
            raise ValueError(
                f"{self.name}: the fitted value {self.value} lies outside its spread "
                f"{self.low} to {self.high}"
            )
        return self


class Calibration(Model):
    """What the customer's measurements set for one group: factors, sources and the points."""

    factors: list[FittedFactor] = Field(min_length=1, max_length=len(FACTORS))
    sources: list[MeasurementSource] = Field(min_length=1, max_length=100)
    measured: list[MeasuredFigure] = Field(default_factory=list, max_length=10_000)
    worst_error: float = Field(
        ge=0, le=1e6, allow_inf_nan=False,
        description="Largest relative error of the calibrated model on a fitted point",
    )  # fmt: skip

    @model_validator(mode="after")
    def _one_each(self) -> Calibration:
        names = [f.name for f in self.factors]
        if len(set(names)) != len(names):
            raise ValueError("a factor is fitted twice")
        return self

    def factor(self, name: str) -> FittedFactor | None:
        return next((f for f in self.factors if f.name == name), None)

    def at(self, t: float) -> Calibration:
        """The factors at position ``t`` of their spreads (0 pessimistic, 1 optimistic), for
        the ranges."""
        factors = [
            f.model_copy(update={"value": f.low + t * (f.high - f.low)}) for f in self.factors
        ]
        return self.model_copy(update={"factors": factors})
