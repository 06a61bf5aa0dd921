"""Memory formulas against published worked examples, through the engine's own formulas
(``training_plan.memory_parts``: each one computes and is logged as it is)."""

import pytest

from wizard.engine.basis import memory
from wizard.engine.basis.memory import Shape
from wizard.engine.demand.training_plan import Job, Strategy, memory_parts
from wizard.model.design import FineTuningMethod, LoraTargets, Optimizer, Precision, Recompute

GPT3 = Shape(layers=96, hidden=12288, heads=96, kv_heads=96)


def job(params: float, precision: Precision, optimizer: Optimizer, gradient_bytes: float,
        shape: Shape | None = None, seq: int = 2048, micro: int = 1,
        eager: bool = False, dropout: bool = False) -> Job:  # fmt: skip
    return Job(
        params=params, active_params=params, shape=shape, vocabulary=51_200, ffn=None,
        experts=0, precision=precision, method=FineTuningMethod.FULL, lora_rank=16,
        lora_targets=LoraTargets.ATTENTION_MLP, gradient_bytes=gradient_bytes,
        optimizer_bytes=memory.OPTIMIZER_BYTES[optimizer],
        master_bytes=memory.master_copy_bytes(precision), sequence=seq, micro_batch=micro,
        overhead_gb=0.0, activation_gb_per_sample=None, eager_attention=eager, dropout=dropout,
    )  # fmt: skip


def parts(j: Job, st: Strategy) -> dict[str, float]:
    return {k: f(**inputs) for k, (f, inputs) in memory_parts(j, st, j.params).items()}


def test_bytes_per_parameter_by_precision():
    # NVFP4: 4 bits plus one 8-bit scale per 16 values = 4.5 bits
    assert [memory.PARAM_BYTES[p] for p in Precision] == [4, 4, 2, 2, 1, 1, 0.5, 4.5 / 8]


def test_gpt3_fp32_weights_are_700_gb():
    """Multi-GPU deep dive: GPT-3 175B in FP32 needs 700 GB before a single example."""
    p = parts(job(175e9, Precision.FP32, Optimizer.SGD, 4), Strategy())
    assert p["weights"] == pytest.approx(700)


def test_mixed_precision_adam_is_16_bytes_per_parameter():
    """ZeRO (Rajbhandari et al. 2020, 3.1): 2 + 2 + 12 = 16 bytes per parameter; with the seeds'
    FP32 gradients 2 + 4 + 12 = 18; FP32 SGD 4 + 4 = 8, with momentum 12."""
    for precision, opt, grad, expected in [
        (Precision.FP16, Optimizer.ADAM, 2, 16),
        (Precision.BF16, Optimizer.ADAMW, 4, 18),
        (Precision.FP32, Optimizer.SGD, 4, 8),
        (Precision.FP32, Optimizer.SGD_MOMENTUM, 4, 12),
    ]:
        p = parts(job(1e9, precision, opt, grad), Strategy())
        assert sum(p.values()) == pytest.approx(expected), (precision, opt)


@pytest.mark.parametrize(("stage", "expected_gb"), [(0, 120.0), (1, 31.4), (2, 16.6), (3, 1.9)])
def test_zero_stages_match_the_paper(stage, expected_gb):
    """ZeRO paper, Figure 1: 7.5B parameters, data parallel 64, mixed-precision Adam."""
    p = parts(job(7.5e9, Precision.FP16, Optimizer.ADAM, 2), Strategy(shard=64, zero=stage))
    assert sum(p.values()) == pytest.approx(expected_gb, abs=0.05)


def test_tensor_and_pipeline_parallel_divide_model_state():
    p = parts(job(8e9, Precision.BF16, Optimizer.ADAM, 2), Strategy(tensor=4, pipeline=2))
    assert p["weights"] == pytest.approx(8e9 * 2 / 8 / 1e9)


def test_activation_per_layer_matches_korthikanti_table_2():
    """Korthikanti et al. 2022, Table 2 and section 5: GPT-3 175B, s=2048, b=1, t=8, trained
    with dropout and attention computed eagerly (the score matrices kept), as the paper counts.

    No parallelism: sbh(34 + 5as/h); TP: sbh(10 + 24/t + 5as/(ht)); TP+SP: sbh/t (34 + 5as/h);
    selective with TP: sbh(10 + 24/t); with TP+SP: 34 sbh / t; full recomputation: 2 sbh.
    """
    s, b, h, a, t = 2048, 1, 12288, 96, 8
    sbh = s * b * h
    att = 5 * a * s / h
    j = job(175e9, Precision.BF16, Optimizer.ADAM, 2, GPT3, s, b, eager=True, dropout=True)

    def per_layer(recompute, sp, tp=t):
        st = Strategy(tensor=tp, recompute=recompute, sequence_parallel=sp)
        return parts(j, st)["activations"] * 1e9 / GPT3.layers

    assert per_layer(Recompute.NONE, False, 1) == pytest.approx(sbh * (34 + att))
    assert per_layer(Recompute.NONE, False) == pytest.approx(sbh * (10 + 24 / t + att / t))
    assert per_layer(Recompute.NONE, True) == pytest.approx(sbh * (34 + att) / t)
    assert per_layer(Recompute.SELECTIVE, True) == pytest.approx(sbh * 34 / t)
    # Selective without sequence parallelism keeps the unsplit 10 sbh (layer norms, dropouts):
    # 10 + 24/8 = 13 sbh, three times the 34/8 = 4.25 sbh of selective with it.
    assert per_layer(Recompute.SELECTIVE, False) == pytest.approx(sbh * (10 + 24 / t))
    assert per_layer(Recompute.FULL, False) == pytest.approx(2 * sbh)
    # The paper's headline: selective recomputation with sequence parallelism cuts activation
    # memory about 5x against tensor parallelism alone for GPT-3 (attention term dominates).
    ratio = per_layer(Recompute.NONE, False) / per_layer(Recompute.SELECTIVE, True)
    assert 4.5 < ratio < 6.5


def test_fp32_activations_take_twice_the_bytes():
    bf16 = parts(job(1e9, Precision.BF16, Optimizer.ADAM, 2, GPT3, 128), Strategy())
    fp32 = parts(job(1e9, Precision.FP32, Optimizer.ADAM, 4, GPT3, 128), Strategy())
    assert fp32["activations"] == 2 * bf16["activations"]


def test_kv_cache_per_token_llama2_70b_gqa():
    """Llama 2 70B: 80 layers, 8 KV heads of 128 dims, FP16: 2 x 80 x 8 x 128 x 2 = 327,680 B
    per token (GQA: 8x smaller than the 64-head MHA cache)."""
    from wizard.engine.demand.serving_physics import KV_GB_PER_TOKEN

    gqa = KV_GB_PER_TOKEN(layers=80, kv_heads=8, head_dim=128, kv_bytes=2)
    assert gqa * 1e9 == pytest.approx(327_680)
    mha = KV_GB_PER_TOKEN(layers=80, kv_heads=64, head_dim=128, kv_bytes=2)
    assert mha / gqa == 8


@pytest.mark.parametrize(
    ("weights", "kv", "expected"),
    [
        # NIM's FP8 profiles and TensorRT-LLM's FP8 checkpoints run an FP8 cache ("If you specify
        # FP8 quantization, the KV cache will automatically be set to FP8")
        (Precision.FP8, None, 1),
        (Precision.FP4, None, 1),  # NVFP4 checkpoints carry an FP8 cache too
        (Precision.INT4, None, 2),  # AWQ / GPTQ: weight-only quantization, 16-bit activations
        (Precision.BF16, None, 2),
        (Precision.FP32, None, 4),
        (Precision.BF16, Precision.FP8, 1),  # an FP8 KV cache chosen explicitly
        (Precision.FP8, Precision.BF16, 2),  # a 16-bit cache chosen explicitly wins
    ],
)
def test_kv_cache_bytes_follow_the_serving_stack(weights, kv, expected, catalog):
    from wizard.engine.demand.inference import kv_bytes

    assert kv_bytes(weights, kv, catalog.gpus["h100-sxm5-80gb"]) == expected


def test_a_gpu_without_fp8_tensor_cores_keeps_a_16_bit_cache(catalog):
    """The A100 has no FP8 path (datasheet: TF32, BF16/FP16, INT8, INT4), so FP8 weights there
    are weight-only and the cache stays 16-bit: the rule keys on the GPU, not the weights."""
    from wizard.engine.demand.inference import kv_bytes

    assert catalog.gpus["a100-sxm4-80gb"].tflops.fp8 is None
    assert kv_bytes(Precision.FP8, None, catalog.gpus["a100-sxm4-80gb"]) == 2
