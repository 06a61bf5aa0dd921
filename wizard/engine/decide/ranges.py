"""Ranges instead of false precision: each time, latency and throughput figure evaluated over the
stated spread of the efficiency assumptions it rests on, with the plan held as sized, so the range
is the uncertainty of the figure, not of a different design. A target met at the point estimate
but not at the pessimistic end is at risk.

Training: the time to train over the utilization spread, on the plan as sized (its GPUs, its slice,
its iterations): the compute and the pipeline bubble scale with point / utilization, and the
exposed communication is held, which errs long at the pessimistic end (slower compute would hide
more of it) and short at the optimistic one. Serving: the group re-sized with its layout, its
replicas and its requests in flight fixed (no rate search), with the decode and prefill
efficiencies moved together. Both walk a grid from the pessimistic to the optimistic end; a
figure's range is the least and most it takes there and at the point estimate.

A serving group's figures come from its own sizing alone (its model, layout, load, the hardware
and the assumptions), never from the packing, the cluster or the build-out that follow it, so at
each grid point only the serving groups are sized again: the same figures as sizing the whole
design there, at a fraction of the time the live Review has after an edit.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from wizard.engine.basis.spread import assumptions_at
from wizard.model.catalog import Catalog
from wizard.model.design import Design, Parallelism, group_assumptions
from wizard.model.result import Result, WorkloadSizing

if TYPE_CHECKING:
    import numpy as np

GRID = 5  # points from the pessimistic to the optimistic end
# for each figure: whether more is better (throughput) or less is (times)
FIGURES = {"time_to_train_hours": False, "ttft_ms": False, "itl_ms": False,
           "tokens_per_s_total": True}  # fmt: skip


# the figure each serving target is checked on
FIGURE_OF = {"ttft": "ttft_ms", "itl": "itl_ms", "throughput": "tokens_per_s_total"}


@dataclass(frozen=True)
class FigureRange:
    workload: str
    figure: str = ""  # a key of FIGURES
    value: float = 0.0  # the point estimate
    low: float = 0.0
    high: float = 0.0
    pessimistic: float = 0.0  # the end that is worse for the customer

    def misses(self, target: float) -> bool:
        """Whether the pessimistic end misses ``target``: the one rule for "at risk" in every
        reader (a rate below it, a time above it)."""
        return misses(self.figure, self.pessimistic, target)


def misses(figure: str, value: float, target: float) -> bool:
    """Whether ``value`` of ``figure`` misses ``target``: below it where more is better, above
    it where less is."""
    return value < target if FIGURES[figure] else value > target


@dataclass(frozen=True)
class TargetRisk:
    workload: str
    metric: str
    target: float
    pessimistic: float
    unit: str


def pinned(design: Design, result: Result) -> Design:
    """The design with every serving group's layout, replicas and requests in flight fixed as
    sized (rate targets dropped, so no search re-plans the load)."""
    groups = []
    for g, w in zip(design.workloads, result.workloads, strict=True):
        lay, s = w.layout, w.serving
        if lay is not None and s is not None and g.inference is not None:
            par = Parallelism(
                zero_stage=lay.zero_stage,
                data_parallel=lay.data_parallel,
                tensor_parallel=lay.tensor_parallel,
                pipeline_parallel=lay.pipeline_parallel,
                sequence_parallel=g.parallelism.sequence_parallel,
            )
            load = g.inference.model_copy(
                update={
                    "concurrent_sequences": s.sequences_planned,
                    "target_requests_per_s": None,
                    "target_tokens_per_s": None,
                    "people": None,
                }
            )
            g = g.model_copy(update={"parallelism": par, "inference": load})
        groups.append(g)
    return design.model_copy(update={"workloads": groups})


def _serving_figures(workloads: Iterable[WorkloadSizing]) -> dict[tuple[str, str], float]:
    out = {}
    for w in workloads:
        if w.serving is not None:
            s = w.serving
            out[(w.name, "ttft_ms")] = s.ttft_ms
            out[(w.name, "itl_ms")] = s.itl_ms
            out[(w.name, "tokens_per_s_total")] = s.tokens_per_s_total
    return out


def _serving_sized(design: Design, catalog: Catalog, serving: set[int]) -> list[WorkloadSizing]:
    """The groups at the indices ``serving`` sized as ``size()`` sizes them inside ``design``
    (each group's sizing reads only the group, the hardware and the assumptions), without the
    placement and build-out a figure of theirs never depends on."""
    from wizard.engine.basis.record import Recorder
    from wizard.engine.demand.sizer import DemandFacts
    from wizard.engine.demand.workload import WorkloadSizer

    gpu = catalog.gpus[design.hardware.gpu]
    server = catalog.servers[design.hardware.server]
    rec = Recorder()  # the log of a trial is not kept
    return [
        WorkloadSizer(i, g, DemandFacts.of(design, catalog), gpu, server, rec).size()
        for i, g in enumerate(design.workloads)
        if i in serving
    ]


def _training_samples(
    design: Design, result: Result, grid: np.ndarray
) -> dict[tuple[str, str], np.ndarray]:
    """Time to train at each grid point, from the sized figures of each training group."""
    out = {}
    groups = {g.name: g for g in design.workloads}
    for w in result.workloads:
        g = groups.get(w.name)
        a = group_assumptions(design.assumptions, g) if g is not None else design.assumptions
        lo, hi = a.achievable_utilization_range
        lo, hi = min(lo, a.achievable_utilization), max(hi, a.achievable_utilization)
        util = lo + grid * (hi - lo)
        t = w.training
        if t is None or not t.time_to_train_hours or not t.iteration_seconds:
            continue
        compute = (t.compute_seconds_per_iteration or 0.0) * (1 + (t.pipeline_bubble_share or 0))
        rest = max(t.iteration_seconds - compute, 0.0)
        iterations = t.time_to_train_hours * 3600 / t.iteration_seconds
        seconds = iterations * (compute * a.achievable_utilization / util + rest)
        out[(w.name, "time_to_train_hours")] = seconds / 3600
    return out


def figure_ranges(design: Design, catalog: Catalog, result: Result) -> list[FigureRange]:
    """The range of every time, latency and throughput figure of ``result``."""
    import numpy as np  # here, not at import: the wizard's window shows before it is needed

    point = {
        (w.name, "time_to_train_hours"): w.training.time_to_train_hours
        for w in result.workloads
        if w.training is not None and w.training.time_to_train_hours
    }
    point |= _serving_figures(result.workloads)
    if not point:
        return []
    grid = np.linspace(0.0, 1.0, GRID)
    samples = {key: np.full(GRID, np.nan) for key in point}
    samples |= _training_samples(design, result, grid)
    serving = {i for i, w in enumerate(result.workloads) if w.serving is not None}
    if serving:
        fixed = pinned(design, result)
        for i, t in enumerate(grid):
            trial = fixed.model_copy(
                update={
                    "assumptions": assumptions_at(design.assumptions, float(t)),
                    # a calibrated group moves over its fit's spread, not the defaults'
                    "workloads": [
                        g.model_copy(update={"calibration": g.calibration.at(float(t))})
                        if g.calibration is not None
                        else g
                        for g in fixed.workloads
                    ],
                }
            )
            for key, v in _serving_figures(_serving_sized(trial, catalog, serving)).items():
                if key in samples:
                    samples[key][i] = v
    out = []
    for (workload, figure), value in point.items():
        seen = np.append(samples[(workload, figure)], value)
        seen = seen[np.isfinite(seen)]
        low, high = float(seen.min()), float(seen.max())
        worse = low if FIGURES[figure] else high
        out.append(FigureRange(workload, figure, value, low, high, worse))
    return out


def targets_at_risk(result: Result, ranges: list[FigureRange]) -> list[TargetRisk]:
    """Targets met at the point estimate but missed at the pessimistic end of the spread."""
    by_key = {(r.workload, r.figure): r for r in ranges}
    risks = []
    for w in result.workloads:
        if w.serving is None:
            continue
        for t in w.serving.targets:
            figure = FIGURE_OF[t.metric]
            rng = by_key.get((w.name, figure))
            if rng is None or not t.met:
                continue
            if rng.misses(t.target):
                risks.append(TargetRisk(w.name, t.metric, t.target, rng.pessimistic, t.unit))
    return risks


def training_at_risk(design: Design, result: Result, ranges: list[FigureRange]) -> list[TargetRisk]:
    """Training groups whose target time holds at the point estimate but not at the
    pessimistic end."""
    by_key = {(r.workload, r.figure): r for r in ranges}
    out = []
    for g, w in zip(design.workloads, result.workloads, strict=True):
        tr = g.training
        hours = w.training.time_to_train_hours if w.training else None
        rng = by_key.get((w.name, "time_to_train_hours"))
        if tr is None or not tr.target_hours or hours is None or rng is None:
            continue
        if hours <= tr.target_hours < rng.pessimistic:
            out.append(TargetRisk(w.name, "time to train", tr.target_hours, rng.pessimistic, "h"))
    return out
