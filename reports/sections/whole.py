"""What is decided for the whole design rather than for one cluster: where each workload group
runs and why, the decisions taken for every cluster at once, and the calculations of what the
clusters share (the networks sized over every cluster's host ports, the racks, the management
domain). A design whose one cluster is the whole design has none: its cluster's sections say
it all."""

from __future__ import annotations

from reports.doctree import Block
from reports.sections import calculations
from reports.sections.decisions import table as decisions_table
from reports.story import Story


def placements(st: Story) -> list[Block] | None:
    """Each group's GPU cluster and why, where there is more than one to run on."""
    e = st.data.plan.estate
    if len({p.cluster for p in e.placements}) < 2:
        return None
    rows: list[list] = [["Workload group", "GPU cluster", "Why"]]
    rows += [[p.workload, p.cluster, p.reason] for p in e.placements]
    return [st.table(rows, [2.4, 1.8, 4.8])]


def decisions_of_the_design(st: Story) -> list[Block] | None:
    """The decisions taken for every cluster at once (the shared networks' media, the racks),
    numbered apart from each cluster's own."""
    decisions = st.data.plan.estate.decisions
    if not decisions:
        return None
    return [decisions_table(st, decisions, "W")]


def calculations_of_the_design(st: Story) -> list[Block] | None:
    calcs = st.data.plan.estate.calculations
    if not calcs:
        return None
    return [calculations.table(st, calcs, "")]
