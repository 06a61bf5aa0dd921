"""Whether a performance figure was measured, calibrated or estimated, in the customer's words:
measured where the customer's own run measured it at the planned load, calibrated where the
model runs with factors fitted to those runs, estimated where it runs on the stated defaults."""

from __future__ import annotations

from wizard.base.numbers import num
from wizard.model.calibration import MeasuredFigure
from wizard.model.design import Design, WorkloadGroup
from wizard.model.result import WorkloadResult

MEASURED = "measured"
CALIBRATED = "calibrated on your measurements"
ESTIMATED = "estimated"
SAME_LOAD = 0.05  # a measured load this close to the planned one is that load


def _near(a: float | None, b: float) -> bool:
    return a is not None and abs(a / b - 1) <= SAME_LOAD


def group_gpu(design: Design | None, group: WorkloadGroup | None) -> str | None:
    """The GPU (catalog id) ``group`` runs on in ``design``: its cluster's, else the first's."""
    if design is None or group is None:
        return None
    if group.cluster is not None and group.cluster != design.cluster_name:
        spec = next((c for c in design.clusters if c.name == group.cluster), None)
        if spec is not None and spec.hardware is not None:
            return spec.hardware.gpu
    return design.hardware.gpu


# the factor each serving figure rests on
GOVERNED_BY = {
    "ttft_ms": "prefill_compute_efficiency",
    "itl_ms": "decode_bandwidth_efficiency",
    "tokens_per_s_total": "decode_bandwidth_efficiency",
}


def _slot(w: WorkloadResult) -> str | None:
    return w.planned_slice or (w.sharing.slot_profile if w.sharing else None)


def _same_setup(m: MeasuredFigure, w: WorkloadResult, gpu: str | None) -> bool:
    """Whether the run of ``m`` was on the GPU, slice and layout ``w`` is planned on (a figure
    recorded before these were kept is taken to be)."""
    tp = w.layout.tensor_parallel if w.layout else None
    return (
        (m.gpu is None or gpu is None or m.gpu == gpu)
        and (m.slot is None or m.slot == _slot(w))
        and (m.tensor_parallel is None or tp is None or m.tensor_parallel == tp)
    )


def serving_basis(
    group: WorkloadGroup | None, w: WorkloadResult, gpu: str | None = None
) -> dict[str, str]:
    """The basis of each serving figure of ``w`` ('ttft_ms', 'itl_ms', 'tokens_per_s_total'):
    calibrated only where the factor it rests on was fitted, and a run's own figure beside it
    only where the run was at the planned load on the planned GPU (``gpu``, a catalog id, when
    the caller knows it), slice and layout."""
    s = w.serving
    keys = ("ttft_ms", "itl_ms", "tokens_per_s_total")
    cal = group.calibration if group is not None else None
    if s is None or cal is None:
        return dict.fromkeys(keys, ESTIMATED)
    fitted = {f.name for f in cal.factors}
    out = {k: CALIBRATED if GOVERNED_BY[k] in fitted else ESTIMATED for k in keys}
    one_replica = w.replicas <= 1
    for m in cal.measured:
        key = "tokens_per_s_total" if m.metric == "tokens_per_s" else m.metric
        if key not in out or (key == "tokens_per_s_total" and not one_replica):
            continue
        if (
            _near(m.concurrency, s.sequences_per_replica)
            and _near(m.input_tokens, s.input_tokens)
            and _near(m.output_tokens, s.output_tokens)
            and _same_setup(m, w, gpu)
            and MEASURED not in out[key]
        ):
            # the model's figure stays the one the plan rests on; the run's sits beside it
            out[key] = f"{out[key]}; your run {MEASURED} {num(m.value)} {UNITS[key]} at this load"
    return out


UNITS = {"ttft_ms": "ms", "itl_ms": "ms", "tokens_per_s_total": "tokens/s"}


def training_basis(group: WorkloadGroup | None) -> str:
    """The basis of a group's time to train: calibrated when its utilization or its all-reduce
    link was fitted, saying which when only one was."""
    cal = group.calibration if group is not None else None
    if cal is None:
        return ESTIMATED
    util = cal.factor("achievable_utilization") is not None
    link = cal.factor("link_efficiency") is not None
    if util and link:
        return CALIBRATED
    if util:
        return f"{CALIBRATED} (training step)"
    if link:
        return f"{CALIBRATED} (all-reduce link)"
    return ESTIMATED


FIGURE_WORDS = {
    "ttft_ms": "time to first token",
    "itl_ms": "time between tokens",
    "tokens_per_s_total": "throughput",
}


def basis_summary(basis: dict[str, str]) -> str:
    """One cell for a group's serving figures: 'estimated', 'calibrated on your measurements',
    which figures are which when they differ, and the figures a run also measured at the planned
    load."""
    kinds = {v.split(";")[0] for v in basis.values()}
    measured = [FIGURE_WORDS[k] for k, v in basis.items() if MEASURED in v]
    if len(kinds) == 1:
        said = next(iter(kinds))
    else:
        said = ", ".join(
            f"{' and '.join(FIGURE_WORDS[k] for k, v in basis.items() if v.split(';')[0] == kind)} "
            f"{kind}"
            for kind in (CALIBRATED, ESTIMATED)
            if kind in kinds
        )
    if not measured:
        return said
    return f"{said}; {', '.join(measured)} also {MEASURED} at this load"


def basis_short(basis: dict[str, str]) -> str:
    """The same in a table cell's few words: 'estimated', 'calibrated', 'partly calibrated', each
    with '; measured at this load' where a run measured a figure at the planned load (the whole
    sentence is :func:`basis_summary`)."""
    kinds = {v.split(";")[0] for v in basis.values()}
    short = (
        ESTIMATED
        if kinds == {ESTIMATED}
        else "calibrated"
        if kinds == {CALIBRATED}
        else "partly calibrated"
    )
    if any(MEASURED in v for v in basis.values()):
        return f"{short}; measured at this load"
    return short
