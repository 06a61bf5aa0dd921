"""Current model presets (Llama 3.1/3.3/4, DeepSeek-V3/R1, gpt-oss, Qwen3, Mistral Small 3.x,
Mistral Large 2, Mixtral 8x22B) and the KV-cache rules they need: a head width other than
hidden / heads, multi-head latent attention (one latent per token per layer) and sliding-window
layers.

Each expected value is worked by hand here from the published shapes, with its source beside it,
not read from the TOML: the parameter counts below are the sums of the weight matrices a config
gives, compared with the headline figure of the model card within a stated tolerance.
"""

from __future__ import annotations

import pytest

from tests.engine.conftest import calc
from wizard.app.io import design_from_dict
from wizard.engine.basis.expr import evaluate
from wizard.engine.basis.record import Chain, Recorder
from wizard.engine.demand import serving_physics as sp
from wizard.engine.demand.serving import kv_per_token
from wizard.engine.size import size
from wizard.model.catalog import ModelPreset

# ------------------------------------------------------------------ parameter counts by hand


def dense_params(layers, hidden, heads, kv_heads, head_dim, ffn, vocab, qk_norm=False) -> int:
    """Untied Llama-style decoder: q/o of heads x head_dim, k/v of kv_heads x head_dim, a gated
    MLP (three matrices), two RMSNorms a layer (Qwen3 adds per-head q and k norms), the input
    embedding, the output head and a final norm."""
    attention = 2 * hidden * heads * head_dim + 2 * hidden * kv_heads * head_dim
    norms = 2 * hidden + (2 * head_dim if qk_norm else 0)
    return layers * (attention + 3 * hidden * ffn + norms) + 2 * vocab * hidden + hidden


# (preset, published shapes -> count, headline, tolerance). Shapes from each config.json.
DENSE = [
    # Llama 3.1 8B: 32 layers, 4096, 32/8 heads of 128, FFN 14336, vocab 128256 -> 8.03 B of "8B"
    ("llama-3.1-8b", dense_params(32, 4096, 32, 8, 128, 14336, 128256), 8e9, 0.01),
    # Llama 3.1 / 3.3 70B: 80 layers, 8192, 64/8 heads, FFN 28672 -> 70.55 B of "70B"
    ("llama-3.1-70b", dense_params(80, 8192, 64, 8, 128, 28672, 128256), 70e9, 0.01),
    ("llama-3.3-70b", dense_params(80, 8192, 64, 8, 128, 28672, 128256), 70e9, 0.01),
    # Qwen3-8B: 36 layers, 4096, 32/8 heads of 128, FFN 12288, vocab 151936 -> 8.19 B of 8.2B
    ("qwen3-8b", dense_params(36, 4096, 32, 8, 128, 12288, 151936, qk_norm=True), 8.2e9, 0.01),
    # Qwen3-32B: 64 layers, 5120, 64/8 heads of 128, FFN 25600 -> 32.76 B of 32.8B
    ("qwen3-32b", dense_params(64, 5120, 64, 8, 128, 25600, 151936, qk_norm=True), 32.8e9, 0.01),
    # Mistral Small 3.1 text model: 40 layers, 5120, 32/8 heads of 128, FFN 32768, vocab 131072
    # -> 23.57 B; the 24B headline includes the vision encoder, hence 3 %
    ("mistral-small-3.1-24b", dense_params(40, 5120, 32, 8, 128, 32768, 131072), 24e9, 0.03),
    # Mistral Large 2407: 88 layers, 12288, 96/8 heads of 128, FFN 28672, vocab 32768 -> 122.61 B
    ("mistral-large-2", dense_params(88, 12288, 96, 8, 128, 28672, 32768), 123e9, 0.01),
]


@pytest.mark.parametrize(("preset", "count", "headline", "tolerance"), DENSE)
def test_dense_parameter_counts_match_the_headline(catalog, preset, count, headline, tolerance):
    p = catalog.models[preset]
    assert p.parameters == headline
    assert count == pytest.approx(headline, rel=tolerance)


def moe_params(layers, hidden, heads, kv_heads, head_dim, expert_ffn, experts, k, vocab,
               moe_layers=None, shared_ffn=0, dense_ffn=0, qk_norm=False):  # fmt: skip
    """(total, active) of a gated-MLP MoE decoder: every layer's attention; MoE layers with
    ``experts`` routed experts (k used), a router and an optional always-on shared expert;
    the other layers a dense MLP."""
    moe_layers = layers if moe_layers is None else moe_layers
    attention = 2 * hidden * heads * head_dim + 2 * hidden * kv_heads * head_dim + 2 * hidden
    attention += 2 * head_dim if qk_norm else 0
    expert = 3 * hidden * expert_ffn
    fixed = (
        layers * attention
        + moe_layers * (hidden * experts + 3 * hidden * shared_ffn)
        + (layers - moe_layers) * 3 * hidden * dense_ffn
        + 2 * vocab * hidden
        + hidden
    )
    return fixed + moe_layers * experts * expert, fixed + moe_layers * k * expert


MOE = [
    # Mixtral 8x22B: 56 layers, 6144, 48/8 heads, 8 experts of 16384, top 2 -> 140.6 / 39.2 B
    ("mixtral-8x22b", moe_params(56, 6144, 48, 8, 128, 16384, 8, 2, 32768), 0.01, 0.01),
    # Qwen3-30B-A3B: 48 layers, 2048, 32/4 heads of 128, 128 experts of 768, top 8 -> 30.5/3.35
    (
        "qwen3-30b-a3b",
        moe_params(48, 2048, 32, 4, 128, 768, 128, 8, 151936, qk_norm=True),
        0.01,
        0.02,
    ),
    # Qwen3-235B-A22B: 94 layers, 4096, 64/4 heads of 128, 128 experts of 1536, top 8
    (
        "qwen3-235b-a22b",
        moe_params(94, 4096, 64, 4, 128, 1536, 128, 8, 151936, qk_norm=True),
        0.01,
        0.01,
    ),
    # Llama 4 Scout text model: 48 MoE layers, 5120, 40/8 heads, 16 experts of 8192 + a shared
    # expert of 8192, top 1 -> 107.8 / 17.2 B; the 109B headline includes the vision encoder
    (
        "llama-4-scout",
        moe_params(48, 5120, 40, 8, 128, 8192, 16, 1, 202048, shared_ffn=8192),
        0.02,
        0.02,
    ),
    # Llama 4 Maverick: 24 MoE layers (128 experts of 8192, shared expert 8192, top 1)
    # interleaved with 24 dense layers of 16384 -> 400.7 / 17.2 B
    (
        "llama-4-maverick",
        moe_params(48, 5120, 40, 8, 128, 8192, 128, 1, 202048, 24, 8192, 16384),
        0.01,
        0.02,
    ),
]


@pytest.mark.parametrize(("preset", "counts", "tol_total", "tol_active"), MOE)
def test_moe_parameter_counts_match_the_headline(catalog, preset, counts, tol_total, tol_active):
    p = catalog.models[preset]
    total, active = counts
    assert total == pytest.approx(p.parameters, rel=tol_total)
    assert active == pytest.approx(p.active_parameters, rel=tol_active)


def test_deepseek_v3_parameters_from_its_config():
    """config_671B.json (deepseek-ai/DeepSeek-V3): dim 7168, 61 layers (3 dense, inter_dim
    18432), 128 heads, q_lora_rank 1536, kv_lora_rank 512, qk_nope 128, qk_rope 64, v_head 128,
    256 routed experts of 2048 + 1 shared, 8 active, vocab 129280. README: 671B total, 37B
    activated; README_WEIGHTS: 36.6B activated with the 0.9B output head."""
    h, heads, layers = 7168, 128, 61
    mla = (
        h * 1536 + 1536  # W_DQ and its norm
        + 1536 * heads * (128 + 64)  # W_UQ and W_QR
        + h * (512 + 64)  # W_DKV and W_KR
        + 512  # latent norm
        + 512 * heads * (128 + 128)  # W_UK and W_UV
        + heads * 128 * h  # W_O
        + 2 * h  # the layer's two norms
    )  # fmt: skip
    expert = 3 * h * 2048
    router = 256 * h + 256
    shared = layers * mla + 3 * 3 * h * 18432 + 58 * (expert + router) + h
    total = shared + 58 * 256 * expert + 2 * 129280 * h
    active = shared + 58 * 8 * expert + 129280 * h  # output head, not the embedding lookup
    assert total == pytest.approx(671e9, rel=0.001)
    assert active == pytest.approx(36.6e9, rel=0.002)


def gpt_oss_params(layers: int, experts: int) -> tuple[int, int, int]:
    """(total, active without the input embedding, MXFP4 expert weights) from ModelConfig in
    openai/gpt-oss gpt_oss/torch/model.py: hidden 2880, 64 heads of 64, 8 KV heads, biased qkv
    and out, one attention sink per head, experts of 2880 with biased mlp1 (2 x 2880 wide) and
    mlp2, a biased router, vocab 201088, untied unembedding."""
    h, hd, heads, kv, ffn, vocab = 2880, 64, 64, 8, 2880, 201088
    qkv = hd * (heads + 2 * kv)
    attention = h * qkv + qkv + hd * heads * h + h + heads + h  # qkv, out, sinks, norm
    expert_w = 2 * ffn * h + h * ffn
    expert = expert_w + 2 * ffn + h
    router = h * experts + experts
    total = layers * (attention + experts * expert + router + h) + 2 * vocab * h + h
    active = layers * (attention + 4 * expert + router + h) + vocab * h + h
    return total, active, layers * experts * expert_w


@pytest.mark.parametrize(
    ("preset", "layers", "experts"), [("gpt-oss-120b", 36, 128), ("gpt-oss-20b", 24, 32)]
)
def test_gpt_oss_parameters_and_mxfp4_checkpoint(catalog, preset, layers, experts):
    """Model card: 116.8B total / 5.1B active, 20.9B / 3.6B. MXFP4 (OCP MX v1.0): 32 FP4 values
    share one 8-bit scale, 4.25 bits = 0.53125 bytes a weight; the rest stays BF16 (README)."""
    p = catalog.models[preset]
    total, active, mxfp4 = gpt_oss_params(layers, experts)
    assert total == pytest.approx(p.parameters, rel=0.001)
    assert active == pytest.approx(p.active_parameters, rel=0.01)
    checkpoint_bytes = mxfp4 * (4 + 8 / 32) / 8 + (total - mxfp4) * 2
    assert p.int4_weight_bytes == pytest.approx(checkpoint_bytes / p.parameters, rel=1e-3)
    # the model card's checkpoint sizes: 60.8 GiB and 12.8 GiB
    assert checkpoint_bytes / 2**30 == pytest.approx(60.8 if experts == 128 else 12.8, abs=0.05)


# ------------------------------------------------------------------ KV cache, end to end


def serving(preset: str, precision: str = "bf16", gpu: str = "h100-sxm5-80gb", **inference):
    doc = {
        "workloads": [
            {
                "name": "Chat",
                "kind": "inference",
                "model": {"preset": preset},
                "precision": precision,
                "inference": {"input_tokens": 1000, "output_tokens": 200, **inference},
            }
        ],
        "hardware": {
            "gpu": gpu,
            "server": "dell-xe9680",
            "gpus_per_host": 8,
            "nvlink": True,
        },
    }
    return doc


def sized(doc: dict, catalog):
    return size(design_from_dict(doc), catalog)


KV = "workloads[0].serving.kv_gb_per_token"


def test_llama_3_1_70b_keeps_the_gqa_formula(catalog):
    """GQA: 2 (K and V) x 80 layers x 8 KV heads x 128 head dim x 2 bytes = 327,680 B a token
    (config.json of meta-llama/Llama-3.1-70B; Ainslie et al., arXiv:2305.13245)."""
    c = calc(sized(serving("llama-3.1-70b"), catalog), KV)
    assert c.formula == sp.KV_GB_PER_TOKEN.text
    assert c.value * 1e9 == pytest.approx(327_680)
    assert "kv_latent_dim" not in c.inputs and "window" not in c.inputs


def test_deepseek_v3_caches_one_latent_per_token_per_layer(catalog):
    """MLA: 61 layers x (kv_lora_rank 512 + qk_rope_head_dim 64) x 2 bytes = 70,272 B a token in
    16 bits (DeepSeek-V2, arXiv:2405.04434, section 2.1; config_671B.json), not the
    61 x 2 x 128 x 128 x 2 = 3,997,696 B that 128 KV heads would give. The cache is chosen
    16-bit here (FP8 weights would bring an FP8 cache by default)."""
    r = sized(serving("deepseek-v3", "fp8", "h200-sxm-141gb", kv_cache_precision="bf16"), catalog)
    c = calc(r, KV)
    assert c.formula == sp.KV_GB_PER_TOKEN_MLA.text
    assert c.value * 1e9 == pytest.approx(61 * 576 * 2) == pytest.approx(70_272)
    # the logged formula, evaluated with its logged inputs, gives the logged value
    assert evaluate(c.formula, c.inputs) == pytest.approx(c.value, rel=1e-12)
    # the latent has no heads to split: every tensor-parallel GPU keeps all of it
    kv = calc(r, "workloads[0].serving.kv_cache_gb_per_gpu")
    assert r.workloads[0].layout.tensor_parallel == 8
    assert kv.inputs["kv_shards"] == 1


def test_gpt_oss_120b_windowed_layers_hold_at_most_128_tokens(catalog):
    """gpt-oss-120b (model.py): 36 layers, every other one with a 128-token window, 8 KV heads of
    64. Per token per layer 2 x 8 x 64 x 2 bytes = 2,048 B. A request of 1,000 + 200 tokens has
    1,000 + 200 / 2 = 1,100 in flight on average: 18 full layers x 1,100 + 18 windowed layers x
    128 = 22,104 layer-tokens, 2,048 x 22,104 = 45,268,992 B, or 41,153.6 B a token (all 36
    layers full would be 73,728 B a token). The longest request, 8,192 tokens: 18 x 8,192 +
    18 x 128 = 149,760 layer-tokens, 306,708,480 B."""
    r = sized(serving("gpt-oss-120b", max_context_tokens=8192), catalog)
    avg = calc(r, KV)
    assert avg.formula == sp.KV_GB_PER_TOKEN_WINDOWED.text
    assert avg.inputs["context"] == 1100
    assert avg.value * 1e9 * 1100 == pytest.approx(2048 * (18 * 1100 + 18 * 128))
    assert avg.value * 1e9 == pytest.approx(45_268_992 / 1100)
    longest = calc(r, "workloads[0].serving.kv_gb_per_token_longest")
    assert longest.value * 1e9 * 8192 == pytest.approx(306_708_480)
    room = calc(r, "workloads[0].serving.longest_request_gb_per_gpu")
    assert room.inputs["kv_gb_per_token"] == longest.value
    for c in (avg, longest):
        assert evaluate(c.formula, c.inputs) == pytest.approx(c.value, rel=1e-12)


def test_a_window_longer_than_the_request_changes_nothing():
    """With the context inside the window every layer keeps all of it: the windowed formula
    gives the full-attention figure (Qwen3-32B shapes: 2 x 64 x 8 x 128 x 2 = 262,144 B)."""
    full = sp.KV_GB_PER_TOKEN(layers=64, kv_heads=8, head_dim=128, kv_bytes=2)
    windowed = sp.KV_GB_PER_TOKEN_WINDOWED(
        layers=64, window_layers=32, window=4096, context=4000, kv_heads=8, head_dim=128, kv_bytes=2
    )
    assert full * 1e9 == pytest.approx(262_144)
    assert windowed == pytest.approx(full)


def test_head_dim_sets_the_kv_cache_where_it_differs_from_hidden_over_heads(catalog):
    """Qwen3-32B: head_dim 128 where hidden / heads = 5120 / 64 = 80. 2 x 64 layers x 8 x 128 x
    2 bytes = 262,144 B a token; with 80 it would be 163,840."""
    c = calc(sized(serving("qwen3-32b"), catalog), KV)
    assert c.inputs["head_dim"] == 128
    assert c.value * 1e9 == pytest.approx(262_144)


# ------------------------------------------------------------------ each rule's negative case


def _transformer(**extra) -> sp.Transformer:
    return sp.Transformer("m", 70e9, 70e9, 80, 8192, 64, 8, 2.0, 2.0, **extra)


def test_without_a_latent_the_kv_cache_is_split_over_the_kv_heads():
    assert sp.kv_shards(_transformer(), 4) == 4
    assert sp.kv_shards(_transformer(), 16) == 8  # copied when fewer KV heads than GPUs
    assert sp.kv_shards(_transformer(kv_latent_dim=576), 8) == 1


def test_each_layout_logs_its_own_formula_and_it_evaluates_to_the_value():
    for extra, formula in (
        ({}, sp.KV_GB_PER_TOKEN),
        ({"kv_latent_dim": 576}, sp.KV_GB_PER_TOKEN_MLA),
        ({"window": 128, "window_layers": 40}, sp.KV_GB_PER_TOKEN_WINDOWED),
    ):
        rec = Recorder()
        value = kv_per_token(Chain(rec, "k"), _transformer(**extra), 5000)
        (c,) = rec.calculations
        assert c.formula == formula.text
        assert evaluate(c.formula, c.inputs) == pytest.approx(value, rel=1e-12)


def test_int4_weight_bytes_apply_at_int4_only(catalog):
    """gpt-oss-120b at int4 takes its checkpoint's 0.5586 bytes a parameter (116.8e9 x 0.5586 =
    65.2 GB); at bf16 the usual 2 bytes; a preset without the field keeps 0.5 at int4."""
    weights = "workloads[0].serving.weights_gb"
    four = calc(sized(serving("gpt-oss-120b", "int4"), catalog), weights)
    assert four.inputs["weight_bytes"] == pytest.approx(0.5586)
    assert four.value == pytest.approx(116.8 * 0.5586)
    sixteen = calc(sized(serving("gpt-oss-120b", "bf16"), catalog), weights)
    assert sixteen.inputs["weight_bytes"] == 2
    plain = calc(sized(serving("llama-3.1-8b", "int4"), catalog), weights)
    assert plain.inputs["weight_bytes"] == 0.5


def _preset(**extra) -> dict:
    return {
        "id": "m",
        "name": "m",
        "family": "m",
        "architecture": "transformer",
        "parameters": 1e9,
        "layers": 24,
        "hidden_size": 2048,
        "heads": 16,
        "kv_heads": 8,
        "vocab_size": 32000,
        "source": "a test preset",
        **extra,
    }


@pytest.mark.parametrize(
    "extra",
    [
        {"sliding_window": 128},  # without the layers it applies to
        {"sliding_window_layers": 12},
        {"sliding_window": 128, "sliding_window_layers": 25},  # more than the model has
        {"sliding_window": 128, "sliding_window_layers": 12, "kv_latent_dim": 576},
        {"int4_weight_bytes": 0.4},  # below 4 bits
    ],
)
def test_the_schema_refuses_an_inconsistent_attention_layout(extra):
    with pytest.raises(ValueError):
        ModelPreset.model_validate(_preset(**extra))
    ModelPreset.model_validate(_preset())  # and the base preset is valid
