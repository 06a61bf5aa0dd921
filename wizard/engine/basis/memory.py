"""GPU memory of one training replica, per GPU after sharding: weights, gradients, optimizer
states, activations and framework overhead (serving memory: serving.py). GB = 10^9 bytes."""

from __future__ import annotations

from dataclasses import dataclass

from wizard.model.design import Optimizer, Precision

# Bytes per parameter by precision (FP32/TF32 4, BF16/FP16 2, FP8/INT8 1, INT4 0.5, FP4 0.5625).
PARAM_BYTES: dict[Precision, float] = {
    Precision.FP32: 4,
    Precision.TF32: 4,
    Precision.BF16: 2,
    Precision.FP16: 2,
    Precision.FP8: 1,
    Precision.INT8: 1,
    Precision.INT4: 0.5,
    # NVFP4: a 4-bit E2M1 value plus one FP8 (E4M3) scale per 16-value block, 4.5 bits (NVIDIA,
    # "Introducing NVFP4 for Efficient and Accurate Low-Precision Inference", 2025)
    Precision.FP4: 4.5 / 8,
}

# Optimizer state bytes per parameter, not counting an FP32 master copy (ZeRO paper, 3.1).
OPTIMIZER_BYTES: dict[Optimizer, float] = {
    Optimizer.SGD: 0,
    Optimizer.SGD_MOMENTUM: 4,
    Optimizer.ADAM: 8,
    Optimizer.ADAMW: 8,
    # bitsandbytes' 8-bit AdamW: both moments block-wise quantized to 1 byte (Dettmers et al.,
    # 8-bit Optimizers via Block-wise Quantization, arXiv:2110.02861, section 2)
    Optimizer.ADAMW_8BIT: 2,
}


def activation_element_bytes(precision: Precision) -> float:
    """Korthikanti's constants assume 16-bit activations; FP32/TF32 training stores 4 bytes."""
    return 4 if precision in (Precision.FP32, Precision.TF32) else 2


@dataclass(frozen=True)
class Shape:
    """What the memory formulas need to know about a transformer."""

    layers: int
    hidden: int
    heads: int
    kv_heads: int
    head_size: int = 0  # head width where not hidden / heads (Qwen3, gpt-oss); 0: hidden / heads

    @property
    def head_dim(self) -> float:
        return self.head_size or self.hidden / self.heads

    @property
    def attention_width(self) -> float:
        """Query heads x head width: what the attention scores and values are computed at."""
        return self.heads * self.head_dim


@dataclass(frozen=True)
class Sharding:
    tensor: int = 1
    pipeline: int = 1
    data: int = 1
    zero_stage: int = 0
    sequence_parallel: bool = False

    @property
    def model_parallel(self) -> int:
        return self.tensor * self.pipeline


def master_copy_bytes(precision: Precision) -> float:
    """Mixed precision keeps an FP32 master copy of the weights for the optimizer step."""
    return 4 if PARAM_BYTES[precision] < 4 else 0
