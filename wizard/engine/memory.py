"""GPU memory of one training replica, per GPU after sharding: weights, gradients, optimizer
states, activations and framework overhead (serving memory: serving.py). GB = 10^9 bytes."""

from __future__ import annotations

from dataclasses import dataclass

from wizard.engine import sources
from wizard.model.design import Optimizer, Precision, Recompute

GB = 1e9

# Bytes per parameter by precision (FP32/TF32 4, BF16/FP16 2, FP8/INT8 1, INT4 0.5).
PARAM_BYTES: dict[Precision, float] = {
    Precision.FP32: 4,
    Precision.TF32: 4,
    Precision.BF16: 2,
    Precision.FP16: 2,
    Precision.FP8: 1,
    Precision.INT8: 1,
    Precision.INT4: 0.5,
}

# Optimizer state bytes per parameter, not counting an FP32 master copy (ZeRO paper, 3.1).
OPTIMIZER_BYTES: dict[Optimizer, float] = {
    Optimizer.SGD: 0,
    Optimizer.SGD_MOMENTUM: 4,
    Optimizer.ADAM: 8,
    Optimizer.ADAMW: 8,
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

    @property
    def head_dim(self) -> float:
        return self.hidden / self.heads


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


def model_state_bytes_per_param(
    precision: Precision, optimizer: Optimizer, gradient_bytes: float
) -> float:
    return (
        PARAM_BYTES[precision]
        + gradient_bytes
        + OPTIMIZER_BYTES[optimizer]
        + master_copy_bytes(precision)
    )


def weights_gb(params: float, precision: Precision, sh: Sharding) -> float:
    shards = sh.model_parallel * (sh.data if sh.zero_stage >= 3 else 1)
    return params * PARAM_BYTES[precision] / shards / GB


def gradients_gb(params: float, gradient_bytes: float, sh: Sharding) -> float:
    shards = sh.model_parallel * (sh.data if sh.zero_stage >= 2 else 1)
    return params * gradient_bytes / shards / GB


def optimizer_gb(params: float, precision: Precision, optimizer: Optimizer, sh: Sharding) -> float:
    per_param = OPTIMIZER_BYTES[optimizer] + master_copy_bytes(precision)
    shards = sh.model_parallel * (sh.data if sh.zero_stage >= 1 else 1)
    return params * per_param / shards / GB


def activation_bytes_per_layer(
    shape: Shape,
    seq: int,
    micro_batch: int,
    recompute: Recompute,
    sh: Sharding,
    precision: Precision,
) -> float:
    """Korthikanti et al. (2022), Table 2: activation bytes of one transformer layer.

    ``sbh(34 + 5as/h)`` without parallelism; tensor parallelism divides all but the
    ``10 sbh`` kept whole (LayerNorm, dropout inputs) unless sequence parallelism splits those
    too; selective recomputation drops the ``5as/h`` attention term; full recomputation keeps
    only the layer input, ``2sbh``.
    """
    s, b, h, a, t = seq, micro_batch, shape.hidden, shape.heads, sh.tensor
    sbh = s * b * h
    attention = 5 * a * s / h
    if recompute is Recompute.FULL:
        per_layer = 2 * sbh / (t if sh.sequence_parallel else 1)
    elif recompute is Recompute.SELECTIVE:
        per_layer = sbh * 34 / t if sh.sequence_parallel else sbh * (10 + 24 / t)
    elif sh.sequence_parallel:
        per_layer = sbh * (34 + attention) / t
    else:
        per_layer = sbh * (10 + 24 / t + attention / t)
    return per_layer * activation_element_bytes(precision) / 2


def activations_gb(
    shape: Shape,
    seq: int,
    micro_batch: int,
    recompute: Recompute,
    sh: Sharding,
    precision: Precision,
) -> float:
    """All layers' activations on the busiest GPU.

    With the 1F1B pipeline schedule the first stage holds ``p`` micro-batches in flight for its
    ``L/p`` layers, so it stores ``L`` layers' worth whatever ``p`` is (Korthikanti, 4.2.3).
    """
    per_layer = activation_bytes_per_layer(shape, seq, micro_batch, recompute, sh, precision)
    return per_layer * shape.layers / GB


SOURCES = {
    "weights": sources.ZERO,
    "gradients": sources.SEED_MULTI_GPU,
    "optimizer": sources.ZERO,
    "activations": sources.KORTHIKANTI,
    "overhead": sources.ASSUMPTION,
}
