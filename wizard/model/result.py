"""The Result: everything a reader needs from a sizing run, JSON-serializable.

Headline figures are traceable: ``calculations`` records, for each, the formula, the substituted
inputs, the value, the unit and the source.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from wizard.model.buildout import Bom, Power, Racks, Topology
from wizard.model.design import FineTuningMethod, SharingMode, WorkloadKind
from wizard.model.platform import SoftwareResult, StorageResult


class Out(BaseModel):
    # built on first use, not at import: the wizard shows its window before anything is sized
    model_config = ConfigDict(extra="forbid", defer_build=True)


class Severity(StrEnum):
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"


# what bounds a decode step when the serving engine's scheduling outlasts the GPU's work
HOST_BOUND = "the serving engine's host processor"


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
    field: str = Field(
        default="",
        description="The design field an error is about (e.g. 'workloads[0].sharing_mode'), so "
        "every editor shows it where it can be fixed; empty for other warnings",
    )


class DecisionTopic(StrEnum):
    """What a decision is about; a design of several clusters decides the network, power and
    racks for all clusters together, so a cluster's own decisions on them are not its answer."""

    DESIGN = "design"
    NETWORK = "network"
    POWER = "power"
    RACKS = "racks"


SHARED_TOPICS = frozenset({DecisionTopic.NETWORK, DecisionTopic.POWER, DecisionTopic.RACKS})


class Decision(Out):
    id: int
    text: str
    reason: str
    topic: DecisionTopic = DecisionTopic.DESIGN
    implication: str = Field(default="", description="What the decision means for the customer")


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
    memory_basis: str | None = Field(
        default=None,
        description="The training software, attention kernel and stated choices the memory "
        "per GPU is counted as, in words (a training group sized from its model)",
    )


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
    replicas: int = Field(default=1, description="Replicas of the service, each with its own GPUs")
    sequences_planned: int = Field(
        default=0,
        description="Requests in flight across the service as planned: each replica's times the "
        "replicas (the one place this product is formed)",
    )
    max_sequences_per_replica: int = Field(description="What the KV cache of a replica holds")
    ttft_ms: float
    itl_ms: float
    prefill_ms: float = Field(description="One prompt alone, before any queueing")
    decode_step_ms: float = Field(description="One decode step with the planned batch")
    tokens_per_s_per_replica: float = Field(description="Generated tokens per second")
    tokens_per_s_total: float
    requests_per_s_total: float
    requests_in_flight: float | None = Field(
        default=None,
        description="Requests the service holds at once at its throughput demand (Little's "
        "law); None without a throughput demand",
    )
    decode_bound: str = Field(description=f"'memory bandwidth', 'compute' or '{HOST_BOUND}'")
    accelerator: str = Field(description="What one GPU of a replica is: a whole GPU or a slice")
    slice_profile: str | None = Field(
        default=None, description="The MIG or vGPU profile a one-GPU replica runs on, if any"
    )
    gpu_share: float = Field(default=1.0, description="Share of a physical GPU one replica takes")
    compute_share: float = Field(
        default=1.0, description="Share of a GPU's compute and bandwidth one replica gets"
    )
    targets: list[TargetCheck]


class SizedFrom(StrEnum):
    """What a group's GPU count was derived from."""

    MODEL = "model"
    SHARED = "shared"
    GPUS_PER_MEMBER = "gpus_per_member"


class TrainingFigures(Out):
    """Time and traffic of a training or fine-tuning group sized from its model. A figure is
    None where its input is unknown (e.g. no dataset size gives no iterations per epoch)."""

    flops: float | None = None
    iterations_per_epoch: float | None = None
    compute_seconds_per_iteration: float | None = None
    allreduce_gb_per_gpu_per_iteration: float | None = None
    allreduce_gb_large_ring_limit: float | None = None
    allreduce_seconds_per_iteration: float | None = None
    allreduce_seconds_large_ring_limit: float | None = None
    allreduce_link: str | None = Field(
        default=None, description="The link the gradient ring runs over, None for one replica"
    )
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
    fine_tuning_method: FineTuningMethod | None = None
    trainable_parameters: float | None = None


class WorkloadSharing(Out):
    """How a group is placed on physical GPUs under its sharing mode, after packing."""

    mode: SharingMode
    slot_profile: str | None = Field(
        default=None, description="vGPU profile, MIG profile, 'whole GPU' or 'GPU share'"
    )
    vgpu_type: str | None = Field(
        default=None,
        description="The vGPU type an administrator assigns to each VM: the time-sliced "
        "profile, or the MIG-backed type of the MIG instance (e.g. H100-3-40C)",
    )
    gpus_allocated: float = Field(
        description="Physical GPUs this group takes after packing (fractions add up)"
    )


class WorkloadSizing(Out):
    """A group's demand, before it is placed on GPUs: what each sizer returns."""

    name: str
    kind: WorkloadKind
    sized_from: SizedFrom
    memory_gb: MemoryBreakdown
    memory_gb_per_replica: float
    fits_one_gpu: bool
    gpus_per_replica: int
    replicas: int = Field(
        description="Replicas of the whole group: every member's data-parallel replicas, "
        "serving replicas, active users or members"
    )
    members: int
    gpus_total: int
    layout: Layout | None = Field(
        default=None, description="Parallelism of one member; only for groups sized from a model"
    )
    planned_slice: str | None = Field(
        default=None, description="MIG or vGPU profile a one-GPU member was planned on"
    )
    planned_compute_share: float = Field(
        default=1.0, description="Share of a GPU's compute one member was planned on"
    )
    training: TrainingFigures | None = Field(
        default=None, description="Only for training and fine-tuning groups sized from a model"
    )
    serving: ServingResult | None = Field(
        default=None, description="Only for LLM serving groups a layout holds"
    )
    parameters: float | None = Field(
        default=None,
        description="The model's parameter count: the catalog's, or counted from a custom "
        "model's shape (logged); None for a group without a model",
    )
    active_parameters: float | None = Field(
        default=None, description="Parameters one token uses (a mixture of experts' share)"
    )
    kv_cache_bytes_per_element: float | None = Field(
        default=None,
        description="Bytes per KV-cache element a serving group keeps: the chosen precision, "
        "else the serving stack's default for the GPU; None without an inference block",
    )

    @property
    def replicas_per_member(self) -> int:
        return self.replicas // max(self.members, 1)


class WorkloadResult(WorkloadSizing):
    """A group's demand and its placement."""

    sharing: WorkloadSharing

    @classmethod
    def placed(cls, sizing: WorkloadSizing, sharing: WorkloadSharing) -> WorkloadResult:
        return cls(**dict(sizing), sharing=sharing)


class Cluster(Out):
    gpus_demand: int
    gpus_per_host: int
    hosts_for_capacity: int
    hosts_for_ha: int
    hosts_for_maintenance: int
    hosts_for_platform: int = Field(
        default=0,
        description="Hosts added to reach the platform's minimum cluster size (a VMware Cloud "
        "Foundation workload domain cluster: 3 with vSAN, else 2)",
    )
    hosts_total: int
    hosts_existing: int = Field(
        default=0,
        description="Hosts of an existing cluster, kept; hosts_total less these are added",
    )
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
    schema_version: int = 2
    gpu: str
    server: str
    cluster: Cluster
    workloads: list[WorkloadResult]
    calculations: list[Calculation]
    warnings: list[Warning_]
    decisions: list[Decision]
    packing: Packing
    sharing_comparison: list[ModeOption] = Field(default_factory=list)
    storage: StorageResult
    software: SoftwareResult
    topology: Topology
    power: Power
    racks: Racks
    bom: Bom
    assumptions: dict[str, float | int | str | bool]
