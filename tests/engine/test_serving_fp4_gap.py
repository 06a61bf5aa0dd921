"""FP4 serving on the B200 reads high, and the plan says so: the warning's stated range is
recomputed here from NVIDIA's published table, so a change to the model that closes (or widens)
the gap fails this test and the warning's words are revisited.

Source: NVIDIA TensorRT-LLM performance overview, release 1.0 (docs/source/performance/
perf-overview.md, PyTorch backend): total output tokens/s at maximum load, DGX B200, NVIDIA's
NVFP4 checkpoints, one column per model, rows in this order of input/output lengths. The four
rows of this table that are also in the held-back set (serving_runs.HELD_BACK) are among them;
the range is a statement about the table, not a fitted factor."""

from __future__ import annotations

import math

from tests.engine.serving_runs import B200, RTX, Measured
from wizard.app.io import design_from_dict
from wizard.engine.demand.serving_physics import FP4_SXM_BLACKWELL_READS_HIGH
from wizard.engine.size import size

LENGTHS = [(128, 2048), (128, 4096), (500, 2000), (1000, 1000), (1000, 2000), (2048, 128),
           (2048, 2048), (5000, 500), (20000, 2000)]  # fmt: skip
B200_FP4 = {  # model preset, tensor parallel: tokens/s per row of LENGTHS
    ("llama-3.3-70b", 1): [9922, 6831, 7762, 7007, 6271, 1339, 4783, 1459, 665],
    ("llama-3.1-405b", 4): [8020, 6345, 6244, 5209, 4933, 749, 4212, 1048, 672],
    ("llama-4-scout", 1): [14699, 8932, 11977, 10591, 9356, 3137, 7152, 2937, 1644],
    ("qwen3-30b-a3b", 1): [37844, 24953, 27817, 25828, 22051, 6251, 17554, 6142, 2944],
    ("qwen3-235b-a22b", 8): [66057, 39496, 57117, 42391, 34105, 7329, 26854, 8190, 4453],
}


def _sized(catalog, model: str, precision: str, gpu: str, tp: int, isl: int, osl: int):
    run = Measured("gap", model, precision, gpu, tp, isl, osl, 1.0)
    return size(design_from_dict(run.design()), catalog)


def test_the_stated_range_is_the_tables_mean_reading_per_model(catalog):
    """Per model, the geometric mean over its nine rows of engine over measured, rounded to one
    decimal, lies in the range the warning states (1.2 to 1.4)."""
    low, high = FP4_SXM_BLACKWELL_READS_HIGH
    means = {}
    for (model, tp), measured in B200_FP4.items():
        logs = []
        for (i, o), m in zip(LENGTHS, measured, strict=True):
            w = _sized(catalog, model, "fp4", B200, tp, i, o).workloads[0]
            logs.append(math.log(w.serving.tokens_per_s_total / m))
        means[model] = round(math.exp(sum(logs) / len(logs)), 1)
    assert all(low <= v <= high for v in means.values()), means
    assert min(means.values()) == low and max(means.values()) == high, means


def test_fp4_on_the_b200_warns_and_fp8_or_the_rtx_pro_6000_do_not(catalog):
    """The rule isolates FP4 on an SXM Blackwell GPU: the same 70B on the B200 in FP8, and the
    same Qwen3 30B-A3B in FP4 on the RTX PRO 6000 (a PCIe board, which reads 0.8 of its
    published figures), carry no such warning."""
    code = "serving-fp4-throughput-optimistic"

    def codes(model, precision, gpu, tp):
        return {w.code for w in _sized(catalog, model, precision, gpu, tp, 1000, 1000).warnings}

    assert code in codes("llama-3.3-70b", "fp4", B200, 1)
    assert code not in codes("llama-3.3-70b", "fp8", B200, 1)
    assert code not in codes("qwen3-30b-a3b", "fp4", RTX, 1)
