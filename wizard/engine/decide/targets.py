"""Each group's targets against its estimates: met or missed as estimated, and at risk when met
as estimated but missed at the pessimistic end of the assumptions' spread. One place for the
proposal's summary, the options comparison and the wizard."""

from __future__ import annotations

from wizard.engine.decide.ranges import FIGURE_OF, misses
from wizard.model.design import Design
from wizard.model.options import TargetStatus
from wizard.model.result import WorkloadResult


def missed_at(metric: str, target: float, value: float | None) -> bool:
    """Whether ``value`` of a serving figure misses its target: a throughput below it, a time
    above it. The one rule for "at risk" in every reader."""
    if value is None:
        return False
    return misses(FIGURE_OF[metric], value, target)


def target_statuses(
    design: Design, workloads: list[WorkloadResult], pessimistic: dict[tuple[str, str], float]
) -> list[TargetStatus]:
    """``pessimistic`` maps (group, figure) to the figure at the pessimistic end of its spread."""
    out = []
    by_name = {g.name: g for g in design.workloads}
    for w in workloads:
        g = by_name.get(w.name)
        if g is None:  # a result read beside another version of the design
            continue
        tr = g.training
        hours = w.training.time_to_train_hours if w.training else None
        if tr is not None and tr.target_hours and hours is not None:
            worse = pessimistic.get((w.name, "time_to_train_hours"))
            met = hours <= tr.target_hours
            out.append(TargetStatus(workload=w.name, metric="time to train", value=hours,
                                    target=tr.target_hours, unit="h", met=met,
                                    at_risk=met and worse is not None and worse > tr.target_hours,
                                    pessimistic=worse))  # fmt: skip
        if w.serving is not None:
            for t in w.serving.targets:
                worse = pessimistic.get((w.name, FIGURE_OF[t.metric]))
                missed_there = missed_at(t.metric, t.target, worse)
                out.append(
                    TargetStatus(
                        workload=w.name,
                        metric=t.metric,
                        value=t.value,
                        target=t.target,
                        unit=t.unit,
                        met=t.met,
                        at_risk=t.met and missed_there,
                        pessimistic=worse,
                    )
                )
    return out
