"""Recommend offers only GPUs with what the workload needs: the tensor-core path of each
group's precision (the issue's 70B FP8 chat service is never offered the A10, which has no FP8
path) and the memory a serving replica needs inside one host; each GPU not offered says why,
and the choice names the GPUs, hosts and power it weighed."""

from __future__ import annotations

import json

import pytest

from wizard.app.recommend import judge, recommend_gpu
from wizard.base.bundled import example_text
from wizard.model.design import Design


def _chat(precision: str, preset: str = "llama-3.1-70b", tensor: int | None = None) -> Design:
    d = json.loads(example_text("llm-serving"))
    g = d["workloads"][0]
    g.update(model={"preset": preset}, precision=precision, sharing_mode="passthrough",
             constraints={})  # fmt: skip
    # 500 employees, 10 % active in the busiest hour, 6 requests an hour each
    g["inference"] = {
        "input_tokens": 1024,
        "output_tokens": 256,
        "people": {"users": 500, "active_share": 0.1, "requests_per_hour": 6},
    }
    if tensor:
        g["parallelism"] = {"tensor_parallel": tensor}
    return Design.model_validate(d)


@pytest.mark.parametrize("tensor", [None, 8])
def test_a_70b_fp8_chat_service_is_offered_only_gpus_with_fp8(catalog, tensor):
    design = _chat("fp8", tensor=tensor)
    offered, verdicts = judge(design, catalog)
    assert offered
    assert all(s.gpu.tflops.fp8 for s in offered)
    a10 = next(v for v in verdicts if v.gpu.id == "a10")
    assert a10.reason == "no FP8 tensor cores for Llama 3 70B chat service"
    gpu, why = recommend_gpu(design, catalog)
    assert gpu.id != "a10" and gpu.tflops.fp8
    assert "Not offered: " in why and "no FP8 tensor cores" in why


def test_a_16_bit_service_is_not_refused_for_precision(catalog):
    """Negative case: in BF16 every GPU with BF16 tensor cores (the A10 among them) passes the
    precision rule."""
    _, verdicts = judge(_chat("bf16"), catalog)
    a10 = next(v for v in verdicts if v.gpu.id == "a10")
    assert a10.reason is None or "tensor cores" not in a10.reason


def test_a_replica_that_needs_more_gpus_than_a_host_holds_is_not_offered(catalog):
    # Llama 3.1 405B in BF16: 405 x 10^9 x 2 bytes = 810 GB of weights, more than 8 GPUs of
    # 48 GB (384 GB) hold
    offered, verdicts = judge(_chat("bf16", "llama-3.1-405b"), catalog)
    for s in offered:
        for w in s.result.workloads:
            assert w.gpus_per_replica <= s.per_host, s.gpu.id
    assert any(v.reason and "one host holds" in v.reason for v in verdicts)


def test_the_server_reason_counts_in_words(catalog):
    """'the only catalog server' for a GPU one server takes, never '1 catalog servers'."""
    from wizard.app.recommend import recommend_server

    seen_one = False
    for gpu in catalog.gpus.values():
        pick = recommend_server(catalog, gpu)
        if pick is None:
            continue
        n = len(catalog.servers_for_gpu(gpu))
        assert "1 catalog servers" not in pick[1]
        if n == 1:
            seen_one = True
            assert "the only catalog server that can take this GPU" in pick[1]
        else:
            assert f"the most of the {n} catalog servers" in pick[1]
    assert seen_one
