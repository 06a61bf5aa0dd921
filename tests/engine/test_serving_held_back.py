"""Serving measurements the defaults were NOT set from (they were set from NIM 1.8.0's
concurrency-1 rows, see test_serving_calibration.py): TensorRT-LLM 1.0's and 0.17's offline
maximum throughput on H100, H200, B200, RTX PRO 6000, L40S and A100, FP16, FP8 and FP4, dense
and MoE, each rebuilt as a
design, within 35 %; the set's errors are reported in docs/model.md."""

from __future__ import annotations

import pytest

from tests.engine.serving_runs import HELD_BACK, Measured
from wizard.app.io import design_from_dict
from wizard.engine.size import size

TOLERANCE = 0.35


def throughput(run: Measured, catalog) -> float:
    w = size(design_from_dict(run.design()), catalog).workloads[0]
    assert (w.layout.tensor_parallel, w.replicas) == (run.tp, 1)
    return w.serving.tokens_per_s_total


@pytest.mark.parametrize("run", HELD_BACK, ids=[r.id for r in HELD_BACK])
def test_held_back_measurement(run: Measured, catalog):
    got = throughput(run, catalog)
    assert got == pytest.approx(run.tokens_per_s, rel=TOLERANCE), f"{got:,.0f}"


def test_the_held_back_set_spans_what_customers_buy():
    assert len(HELD_BACK) >= 20
    assert {r.gpu for r in HELD_BACK} >= {"h100-sxm5-80gb", "h200-sxm-141gb", "b200-sxm",
                                          "rtx-pro-6000-bse", "l40s", "a100-sxm4-80gb"}  # fmt: skip
    assert {r.precision for r in HELD_BACK} >= {"fp8", "fp4", "fp16"}
    assert len({r.source for r in HELD_BACK}) >= 2  # two releases
    assert {r.tp for r in HELD_BACK} >= {1, 2, 4, 8}
    assert {"qwen3-235b-a22b", "llama-4-maverick"} <= {r.model for r in HELD_BACK}  # MoE
