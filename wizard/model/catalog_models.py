"""The model presets: each model's shape (layers, widths, heads, vocabulary, experts) as its
paper or model card gives it, and what it measured where a preset carries that."""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field, model_validator

from wizard.model.catalog_base import PositiveFloat, Sourced

# ---------------------------------------------------------------------------------- ML models


class ModelArch(StrEnum):
    TRANSFORMER = "transformer"
    MOE_TRANSFORMER = "moe-transformer"
    CNN = "cnn"


class ModelPreset(Sourced):
    name: str
    family: str
    architecture: ModelArch
    parameters: PositiveFloat = Field(description="Total parameters.")
    active_parameters: PositiveFloat | None = Field(
        default=None, description="Parameters used per token (mixture of experts)."
    )
    experts: int | None = Field(
        default=None, ge=2, le=4096, description="Routed experts per MoE layer."
    )
    experts_per_token: int | None = Field(
        default=None, ge=1, le=4096, description="Routed experts each token uses per layer."
    )
    tied_embeddings: bool = Field(
        default=False, description="The output projection reuses the input embedding."
    )
    layers: int = Field(ge=1, le=10_000)
    hidden_size: int | None = Field(default=None, ge=1, le=1_000_000)
    ffn_hidden_size: int | None = Field(default=None, ge=1, le=10_000_000)
    heads: int | None = Field(default=None, ge=1, le=10_000)
    kv_heads: int | None = Field(default=None, ge=1, le=10_000)
    vocab_size: int | None = Field(default=None, ge=1, le=10_000_000)
    max_context: int | None = Field(default=None, ge=1, le=100_000_000)
    head_dim: int | None = Field(
        default=None,
        ge=1,
        le=100_000,
        description="Width of one attention head where it is not hidden_size / heads (Qwen3, "
        "gpt-oss, Mistral Small 3); it sets the KV cache per KV head.",
    )
    kv_latent_dim: int | None = Field(
        default=None,
        ge=1,
        le=1_000_000,
        description="Multi-head latent attention: values cached per token per layer (DeepSeek-V3: "
        "kv_lora_rank 512 + qk_rope_head_dim 64 = 576), in place of 2 x kv_heads x head_dim.",
    )
    sliding_window: int | None = Field(
        default=None,
        ge=1,
        le=100_000_000,
        description="Tokens a sliding-window layer attends to, so all its KV cache holds.",
    )
    sliding_window_layers: int | None = Field(
        default=None,
        ge=1,
        le=10_000,
        description="Layers using the sliding window; the others attend to the whole context.",
    )
    int4_weight_bytes: float | None = Field(
        default=None,
        ge=0.5,
        le=2,
        allow_inf_nan=False,
        description="Bytes per parameter of the model's own 4-bit checkpoint (block scales and "
        "the tensors it keeps in 16 bits included), used at int4 in place of 0.5.",
    )
    forward_gflops_per_sample: PositiveFloat | None = Field(
        default=None, description="Non-transformer presets: forward FLOPs for one sample."
    )
    activation_gb_per_sample: PositiveFloat | None = Field(
        default=None, description="Non-transformer presets: training activations per sample."
    )
    sample_bytes: PositiveFloat | None = Field(
        default=None, description="Typical stored size of one training sample."
    )
    relative_utilization: PositiveFloat | None = Field(
        default=None,
        le=2,
        description="Measured training utilization of this model over the transformer default "
        "(0.5): convolutions and normalisation reach a smaller share of peak than an LLM's "
        "matrix products. None: 1.",
    )
    relative_utilization_source: str | None = None

    @model_validator(mode="after")
    def _shape(self) -> ModelPreset:
        if self.architecture is ModelArch.CNN:
            if self.forward_gflops_per_sample is None:
                raise ValueError("CNN presets need forward_gflops_per_sample")
        else:
            missing = [
                f
                for f in ("hidden_size", "heads", "kv_heads", "vocab_size")
                if getattr(self, f) is None
            ]
            if missing:
                raise ValueError(f"transformer presets need {', '.join(missing)}")
            if self.heads and self.kv_heads and self.heads % self.kv_heads:
                raise ValueError("heads must be a multiple of kv_heads")
        if (self.sliding_window is None) != (self.sliding_window_layers is None):
            raise ValueError("give both sliding_window and sliding_window_layers, or neither")
        if self.sliding_window_layers is not None and self.sliding_window_layers > self.layers:
            raise ValueError("sliding_window_layers cannot exceed layers")
        if self.kv_latent_dim is not None and self.sliding_window is not None:
            raise ValueError("the KV cache formula for latent attention has no sliding window")
        if (self.experts is None) != (self.experts_per_token is None):
            raise ValueError("give both experts and experts_per_token, or neither")
        if self.experts is not None and self.experts_per_token is not None:
            if self.experts_per_token >= self.experts:
                raise ValueError("experts_per_token must be fewer than experts")
            if self.active_parameters is None or self.active_parameters >= self.parameters:
                raise ValueError("an MoE preset needs active_parameters below parameters")
        return self
