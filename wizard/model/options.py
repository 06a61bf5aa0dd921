"""The options of a design side by side: what each needs and delivers, and what it costs."""

from __future__ import annotations

from pydantic import Field

from wizard.model.cost import CostResult
from wizard.model.result import Out


class TargetStatus(Out):
    workload: str
    metric: str = Field(description="'time to train', 'ttft', 'itl' or 'throughput'")
    value: float
    target: float
    unit: str
    met: bool
    at_risk: bool = Field(
        default=False, description="Met as estimated, missed at the pessimistic end of the spread"
    )
    pessimistic: float | None = Field(default=None, description="The figure at that end")


class OptionRow(Out):
    name: str
    note: str
    proposed: bool
    error: str | None = Field(default=None, description="Why the option cannot be sized")
    clusters: int = 0
    hosts: int = 0
    gpus: int = 0
    gpus_demand: int = 0
    gpus_idle: int = 0
    total_kw: float = 0.0
    racks: int = 0
    targets: list[TargetStatus] = Field(default_factory=list)
    cost: CostResult | None = None
