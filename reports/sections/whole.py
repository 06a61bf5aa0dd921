"""What is decided for the whole design rather than for one cluster: where each workload group
runs and why, and the calculations of what the clusters share (the networks sized over every
cluster's host ports, the racks, the management domain). A design whose one cluster is the
whole design has neither: its cluster's sections say it all."""

from __future__ import annotations

from reports.doctree import Block
from reports.sections import calculations
from reports.story import Story


def placements(st: Story) -> list[Block] | None:
    decisions = st.data.plan.estate.decisions
    if not decisions:
        return None
    return st.bullets([f"{d.text} {d.reason}" for d in decisions])


def calculations_of_the_design(st: Story) -> list[Block] | None:
    calcs = st.data.plan.estate.calculations
    if not calcs:
        return None
    return [calculations.table(st, calcs, "")]
