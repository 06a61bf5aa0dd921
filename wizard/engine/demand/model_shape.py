"""A transformer's parameter count from its shape, for a custom model given by layers, widths,
heads, vocabulary and (where it has them) experts or latent attention.

Per layer (every matrix is input width x output width; biases are left out, as Llama, Mistral,
Qwen and DeepSeek have none):

- grouped-query attention (Ainslie et al., arXiv:2305.13245): Q and O are hidden x heads x
  head_dim, K and V hidden x kv_heads x head_dim;
- multi-head latent attention (DeepSeek-V2, arXiv:2405.04434, section 2.1): Q through a
  q_lora_rank down- and up-projection (or directly), K and V through one kv_lora_rank latent
  plus a shared RoPE key, O from heads x v_head_dim;
- the MLP: three hidden x ffn matrices when gated (SwiGLU: Llama, Mistral, Qwen, DeepSeek), two
  otherwise (GPT); a mixture-of-experts layer holds every routed and shared expert and a router
  of hidden x experts, of which a token uses the shared ones and ``experts_per_token``
  (Jiang et al., Mixtral of Experts, arXiv:2401.04088, section 2);
- two RMSNorm / LayerNorm weight vectors of hidden.

Plus the token embedding (and a separate output projection unless tied) and a final norm.
"""

from __future__ import annotations

from dataclasses import dataclass

from wizard.engine.basis.expr import Formula
from wizard.engine.basis.record import Chain
from wizard.model.design import CustomModel

SOURCE = (
    "Parameter count from the shape: attention, MLP and norm weights per layer plus the "
    "embeddings (Ainslie et al., arXiv:2305.13245; DeepSeek-AI, arXiv:2405.04434, section 2.1; "
    "Jiang et al., arXiv:2401.04088, section 2); checked against Llama 3.1 8B / 70B, Mixtral "
    "8x7B and DeepSeek-V3's published counts"
)

GQA = Formula("hidden * head_dim * (2 * heads + 2 * kv_heads)")
# Q through a low-rank latent (with its norm), or projected directly
MLA_Q_LORA = Formula(
    "hidden * q_lora_rank + q_lora_rank + q_lora_rank * heads * (qk_nope + qk_rope)"
)
MLA_Q = Formula("hidden * heads * (qk_nope + qk_rope)")
# K and V through one latent (with its norm) and a shared RoPE key; O from the value heads
MLA = Formula(
    "q_parameters + hidden * (kv_lora_rank + qk_rope) + kv_lora_rank"
    " + kv_lora_rank * heads * (qk_nope + v_head) + heads * v_head * hidden"
)
MLP = Formula("matrices * hidden * ffn")
MOE = Formula("(experts + shared_experts) * matrices * hidden * ffn + hidden * experts")
MOE_ACTIVE = Formula("(experts_per_token + shared_experts) * matrices * hidden * ffn")
TOTAL = Formula(
    "layers * (attention + 2 * hidden) + dense_layers * dense_mlp"
    " + (layers - dense_layers) * moe_mlp + embedding_copies * vocabulary * hidden + hidden"
)


@dataclass(frozen=True)
class Counted:
    parameters: float
    active: float


def count(chain: Chain, c: CustomModel) -> Counted:
    """Total and active parameters of the custom model, each step logged when the chain
    records."""
    h = c.hidden_size
    if c.kv_lora_rank:
        q_dims = dict(hidden=h, heads=c.heads, qk_nope=c.qk_nope_head_dim,
                      qk_rope=c.qk_rope_head_dim)  # fmt: skip
        if c.q_lora_rank:
            q = chain("model.query_parameters_per_layer", MLA_Q_LORA, "parameters", SOURCE,
                      q_lora_rank=c.q_lora_rank, **q_dims)  # fmt: skip
        else:
            q = chain("model.query_parameters_per_layer", MLA_Q, "parameters", SOURCE, **q_dims)
        attention = chain(
            "model.attention_parameters_per_layer", MLA, "parameters", SOURCE,
            q_parameters=q, hidden=h, heads=c.heads, qk_nope=c.qk_nope_head_dim,
            qk_rope=c.qk_rope_head_dim, kv_lora_rank=c.kv_lora_rank, v_head=c.v_head_dim,
        )  # fmt: skip
    else:
        attention = chain(
            "model.attention_parameters_per_layer", GQA, "parameters", SOURCE,
            hidden=h, head_dim=h / c.heads, heads=c.heads, kv_heads=c.kv_heads or c.heads,
        )  # fmt: skip
    matrices = 3 if c.gated_mlp else 2
    ffn = c.ffn_hidden_size or 4 * h
    dense = chain(
        "model.mlp_parameters_per_layer", MLP, "parameters", SOURCE,
        matrices=matrices, hidden=h, ffn=ffn,
    )  # fmt: skip
    dense_layers = c.layers
    moe = moe_active = 0.0
    if c.experts:
        dense_layers = c.dense_layers
        expert_ffn = c.moe_ffn_hidden_size or ffn
        moe = chain(
            "model.moe_parameters_per_layer", MOE, "parameters", SOURCE,
            experts=c.experts, shared_experts=c.shared_experts, matrices=matrices, hidden=h,
            ffn=expert_ffn,
        )  # fmt: skip
        moe_active = chain(
            "model.moe_active_parameters_per_layer", MOE_ACTIVE, "parameters", SOURCE,
            experts_per_token=c.experts_per_token or 1, shared_experts=c.shared_experts,
            matrices=matrices, hidden=h, ffn=expert_ffn,
        )  # fmt: skip
    common = dict(
        layers=c.layers, attention=attention, hidden=h, dense_layers=dense_layers,
        dense_mlp=dense, embedding_copies=1 if c.tied_embeddings else 2,
        vocabulary=c.vocab_size,
    )  # fmt: skip
    total = chain("model.parameters", TOTAL, "parameters", SOURCE, moe_mlp=moe, **common)
    active = total
    if c.experts:
        active = chain(
            "model.active_parameters", TOTAL, "parameters", SOURCE, moe_mlp=moe_active, **common
        )
    return Counted(total, active)


def parameter_count(c: CustomModel) -> Counted:
    """Total and active parameters of a custom model counted from its shape, unlogged: what a
    document states beside the model's name."""
    return count(Chain(), c)
