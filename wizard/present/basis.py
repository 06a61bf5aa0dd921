"""Whether a performance figure was measured, calibrated or estimated, in the customer's words:
measured where the customer's own run measured it at the planned load, calibrated where the
model runs with factors fitted to those runs, estimated where it runs on the stated defaults."""

from __future__ import annotations

from wizard.base.numbers import num
from wizard.model.design import WorkloadGroup
from wizard.model.result import WorkloadResult

MEASURED = "measured"
CALIBRATED = "calibrated on your measurements"
ESTIMATED = "estimated"
SAME_LOAD = 0.05  # a measured load this close to the planned one is that load


def _near(a: float | None, b: float) -> bool:
    return a is not None and abs(a / b - 1) <= SAME_LOAD


def serving_basis(group: WorkloadGroup | None, w: WorkloadResult) -> dict[str, str]:
    """The basis of each serving figure of ``w`` ('ttft_ms', 'itl_ms', 'tokens_per_s_total')."""
    s = w.serving
    keys = ("ttft_ms", "itl_ms", "tokens_per_s_total")
    cal = group.calibration if group is not None else None
    if s is None or cal is None:
        return dict.fromkeys(keys, ESTIMATED)
    out = dict.fromkeys(keys, CALIBRATED)
    one_replica = w.replicas <= 1
    for m in cal.measured:
        key = "tokens_per_s_total" if m.metric == "tokens_per_s" else m.metric
        if key not in out or (key == "tokens_per_s_total" and not one_replica):
            continue
        if (
            _near(m.concurrency, s.sequences_per_replica)
            and _near(m.input_tokens, s.input_tokens)
            and _near(m.output_tokens, s.output_tokens)
        ):
            # the model's figure stays the one the plan rests on; the run's sits beside it
            out[key] = f"{CALIBRATED}; your run {MEASURED} {num(m.value)} {UNITS[key]} at this load"
    return out


UNITS = {"ttft_ms": "ms", "itl_ms": "ms", "tokens_per_s_total": "tokens/s"}


def training_basis(group: WorkloadGroup | None) -> str:
    """The basis of a group's time to train: calibrated when its utilization was fitted."""
    cal = group.calibration if group is not None else None
    if cal is not None and cal.factor("achievable_utilization") is not None:
        return CALIBRATED
    return ESTIMATED


FIGURE_WORDS = {
    "ttft_ms": "time to first token",
    "itl_ms": "time between tokens",
    "tokens_per_s_total": "throughput",
}


def basis_summary(basis: dict[str, str]) -> str:
    """One cell for a group's serving figures: 'estimated', 'calibrated on your measurements',
    or that with the figures a run also measured at the planned load."""
    kinds = set(basis.values())
    if len(kinds) == 1 and MEASURED not in next(iter(kinds)):
        return next(iter(kinds))
    measured = [FIGURE_WORDS[k] for k, v in basis.items() if MEASURED in v]
    return f"{CALIBRATED}; {', '.join(measured)} also {MEASURED} at this load"


def basis_short(basis: dict[str, str]) -> str:
    """The same in a table cell's few words: 'estimated', 'calibrated', or 'calibrated; measured
    at this load' (the whole sentence is :func:`basis_summary`)."""
    kinds = set(basis.values())
    if kinds == {ESTIMATED}:
        return ESTIMATED
    if any(MEASURED in v for v in kinds):
        return "calibrated; measured at this load"
    return "calibrated"
