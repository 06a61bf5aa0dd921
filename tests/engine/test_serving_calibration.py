"""Published serving measurements, each rebuilt as a design a user would enter and sized by the
engine with its default efficiency factors: time to first token (TTFT), time between tokens
(ITL) and output throughput must be within 25 % of what was measured.

Sources (every figure below is copied from them, not from this program):
- NIM: NVIDIA NIM for LLMs, "Benchmarking: Performance", NIM container 1.8.0
  (docs.nvidia.com/nim/benchmarking/llm/latest/performance.html), AIPerf closed loop at a fixed
  concurrency; table header "| Concurrency | TTFT (ms) | ITL (ms) | Throughput(Tokens/s) |",
  throughput = output tokens/s over all users. Llama-3.1-8B-Instruct on 1 x H100 80G, fp8 TP1;
  Llama-3.3-70B-Instruct on 2 x H100 80G, fp8 TP2.
- TRT: NVIDIA TensorRT-LLM performance overview (docs/source/performance/perf-overview.md),
  release 0.14.0: "All data in the table below was generated using version 0.14.0 and presents
  token throughput in tokens/second" — offline maximum throughput (trtllm-bench, every request
  queued at once), output tokens/s of the whole tensor-parallel group; FP8 runs use an FP8 KV
  cache ("If you specify FP8 quantization, the KV cache will automatically be set to FP8").

The defaults were set from the concurrency-1 NIM rows only (MBU from the ITLs of N5/N11/N17,
MFU from the TTFTs of N7/N11); every other row is a check the defaults were not fitted to.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from wizard.app.io import design_from_dict
from wizard.engine.size import size

TOLERANCE = 0.25

HOSTS = {
    "h100-sxm5-80gb": ("dell-xe9680", 8),
    "h200-sxm-141gb": ("dell-xe9680", 8),
    "l40s": ("lenovo-sr675-v3", 8),
}
MODELS = {
    "8B": "llama-3-8b",
    "70B": "llama-3-70b",
    "405B": "llama-3.1-405b",
    "8x7B": "mixtral-8x7b",
}


@dataclass(frozen=True)
class Row:
    id: str
    source: str
    model: str
    precision: str
    gpu: str
    tp: int
    isl: int
    osl: int
    concurrency: int | None  # None: offline maximum throughput
    ttft_ms: float | None
    itl_ms: float | None
    tokens_per_s: float


NIM = "NIM 1.8.0"
TRT = "TensorRT-LLM 0.14.0"
H100, H200, L40S = "h100-sxm5-80gb", "h200-sxm-141gb", "l40s"

ROWS = [
    # NIM 1.8.0, Llama-3.1-8B-Instruct, 1 x H100, fp8 TP1
    Row("N5", NIM, "8B", "fp8", H100, 1, 1000, 1000, 1, 19.03, 4.53, 220.1),
    Row("N7", NIM, "8B", "fp8", H100, 1, 5000, 500, 1, 77.45, 4.62, 209.96),
    Row("N9", NIM, "8B", "fp8", H100, 1, 20000, 2000, 1, 403.2, 5.06, 189.96),
    # NIM 1.8.0, Llama-3.3-70B-Instruct, 2 x H100, fp8 TP2
    Row("N11", NIM, "70B", "fp8", H100, 2, 5000, 500, 1, 406.77, 18.58, 51.67),
    Row("N11-c5", NIM, "70B", "fp8", H100, 2, 5000, 500, 5, 546.7, 21.83, 218.48),
    Row("N11-c25", NIM, "70B", "fp8", H100, 2, 5000, 500, 25, 688.69, 38.75, 623.4),
    Row("N12", NIM, "70B", "fp8", H100, 2, 5000, 500, 50, 834.51, 59.73, 814.37),
    Row("N14", NIM, "70B", "fp8", H100, 2, 500, 2000, 1, 47.77, 18.91, 52.85),
    Row("N17", NIM, "70B", "fp8", H100, 2, 1000, 1000, 1, 82.46, 18.67, 53.37),
    Row("N19", NIM, "70B", "fp8", H100, 2, 20000, 2000, 1, 1833.01, 19.58, 48.8),
    # NIM rows where only ITL and throughput are within reach (TTFT: see the xfail below)
    Row("N6", NIM, "8B", "fp8", H100, 1, 1000, 1000, 100, None, 10.04, 9392.43),
    Row("N16", NIM, "70B", "fp8", H100, 2, 200, 200, 250, None, 48.16, 5067.05),
    Row("N18", NIM, "70B", "fp8", H100, 2, 1000, 1000, 100, None, 34.21, 2895.49),
    # TensorRT-LLM 0.14.0 offline maximum throughput
    Row("T1-L40S", TRT, "8B", "fp8", L40S, 1, 1000, 1000, None, None, None, 3726.7552),
    Row("T1-H100-FP16", TRT, "8B", "fp16", H100, 1, 1000, 1000, None, None, None, 7054.5156),
    Row("T2-H200", TRT, "8B", "fp8", H200, 1, 5000, 500, None, None, None, 3787.6721),
    Row("T2-L40S", TRT, "8B", "fp8", L40S, 1, 5000, 500, None, None, None, 855.9822),
    Row("T5-H100", TRT, "70B", "fp8", H100, 2, 1000, 1000, None, None, None, 4116.4444),
    Row("T8-H100", TRT, "70B", "fp8", H100, 2, 5000, 500, None, None, None, 886.6758),
    Row("T6-H100-FP16", TRT, "70B", "fp16", H100, 4, 1000, 1000, None, None, None, 3774.676),
    Row("T6-H100", TRT, "70B", "fp8", H100, 4, 1000, 1000, None, None, None, 6932.8808),
    # read 30 % high (a known gap) until an all-reduce waited on each GPU of its group
    Row("T7-H100", TRT, "70B", "fp8", H100, 8, 1000, 1000, None, None, None, 10730.156),
    Row("T10-H200", TRT, "405B", "fp8", H200, 8, 1000, 1000, None, None, None, 3391.0372),
    Row("T11-H200", TRT, "405B", "fp8", H200, 8, 20000, 2000, None, None, None, 481.5732),
    Row("T12-H100", TRT, "8x7B", "fp8", H100, 2, 1000, 1000, None, None, None, 15931.8663),
    Row("T13-H100-FP16", TRT, "8x7B", "fp16", H100, 4, 1000, 1000, None, None, None, 15509.1538),
]

OFFLINE = 100_000  # requests queued at once: the engine runs as many as the KV cache holds


def design(row: Row) -> dict:
    server, per_host = HOSTS[row.gpu]
    kv = "fp8" if row.precision == "fp8" else None  # both sources run FP8 models with FP8 KV
    return {
        "workloads": [
            {
                "name": f"{row.model} service",
                "kind": "inference",
                "model": {"preset": MODELS[row.model]},
                "precision": row.precision,
                "parallelism": {
                    "tensor_parallel": row.tp,
                    "pipeline_parallel": 1,
                    "data_parallel": 1,
                },
                "inference": {
                    "input_tokens": row.isl,
                    "output_tokens": row.osl,
                    "concurrent_sequences": row.concurrency or OFFLINE,
                    "kv_cache_precision": kv,
                },
            }
        ],
        "hardware": {
            "gpu": row.gpu,
            "server": server,
            "gpus_per_host": per_host,
            "nvlink": row.gpu != L40S,
        },
    }


def serving(row: Row, catalog):
    result = size(design_from_dict(design(row)), catalog)
    (w,) = result.workloads
    assert (w.layout.tensor_parallel, w.replicas) == (row.tp, 1)
    return w.serving


def within(value: float, measured: float) -> bool:
    return abs(value / measured - 1) <= TOLERANCE


@pytest.mark.parametrize("row", ROWS, ids=[r.id for r in ROWS])
def test_published_measurement(row: Row, catalog):
    s = serving(row, catalog)
    got = {"throughput": (s.tokens_per_s_total, row.tokens_per_s)}
    if row.ttft_ms is not None:
        got["ttft"] = (s.ttft_ms, row.ttft_ms)
    if row.itl_ms is not None:
        got["itl"] = (s.itl_ms, row.itl_ms)
    off = {k: f"{v:.1f} vs {m} ({v / m - 1:+.0%})" for k, (v, m) in got.items() if not within(v, m)}
    assert not off, f"{row.source} {row.id}: {off}"


KNOWN_GAPS = [
    # Time to first token under load: the engine queues each prompt behind the others as if
    # requests arrived independently (M/D/1). NIM's closed-loop benchmark sends identical
    # requests that stay in step, and its measured TTFT is 3-30 times the model's here.
    pytest.param(
        Row("N6", NIM, "8B", "fp8", H100, 1, 1000, 1000, 100, 615.16, None, 9392.43),
        "ttft",
        id="N6-ttft",
    ),
    pytest.param(
        Row("N18", NIM, "70B", "fp8", H100, 2, 1000, 1000, 100, 334.23, None, 2895.49),
        "ttft",
        id="N18-ttft",
    ),
]


@pytest.mark.xfail(strict=True, reason="known gap of the model, stated in docs/model.md")
@pytest.mark.parametrize(("row", "metric"), KNOWN_GAPS)
def test_known_gap(row: Row, metric: str, catalog):
    s = serving(row, catalog)
    value, measured = {
        "ttft": (s.ttft_ms, row.ttft_ms),
        "throughput": (s.tokens_per_s_total, row.tokens_per_s),
    }[metric]
    assert within(value, measured)


def test_the_set_spans_what_customers_buy():
    """At least 12 measurements over 8 B to 405 B, dense and MoE, 16-bit and FP8, 1 to 8 GPUs,
    H100, H200 and L40S, short and long prompts, one user and many."""
    assert len(ROWS) >= 12
    assert {r.model for r in ROWS} >= {"8B", "70B", "405B", "8x7B"}
    assert {r.precision for r in ROWS} >= {"fp8", "fp16"}
    assert {r.tp for r in ROWS} >= {1, 2, 4, 8}
    assert {r.gpu for r in ROWS} == {H100, H200, L40S}
    assert min(r.isl for r in ROWS) <= 500 and max(r.isl for r in ROWS) >= 20000
    assert {r.concurrency for r in ROWS} >= {1, 25, 50, 100, None}
