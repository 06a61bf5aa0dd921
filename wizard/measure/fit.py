"""Fit a group's efficiency factors to the customer's measurements, and say how well they fit.

Each measured point is rebuilt as the group would run it: the group alone on its cluster's
hardware, at the planned replica's layout, with the point's load (requests in flight, prompt and
answer lengths). The engine then predicts the point, and the factor that governs it is moved
within its physical bounds until the predictions fit in the least-squares sense (relative errors,
on a log scale, so 10 % high and 10 % low weigh alike):

- time between tokens and output throughput: the decode bandwidth efficiency (MBU); where the
  serving engine's host processor, not the GPU, sets a step at the defaults (thousands of
  requests in flight on a small model), those points are shown, not fitted;
- time to first token with one request in flight: the prefill compute efficiency (MFU); under
  load it is mostly queueing, which the model reads low (docs/model.md, known gaps), so those points
  are shown, not fitted;
- an nccl-tests bus bandwidth: the link efficiency of the group's all-reduce link;
- a training step: the training utilization.

A point the fitted model misses by more than the tolerance is reported by name, and nothing is
written: factors that fit only on average would make every other figure wrong.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

from wizard.base.errors import UserError
from wizard.measure.points import CollectivePoint, Run, ServingPoint, TrainingPoint
from wizard.model.calibration import (
    FACTORS,
    Calibration,
    FittedFactor,
    MeasuredFigure,
    MeasurementSource,
)
from wizard.model.catalog import Catalog
from wizard.model.design import Design, Parallelism, WorkloadGroup
from wizard.model.result import HOST_BOUND, Result, ServingResult, WorkloadResult

if TYPE_CHECKING:
    from wizard.engine import Plan

TOLERANCE = 0.15  # a fitted point further than this from the calibrated model is reported
HOST_NOTE = (
    "shown, not fitted: at this load the serving engine's host processor, not the GPU's memory, "
    "sets the time of a step"
)
# One point cannot show how much repeated runs of a benchmark differ; the spread is at least
# this stated share (run-to-run variation of a few per cent), so a one-point fit never claims an
# exact factor.
RUN_TO_RUN = 0.03
MAX_POINTS = 12  # serving loads fitted; more are sampled evenly (each costs some 70 sizings)
UNKNOWN_LOAD = (
    "the load is not known: the file states no requests in flight and gives no request "
    "throughput and time per request to derive it from; state it with --concurrency N"
)
GOLDEN = (math.sqrt(5) - 1) / 2
LABELS = {
    "ttft_ms": "time to first token (ms)",
    "itl_ms": "time between tokens (ms)",
    "tokens_per_s": "output tokens/s",
    "busbw_gbs": "all-reduce bus bandwidth (GB/s)",
    "step_s": "training step (s)",
}


@dataclass
class FitPoint:
    """One measured figure: what the defaults and the fitted factors predict for it."""

    where: str  # "file.json, 25 in flight, 5,000/500 tokens"
    metric: str
    measured: float
    before: float
    after: float = math.nan
    fitted: bool = True  # False: shown, not fitted (why in ``note``)
    note: str = ""
    load: ServingPoint | None = None

    @property
    def error(self) -> float:
        return self.after / self.measured - 1

    @property
    def error_before(self) -> float:
        return self.before / self.measured - 1


@dataclass
class FitReport:
    group: str
    factors: list[FittedFactor] = field(default_factory=list)
    points: list[FitPoint] = field(default_factory=list)
    sources: list[MeasurementSource] = field(default_factory=list)
    tolerance: float = TOLERANCE
    notes: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # measured figures not used, and why
    setup: dict[str, object] = field(default_factory=dict)  # where the runs were: gpu, slot, tp
    at_bound: list[str] = field(default_factory=list)  # factors fitted at a physical bound

    @property
    def disagreeing(self) -> list[FitPoint]:
        return [p for p in self.points if p.fitted and abs(p.error) > self.tolerance]

    @property
    def worst_error(self) -> float:
        fitted = [abs(p.error) for p in self.points if p.fitted]
        return max(fitted) if fitted else 0.0

    def calibration(self) -> Calibration:
        measured = [
            MeasuredFigure(
                metric=p.metric,  # type: ignore[arg-type]
                value=p.measured,
                concurrency=p.load.concurrency if p.load else None,
                input_tokens=p.load.input_tokens if p.load else None,
                output_tokens=p.load.output_tokens if p.load else None,
                predicted=p.after,
                fitted=p.fitted,
                **self.setup,  # type: ignore[arg-type]
            )
            for p in self.points
            if all(math.isfinite(x) and 0 < x <= 1e9 for x in (p.after, p.measured))
        ][:10_000]
        return Calibration(
            factors=self.factors, sources=self.sources, measured=measured,
            worst_error=round(self.worst_error, 4),
        )  # fmt: skip


# ---------------------------------------------------------------------------- the group alone


def _sized(trial: Design, catalog: Catalog) -> Result:
    """The sizing of a trial: the group alone on one cluster, as the engine plans it."""
    from wizard.engine import plan

    return plan(trial, catalog).cluster_of(trial.workloads[0].name).result


def _alone(design: Design, catalog: Catalog, group: WorkloadGroup, result: WorkloadResult,
           tp: int | None) -> Design:  # fmt: skip
    """The group alone on the hardware its cluster has, at the planned replica's layout."""
    from wizard.engine import plan

    base = plan(design, catalog).cluster_of(group.name).design
    lay = result.layout
    tensor = tp or (lay.tensor_parallel if lay else 1)
    pipeline = lay.pipeline_parallel if lay and not tp else 1
    par = Parallelism(
        tensor_parallel=tensor, pipeline_parallel=pipeline, data_parallel=1,
        zero_stage=lay.zero_stage if lay else 0,
        sequence_parallel=group.parallelism.sequence_parallel,
    )  # fmt: skip
    one = group.model_copy(update={"parallelism": par, "count": 1, "calibration": None})
    return base.model_copy(
        update={"workloads": [one], "clusters": [], "options": [], "proposed": None}
    )


def _serving_trial(alone: Design, p: ServingPoint) -> Design:
    g = alone.workloads[0]
    assert g.inference is not None
    assert p.concurrency is not None, "a point of unknown load is refused before"
    load = g.inference.model_copy(
        update={
            "concurrent_sequences": max(1, round(p.concurrency)),
            "input_tokens": max(1, round(p.input_tokens)),
            "output_tokens": max(1, round(p.output_tokens)),
            "target_requests_per_s": None,
            "target_tokens_per_s": None,
            "people": None,
            "ttft_target_ms": None,
            "itl_target_ms": None,
        }
    )
    return alone.model_copy(update={"workloads": [g.model_copy(update={"inference": load})]})


def _with(design: Design, factors: dict[str, float]) -> Design:
    """``design`` with its one group calibrated to ``factors`` (a point spread, for sizing)."""
    g = design.workloads[0]
    cal = Calibration(
        factors=[FittedFactor(name=k, value=v, low=v, high=v) for k, v in factors.items()],  # type: ignore[arg-type]
        sources=[_PLACEHOLDER],
        worst_error=0,
    )
    return design.model_copy(update={"workloads": [g.model_copy(update={"calibration": cal})]})


_PLACEHOLDER = MeasurementSource(
    file="trial", sha256="0" * 64, tool="trial", imported=dt.date(2000, 1, 1), points=1
)


# ---------------------------------------------------------------------------- the search


def _golden(f: Callable[[float], float], low: float, high: float, steps: int = 14) -> float:
    """The minimum of ``f`` on [low, high] by golden-section search (the residual is smooth and
    has one valley over a factor's physical range); 14 steps narrow the bracket to 0.6^14, about
    a thousandth of the log range, finer than the three decimals a factor is written with."""
    a, b = math.log(low), math.log(high)
    c, d = b - GOLDEN * (b - a), a + GOLDEN * (b - a)
    fc, fd = f(math.exp(c)), f(math.exp(d))
    for _ in range(steps):
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - GOLDEN * (b - a)
            fc = f(math.exp(c))
        else:
            a, c, fc = c, d, fd
            d = a + GOLDEN * (b - a)
            fd = f(math.exp(d))
    return math.exp((a + b) / 2)


def _log_sq(predicted: Sequence[float], measured: Sequence[float]) -> float:
    p, m = np.asarray(predicted, dtype=float), np.asarray(measured, dtype=float)
    if not len(p) or np.any(~np.isfinite(p)) or np.any(p <= 0):
        return math.inf
    return float(np.sum(np.log(p / m) ** 2))


def _spread(
    value: float, errors: Sequence[float], bounds: tuple[float, float]
) -> tuple[float, float]:
    """The fit's spread: the factor scaled by the root-mean-square relative error of its points
    (the figures these factors govern scale with them), at least a benchmark's run-to-run spread
    (RUN_TO_RUN), within the physical bounds."""
    rms = float(np.sqrt(np.mean(np.square(errors)))) if len(errors) else 0.0
    rms = max(rms, RUN_TO_RUN)
    low, high = value / (1 + rms), value * (1 + rms)
    return max(bounds[0], min(low, value)), min(bounds[1], max(high, value))


# ---------------------------------------------------------------------------- serving


def _serving_fit(report: FitReport, design: Design, catalog: Catalog, alone: Design,
                 runs: list[tuple[str, Run]], concurrency: float | None = None) -> None:  # fmt: skip
    a = design.assumptions
    defaults = {
        "decode_bandwidth_efficiency": a.decode_bandwidth_efficiency,
        "prefill_compute_efficiency": a.prefill_compute_efficiency,
    }
    trials: list[tuple[str, ServingPoint, Design]] = []
    for name, run in runs:
        if run.replicas and run.replicas > 1:
            report.refused.append(
                f"{name}: every figure: the run spread its load over {run.replicas} replicas, "
                "while the group's figures are one replica's; give a run of one replica"
            )
            continue
        for p in run.points:
            assert isinstance(p, ServingPoint)
            if concurrency is not None and p.load != "stated":
                p = replace(p, concurrency=concurrency, load="stated with --concurrency")
            report.refused += [f"{_where(name, p)}: {why}" for _, why in p.refused]
            if p.concurrency is None:
                report.refused.append(f"{_where(name, p)}: every figure: {UNKNOWN_LOAD}")
                continue
            trials.append((name, p, _serving_trial(alone, p)))
    if len(trials) > MAX_POINTS:
        keep = sorted({round(k * (len(trials) - 1) / (MAX_POINTS - 1)) for k in range(MAX_POINTS)})
        report.notes.append(
            f"{len(trials):,} serving loads in the files: {len(keep)} of them, spread evenly "
            "over the files, fitted and shown (more would only repeat the fit)"
        )
        trials = [trials[k] for k in keep]
    if not trials:
        return

    def sized(factors: dict[str, float]) -> list[ServingResult | None]:
        return [_sized(_with(t, factors), catalog).workloads[0].serving for _, _, t in trials]

    def figures(served: list[ServingResult | None]) -> list[dict[str, float]]:
        return [
            {"ttft_ms": s.ttft_ms, "itl_ms": s.itl_ms, "tokens_per_s": s.tokens_per_s_total}
            if s is not None
            else {}
            for s in served
        ]

    at_defaults = sized(defaults)
    before = figures(at_defaults)
    for (name, p, _), fig, s in zip(trials, before, at_defaults, strict=True):
        host = s is not None and s.decode_bound == HOST_BOUND
        where = _where(name, p)
        for metric in ("ttft_ms", "itl_ms", "tokens_per_s"):
            measured = getattr(p, metric)
            if measured is None or metric not in fig:
                continue
            fitted = metric != "ttft_ms" or (p.concurrency is not None and p.concurrency <= 1)
            note = "" if fitted else "shown, not fitted: under load the wait in the queue dominates"
            if host and metric != "ttft_ms":
                fitted, note = False, HOST_NOTE
            report.points.append(FitPoint(where, metric, measured, fig[metric], fitted=fitted,
                                          note=note, load=p))  # fmt: skip

    best = figures(sized({k: FACTORS[k][1] for k in defaults}))
    trial_of = _trial_index(report.points, trials)
    for k, pt in enumerate(report.points):
        if not pt.fitted:
            continue
        floor = best[trial_of[k]].get(pt.metric)
        faster = floor is not None and (
            pt.measured > floor * (1 + report.tolerance)
            if pt.metric == "tokens_per_s"
            else pt.measured < floor / (1 + report.tolerance)
        )
        if faster:
            pt.fitted = False
            pt.note = FLOOR_NOTE[pt.metric]
            report.refused.append(
                f"{pt.where}: {LABELS[pt.metric]} measured {pt.measured:,.4g}: "
                f"{FLOOR_NOTE[pt.metric]} ({floor:,.4g} at the highest efficiency the model allows)"
            )

    decode = [
        (i, pt)
        for i, pt in enumerate(report.points)
        if pt.metric in ("itl_ms", "tokens_per_s") and pt.fitted
    ]
    prefill = [
        (i, pt) for i, pt in enumerate(report.points) if pt.metric == "ttft_ms" and pt.fitted
    ]
    index = {id(pt): k for k, pt in enumerate(report.points)}

    current = dict(defaults)

    def cost(name: str, chosen: list[tuple[int, FitPoint]]) -> Callable[[float], float]:
        def f(x: float) -> float:
            figs = figures(sized({**current, name: x}))
            return _log_sq([figs[trial_of[index[id(pt)]]][pt.metric] for _, pt in chosen],
                           [pt.measured for _, pt in chosen])  # fmt: skip

        return f

    for _ in range(2):  # the two factors barely interact: two passes settle them
        if decode:
            current["decode_bandwidth_efficiency"] = _golden(
                cost("decode_bandwidth_efficiency", decode), *FACTORS["decode_bandwidth_efficiency"]
            )
        if prefill:
            current["prefill_compute_efficiency"] = _golden(
                cost("prefill_compute_efficiency", prefill), *FACTORS["prefill_compute_efficiency"]
            )
    after = figures(sized(current))
    for k, pt in enumerate(report.points):
        pt.after = after[trial_of[k]].get(pt.metric, math.nan)
    for name, chosen in (
        ("decode_bandwidth_efficiency", decode),
        ("prefill_compute_efficiency", prefill),
    ):
        if not chosen:
            report.notes.append(
                f"{factor_words(name)}: no point governs it, so it keeps its default"
            )
            continue
        value = round(current[name], 3)
        _note_bound(report, name, value)
        low, high = _spread(value, [pt.error for _, pt in chosen], FACTORS[name])
        report.factors.append(FittedFactor(name=name, value=value, default=defaults[name],  # type: ignore[arg-type]
                                           low=round(low, 3), high=round(high, 3)))  # fmt: skip


FLOOR_NOTE = {
    "itl_ms": "faster than the GPUs' memory bandwidth allows for this model and layout, so not "
    "fitted",
    "tokens_per_s": "more than the GPUs' memory bandwidth allows for this model and layout, so "
    "not fitted",
    "ttft_ms": "faster than the GPUs' compute allows for this prompt, so not fitted",
}


def at_bound(name: str, value: float) -> str | None:
    """'lower' or 'upper' when ``value`` sits at that physical bound of factor ``name`` (within
    the golden search's last step), else None."""
    low, high = FACTORS[name]
    if value <= low * 1.01:
        return "lower"
    if value >= high * 0.99:
        return "upper"
    return None


def _note_bound(report: FitReport, name: str, value: float) -> None:
    side = at_bound(name, value)
    if side is not None:
        report.at_bound.append(
            f"{factor_words(name)}: fitted at its {side} bound ({value:g}): the measurements sit "
            f"at the model's limit for {factor_words(name).lower()}, so the figures it sets may "
            "be wrong: check the run's setup (GPU, layout, precision, load)"
        )


def _trial_index(points: list[FitPoint], trials: list) -> list[int]:
    """For each report point, the trial (measured load) it belongs to."""
    out, k = [], 0
    loads = [t[1] for t in trials]
    for pt in points:
        while loads[k] is not pt.load:
            k += 1
        out.append(k)
    return out


def _where(name: str, p: ServingPoint) -> str:
    if p.concurrency is None:
        load = "load unknown"
    elif p.load == "stated":
        load = f"{p.concurrency:,.3g} in flight"
    elif p.load.startswith("stated with"):
        load = f"{p.concurrency:,.3g} in flight (given with --concurrency)"
    else:
        load = f"{p.concurrency:,.3g} in flight on average (derived from its request rate)"
    return f"{name}, {load}, {p.input_tokens:,.0f}/{p.output_tokens:,.0f} tokens"


# ---------------------------------------------------------------------------- collectives


def _collective_fit(report: FitReport, planned: Plan, result: WorkloadResult,
                    runs: list[tuple[str, Run]]) -> None:  # fmt: skip
    # the group's cluster numbers its groups among its own
    cluster = planned.cluster_of(result.name)
    at = [g.name for g in cluster.design.workloads].index(result.name)
    calc = next(
        (c for c in cluster.result.calculations
         if c.id == f"workloads[{at}].allreduce_seconds_per_iteration"), None,
    )  # fmt: skip
    if calc is None or "link_gbs" not in calc.inputs:
        raise UserError(
            f"group '{result.name}': its plan has no all-reduce between GPUs, so a collective "
            "measurement has nothing to set (give it to a training group that spans GPUs)"
        )
    link_gbs = float(calc.inputs["link_gbs"])
    default = float(calc.inputs["link_efficiency"])
    lay = result.layout
    group_gpus = (lay.data_parallel * lay.tensor_parallel * lay.pipeline_parallel) if lay else 1
    per_host = cluster.design.hardware.gpus_per_host or group_gpus
    spans = group_gpus > per_host
    link = calc.source.split(";")[0].split(" (")[0]
    best: list[tuple[str, CollectivePoint]] = []
    for name, run in runs:
        if run.hosts is not None and (run.hosts > 1) != spans:
            ran = (f"across {run.hosts} hosts" if run.hosts > 1 else "within one host") + (
                f" ({run.gpus} GPUs)" if run.gpus else "")  # fmt: skip
            plan_words = (f"spans {-(-group_gpus // per_host)} hosts" if spans
                          else "stays within one host")  # fmt: skip
            report.refused.append(
                f"{name}: bus bandwidth: measured {ran}, but the group's all-reduce of "
                f"{group_gpus} GPUs {plan_words} ({link}): another link, so not used"
            )
            continue
        if run.gpus and run.gpus != group_gpus:
            report.notes.append(f"{name}: measured on {run.gpus} GPUs, the group's all-reduce "
                                f"joins {group_gpus}; the bus bandwidth compares across counts")  # fmt: skip
        pts = [p for p in run.points if isinstance(p, CollectivePoint)]
        reduce = [p for p in pts if p.operation in ("all_reduce", "unknown")] or pts
        if not reduce:
            continue
        # the largest messages run at the link's full rate; gradients are that large
        largest = max(p.size_bytes for p in reduce)
        best += [(name, p) for p in reduce if p.size_bytes >= largest / 4]
    ceiling = link_gbs * FACTORS["link_efficiency"][1] * (1 + report.tolerance)
    for name in sorted({name for name, p in best if p.busbw_gbs > ceiling}):
        report.refused.append(
            f"{name}: bus bandwidth: measured up to "
            f"{max(p.busbw_gbs for n, p in best if n == name):,.1f} GB/s, more than the "
            f"{link_gbs:,.4g} GB/s of the group's all-reduce link ({link}) allows: measured on "
            "another, faster link, so not used"
        )
    best = [(name, p) for name, p in best if p.busbw_gbs <= ceiling]
    zeros = [(name, p) for name, p in best if p.busbw_gbs <= 0]
    for name, p in zeros:
        report.refused.append(f"{name}, {p.operation.replace('_', '-')} of "
                              f"{p.size_bytes / 2**20:,.0f} MiB: bus bandwidth measured 0 GB/s: "
                              "a zero is no measurement, so it is not used")  # fmt: skip
    best = [(name, p) for name, p in best if p.busbw_gbs > 0]
    if len(best) > 48:
        best = [best[round(k * (len(best) - 1) / 47)] for k in range(48)]
    if not best:
        if report.refused:
            raise UserError([f"not used: {r}" for r in report.refused])
        return
    rates = np.array([p.busbw_gbs for _, p in best])
    value = float(np.clip(np.median(rates) / link_gbs, *FACTORS["link_efficiency"]))
    _note_bound(report, "link_efficiency", round(value, 3))
    for name, p in best:
        report.points.append(FitPoint(
            f"{name}, {p.operation.replace('_', '-')} of {p.size_bytes / 2**20:,.0f} MiB",
            "busbw_gbs", p.busbw_gbs, link_gbs * default, after=link_gbs * value,
        ))  # fmt: skip
    low, high = _spread(round(value, 3), [pt.error for pt in report.points
                                          if pt.metric == "busbw_gbs"], FACTORS["link_efficiency"])  # fmt: skip
    report.factors.append(FittedFactor(name="link_efficiency", value=round(value, 3),
                                       default=default, low=round(low, 3), high=round(high, 3)))  # fmt: skip
    report.notes.append(
        f"link: {calc.source.split(';')[0]} at {link_gbs:,g} GB/s; the all-reduce time follows "
        f"the measured bus bandwidth ({np.median(rates):,.1f} GB/s)"
    )


# ---------------------------------------------------------------------------- training


def _training_trial(base: Design, group: WorkloadGroup, result: WorkloadResult, run: Run,
                    p: TrainingPoint) -> Design:  # fmt: skip
    """The group alone at the run's scale: its GPUs (when the file says how many) and its
    global batch (when it says), the group's own model, precision and sequence otherwise."""
    lay = result.layout
    tp = lay.tensor_parallel if lay else group.parallelism.tensor_parallel or 1
    pp = lay.pipeline_parallel if lay else group.parallelism.pipeline_parallel or 1
    dp = run.gpus // (tp * pp) if run.gpus and run.gpus >= tp * pp else (
        lay.data_parallel if lay else 1
    )  # fmt: skip
    par = group.parallelism.model_copy(update={
        "tensor_parallel": tp, "pipeline_parallel": pp, "data_parallel": dp,
        "zero_stage": lay.zero_stage if lay else group.parallelism.zero_stage,
    })  # fmt: skip
    update: dict[str, object] = {"parallelism": par, "count": 1, "calibration": None}
    if p.global_batch:
        update["global_batch_size"] = p.global_batch
    one = group.model_copy(update=update)
    return base.model_copy(
        update={"workloads": [one], "clusters": [], "options": [], "proposed": None}
    )


def _training_fit(report: FitReport, design: Design, catalog: Catalog, group: WorkloadGroup,
                  result: WorkloadResult, runs: list[tuple[str, Run]]) -> None:  # fmt: skip
    trials = [
        (name, p, _training_trial(design, group, result, run, p))
        for name, run in runs
        for p in run.points
        if isinstance(p, TrainingPoint) and p.step_s
    ]
    if not trials:
        report.notes.append("training: no step time in the files, so the utilization keeps its "
                            "default")  # fmt: skip
        return
    default = design.assumptions.achievable_utilization

    def steps_at(util: float) -> list[float]:
        out = []
        for _, _, trial in trials:
            t = (
                _sized(_with(trial, {"achievable_utilization": util}), catalog)
                .workloads[0]
                .training
            )
            out.append(t.iteration_seconds if t and t.iteration_seconds else math.nan)
        return out

    measured = [float(p.step_s or 0.0) for _, p, _ in trials]
    util = _golden(lambda u: _log_sq(steps_at(u), measured), *FACTORS["achievable_utilization"])
    value = round(util, 3)
    before, after = steps_at(default), steps_at(value)
    for (name, p, trial), b, a in zip(trials, before, after, strict=True):
        assert p.step_s is not None
        par = trial.workloads[0].parallelism
        scale = (par.data_parallel or 1) * (par.tensor_parallel or 1) * (par.pipeline_parallel or 1)
        report.points.append(FitPoint(f"{name}, one step on {scale:,} GPUs", "step_s", p.step_s,
                                      b, a))  # fmt: skip
    _note_bound(report, "achievable_utilization", value)
    low, high = _spread(value, [a / m - 1 for a, m in zip(after, measured, strict=True)],
                        FACTORS["achievable_utilization"])  # fmt: skip
    report.factors.append(FittedFactor(name="achievable_utilization", value=value,
                                       default=default, low=round(low, 3), high=round(high, 3)))  # fmt: skip


# ---------------------------------------------------------------------------- the entry


@dataclass(frozen=True)
class MeasurementFile:
    name: str  # the file's name, no folder
    data: bytes
    run: Run


FACTOR_WORDS = {
    "decode_bandwidth_efficiency": "Decode bandwidth efficiency",
    "prefill_compute_efficiency": "Prefill compute efficiency",
    "link_efficiency": "Link efficiency",
    "achievable_utilization": "Training utilization",
}


def factor_words(name: str) -> str:
    """A factor's name as the proposal and the terminal print it."""
    return FACTOR_WORDS[name]


def calibrate(design: Design, catalog: Catalog, group: str, files: Sequence[MeasurementFile],
              tolerance: float = TOLERANCE, tp: int | None = None, gpus: int | None = None,
              today: dt.date | None = None, concurrency: float | None = None) -> FitReport:  # fmt: skip
    """Fit ``group``'s factors to ``files``; the report says what fitted and what did not.
    ``tp`` and ``gpus`` state the runs' tensor parallelism and GPU count where the files do not
    (or say otherwise)."""
    from wizard.engine import plan
    from wizard.measure.consistency import gpu_of, refuse_contradictions

    names = [g.name for g in design.workloads]
    if group not in names:
        raise UserError(
            f"--group: no workload group is named '{group}' (groups: {', '.join(names)})"
        )
    g = design.workloads[names.index(group)]
    planned = plan(design, catalog)
    shown = planned.design
    wr = next(w for w in planned.workloads if w.name == group)
    refuse_contradictions(shown, catalog, g, [(f.name, f.run) for f in files])
    report = FitReport(group, tolerance=tolerance)
    lay = wr.layout
    report.setup = {
        "gpu": gpu_of(shown, g),
        "slot": wr.planned_slice or (wr.sharing.slot_profile if wr.sharing else None),
        "tensor_parallel": tp or (lay.tensor_parallel if lay else None),
    }
    today = today or dt.date.today()
    for f in files:
        report.sources.append(MeasurementSource(
            file=f.name, sha256=hashlib.sha256(f.data).hexdigest(), tool=f.run.tool,
            version=f.run.version, run_date=f.run.date, imported=today,
            points=max(1, min(len(f.run.points), 100_000)),
        ))  # fmt: skip
        report.notes += [f"{f.name}: {n}" for n in f.run.notes]
    by_kind: dict[str, list[tuple[str, Run]]] = {}
    for f in files:
        run = f.run if gpus is None else replace(f.run, gpus=gpus)
        by_kind.setdefault(run.kind, []).append((f.name, run))
    if "serving" in by_kind:
        if g.inference is None:
            raise UserError(f"group '{group}' is not a serving group, so serving measurements "
                            "do not apply to it")  # fmt: skip
        _serving_fit(report, shown, catalog, _alone(shown, catalog, g, wr, tp), by_kind["serving"],
                     concurrency)  # fmt: skip
    if "collective" in by_kind:
        _collective_fit(report, planned, wr, by_kind["collective"])
    if "training" in by_kind:
        if wr.training is None:
            raise UserError(f"group '{group}' is not a training group, so training "
                            "measurements do not apply to it")  # fmt: skip
        _training_fit(report, shown, catalog, g, wr, by_kind["training"])
    if not report.factors:
        why = ""
        if any(p.note == HOST_NOTE for p in report.points):
            why = (
                ": at their loads the serving engine's host processor, not the GPU, sets each "
                "step; a run with fewer requests in flight measures the GPU"
            )
        raise UserError([f"the files give no point that sets a factor of this group{why}"]
                        + [f"not used: {r}" for r in report.refused])  # fmt: skip
    return report


def calibrated(design: Design, report: FitReport) -> Design:
    """``design`` with the group's calibration written (the caller checks the fit first)."""
    groups = [
        g.model_copy(update={"calibration": report.calibration()}) if g.name == report.group else g
        for g in design.workloads
    ]
    data = design.model_copy(update={"workloads": groups}).model_dump(mode="json")
    return Design.model_validate(data)
