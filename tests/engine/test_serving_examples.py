"""The bundled serving examples against hand arithmetic, the layout rules, and a calculation log
that re-evaluates to its own values."""

from __future__ import annotations

import pytest

from tests.engine.conftest import calc, design_dict
from wizard.app.io import design_from_dict
from wizard.engine.basis.expr import evaluate
from wizard.engine.size import size

H100_GB, H100_GBS = 80, 3350  # H100 SXM5 80GB datasheet: 80 GB HBM3, 3.35 TB/s
USABLE = 0.9 * H100_GB  # serving_memory_utilization default
OVERHEAD = 2.0  # framework_overhead_gb default
MBU = 0.6  # decode_bandwidth_efficiency default


def test_gpt3_175b_fp32_needs_two_hosts_of_tensor_parallel_8(sized):
    """700 GB of FP32 weights: TP 8 inside one host puts 87.5 GB on each GPU, more than the
    72 GB planned, so the replica is TP 8 on each of 2 hosts (PP 2), 43.75 GB per GPU."""
    (w,) = sized["gpt3-175b"].workloads
    assert (w.layout.tensor_parallel, w.layout.pipeline_parallel) == (8, 2)
    assert 700 / 8 + OVERHEAD > USABLE
    assert w.memory_gb.weights == pytest.approx(700 / 16)
    assert w.gpus_per_replica == 16


def test_gpt3_175b_one_sequence_gets_one_stage_of_bandwidth(sized):
    """One sequence: the two stages run one after another, so a token reads all 700 GB through
    8 GPUs' bandwidth at a time. Hand arithmetic of one stage: 43.75 GB of weights plus the KV
    cache of 1,792 + 256/2 = 1,920 tokens at 2 x 96 layers x 96 heads x 128 x 4 bytes, over 16
    GPUs, read at 60 % of 3,350 GB/s; two all-reduces per layer of 48 layers, each waiting 8 us
    plus 8 us for each of the 6 GPUs of the group beyond two, and 12,288 x 2 bytes reduced in the
    H100's NVSwitch (NVLS) at NCCL's 275 GB/s of algorithm bandwidth (nccl-tests issue 212); one
    8 us hand-off to the next host over the NICs at 92 %."""
    r = sized["gpt3-175b"]
    (w,) = r.workloads
    kv_token_gb = 2 * 96 * 96 * 128 * 4 / 1e9
    memory_s = (700 / 16 + 1920 * kv_token_gb / 16) / (H100_GBS * MBU)
    allreduce_s = 8e-6 + 6 * 8e-6 + 12288 * 2 / 275e9  # NVLS: each GPU's data once, 275 GB/s
    handoff_s = 8e-6 + 12288 * 2 / (8 * 400 / 8 * 1e9 * 0.92)  # 8 x 400 Gb/s NDR NICs at 0.92
    stage_s = memory_s + 2 * 48 * allreduce_s + handoff_s
    assert w.serving.itl_ms == pytest.approx(2 * stage_s * 1000, rel=1e-6)
    one_stage_ceiling = 8 * H100_GBS / 700  # tokens/s if all 8 GPUs of a stage read at 100 %
    assert 1000 / w.serving.itl_ms < one_stage_ceiling
    assert calc(r, "workloads[0].serving.decode.micro_batch").value == 1


def test_pipeline_with_one_sequence_is_never_faster_than_one_stage(catalog):
    """TP 2 x PP 6 of GPT-3 in FP32 (58.3 GB per GPU), one sequence: at most one stage's two
    GPUs read at a time, 2 x 3,350 / 700 = 9.6 tokens/s."""
    d = design_dict("gpt3-175b")
    d["workloads"][0]["parallelism"] = {
        "tensor_parallel": 2,
        "pipeline_parallel": 6,
        "data_parallel": 1,
    }
    w = size(design_from_dict(d), catalog).workloads[0]
    assert 1000 / w.serving.itl_ms <= 2 * H100_GBS / 700


def test_llm_serving_layout_and_targets(sized):
    """Llama 3 70B in BF16 is 140 GB: TP 2 leaves 72 - 70 - 2 = 0 GB for the KV cache, so TP 4
    (35 GB per GPU) is the smallest layout; replicas follow from 2,000 tokens/s at 512 output
    tokens per request = 3.9 requests/s, and the 100 ms time between tokens."""
    r = sized["llm-serving"]
    (w,) = r.workloads
    s = w.serving
    assert 140 / 2 + OVERHEAD >= USABLE
    assert (w.layout.tensor_parallel, w.layout.pipeline_parallel) == (4, 1)
    assert w.memory_gb.weights == pytest.approx(35.0)
    kv_token_gb = 2 * 80 * 8 * 128 * 2 / 1e9
    held = 7680 + 512  # each running request's prompt and whole answer, reserved when it starts
    assert w.memory_gb.kv_cache == pytest.approx(s.sequences_per_replica * held * kv_token_gb / 4)
    assert w.memory_gb.total <= USABLE
    assert s.tokens_per_s_total >= 2000
    assert all(t.met for t in s.targets)
    assert {t.metric for t in s.targets} == {"itl", "throughput"}
    assert w.replicas * s.sequences_per_replica >= 32
    # one replica fewer would not carry the load: it would need more than its KV cache holds
    # or miss a target (the planner takes the fewest replicas that meet every target)
    assert s.tokens_per_s_per_replica * (w.replicas - 1) < 2000 or s.sequences_per_replica > 1


def test_every_calculation_reevaluates_to_its_value(sized):
    """The calculation log cannot lie: each formula of every example, evaluated with its logged
    inputs by an independent walk of its syntax, gives its logged value."""
    checked = serving = 0
    for name, r in sized.items():
        ids = [c.id for c in r.calculations]
        assert len(ids) == len(set(ids)), (name, "a figure is logged twice")
        for c in r.calculations:
            assert evaluate(c.formula, c.inputs) == pytest.approx(c.value, rel=1e-12), (name, c.id)
            checked += 1
            serving += ".serving." in c.id
    assert serving > 50 and checked > 300


def test_fp8_weights_bring_an_fp8_kv_cache_unless_one_is_chosen(catalog):
    """NIM's FP8 profiles and TensorRT-LLM's FP8 checkpoints run an FP8 KV cache, so FP8 weights
    on an H100 halve it by default (2 x 80 layers x 8 KV heads x 128 x 1 byte); a BF16 cache
    chosen explicitly keeps 2 bytes, and 16-bit weights keep 2 bytes by default."""
    d = design_dict("llm-serving")
    d["workloads"][0]["precision"] = "fp8"
    r = size(design_from_dict(d), catalog)
    assert calc(r, "workloads[0].serving.kv_gb_per_token").value == pytest.approx(
        2 * 80 * 8 * 128 * 1 / 1e9
    )
    assert any("KV cache is kept in FP8" in x.text for x in r.decisions)
    d["workloads"][0]["inference"]["kv_cache_precision"] = "bf16"
    r = size(design_from_dict(d), catalog)
    assert calc(r, "workloads[0].serving.kv_gb_per_token").value == pytest.approx(
        2 * 80 * 8 * 128 * 2 / 1e9
    )
    d["workloads"][0]["precision"] = "bf16"
    d["workloads"][0]["inference"]["kv_cache_precision"] = None
    r = size(design_from_dict(d), catalog)
    assert calc(r, "workloads[0].serving.kv_gb_per_token").value == pytest.approx(
        2 * 80 * 8 * 128 * 2 / 1e9
    )


def test_moe_reads_only_the_routed_experts_at_batch_one():
    """Mixtral 8x7B: 46.7 B parameters, 12.9 B active, 8 experts, top-2. One token reads the
    shared part plus 2 experts (12.9 B); a large batch reads nearly all 8 (46.7 B)."""
    from wizard.engine.demand import serving_physics as sp

    m = sp.Transformer("mixtral", 46.7e9, 12.9e9, 32, 4096, 32, 8, 1.0, 2.0, 8, 2)
    expert = (46.7e9 - 12.9e9) / 6
    one = sp.EXPERTS_READ(experts=8, experts_per_token=2, tokens=1)
    assert one == pytest.approx(2)
    gb = sp.WEIGHTS_READ_MOE_GB(
        shared_params=m.shared_params, experts_read=one, expert_params=expert, weight_bytes=1
    )
    assert gb == pytest.approx(12.9)
    many = sp.EXPERTS_READ(experts=8, experts_per_token=2, tokens=256)
    assert many == pytest.approx(8, rel=1e-6)
