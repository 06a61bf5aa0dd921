"""Memory formulas against published worked examples."""

import pytest

from wizard.engine import memory
from wizard.engine.memory import Shape, Sharding
from wizard.model.design import Optimizer, Precision, Recompute


def test_bytes_per_parameter_by_precision():
    assert [memory.PARAM_BYTES[p] for p in Precision] == [4, 4, 2, 2, 1, 1, 0.5]


def test_gpt3_fp32_weights_are_700_gb():
    """Multi-GPU deep dive: GPT-3 175B in FP32 needs 700 GB before a single example."""
    assert memory.weights_gb(175e9, Precision.FP32, Sharding()) == pytest.approx(700)


def test_mixed_precision_adam_is_16_bytes_per_parameter():
    """ZeRO (Rajbhandari et al. 2020, 3.1): 2 + 2 + 12 = 16 bytes per parameter."""
    assert memory.model_state_bytes_per_param(Precision.FP16, Optimizer.ADAM, 2) == 16
    # With the seeds' FP32 gradients the gradient term is 4 bytes: 2 + 4 + 12.
    assert memory.model_state_bytes_per_param(Precision.BF16, Optimizer.ADAMW, 4) == 18
    assert memory.model_state_bytes_per_param(Precision.FP32, Optimizer.SGD, 4) == 8
    assert memory.model_state_bytes_per_param(Precision.FP32, Optimizer.SGD_MOMENTUM, 4) == 12


@pytest.mark.parametrize(
    "stage, expected_gb",
    [(0, 120.0), (1, 31.4), (2, 16.6), (3, 1.9)],
)
def test_zero_stages_match_the_paper(stage, expected_gb):
    """ZeRO paper, Figure 1: 7.5B parameters, data parallel 64, mixed-precision Adam."""
    sh = Sharding(data=64, zero_stage=stage)
    total = (
        memory.weights_gb(7.5e9, Precision.FP16, sh)
        + memory.gradients_gb(7.5e9, 2, sh)
        + memory.optimizer_gb(7.5e9, Precision.FP16, Optimizer.ADAM, sh)
    )
    assert total == pytest.approx(expected_gb, abs=0.05)


def test_tensor_and_pipeline_parallel_divide_model_state():
    sh = Sharding(tensor=4, pipeline=2)
    assert memory.weights_gb(8e9, Precision.BF16, sh) == pytest.approx(8e9 * 2 / 8 / 1e9)


GPT3 = Shape(layers=96, hidden=12288, heads=96, kv_heads=96)


def test_activation_per_layer_matches_korthikanti_table_2():
    """Korthikanti et al. 2022, Table 2 and section 5: GPT-3 175B, s=2048, b=1, t=8.

    No parallelism: sbh(34 + 5as/h); TP: sbh(10 + 24/t + 5as/(ht)); TP+SP: sbh/t (34 + 5as/h);
    selective with TP+SP: 34 sbh / t; full recomputation: 2 sbh.
    """
    s, b, h, a, t = 2048, 1, 12288, 96, 8
    sbh = s * b * h
    att = 5 * a * s / h

    def per_layer(recompute, sp, tp=t):
        sh = Sharding(tensor=tp, sequence_parallel=sp)
        return memory.activation_bytes_per_layer(GPT3, s, b, recompute, sh, Precision.BF16)

    assert per_layer(Recompute.NONE, False, 1) == pytest.approx(sbh * (34 + att))
    assert per_layer(Recompute.NONE, False) == pytest.approx(sbh * (10 + 24 / t + att / t))
    assert per_layer(Recompute.NONE, True) == pytest.approx(sbh * (34 + att) / t)
    assert per_layer(Recompute.SELECTIVE, True) == pytest.approx(sbh * 34 / t)
    assert per_layer(Recompute.FULL, False) == pytest.approx(2 * sbh)
    # The paper's headline: selective recomputation with sequence parallelism cuts activation
    # memory about 5x against tensor parallelism alone for GPT-3 (attention term dominates).
    ratio = per_layer(Recompute.NONE, False) / per_layer(Recompute.SELECTIVE, True)
    assert 4.5 < ratio < 6.5


def test_fp32_activations_take_twice_the_bytes():
    sh = Sharding()
    bf16 = memory.activation_bytes_per_layer(GPT3, 128, 1, Recompute.NONE, sh, Precision.BF16)
    fp32 = memory.activation_bytes_per_layer(GPT3, 128, 1, Recompute.NONE, sh, Precision.FP32)
    assert fp32 == 2 * bf16


def test_kv_cache_per_token_llama2_70b_gqa():
    """Llama 2 70B: 80 layers, 8 KV heads of 128 dims, FP16: 2 x 80 x 8 x 128 x 2 = 327,680 B
    per token (GQA: 8x smaller than the 64-head MHA cache)."""
    from wizard.engine.serving_physics import KV_GB_PER_TOKEN

    gqa = KV_GB_PER_TOKEN(layers=80, kv_heads=8, head_dim=128, kv_bytes=2)
    assert gqa * 1e9 == pytest.approx(327_680)
    mha = KV_GB_PER_TOKEN(layers=80, kv_heads=64, head_dim=128, kv_bytes=2)
    assert mha / gqa == 8
