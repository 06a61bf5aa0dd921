"""The cost of ownership of a design, from the user's price list and cost inputs."""

from __future__ import annotations

from pydantic import Field

from wizard.model.result import Calculation, Out


class WorkloadCost(Out):
    workload: str
    share: float = Field(description="Share of the total cost: its GPUs over all groups' GPUs")
    cost: float = Field(description="Its share of the total cost of ownership")
    cost_per_million_tokens: float | None = Field(
        default=None,
        description="Serving groups: its cost over the output tokens of its planned load, kept "
        "up around the clock for the years of ownership (a lower bound on the real figure)",
    )


class CostResult(Out):
    currency: str
    years: int
    hardware: float = Field(description="Priced hardware lines, bought once")
    subscriptions_per_year: float = Field(description="Priced licence lines, per year")
    power_per_year: float | None = Field(description="None without an energy price")
    support_per_year: float | None = Field(description="None without a support share")
    per_year: float = Field(description="What is known of the yearly cost")
    total: float = Field(description="Hardware plus the years of yearly cost")
    gpu_hours: float = Field(description="GPUs installed x hours of the years of ownership")
    cost_per_gpu_hour: float
    workloads: list[WorkloadCost]
    unpriced_items: list[str] = Field(description="BOM lines the price list has no price for")
    left_out: list[str] = Field(description="Costs left out for want of an input, in words")
    calculations: list[Calculation]
