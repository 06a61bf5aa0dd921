"""What a serving plan buys: the KV cache follows the weights, a replica queues what its cache
cannot hold, MoE routing imbalance and FP4 weights, each against a source or hand arithmetic."""

from __future__ import annotations

import pytest

from tests.engine.conftest import calc
from wizard.app.io import design_from_dict
from wizard.engine.size import size

H100 = {"gpu": "h100-sxm5-80gb", "server": "dell-xe9680", "gpus_per_host": 8, "nvlink": True}
B200 = {"gpu": "b200-sxm", "server": "nvidia-dgx-b200", "gpus_per_host": 8, "nvlink": True}


def service(preset: str, precision: str, hardware: dict, **inference) -> dict:
    return {
        "workloads": [{"name": "Chat", "kind": "inference", "model": {"preset": preset},
                       "precision": precision, "inference": inference}],
        "hardware": hardware,
    }  # fmt: skip


def test_nims_70b_fp8_at_100_requests_is_one_replica_on_two_gpus(catalog):
    """NVIDIA NIM for LLMs 1.8.0, "Benchmarking: Performance": Llama-3.3-70B-Instruct fp8 TP2
    on 2 x H100, 5,000 prompt and 500 output tokens, 100 requests in flight: row
    "| 100 | 7996.25 | 92.91 | 917.26 |" (TTFT ms, ITL ms, output tokens/s). With FP8 weights the cache is FP8 (2 x 80 x 8 x 128 x 1 = 163,840 bytes a token);
    a TP 2 replica keeps 2 x (0.9 x 80 - 70 / 2 - 2) = 70 GB for it; the engine reserves each
    request's 5,000 + 500 tokens when it starts (TensorRT-LLM's default policy), so floor(70 /
    (5,500 x 163,840e-9)) = 77 run and 23 queue for room rather than buying a second replica:
    one replica, 2 GPUs, within 35 % of 917."""
    r = size(design_from_dict(service("llama-3.3-70b", "fp8", H100, input_tokens=5000,
                                      output_tokens=500, concurrent_sequences=100)), catalog)  # fmt: skip
    (w,) = r.workloads
    assert (w.gpus_total, w.replicas, w.layout.tensor_parallel) == (2, 1, 2)
    s = w.serving
    assert s.kv_cache_bytes_per_element == 1
    assert int(70 / (5500 * 163_840e-9)) == 77
    assert s.max_sequences_per_replica == 77 and s.sequences_per_replica == 100
    assert s.tokens_per_s_total == pytest.approx(917.26, rel=0.35)
    assert s.itl_ms == pytest.approx(92.91, rel=0.35)
    assert "serving-kv-cache-full" in {x.code for x in r.warnings}


def test_the_queue_counts_in_the_time_to_first_token_and_a_target_buys_replicas(catalog):
    """Negative case of the one above: the 23 waiting requests wait for running ones to finish,
    so the time to first token is seconds; a 2-second target is then met only by adding
    replicas until every request's cache is held (100 / 77 -> 2 replicas)."""
    doc = service("llama-3.3-70b", "fp8", H100, input_tokens=5000, output_tokens=500,
                  concurrent_sequences=100)  # fmt: skip
    one = size(design_from_dict(doc), catalog).workloads[0]
    assert one.serving.ttft_ms > 2000
    doc["workloads"][0]["inference"]["ttft_target_ms"] = 2000
    two = size(design_from_dict(doc), catalog).workloads[0]
    assert two.gpus_total >= 4 and two.serving.sequences_per_replica <= 77
    assert two.serving.ttft_ms <= 2000


def test_an_engine_that_pages_its_cache_holds_requests_by_their_average_size(catalog):
    """The rule isolated: with ``serving_reserves_whole_request`` off (vLLM's paging, blocks
    taken as tokens arrive) a request holds 5,000 + 500 / 2 = 5,250 tokens on average, so
    floor(70 / (5,250 x 163,840e-9)) = 81 run instead of 77; nothing else changes the count."""
    doc = service("llama-3.3-70b", "fp8", H100, input_tokens=5000, output_tokens=500,
                  concurrent_sequences=100)  # fmt: skip
    doc["assumptions"] = {"serving_reserves_whole_request": False}
    s = size(design_from_dict(doc), catalog).workloads[0].serving
    assert int(70 / (5250 * 163_840e-9)) == 81
    assert s.max_sequences_per_replica == 81


def test_moe_compute_waits_for_the_busiest_expert(catalog):
    """Mixtral 8x7B (46.7 B, 12.9 B active, 8 experts, top 2): the experts' share of the active
    parameters is 2 x (46.7 - 12.9) / 6 = 11.27 B; at the default imbalance 1.25 the prompt
    computes with 1.6 B + 2 x 5.63 B x 1.25 = 15.7 B active; at 1.0 (negative case) with the
    model's own 12.9 B."""
    m = catalog.models["mixtral-8x7b"]
    doc = service("mixtral-8x7b", "fp8", H100, input_tokens=2000, output_tokens=100)
    r = size(design_from_dict(doc), catalog)
    expert = (m.parameters - m.active_parameters) / (8 - 2)
    shared = m.parameters - 8 * expert
    eff = calc(r, "workloads[0].serving.moe.active_parameters_effective")
    assert eff.value == pytest.approx(shared + 2 * expert * 1.25)
    assert (
        calc(r, "workloads[0].serving.prefill.compute_s").inputs["active_parameters"] == eff.value
    )
    doc["assumptions"] = {"moe_routing_imbalance": 1.0}
    r1 = size(design_from_dict(doc), catalog)
    assert "workloads[0].serving.moe.active_parameters_effective" not in {
        c.id for c in r1.calculations
    }
    assert calc(r1, "workloads[0].serving.prefill.compute_s").inputs[
        "active_parameters"
    ] == pytest.approx(m.active_parameters)


def test_fp4_weights_run_fp4_tensor_cores_on_blackwell(catalog):
    """NVFP4 on a B200: 4.5 bits a weight (4-bit values plus an FP8 scale per 16), so Llama 3.1
    70B's 70.6 B parameters take 39.7 GB; prompts compute at the B200's dense FP4 9,000 TFLOPS
    (HGX B200: 72 PFLOPS dense for 8 GPUs); the cache follows as FP8."""
    doc = service("llama-3.1-70b", "fp4", B200, input_tokens=2000, output_tokens=200)
    r = size(design_from_dict(doc), catalog)
    params = catalog.models["llama-3.1-70b"].parameters
    weights = calc(r, "workloads[0].serving.weights_gb")
    assert weights.value == pytest.approx(params * 4.5 / 8 / 1e9)
    assert calc(r, "workloads[0].serving.prefill.compute_s").inputs["peak_tflops"] == 9000
    assert r.workloads[0].serving.kv_cache_bytes_per_element == 1


def test_fp4_on_hopper_falls_back_to_the_fp8_path(catalog):
    """Negative case: the H100 has no FP4 tensor cores (datasheet), so FP4 weights compute at
    its FP8 1,979 TFLOPS while still taking 4.5 bits of memory each."""
    doc = service("llama-3.1-70b", "fp4", H100, input_tokens=2000, output_tokens=200)
    r = size(design_from_dict(doc), catalog)
    assert catalog.gpus["h100-sxm5-80gb"].tflops.fp4 is None
    assert calc(r, "workloads[0].serving.prefill.compute_s").inputs["peak_tflops"] == 1979


def test_attention_is_computed_at_heads_times_head_width(catalog):
    """Qwen3-32B (config.json: hidden 5,120, 64 query heads of 128): the attention scores and
    values are 64 x 128 = 8,192 wide, not the hidden 5,120, in the prompt's and the decode
    step's attention FLOPs; Llama 3.1 8B (32 x 128 = 4,096 = hidden) is the negative case."""
    r = size(design_from_dict(service("qwen3-32b", "bf16", H100, input_tokens=4000,
                                      output_tokens=100)), catalog)  # fmt: skip
    assert calc(r, "workloads[0].serving.prefill.compute_s").inputs["attention_width"] == 8192
    assert calc(r, "workloads[0].serving.decode.attention_s").inputs["attention_width"] == 8192
    r8 = size(design_from_dict(service("llama-3.1-8b", "bf16", H100, input_tokens=4000,
                                       output_tokens=100)), catalog)  # fmt: skip
    assert calc(r8, "workloads[0].serving.prefill.compute_s").inputs["attention_width"] == 4096
