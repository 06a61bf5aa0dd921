"""Peak tensor throughput by precision, and the FLOPs per parameter per token of training."""

from __future__ import annotations

from wizard.model.catalog import Gpu
from wizard.model.design import Precision, Recompute

# Which catalog throughput a precision runs at. Mixed precision trains on the 16-bit tensor
# cores; FP32 "training" on A100 and later uses TF32 tensor cores only when TF32 is chosen.
_TFLOPS_FIELD: dict[Precision, str] = {
    Precision.FP32: "fp32",
    Precision.TF32: "tf32",
    Precision.BF16: "bf16",
    Precision.FP16: "fp16",
    Precision.FP8: "fp8",
    Precision.INT8: "int8",
    Precision.INT4: "int4",
    Precision.FP4: "fp4",
}


def peak_tflops(gpu: Gpu, precision: Precision) -> tuple[float, str]:
    """Dense peak for the precision, falling back to the nearest wider path the GPU has (FP4 to
    FP8: NVFP4 weights run FP4 tensor cores only on Blackwell)."""
    order = [Precision.INT4, Precision.INT8, Precision.FP8, Precision.BF16, Precision.FP16]
    order += [Precision.TF32, Precision.FP32]
    if precision is Precision.FP4:
        order = [Precision.FP4, *order[2:]]
    start = order.index(precision) if precision in order else order.index(Precision.FP32)
    for p in order[start:]:
        value = getattr(gpu.tflops, _TFLOPS_FIELD[p])
        if value:
            return float(value), _TFLOPS_FIELD[p]
    return float(gpu.tflops.fp32), "fp32"


def flops_multiplier(recompute: Recompute) -> int:
    """6 (forward 2 + backward 4) per parameter per token; 8 when the forward is recomputed."""
    return 8 if recompute is Recompute.FULL else 6
