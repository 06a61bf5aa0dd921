"""The stated, editable efficiency factors and planning figures every sizing rests on, each
with its default's source, and the bounds that keep them physical."""

from __future__ import annotations

from pydantic import (
    Field,
    field_validator,
)

from wizard.model.fields import Fraction, Model

# ------------------------------------------------------------------------------ assumptions


class Assumptions(Model):
    """Editable engine assumptions; each default is stated with its source in the engine."""

    achievable_utilization: Fraction = Field(
        default=0.5,
        description="Share of peak dense TFLOPS the GPUs reach while they compute (model FLOPs "
        "utilization of the compute alone); the pipeline bubble and the communication not "
        "hidden are derived from the layout and added to it.",
    )
    link_efficiency: Fraction | None = Field(
        default=None,
        description="Share of a link's line rate an all-reduce achieves; None uses the measured "
        "share for each kind of link (NVLink/NVSwitch, PCIe, network).",
    )
    utilization_includes_communication: bool = Field(
        default=False,
        description="The utilization is a measured end-to-end figure (communication and "
        "pipeline bubbles included), so they are not added again.",
    )
    tensor_parallel_overlap: float = Field(
        default=0.0,
        ge=0,
        le=1,
        allow_inf_nan=False,
        description="Share of the tensor-parallel all-reduces hidden behind the matrix products "
        "(Megatron-Core's communication overlap with sequence parallelism); 0: none hidden.",
    )
    overlap_slowdown: float = Field(
        default=0.19,
        ge=0,
        le=1,
        allow_inf_nan=False,
        description="Training: how much slower the GPUs compute while a gradient or parameter "
        "exchange runs under that compute (shared SMs and memory bandwidth), as a share of the "
        "exchange's time; 0.19: the mean measured on A100 and H100 (Lee et al., "
        "arXiv:2507.03114); 0: overlap is free.",
    )
    gradient_bytes: float | None = Field(
        default=None,
        description="Bytes per gradient element; None: what the training stack keeps "
        "(Megatron-Core and PyTorch FSDP reduce FP32 gradients, torchtune and DeepSpeed 16-bit "
        "ones).",
    )
    framework_overhead_gb: float = Field(
        default=2.0,
        ge=0,
        le=1000,
        allow_inf_nan=False,
        description="Per GPU: the CUDA context, the libraries' workspaces and communication "
        "buffers, outside what the framework allocates for tensors.",
    )
    allocator_reserve: float = Field(
        default=0.05,
        ge=0,
        le=1,
        allow_inf_nan=False,
        description="Training: share above the tensors' own peak that PyTorch's caching "
        "allocator holds (rounded blocks, fragmentation): reserved over allocated, less one.",
    )
    serving_memory_utilization: Fraction = Field(
        default=0.9,
        description="Share of each GPU's memory a serving engine plans for weights, KV cache and "
        "workspace (vLLM's --gpu-memory-utilization).",
    )
    decode_bandwidth_efficiency: Fraction = Field(
        default=0.6,
        description="Share of peak memory bandwidth a decoding step achieves (MBU).",
    )
    moe_routing_imbalance: float = Field(
        default=1.25,
        ge=1,
        le=8,
        allow_inf_nan=False,
        description="Tokens the busiest expert receives over the mean; the experts' compute "
        "waits for it (1: perfectly balanced routing; 1.25 is the capacity factor Switch "
        "Transformers size experts for).",
    )
    serving_reserves_whole_request: bool = Field(
        default=True,
        description="The serving engine admits a request only when its KV cache can hold the "
        "prompt and the whole answer (TensorRT-LLM's default scheduler policy, which NIM's "
        "TensorRT-LLM profiles run); off: cache blocks are taken as tokens arrive (vLLM), so "
        "the average request, its prompt and half its answer, sets how many fit.",
    )
    serving_host_us_per_sequence: float = Field(
        default=29.4,
        ge=0,
        le=10_000,
        allow_inf_nan=False,
        description="The serving engine's host (CPU) time per request in flight for each "
        "decode step, microseconds: scheduling, sampling and each request's bookkeeping. It "
        "runs beside the GPU's work, so a step takes the longer of the two. 29.4 is "
        "TensorRT-LLM's measured 45.11 ms per step at 1,536 requests per GPU.",
    )
    prefill_compute_efficiency: Fraction = Field(
        default=0.5,
        description="Share of peak dense tensor throughput prompt processing achieves (MFU).",
    )
    serving_allreduce_peer_latency_us: float = Field(
        default=8.0,
        ge=0,
        le=10_000,
        allow_inf_nan=False,
        description="Added to a serving all-reduce's fixed cost for each GPU of the "
        "tensor-parallel group beyond two, microseconds: the all-reduce waits on every peer. "
        "8 is the two-GPU cost again, as a ring's start-up latencies grow; with it TensorRT-LLM "
        "0.14.0's Llama 3.1 70B on four H200 reads 17.4 ms between tokens, measured 18.",
    )
    serving_chunked_prefill: bool = Field(
        default=True,
        description="A new request's prompt rides in the running requests' decode steps "
        "(in-flight batching with chunked prefill), the weights read once for both; off: each "
        "prompt is a pass of its own.",
    )
    serving_first_token_host_ms: float = Field(
        default=3.5,
        ge=0,
        le=10_000,
        allow_inf_nan=False,
        description="The serving engine's time outside the GPU's pass for a request's first "
        "token (scheduling, launches, sampling), milliseconds: TensorRT-LLM's 7 ms for LLaMA 7B "
        "with 128 prompt tokens on an H100 less the 3.5 ms pass.",
    )
    achievable_utilization_range: tuple[Fraction, Fraction] = Field(
        default=(0.42, 0.57),
        description="Pessimistic and optimistic ends of the training utilization, for the "
        "ranges: the spread of the held-back published runs around the default 0.5 (their "
        "throughput 13 % below to 20 % above the engine's: 0.5 / 1.2 and 0.5 / 0.87).",
    )
    decode_bandwidth_efficiency_range: tuple[Fraction, Fraction] = Field(
        default=(0.52, 0.74),
        description="Ends of the decode bandwidth efficiency: NIM 1.8.0's 52 % (Llama 3.1 8B FP8 "
        "on one H100) to vLLM's 74 % (8B BF16, FP8 KV-cache post, 2026).",
    )
    prefill_compute_efficiency_range: tuple[Fraction, Fraction] = Field(
        default=(0.49, 0.56),
        description="Ends of the prefill compute efficiency: NIM 1.8.0's time to first token, "
        "0.49 (70B FP8 on two H100) to 0.56 (8B FP8 on one H100).",
    )
    collective_latency_us: float = Field(
        default=8.0,
        ge=0,
        le=10_000,
        allow_inf_nan=False,
        description="Fixed cost of one small all-reduce or stage hand-off, microseconds.",
    )
    sharp: bool = Field(default=False, description="In-network reduction (SHARP) on the fabric.")
    max_rack_power_kw: float = Field(default=15.0, ge=0.1, le=1000, allow_inf_nan=False)
    rack_units: int = Field(default=42, ge=10, le=60)
    cdu_spares: int = Field(
        default=1,
        ge=0,
        le=10,
        description="Spare in-row coolant distribution units beyond those the liquid heat "
        "needs (1 keeps the racks cooled while a unit is serviced, N+1).",
    )
    fabric_oversubscription: float = Field(
        default=1.0,
        ge=1,
        le=20,
        allow_inf_nan=False,
        description="Leaf downlink to uplink bandwidth ratio of the fabrics; 1 is non-blocking.",
    )

    @field_validator(
        "achievable_utilization_range",
        "decode_bandwidth_efficiency_range",
        "prefill_compute_efficiency_range",
    )
    @classmethod
    def _ordered(cls, value: tuple[float, float]) -> tuple[float, float]:
        if value[0] > value[1]:
            raise ValueError(f"give the pessimistic (lower) end first (got {list(value)})")
        return value

    @field_validator("gradient_bytes")
    @classmethod
    def _gradient_bytes(cls, value: float | None) -> float | None:
        if value is not None and value not in (0.5, 1, 2, 4):
            raise ValueError("gradient_bytes must be 4 (FP32), 2 (BF16/FP16), 1 or 0.5")
        return value
