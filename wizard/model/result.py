"""The Result: everything a reader needs from a sizing run, JSON-serializable.

Headline figures are traceable: ``calculations`` records, for each, the formula, the substituted
inputs, the value, the unit and the source.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from wizard.model.buildout import Bom, Power, Racks, Topology
from wizard.model.platform import SoftwareResult, StorageResult


class Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Severity(StrEnum):
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"


class Calculation(Out):
    id: str = Field(description="Stable key, e.g. 'workload[0].memory.weights'.")
    formula: str
    inputs: dict[str, float | int | str]
    value: float
    unit: str
    source: str


class Warning_(Out):
    code: str
    severity: Severity
    message: str


class Decision(Out):
    id: int
    text: str
    reason: str


class MemoryBreakdown(Out):
    """GB (10^9 bytes) per GPU of a replica, after sharding."""

    weights: float
    gradients: float
    optimizer: float
    activations: float
    kv_cache: float
    overhead: float
    workspace: float = Field(
        description="Memory a development or HPC user asks for, or a whole GPU given by count."
    )
    total: float


class Layout(Out):
    data_parallel: int
    tensor_parallel: int
    pipeline_parallel: int
    zero_stage: int
    chosen_by_engine: bool
    reason: str
    shard_group: int = Field(
        default=1, description="Data-parallel GPUs that share the model states (ZeRO / FSDP)"
    )
    recompute: str | None = Field(default=None, description="'none', 'selective' or 'full'")


class TargetCheck(Out):
    """One serving target against the figure the design delivers."""

    metric: str = Field(description="'ttft', 'itl' or 'throughput'")
    target: float
    value: float
    unit: str
    met: bool
    shortfall: float = Field(
        description="How far the figure misses the target, as a share of the target; 0 when met"
    )


class ServingResult(Out):
    """An LLM serving group at its planned load: per replica and for the service."""

    input_tokens: int
    output_tokens: int
    max_context_tokens: int
    kv_cache_bytes_per_element: float
    load_sequences: int = Field(description="Requests in flight across the service at the peak")
    sequences_per_replica: int
    max_sequences_per_replica: int = Field(description="What the KV cache of a replica holds")
    ttft_ms: float
    itl_ms: float
    prefill_ms: float = Field(description="One prompt alone, before any queueing")
    decode_step_ms: float = Field(description="One decode step with the planned batch")
    tokens_per_s_per_replica: float = Field(description="Generated tokens per second")
    tokens_per_s_total: float
    requests_per_s_total: float
    decode_bound: str = Field(description="'memory bandwidth' or 'compute'")
    accelerator: str = Field(description="What one GPU of a replica is: a whole GPU or a slice")
    slice_profile: str | None = Field(
        default=None, description="The MIG or vGPU profile a one-GPU replica runs on, if any"
    )
    gpu_share: float = Field(default=1.0, description="Share of a physical GPU one replica takes")
    compute_share: float = Field(
        default=1.0, description="Share of a GPU's compute and bandwidth one replica gets"
    )
    targets: list[TargetCheck]


class WorkloadResult(Out):
    name: str
    kind: str
    sized_from: str = Field(description="'model', 'shared' (per-user need) or 'gpus_per_member'")
    memory_gb: MemoryBreakdown
    memory_gb_per_replica: float
    fits_one_gpu: bool
    gpus_per_replica: int
    replicas: int
    members: int
    gpus_total: int
    layout: Layout | None = None
    training_flops: float | None = None
    iterations_per_epoch: float | None = None
    compute_seconds_per_iteration: float | None = None
    allreduce_gb_per_gpu_per_iteration: float | None = None
    allreduce_gb_large_ring_limit: float | None = None
    allreduce_seconds_per_iteration: float | None = None
    allreduce_seconds_large_ring_limit: float | None = None
    allreduce_link: str | None = None
    communication_share: float | None = None
    communication_hours_total: float | None = None
    communication_hours_large_ring_limit: float | None = None
    time_to_train_hours: float | None = None
    gpus_for_target_time: int | None = None
    iteration_seconds: float | None = None
    pipeline_bubble_share: float | None = Field(
        default=None, description="Bubble time over ideal compute time, (p - 1) / m"
    )
    tensor_parallel_seconds_per_iteration: float | None = None
    fine_tuning_method: str | None = Field(default=None, description="'full', 'lora' or 'qlora'")
    planned_slice: str | None = Field(
        default=None, description="MIG or vGPU profile a one-GPU member was planned on"
    )
    planned_compute_share: float = Field(
        default=1.0, description="Share of a GPU's compute one member was planned on"
    )
    trainable_parameters: float | None = None
    serving: ServingResult | None = None
    sharing_mode: str | None = None
    slot_profile: str | None = Field(
        default=None, description="vGPU profile, MIG profile, 'whole GPU' or 'GPU share'"
    )
    vgpu_type: str | None = Field(
        default=None,
        description="The vGPU type an administrator assigns to each VM: the time-sliced "
        "profile, or the MIG-backed type of the MIG instance (e.g. H100-3-40C)",
    )
    gpus_allocated: float | None = Field(
        default=None, description="Physical GPUs this group takes after packing (fractions add up)"
    )


class Cluster(Out):
    gpus_demand: int
    gpus_per_host: int
    hosts_for_capacity: int
    hosts_for_ha: int
    hosts_for_maintenance: int
    hosts_total: int
    gpus_total: int
    host_failures_tolerated: int
    gpus_after_failures: int
    gpus_after_failures_and_maintenance: int
    capacity_after_failures_ok: bool


class Slot(Out):
    """One allocation on one physical GPU: a whole GPU, a vGPU, a MIG instance or a remote share."""

    workload: str
    kind: str = Field(description="'whole', 'vgpu', 'mig' or 'remote'")
    profile: str | None = Field(default=None, description="e.g. '3g.40gb' or 'H100XM-10C'")
    start: int | None = Field(default=None, description="MIG memory-slice start position")
    memory_gb: float
    compute_share: float = Field(description="Share of the GPU's compute this slot may use, 0-1")
    users: int = Field(
        default=1,
        description="Members this slot serves (one per slot, or the "
        "replica's GPUs for multi-GPU members)",
    )
    demand_share: float = Field(
        description="Share of the GPU the workload's stated need takes (max of memory and compute)"
    )


class GpuAssignment(Out):
    host: int
    gpu: int
    mode: str
    layout: str = Field(description="e.g. '3g.40gb@0 + 2g.20gb@4 + 1g.10gb@6' or 'H100XM-10C x8'")
    slots: list[Slot]
    memory_used_gb: float
    compute_used: float
    utilization: float = Field(description="Share of the GPU taken by stated needs, 0-1")


class HostAssignment(Out):
    host: int
    gpus: list[GpuAssignment]


class Packing(Out):
    """Where every workload runs under the modes the design chose, host by host."""

    hosts: list[HostAssignment]
    gpus_used: int
    hosts_used: int
    mean_utilization: float


class ModeOption(Out):
    """One row of the side-by-side comparison of sharing modes for this design."""

    mode: str = Field(description="'as-designed', 'passthrough', 'vgpu', 'mig' or 'remote'")
    label: str
    available: bool
    reason: str = Field(description="Why the mode cannot serve this design, when it cannot")
    gpus: int
    hosts_for_capacity: int
    hosts_total: int
    mean_utilization: float
    isolation: str
    live_migration: str
    ha_behaviour: str
    licences: str
    caveats: list[str]


class Result(Out):
    schema_version: int = 1
    gpu: str
    server: str
    cluster: Cluster
    workloads: list[WorkloadResult]
    calculations: list[Calculation]
    warnings: list[Warning_]
    decisions: list[Decision]
    packing: Packing | None = None
    sharing_comparison: list[ModeOption] = Field(default_factory=list)
    storage: StorageResult | None = None
    software: SoftwareResult | None = None
    topology: Topology | None = None
    power: Power | None = None
    racks: Racks | None = None
    bom: Bom | None = None
    assumptions: dict[str, float | int | str | bool]
