"""The serving engine's host work per step: at thousands of requests in flight a decode step
waits for the processor that schedules them, not for the GPU.

Source of the default (29.4 microseconds per request and step): TensorRT-LLM pull request #10273
(NVIDIA, December 2025), GPT-OSS-120B on GB200 with attention data-parallel over 2 GPUs, 1,536
requests per GPU at 1,000/1,000 tokens, "in scenarios where the host overhead is the bottleneck":
"the average per iteration host_step_time is 45.11 ms"; 45.11 / 1,536 = 0.02937 ms."""

from __future__ import annotations

import pytest

from tests.engine.conftest import calc
from tests.engine.serving_runs import B200, H200, Measured
from wizard.app.io import design_from_dict
from wizard.engine.size import size
from wizard.model.result import HOST_BOUND

KEY = "workloads[0].serving."


def _design(model: str, precision: str, gpu: str, tp: int, **assumptions) -> dict:
    doc = Measured("Chat", model, precision, gpu, tp, 1000, 1000, 1.0).design()
    if assumptions:
        doc["assumptions"] = assumptions
    return doc


def test_the_default_is_the_published_host_step_over_its_requests():
    from wizard.model.design import Assumptions

    assert Assumptions().serving_host_us_per_sequence == pytest.approx(45.11e3 / 1536, abs=0.05)


def test_a_small_moe_at_fifteen_hundred_requests_waits_for_the_host(catalog):
    """Qwen3 30B-A3B in FP4 on one B200 (180 GB), 1,000/1,000 tokens at maximum load. By hand:
    weights 30.5e9 x 0.5625 = 17.156 GB; KV room 0.9 x 180 - 17.156 - 2 = 142.844 GB; FP8 cache
    2 x 48 x 4 x 128 x 1 = 49,152 bytes a token; 1,000 + 1,000 tokens reserved a request, so
    floor(142.844 / (2,000 x 49,152e-9)) = 1,453 requests run. Their host work, 1,453 x 29.4 us
    = 42.72 ms, is longer than the GPU's step, so it is the step."""
    r = size(design_from_dict(_design("qwen3-30b-a3b", "fp4", B200, 1)), catalog)
    s = r.workloads[0].serving
    assert int(142.844 / (2000 * 49_152e-9)) == 1453
    assert s.max_sequences_per_replica == 1453
    host = calc(r, KEY + "decode.host_s")
    assert host.value == pytest.approx(1453 * 29.4e-6, rel=1e-6)
    assert calc(r, KEY + "decode.gpu_s").value < host.value
    assert s.decode_step_ms == pytest.approx(1453 * 29.4e-3, rel=1e-6)
    assert s.decode_bound == HOST_BOUND
    # NVIDIA's published figure for this run (TensorRT-LLM 1.0 performance overview): 25,828
    assert s.tokens_per_s_total == pytest.approx(25_828, rel=0.35)


def test_without_host_time_the_same_run_is_the_gpus_step(catalog):
    """The negative case isolating the rule: with no host time the step is the GPU's, shorter,
    and the throughput higher than NVIDIA measured by more than 35 %."""
    r = size(
        design_from_dict(_design("qwen3-30b-a3b", "fp4", B200, 1, serving_host_us_per_sequence=0)),
        catalog,
    )
    s = r.workloads[0].serving
    assert s.decode_step_ms == pytest.approx(calc(r, KEY + "decode.gpu_s").value * 1000)
    assert s.decode_step_ms < 1453 * 29.4e-3
    assert s.decode_bound == "memory bandwidth"
    assert s.tokens_per_s_total > 1.35 * 25_828


def test_a_large_dense_model_is_not_host_bound(catalog):
    """Llama 3.3 70B in FP4 on one B200 holds a few hundred requests; reading its 39 GB of
    weights and their caches takes longer than their host work, so the factor changes nothing."""
    base = size(design_from_dict(_design("llama-3.3-70b", "fp4", B200, 1)), catalog)
    zero = size(
        design_from_dict(_design("llama-3.3-70b", "fp4", B200, 1, serving_host_us_per_sequence=0)),
        catalog,
    )
    host = calc(base, KEY + "decode.host_s").value
    assert host < calc(base, KEY + "decode.gpu_s").value
    assert base.workloads[0].serving.decode_step_ms == zero.workloads[0].serving.decode_step_ms


def test_an_moe_over_eight_gpus_shares_its_requests_among_their_processes(catalog):
    """Qwen3 235B-A22B in FP8 on eight H200: MoE models run attention data-parallel, each GPU's
    process scheduling an eighth of the requests, so the host time is requests / 8 x 29.4 us.
    A dense model's tensor-parallel group schedules every request on every GPU (divisor 1)."""
    r = size(design_from_dict(_design("qwen3-235b-a22b", "fp8", H200, 8)), catalog)
    host = calc(r, KEY + "decode.host_s")
    running = r.workloads[0].serving.max_sequences_per_replica
    assert host.inputs["schedulers"] == 8
    assert host.value == pytest.approx(running / 8 * 29.4e-6, rel=1e-6)
    dense = size(design_from_dict(_design("llama-3.1-405b", "fp8", H200, 8)), catalog)
    assert calc(dense, KEY + "decode.host_s").inputs["schedulers"] == 1
