"""A custom model's parameter count from its shape, against the counts its publishers give:
Llama 3.1 8B / 70B / 405B (config.json shapes; Meta's 8.03 B, 70.6 B, 405 B), Mixtral 8x7B
(Mistral AI: 46.7 B total, 12.9 B active), DeepSeek-V3 (DeepSeek-AI, arXiv:2412.19437: 671 B
total, 37 B activated) and GPT-3 175B (Brown et al., Table 2.1)."""

from __future__ import annotations

import pytest

from tests.engine.conftest import calc
from wizard.app.io import design_from_dict
from wizard.engine.basis.record import Chain
from wizard.engine.demand.model_shape import MLA, MLA_Q_LORA, count
from wizard.engine.size import size
from wizard.model.design import CustomModel

LLAMA = {"kv_heads": 8, "vocab_size": 128_256}


def counted(**shape):
    return count(Chain(), CustomModel(**shape))


@pytest.mark.parametrize(
    ("shape", "published"),
    [
        (dict(LLAMA, layers=32, hidden_size=4096, heads=32, ffn_hidden_size=14336), 8.03e9),
        (dict(LLAMA, layers=80, hidden_size=8192, heads=64, ffn_hidden_size=28672), 70.6e9),
        (dict(LLAMA, layers=126, hidden_size=16384, heads=128, ffn_hidden_size=53248), 405e9),
    ],
    ids=["llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b"],
)
def test_dense_gqa_models(shape, published):
    """Per layer: Q and O 2 x h^2, K and V 2 x h x 8 x 128, three h x ffn MLP matrices, two
    norms; plus untied embeddings 2 x V x h. For the 8B by hand: 32 x (33.55 M + 8.39 M +
    176.16 M + 8,192) + 2 x 128,256 x 4,096 + 4,096 = 8.030 B."""
    by_hand_8b = 32 * (2 * 4096**2 + 2 * 4096 * 1024 + 3 * 4096 * 14336 + 2 * 4096)
    by_hand_8b += 2 * 128_256 * 4096 + 4096
    if shape["layers"] == 32:
        assert counted(**shape).parameters == by_hand_8b
    assert counted(**shape).parameters == pytest.approx(published, rel=0.005)


def test_mixtral_counts_every_expert_and_activates_two():
    c = counted(layers=32, hidden_size=4096, heads=32, kv_heads=8, vocab_size=32_000,
                ffn_hidden_size=14336, experts=8, experts_per_token=2)  # fmt: skip
    assert c.parameters == pytest.approx(46.7e9, rel=0.005)
    assert c.active == pytest.approx(12.9e9, rel=0.005)


def test_deepseek_v3_latent_attention_shared_expert_and_dense_layers():
    """61 layers of hidden 7,168; MLA with q_lora_rank 1,536, kv_lora_rank 512, RoPE 64, 128
    heads of 128; the first 3 layers dense (18,432 wide), the other 58 with 256 routed experts
    of 2,048 and one shared, 8 routed per token; vocabulary 129,280 (config.json)."""
    c = counted(layers=61, hidden_size=7168, heads=128, vocab_size=129_280, ffn_hidden_size=18432,
                experts=256, experts_per_token=8, shared_experts=1, moe_ffn_hidden_size=2048,
                dense_layers=3, kv_lora_rank=512, q_lora_rank=1536)  # fmt: skip
    assert c.parameters == pytest.approx(671e9, rel=0.005)
    assert c.active == pytest.approx(37e9, rel=0.02)


def test_gpt3_has_two_mlp_matrices_and_tied_embeddings():
    """Negative case of the gated MLP: GPT-3's 96 layers of 12,288 with a 4h, two-matrix MLP and
    tied embeddings hold 174.6 B (Brown et al.: 175.0 B with biases); counted as gated it would
    be a third more."""
    shape = dict(layers=96, hidden_size=12288, heads=96, vocab_size=50_257, tied_embeddings=True)
    gpt = counted(gated_mlp=False, **shape)
    assert gpt.parameters == pytest.approx(175e9, rel=0.005)
    assert counted(**shape).parameters > 1.3 * gpt.parameters


def test_the_design_logs_the_count_and_serves_the_moe_with_its_latent_cache(catalog):
    """A custom DeepSeek-V3 without a parameter count: the log shows the count, the serving
    plan reads the routed experts and caches the 512 + 64 latent per layer."""
    custom = dict(layers=61, hidden_size=7168, heads=128, vocab_size=129_280,
                  ffn_hidden_size=18432, experts=256, experts_per_token=8, shared_experts=1,
                  moe_ffn_hidden_size=2048, dense_layers=3, kv_lora_rank=512,
                  q_lora_rank=1536)  # fmt: skip
    doc = {
        "workloads": [{"name": "R1", "kind": "inference", "model": {"custom": custom},
                       "precision": "fp8",
                       "inference": {"input_tokens": 1000, "output_tokens": 200,
                                     "kv_cache_precision": "bf16"}}],
        "hardware": {"gpu": "h200-sxm-141gb", "server": "dell-xe9680", "gpus_per_host": 8,
                     "nvlink": True},
    }  # fmt: skip
    r = size(design_from_dict(doc), catalog)
    assert calc(r, "workloads[0].model.parameters").value == pytest.approx(671e9, rel=0.005)
    assert calc(r, "workloads[0].serving.kv_gb_per_token").value * 1e9 == 61 * 576 * 2
    assert "workloads[0].serving.decode.weights_read_gb.experts" in {c.id for c in r.calculations}


def test_latent_attention_without_a_query_latent():
    """DeepSeek-V2-Lite projects its queries directly (no q_lora_rank): 27 layers of 2,048, 16
    heads, kv_lora_rank 512, the first layer dense (10,944 wide), then 64 routed experts of 1,408
    and 2 shared, 6 routed per token, vocabulary 102,400 (config.json). Its model card: "15.7B
    parameters in total, of which 2.4B are activated for each token" — the activated count
    leaves out the input embedding's lookup (102,400 x 2,048 = 0.21 B)."""
    c = counted(layers=27, hidden_size=2048, heads=16, vocab_size=102_400, ffn_hidden_size=10944,
                experts=64, experts_per_token=6, shared_experts=2, moe_ffn_hidden_size=1408,
                dense_layers=1, kv_lora_rank=512)  # fmt: skip
    assert c.parameters == pytest.approx(15.7e9, rel=0.005)
    assert c.active - 102_400 * 2048 == pytest.approx(2.4e9, rel=0.03)


def test_deepseek_v3_latent_attention_layer_matches_its_weight_shapes():
    """One MLA layer of DeepSeek-V3 is the sum of its checkpoint's attention tensors
    (config.json: hidden 7,168, 128 heads, q_lora_rank 1,536, kv_lora_rank 512, qk_nope 128,
    qk_rope 64, v_head 128; model.safetensors.index.json names these weights):
    q_a_proj 7,168 x 1,536 = 11,010,048; q_a_layernorm 1,536; q_b_proj 1,536 x 128 x 192 =
    37,748,736 (query side 48,760,320); kv_a_proj_with_mqa 7,168 x (512 + 64) = 4,128,768;
    kv_a_layernorm 512; kv_b_proj 512 x 128 x (128 + 128) = 16,777,216; o_proj 128 x 128 x
    7,168 = 117,440,512. In all 187,107,328. Negative case: without the shared RoPE key the
    count is smaller by exactly its 7,168 x 64 weights."""
    shape = dict(hidden=7168, heads=128, qk_nope=128, qk_rope=64)
    q = MLA_Q_LORA(q_lora_rank=1536, **shape)
    assert q == 11_010_048 + 1536 + 37_748_736
    per_layer = MLA(q_parameters=q, kv_lora_rank=512, v_head=128, **shape)
    assert per_layer == 48_760_320 + 4_128_768 + 512 + 16_777_216 + 117_440_512 == 187_107_328
    # the same query side, no shared RoPE key: kv_a_proj loses its 7,168 x 64 columns
    no_rope = MLA(q_parameters=q, kv_lora_rank=512, v_head=128, **{**shape, "qk_rope": 0})
    assert per_layer - no_rope == 7168 * 64
