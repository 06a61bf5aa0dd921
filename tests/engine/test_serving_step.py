"""Three mechanisms of a serving step, each brought to a published TensorRT-LLM row, and each
shown to be what closes it (the rule off reads the old error):

- a tensor-parallel all-reduce waits on every GPU of its group, so a decode step at tensor
  parallelism 4 is slower than its quarter of the weights alone (Llama 3.1 70B on four H200);
- in-flight batching with chunked prefill: a new request's prompt rides in the running requests'
  decode steps, the weights read once for both (Llama 3.3 70B on two H100 at 128/128 tokens);
- the first token's floor: a whole forward pass plus the serving engine's host time (GPT-J 6B).

Sources (every measured figure below is copied from them, not from this program):

- TRT17: NVIDIA TensorRT-LLM, docs/source/performance/perf-overview.md at release 0.17 (commit
  258c7540), "Online Serving Measurements": "All data in the table below was generated using
  version 0.14.0, with 500 requests and BF16 precision", requests sent at a fixed rate (QPS) to
  the TensorRT-LLM backend of Triton; columns "Model | GPU | TP | Input Length | Output Length |
  QPS | Tput(req/s) | Mean TTFT(ms) | Mean ITL(ms) | Total Token Tput (tok/s) | Output Tput
  (tok/s)". Rows of "LLaMA 3.1 70B | H200 131GB HBM3 | 4", e.g. "|467|256|2|2|58|18|1411|499|",
  and of "LLaMA 3.1 8B | H200 131GB HBM3 | 1", e.g. "|467|256|2|2|21|6|1425|504|".
- TRT10: the same file at release 1.0 (commit 00f37686), "Llama 3.3 70B" table, columns B200 TP1
  (FP4), GB200 TP1 (FP4), H200 TP1 (FP8), H100 TP2 (FP8): "| 128/128 | 11,147 | 12,189 | 3,803 |
  6,378 |", total output tokens/s with every request queued at once.
- TRT05: TensorRT-LLM docs/source/performance.md as updated for release 0.6.1 (commit 138f96d4),
  "Low Latency" ("The following data is from TensorRT-LLM v0.5"), "H100 GPUs (FP8)", batch size
  1, TP 1, 1st token latency in ms: "| GPT-J 6B | 1 | 1 | 128 | 7 |", "| GPT-J 6B | 1 | 1 | 2048 |
  29 |", "| LLaMA 7B | 1 | 1 | 128 | 7 |", "| LLaMA 7B | 1 | 1 | 2048 | 36 |".
- TRT09: docs/source/performance/perf-overview.md of release 0.9.0 ("All data was generated using
  version 0.9.0"), "H200 GPUs (FP8)", static batches: "| Falcon 180B | 64 | 4 | 2048 | 2048 |
  265 |" (batch size, TP, input, output, output tokens/s per GPU).
"""

from __future__ import annotations

import pytest

from tests.engine.conftest import calc
from tests.engine.serving_runs import H100, H200, Measured
from wizard.app.io import design_from_dict
from wizard.engine.size import size
from wizard.model.design import Assumptions

TOLERANCE = 0.35
KEY = "workloads[0].serving."
H100_GBS, MBU = 3350, 0.6
# GPT-J 6B (EleutherAI/gpt-j-6b model card: 6,053,381,344 parameters, 28 layers, d_model 4,096,
# d_ff 16,384, 16 heads, vocabulary 50,400 in its embedding matrix; a GELU MLP of two matrices)
GPT_J = {"parameters": 6.05e9, "layers": 28, "hidden_size": 4096, "heads": 16,
         "vocab_size": 50400, "ffn_hidden_size": 16384, "gated_mlp": False}  # fmt: skip
# Falcon-180B (tiiuae/falcon-180B config.json: 80 layers, hidden 14,848, 232 heads, 8 KV heads,
# vocabulary 65,024, a GELU MLP 4 x hidden wide); its parameters are counted from the shape
FALCON_180B = {"layers": 80, "hidden_size": 14848, "heads": 232, "kv_heads": 8,
               "vocab_size": 65024, "ffn_hidden_size": 59392, "gated_mlp": False}  # fmt: skip


def _design(model: dict | str, precision: str, gpu: str, tp: int, isl: int, osl: int,
            concurrency: int = 1, rate: float | None = None, **assumptions) -> dict:  # fmt: skip
    doc = Measured("Chat", "llama-3.1-8b", precision, gpu, tp, isl, osl, 1.0).design()
    group = doc["workloads"][0]
    group["model"] = {"preset": model} if isinstance(model, str) else {"custom": model}
    group["inference"]["concurrent_sequences"] = concurrency
    if rate is not None:
        group["inference"]["target_requests_per_s"] = rate
    if assumptions:
        doc["assumptions"] = assumptions
    return doc


def _sized(doc: dict, catalog):
    r = size(design_from_dict(doc), catalog)
    (w,) = r.workloads
    return r, w.serving


# ------------------------------------------------------------------ tensor parallelism 4

# TRT17, at a fixed rate of requests: (input, output, requests/s, measured mean ITL ms)
ONLINE_70B_TP4 = [(467, 256, 2, 18), (467, 256, 4, 20), (467, 256, 8, 27), (467, 16, 2, 15),
                  (467, 16, 4, 16), (467, 16, 8, 20), (202, 214, 2, 17), (202, 214, 4, 18),
                  (202, 214, 8, 21)]  # fmt: skip
ONLINE_8B_TP1 = [(467, 256, 2, 6), (467, 256, 4, 7), (467, 256, 8, 7), (467, 16, 2, 5),
                 (202, 214, 2, 6), (202, 214, 8, 7)]  # fmt: skip


def test_llama_70b_on_four_h200_decodes_at_the_measured_time_between_tokens(catalog):
    """TRT17: Llama 3.1 70B in BF16 on four H200, 467 prompt and 256 output tokens at 2
    requests/s, "|467|256|2|2|58|18|1411|499|": 18 ms between tokens. Each all-reduce of the
    group waits 8 us between two GPUs plus 8 us for each of the two GPUs beyond them: 24 us."""
    r, s = _sized(_design("llama-3.1-70b", "bf16", H200, 4, 467, 256, rate=2), catalog)
    latency = calc(r, KEY + "decode.allreduce_latency_s")
    assert latency.value == pytest.approx(8e-6 + 2 * 8e-6)
    assert calc(r, KEY + "decode.allreduce_s").inputs["latency_s"] == latency.value
    assert s.itl_ms == pytest.approx(18, rel=TOLERANCE)
    assert s.itl_ms == pytest.approx(18, rel=0.05)  # 17.4 ms (14.7 without)


def test_without_the_wait_on_each_gpu_the_same_row_reads_the_old_error(catalog):
    """Negative case: with no cost per further GPU every all-reduce waits the two-GPU 8 us, and
    the step reads 18 % under the measured 18 ms, as it did before."""
    r, s = _sized(
        _design("llama-3.1-70b", "bf16", H200, 4, 467, 256, rate=2,
                serving_allreduce_peer_latency_us=0), catalog,
    )  # fmt: skip
    assert not [c for c in r.calculations if c.id.endswith("allreduce_latency_s")]
    assert calc(r, KEY + "decode.allreduce_s").inputs["latency_s"] == pytest.approx(8e-6)
    assert s.itl_ms < 0.85 * 18


@pytest.mark.parametrize(("isl", "osl", "rate", "itl"), ONLINE_70B_TP4)
def test_the_tables_other_tp4_rows(isl, osl, rate, itl, catalog):
    """The default was read off the first row; the table's eight other rates and lengths of the
    same service are checks it was not set from."""
    _, s = _sized(_design("llama-3.1-70b", "bf16", H200, 4, isl, osl, rate=rate), catalog)
    assert s.itl_ms == pytest.approx(itl, rel=TOLERANCE)


@pytest.mark.parametrize(("isl", "osl", "rate", "itl"), ONLINE_8B_TP1)
def test_one_gpu_has_no_group_to_wait_on(isl, osl, rate, itl, catalog):
    """The same table's Llama 3.1 8B on one H200 is met with or without the rule: a GPU alone
    has no all-reduce."""
    doc = _design("llama-3.1-8b", "bf16", H200, 1, isl, osl, rate=rate)
    _, s = _sized(doc, catalog)
    doc["assumptions"] = {"serving_allreduce_peer_latency_us": 0}
    assert _sized(doc, catalog)[1].itl_ms == s.itl_ms
    assert s.itl_ms == pytest.approx(itl, rel=TOLERANCE)


def test_the_cost_of_each_further_gpu_is_the_two_gpu_cost_again():
    a = Assumptions()
    assert a.serving_allreduce_peer_latency_us == a.collective_latency_us == 8


@pytest.mark.xfail(strict=True, reason="known gap, stated in docs/model.md")
def test_falcon_180b_in_release_0_9_static_batches(catalog):
    """TRT09: Falcon 180B in FP8 on four H200, batches of 64 at 2,048 / 2,048 tokens: 265 output
    tokens/s per GPU, 1,060 for the four. The engine reads about 2.1 times that; the same GPU and
    layout in the in-flight-batching releases (Llama 3 70B, TRT17 and TensorRT-LLM 0.20) read
    within 20 %, so the cause is not the tensor-parallel step: not modelled."""
    _, s = _sized(_design(FALCON_180B, "fp8", H200, 4, 2048, 2048, concurrency=64), catalog)
    assert s.tokens_per_s_total == pytest.approx(4 * 265, rel=TOLERANCE)


# ------------------------------------------------------------------ chunked prefill


def test_llama_70b_on_two_h100_at_128_128_tokens(catalog):
    """TRT10: Llama 3.3 70B in FP8 on two H100 at 128 / 128 tokens, every request queued: 6,378
    output tokens/s. A prompt riding in the running requests' iterations adds its FLOPs and its
    tokens' bytes in the step's all-reduces (the step pays their fixed 8 us once), not the read
    of the 35 GB each GPU holds, on which a 128-token prompt alone spends most of its pass."""
    r, s = _sized(_design("llama-3.3-70b", "fp8", H100, 2, 128, 128, concurrency=100_000), catalog)
    assert s.tokens_per_s_total == pytest.approx(6378, rel=TOLERANCE)
    prompt = calc(r, KEY + "prompt_s").value
    compute = calc(r, KEY + "prefill.compute_s").value
    comm = calc(r, KEY + "prefill.comm_s").value
    assert prompt == pytest.approx(compute + comm - 2 * 80 * 8e-6)
    assert calc(r, KEY + "prefill.memory_s").value > compute
    assert prompt < calc(r, KEY + "prefill_s").value


def test_each_prompt_as_a_pass_of_its_own_reads_the_old_error(catalog):
    """Negative case: with chunked prefill off, each 128-token prompt reads the weights again,
    and the row reads 0.64 of the measured throughput, as it did before."""
    doc = _design("llama-3.3-70b", "fp8", H100, 2, 128, 128, concurrency=100_000,
                  serving_chunked_prefill=False)  # fmt: skip
    r, s = _sized(doc, catalog)
    assert not [c for c in r.calculations if c.id.endswith("prompt_s")]
    assert s.tokens_per_s_total < (1 - TOLERANCE) * 6378


def test_a_chunk_of_an_moe_reads_the_experts_the_decode_batch_does_not(catalog):
    """Mixtral 8x7B (8 experts, top 2) on one H100 at 4 requests in flight: 4 decode tokens
    reach 8 x (1 - (6/8)^4) = 5.47 experts per layer, a chunk of 8,192 more tokens all 8; a
    prompt of 2,000 tokens is 2,000 / 8,192 of such a chunk and adds that share of the read."""
    r, _ = _sized(_design("mixtral-8x7b", "fp8", H100, 1, 2000, 200, concurrency=4), catalog)
    assert calc(r, KEY + "decode.weights_read_gb.experts").value == pytest.approx(
        8 * (1 - (6 / 8) ** 4)
    )
    assert calc(r, KEY + "prompt.weights_read_gb.experts").value == pytest.approx(8, rel=1e-6)
    extra = calc(r, KEY + "prompt.extra_weights_s").value
    assert extra > 0
    assert calc(r, KEY + "prompt_s").inputs["extra_weights_s"] == extra
    dense = _sized(_design("llama-3.1-8b", "fp8", H100, 1, 2000, 200, concurrency=4), catalog)[0]
    assert not [c for c in dense.calculations if c.id.endswith("extra_weights_s")]


def test_one_request_alone_has_no_step_to_ride_in(catalog):
    """With one request in flight its prompt is a pass of its own, and its first token is that
    pass plus the host time."""
    r, s = _sized(_design("llama-3.3-70b", "fp8", H100, 2, 128, 128), catalog)
    assert not [c for c in r.calculations if c.id.endswith("prompt_s")]
    assert s.ttft_ms == pytest.approx(calc(r, KEY + "prefill_s").value * 1000 + 3.5)


# ------------------------------------------------------------------ the first token


def test_gpt_j_first_token_on_an_h100(catalog):
    """TRT05: GPT-J 6B in FP8 on one H100, 128 prompt tokens, one request: 7 ms. By hand: the
    pass reads 6.05 GB of FP8 weights at 0.6 of 3,350 GB/s, 3.01 ms (its 128 tokens' FLOPs,
    2 x 6.05e9 x 128 at half of 1,979 TFLOPS, take 1.6 ms), then 3.5 ms of host time."""
    r, s = _sized(_design(GPT_J, "fp8", H100, 1, 128, 1), catalog)
    pass_ms = 6.05 / (H100_GBS * MBU) * 1000
    assert pass_ms > 2 * 6.05e9 * 128 / (1979e12 * 0.5) * 1000
    assert s.ttft_ms == pytest.approx(pass_ms + 3.5, rel=1e-3)
    assert s.ttft_ms == pytest.approx(7, rel=TOLERANCE)
    first = calc(r, KEY + "first_token_s")
    assert first.inputs["first_token_host_ms"] == 3.5


def test_without_the_host_time_the_first_token_reads_the_old_error(catalog):
    """Negative case: the pass alone, 3.01 ms, is 0.43 of the measured 7 ms."""
    _, s = _sized(_design(GPT_J, "fp8", H100, 1, 128, 1, serving_first_token_host_ms=0), catalog)
    assert s.ttft_ms == pytest.approx(6.05 / (H100_GBS * MBU) * 1000, rel=1e-3)
    assert s.ttft_ms < (1 - TOLERANCE) * 7


def test_the_host_time_is_llama_7b_s_first_token_less_its_pass(catalog):
    """The default is set from another row of TRT05: LLaMA 7B (Llama 2 7B, 7 B parameters in
    FP8) with 128 prompt tokens, 7 ms, less the engine's pass, 7 GB at 0.6 of 3,350 GB/s =
    3.48 ms: 3.52 ms, stated as 3.5."""
    _, s = _sized(_design("llama-2-7b", "fp8", H100, 1, 128, 1), catalog)
    assert s.prefill_ms == pytest.approx(7 / (H100_GBS * MBU) * 1000, rel=1e-3)
    assert Assumptions().serving_first_token_host_ms == pytest.approx(7 - s.prefill_ms, abs=0.05)


@pytest.mark.parametrize(
    ("model", "isl", "measured"),
    [(GPT_J, 2048, 29), ("llama-2-7b", 2048, 36)],
    ids=["gpt-j-2048", "llama-7b-2048"],
)
def test_long_prompts_first_token(model, isl, measured, catalog):
    """TRT05's 2,048-token rows, checks the default was not set from."""
    _, s = _sized(_design(model, "fp8", H100, 1, isl, 1), catalog)
    assert s.ttft_ms == pytest.approx(measured, rel=TOLERANCE)


def test_under_load_the_first_token_waits_for_the_whole_step_it_rides_in(catalog):
    """With requests running, the prompt's first token comes out at the end of the step that
    carries it: the decode batch's step and the prompt's share, plus the host time."""
    r, _ = _sized(_design("llama-3.3-70b", "fp8", H100, 2, 1000, 1000, concurrency=100), catalog)
    first = calc(r, KEY + "first_token_s")
    step = calc(r, KEY + "decode_step_s").value
    prompt = calc(r, KEY + "prompt_s").value
    assert first.value == pytest.approx(
        max(calc(r, KEY + "prefill_s").value, step + prompt) + 3.5e-3
    )
    assert first.value > step
