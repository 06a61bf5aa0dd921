"""Published training runs the default utilization was NOT set from (it was set from Megatron-LM
Table 1, see test_training_calibration.py), each rebuilt as a design from what its source
states: the engine's model TFLOP/s per GPU within 25 % of the measured figure, and the set's
mean absolute error reported in docs/model.md."""

from __future__ import annotations

import pytest

from tests.engine.conftest import calc
from tests.engine.training_runs import HELD_BACK, Run
from wizard.app.io import design_from_dict
from wizard.engine.size import size

TOLERANCE = 0.25


def engine_tflops(run: Run, catalog) -> float:
    """Model FLOPs per iteration (without recomputation unless the source counts it) over the
    engine's iteration time and the run's GPUs."""
    r = size(design_from_dict(run.design()), catalog)
    w = r.workloads[0]
    assert w.gpus_total == run.gpus
    if run.counts_recompute:
        flops = calc(r, "workloads[0].flops_per_iteration").value
    else:
        doc = run.design()
        doc["workloads"][0]["recompute"] = "none"
        flops = calc(size(design_from_dict(doc), catalog), "workloads[0].flops_per_iteration").value
    return flops / (w.training.iteration_seconds * run.gpus) / 1e12


# The row the engine misses since memory counts fused attention, the loss and the allocator
# (docs/model.md, "Training time: known gaps"): NeMo's 175B at micro-batch 2 does not fit 80 GB
# without recomputation in the engine's count, and the engine recomputes all layers or none
# where NeMo recomputes a share of them (26 % slow). The 5B (25.2 % fast while overlapped
# communication was taken as free) is within 25 % since the compute its gradient all-reduce
# runs under is slowed by the stated overlap slowdown.
KNOWN_GAPS = {"NEMO-GPT3-175B-512"}
CASES = [
    pytest.param(r, marks=pytest.mark.xfail(strict=True, reason="known gap, docs/model.md"))
    if r.id in KNOWN_GAPS
    else r
    for r in HELD_BACK
]


@pytest.mark.parametrize("run", CASES, ids=[r.id for r in HELD_BACK])
def test_held_back_run(run: Run, catalog):
    got = engine_tflops(run, catalog)
    assert got == pytest.approx(run.measured, rel=TOLERANCE), f"{got:.0f} vs {run.measured}"


def test_the_held_back_set_spans_generations_precisions_and_layouts():
    assert len(HELD_BACK) >= 15
    assert {r.hardware["gpu"] for r in HELD_BACK} >= {
        "a100-sxm4-80gb",
        "h100-sxm5-80gb",
        "b200-sxm",
    }
    assert {r.precision for r in HELD_BACK} >= {"bf16", "fp8"}
    assert max(r.gpus for r in HELD_BACK) >= 10_000 and min(r.gpus for r in HELD_BACK) <= 8
    assert any(r.vp for r in HELD_BACK) and any(r.pp == 1 for r in HELD_BACK)
