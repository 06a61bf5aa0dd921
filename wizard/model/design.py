"""The Design: every answer the wizard collects, and the whole content of a design file.

The Design is the single source of truth: wizard pages edit it, the CLI loads it, the engine sizes
it. Anything read from a file forbids unknown fields, so a typo is an error rather than an answer
silently ignored.
"""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from typing import Annotated

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from wizard.base.errors import field_path
from wizard.model.calibration import RANGES, Calibration
from wizard.model.existing import ExistingEstate
from wizard.model.text import plain_text

SCHEMA_VERSION = 3

Name = Annotated[str, Field(min_length=1, max_length=200), AfterValidator(plain_text)]
Text = Annotated[str, Field(max_length=20_000), AfterValidator(plain_text)]
Short = Annotated[str, Field(max_length=200), AfterValidator(plain_text)]
Ref = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9._-]{0,63}$")]
# Every float has finite bounds: a share below 0.001 or a positive figure below 1e-6 is no
# design a customer makes, and subnormal numbers (5e-324) would overflow the arithmetic.
Fraction = Annotated[float, Field(ge=0.001, le=1, allow_inf_nan=False)]
Positive = Annotated[float, Field(ge=1e-6, le=1e18, allow_inf_nan=False)]

# Bounds that keep numbers physical without getting in the way of very large designs.
MAX_GROUP_COUNT = 1_000_000
MAX_PARAMETERS = 1e14


class Model(BaseModel):
    # Each model's validator is built on its first use, not on import: the wizard's first page
    # validates only the project section, long before a whole Design.
    model_config = ConfigDict(extra="forbid", defer_build=True)


# --------------------------------------------------------------------------------- project


class ProjectInfo(Model):
    # The cover sets these in one table cell each: 200 characters is the most it is proven
    # (by a test) to hold on a page, as for a group's name.
    customer: Short = ""
    project_name: Short = ""
    architect: Short = ""
    date: dt.date | None = None
    logo_path: str | None = Field(default=None, max_length=4096)
    currency: str = Field(default="EUR", pattern=r"^[A-Z]{3}$")
    notes: Text = ""

    @field_validator("logo_path")
    @classmethod
    def _logo_path(cls, value: str | None) -> str | None:
        """Only the path is known at load; the report checks the file itself. A NUL or other
        control character cannot name a file and makes path functions raise."""
        if value is None:
            return None
        if not value.strip():
            raise ValueError("logo_path is empty; leave it out for no logo")
        bad = next((c for c in value if ord(c) < 32 or ord(c) == 127), None)
        if bad is not None:
            raise ValueError(f"control character {bad!r} in the logo path")
        return value

    @field_validator("date")
    @classmethod
    def _date(cls, value: dt.date | None) -> dt.date | None:
        """A proposal's date is of this era: year 0026 is a typo (and no Word document can
        carry it)."""
        if value is not None and not 2000 <= value.year <= 2100:
            raise ValueError(f"{value.isoformat()} is not a date between 2000 and 2100")
        return value


# ------------------------------------------------------------------------------- workloads


class WorkloadKind(StrEnum):
    TRAINING = "training"
    FINE_TUNING = "fine-tuning"
    INFERENCE = "inference"
    DEVELOPMENT = "development"
    HPC = "hpc"


class Precision(StrEnum):
    FP32 = "fp32"
    TF32 = "tf32"
    BF16 = "bf16"
    FP16 = "fp16"
    FP8 = "fp8"
    INT8 = "int8"
    INT4 = "int4"
    FP4 = "fp4"  # NVFP4: 4-bit floats with an FP8 scale per 16 values


class Optimizer(StrEnum):
    SGD = "sgd"
    SGD_MOMENTUM = "sgd-momentum"
    ADAM = "adam"
    ADAMW = "adamw"
    ADAMW_8BIT = "adamw-8bit"  # bitsandbytes' block-wise 8-bit moments (Dettmers et al. 2022)


class Recompute(StrEnum):
    NONE = "none"
    SELECTIVE = "selective"
    FULL = "full"


class TrainingStack(StrEnum):
    """The software that trains: it sets how the model states are held, which kernels store what
    for the backward pass and how the loss is computed (wizard.engine.demand.training_stack)."""

    MEGATRON = "megatron-core"
    FSDP = "pytorch-fsdp"  # PyTorch FSDP / FSDP2 with BF16 mixed precision (torchtitan)
    TORCHTUNE = "torchtune"  # pure BF16, chunked cross-entropy
    HF_PEFT = "hugging-face"  # Hugging Face Transformers Trainer, with PEFT for LoRA / QLoRA
    DEEPSPEED = "deepspeed"  # DeepSpeed ZeRO on Hugging Face models


class AttentionKernel(StrEnum):
    """How the attention core runs in training: fused kernels store no score matrix."""

    FUSED = "fused"  # FlashAttention / PyTorch SDPA / cuDNN: no s x s scores kept
    EAGER = "eager"  # scores, softmax and dropout as separate tensors (Korthikanti et al.)


class FineTuningMethod(StrEnum):
    FULL = "full"  # every weight trained
    LORA = "lora"  # frozen 16-bit base, low-rank adapters trained (Hu et al. 2021)
    QLORA = "qlora"  # frozen 4-bit base, low-rank adapters trained (Dettmers et al. 2023)


class LoraTargets(StrEnum):
    ATTENTION_MLP = "attention-mlp"  # every projection of attention and MLP
    ATTENTION = "attention"  # query, key, value and output projections only


class SharingMode(StrEnum):
    PASSTHROUGH = "passthrough"
    VGPU = "vgpu"
    MIG = "mig"  # MIG-backed vGPU: vSphere creates each instance for its VM
    # The GPUs passed through whole to Linux VMs (Kubernetes workers) that partition them with
    # MIG themselves (NVIDIA's MIG manager or nvidia-mig-parted in the guest)
    MIG_GUEST = "mig-guest"
    REMOTE = "remote"


# The modes whose GPUs are cut into MIG instances (planned and packed alike)
MIG_MODES = (SharingMode.MIG, SharingMode.MIG_GUEST)


class CustomModel(Model):
    """A model described by its shape rather than picked from the catalog."""

    parameters: Positive | None = Field(
        default=None,
        le=MAX_PARAMETERS,
        description="Total parameters; None: counted from the shape below.",
    )
    layers: int = Field(ge=1, le=10_000)
    hidden_size: int = Field(ge=1, le=1_000_000)
    heads: int = Field(ge=1, le=10_000)
    kv_heads: int | None = Field(default=None, ge=1, le=10_000)
    vocab_size: int = Field(default=32_000, ge=1, le=10_000_000)
    ffn_hidden_size: int | None = Field(
        default=None, ge=1, le=10_000_000, description="Feed-forward width; None: 4 x hidden."
    )
    tied_embeddings: bool = Field(
        default=False, description="The output projection reuses the input embedding."
    )
    gated_mlp: bool = Field(
        default=True,
        description="Three MLP matrices (SwiGLU: Llama, Mistral, Qwen, DeepSeek); False: two "
        "(GPT). Used when the parameters are counted from the shape.",
    )
    experts: int | None = Field(
        default=None, ge=2, le=4096, description="Routed experts per MoE layer; None: dense."
    )
    experts_per_token: int | None = Field(default=None, ge=1, le=4096)
    shared_experts: int = Field(default=0, ge=0, le=64)
    moe_ffn_hidden_size: int | None = Field(
        default=None, ge=1, le=10_000_000, description="One expert's width; None: ffn_hidden_size."
    )
    dense_layers: int = Field(
        default=0, ge=0, le=10_000, description="Leading layers with a dense MLP (DeepSeek-V3: 3)."
    )
    kv_lora_rank: int | None = Field(
        default=None,
        ge=1,
        le=1_000_000,
        description="Multi-head latent attention: the cached latent's width (DeepSeek: 512).",
    )
    q_lora_rank: int | None = Field(default=None, ge=1, le=1_000_000)
    qk_nope_head_dim: int = Field(default=128, ge=1, le=100_000)
    qk_rope_head_dim: int = Field(default=64, ge=1, le=100_000)
    v_head_dim: int = Field(default=128, ge=1, le=100_000)

    @model_validator(mode="after")
    def _heads(self) -> CustomModel:
        if (self.experts is None) != (self.experts_per_token is None):
            raise ValueError("experts and experts_per_token are given together (an MoE model)")
        if self.experts and self.experts_per_token and self.experts_per_token > self.experts:
            raise ValueError(
                f"experts_per_token ({self.experts_per_token}) is more than experts "
                f"({self.experts})"
            )
        if self.dense_layers > self.layers:
            raise ValueError(
                f"the dense layers ({self.dense_layers}) are more than the layers ({self.layers})"
            )
        if self.kv_heads is not None and self.heads % self.kv_heads:
            raise ValueError(
                f"the attention heads ({self.heads}) must be a multiple of the KV heads "
                f"({self.kv_heads})"
            )
        if self.hidden_size % self.heads:
            raise ValueError(
                f"the hidden size ({self.hidden_size}) must be a multiple of the attention heads "
                f"({self.heads})"
            )
        return self


class ModelChoice(Model):
    """Either a catalog preset or custom numbers, never both."""

    preset: Ref | None = None
    custom: CustomModel | None = None

    @model_validator(mode="after")
    def _one(self) -> ModelChoice:
        if (self.preset is None) == (self.custom is None):
            raise ValueError("give exactly one of 'preset' or 'custom'")
        return self


class Parallelism(Model):
    """Degrees of parallelism; ``None`` asks the engine to choose."""

    zero_stage: int | None = Field(
        default=None, ge=0, le=3, description="ZeRO / FSDP stage; None lets the engine choose."
    )
    data_parallel: int | None = Field(default=None, ge=1, le=1_000_000)
    tensor_parallel: int | None = Field(default=None, ge=1, le=64)
    pipeline_parallel: int | None = Field(default=None, ge=1, le=1024)
    sequence_parallel: bool | None = Field(
        default=None,
        description="Megatron's sequence parallelism with tensor parallelism; None: on wherever "
        "tensor parallelism is (it moves the same data as the all-reduces it replaces and "
        "divides the activations the tensor-parallel GPUs would each keep whole).",
    )
    virtual_pipeline_stages: int | None = Field(
        default=None,
        ge=1,
        le=64,
        description="Model chunks per pipeline stage (Megatron's interleaved schedule, which "
        "divides the pipeline bubble by this number); None: 1, the non-interleaved schedule.",
    )


class FineTuning(Model):
    """How a fine-tuning job trains: every weight, or low-rank adapters on a frozen base."""

    method: FineTuningMethod = FineTuningMethod.FULL
    lora_rank: int = Field(default=16, ge=1, le=4096, description="Adapter rank r.")
    lora_targets: LoraTargets = LoraTargets.ATTENTION_MLP


class Training(Model):
    dataset_samples: Positive | None = None
    dataset_tokens: Positive | None = None
    epochs: float = Field(default=1, ge=1e-6, le=100_000, allow_inf_nan=False)
    target_hours: Positive | None = None
    iterations_per_epoch: Positive | None = Field(
        default=None, description="Known iteration count per epoch, instead of a dataset size."
    )


SECONDS_PER_HOUR = 3600


class PeopleDemand(Model):
    """A service's demand as planners state it: the people who use it, the share of them active
    in the busiest hour and the requests each active person makes in that hour. The service's
    requests per second follow (users x share x requests per hour / 3,600); the requests in
    flight then follow from Little's law, as for a throughput target."""

    users: int = Field(ge=1, le=100_000_000, description="People who use the service.")
    active_share: Fraction = Field(description="Share of them active in the busiest hour.")
    requests_per_hour: Positive = Field(
        le=100_000, description="Requests each active person makes in that hour."
    )

    @property
    def requests_per_s(self) -> float:
        return self.users * self.active_share * self.requests_per_hour / SECONDS_PER_HOUR


class Inference(Model):
    """An LLM service's load and targets, in the terms serving benchmarks use.

    The load is the larger of ``concurrent_sequences`` and what a throughput target implies
    through Little's law (requests in flight = requests/s x seconds per request)."""

    input_tokens: int = Field(
        default=1024, ge=1, le=10_000_000, description="Average prompt tokens per request."
    )
    output_tokens: int = Field(
        default=256, ge=1, le=10_000_000, description="Average generated tokens per request."
    )
    max_context_tokens: int | None = Field(
        default=None,
        ge=1,
        le=10_000_000,
        description="Longest prompt plus answer one request may hold; one such request must fit "
        "beside the weights. None: input plus output tokens.",
    )
    concurrent_sequences: int = Field(
        default=1,
        ge=1,
        le=1_000_000,
        description="Requests in flight across the whole service at the peak.",
    )
    target_requests_per_s: Positive | None = None
    people: PeopleDemand | None = Field(
        default=None,
        description="Demand in people; its requests per second count as a throughput target.",
    )
    target_tokens_per_s: Positive | None = Field(
        default=None, description="Generated (output) tokens per second across the service."
    )
    ttft_target_ms: Positive | None = Field(
        default=None, description="Longest acceptable time to the first token, ms."
    )
    itl_target_ms: Positive | None = Field(
        default=None, description="Longest acceptable time between generated tokens, ms."
    )
    kv_cache_precision: Precision | None = Field(
        default=None,
        description="Precision of the KV cache; None follows the serving stack: FP8 with FP8 "
        "weights on a GPU with FP8 tensor cores (NIM FP8 profiles, TensorRT-LLM FP8 "
        "checkpoints), else 16-bit (32-bit for FP32 models).",
    )

    @field_validator("kv_cache_precision")
    @classmethod
    def _kv_precision(cls, value: Precision | None) -> Precision | None:
        if value in (Precision.TF32, Precision.INT4, Precision.FP4):
            raise ValueError(f"a KV cache is not kept in {value.value}; use bf16, fp16 or fp8")
        return value

    @property
    def context_tokens(self) -> int:
        """The longest request the service must hold."""
        return self.max_context_tokens or self.input_tokens + self.output_tokens

    @model_validator(mode="after")
    def _context(self) -> Inference:
        if self.max_context_tokens is not None and self.max_context_tokens < (
            self.input_tokens + self.output_tokens
        ):
            raise ValueError(
                f"max_context_tokens ({self.max_context_tokens}) is shorter than an average "
                f"request ({self.input_tokens} input + {self.output_tokens} output tokens)"
            )
        return self


class SharedUse(Model):
    """Development and HPC users: how much GPU each needs and how many are active at once."""

    gpu_memory_gb: Positive | None = Field(default=None, le=100_000)
    gpu_fraction: Fraction | None = None
    gpus_per_job: int = Field(default=1, ge=1, le=4096)
    concurrency: Fraction = Field(default=1.0, description="Share of users active at once.")

    @model_validator(mode="after")
    def _one_need(self) -> SharedUse:
        if self.gpu_memory_gb is not None and self.gpu_fraction is not None:
            raise ValueError("give gpu_memory_gb or gpu_fraction, not both")
        if self.gpus_per_job > 1 and (self.gpu_memory_gb or self.gpu_fraction):
            raise ValueError("a partial-GPU need (gpu_memory_gb / gpu_fraction) is for one GPU")
        return self


class Constraints(Model):
    isolation_required: bool = False
    live_migration_required: bool = False
    remote_ok: bool = False


class WorkloadGroup(Model):
    name: Name
    kind: WorkloadKind
    count: int = Field(
        default=1,
        ge=0,
        le=MAX_GROUP_COUNT,
        description="Jobs, services or users in this group.",
    )
    model: ModelChoice | None = None
    precision: Precision = Precision.BF16
    optimizer: Optimizer = Optimizer.ADAMW
    micro_batch_size: int = Field(default=1, ge=1, le=1_000_000)
    global_batch_size: int | None = Field(default=None, ge=1, le=100_000_000)
    sequence_length: int = Field(default=2048, ge=1, le=10_000_000)
    recompute: Recompute | None = Field(
        default=None, description="Activation recomputation; None lets the engine choose."
    )
    optimizer_in_backward: bool = Field(
        default=False,
        description="Each parameter's optimizer step runs in the backward pass as soon as its "
        "gradient is ready, and the gradient is freed (torchtune's optimizer_in_bwd); it "
        "cannot accumulate gradients over micro-batches.",
    )
    recompute_layers: int | None = Field(
        default=None,
        ge=1,
        le=100_000,
        description="With full recomputation, how many layers of each pipeline stage (each "
        "interleaved chunk) recompute, the rest storing their activations (Megatron-Core's "
        "recompute_num_layers with the block method); None: every layer.",
    )
    training_stack: TrainingStack | None = Field(
        default=None,
        description="The training software; None: Megatron-Core for training, PyTorch FSDP for "
        "full fine-tuning, Hugging Face with PEFT for LoRA and QLoRA.",
    )
    attention: AttentionKernel = Field(
        default=AttentionKernel.FUSED,
        description="The attention kernel training runs: fused (FlashAttention / SDPA, the "
        "default of every current stack) or eager.",
    )
    parallelism: Parallelism = Field(default_factory=Parallelism)
    training: Training | None = None
    fine_tuning: FineTuning | None = Field(
        default=None, description="Fine-tuning method; None is full fine-tuning."
    )
    inference: Inference | None = None
    shared: SharedUse | None = None
    gpus_per_member: int | None = Field(
        default=None,
        ge=1,
        le=4096,
        description="Whole GPUs each member (job, service or user) needs, known from a capacity "
        "analysis; used instead of sizing from the model.",
    )
    constraints: Constraints = Field(default_factory=Constraints)
    sharing_mode: SharingMode = SharingMode.PASSTHROUGH
    calibration: Calibration | None = Field(
        default=None,
        description="Efficiency factors fitted to the customer's own benchmark results "
        "(gpuwizard calibrate), with their sources; they replace the design's assumptions for "
        "this group.",
    )
    cluster: Name | None = Field(
        default=None,
        description="The GPU cluster this group runs on, by name; None lets the engine place it "
        "where it takes the least GPU power.",
    )

    @model_validator(mode="after")
    def _kind_questions(self) -> WorkloadGroup:
        if self.gpus_per_member is None:
            self._check_questions()
        self._check_fine_tuning()
        self._check_mode()
        return self

    def _check_fine_tuning(self) -> None:
        if self.fine_tuning is not None and self.kind is not WorkloadKind.FINE_TUNING:
            raise ValueError(
                f"fine_tuning (method {self.fine_tuning.method.value}) is for a fine-tuning "
                f"group, not a {self.kind.value} group"
            )

    def _check_questions(self) -> None:
        sized = (WorkloadKind.TRAINING, WorkloadKind.FINE_TUNING, WorkloadKind.INFERENCE)
        if self.kind in sized and self.model is None:
            raise ValueError(f"a {self.kind.value} group needs a model (or gpus_per_member)")
        if self.kind in (WorkloadKind.DEVELOPMENT, WorkloadKind.HPC) and self.shared is None:
            raise ValueError(f"a {self.kind.value} group needs 'shared' (or gpus_per_member)")

    def _check_mode(self) -> None:
        if self.constraints.isolation_required and self.sharing_mode in (
            SharingMode.VGPU,
            SharingMode.REMOTE,
        ):
            raise ValueError(
                f"sharing_mode '{self.sharing_mode.value}' shares the GPU's compute between "
                "VMs, so it cannot give the performance isolation this group requires (use "
                "passthrough or mig)"
            )
        if self.constraints.live_migration_required and self.sharing_mode in (
            SharingMode.PASSTHROUGH,
            SharingMode.MIG_GUEST,
        ):
            raise ValueError(
                f"sharing_mode '{self.sharing_mode.value}' gives the VM whole GPUs by "
                "passthrough, which cannot live-migrate, as this group requires"
            )
        if self.sharing_mode is SharingMode.REMOTE and not self.constraints.remote_ok:
            raise ValueError("sharing_mode 'remote' needs constraints.remote_ok")


# -------------------------------------------------------------------------------- hardware


class Fabric(StrEnum):
    GBE_10 = "10gbe"
    GBE_25 = "25gbe"
    GBE_40 = "40gbe"
    GBE_100 = "100gbe"
    GBE_200 = "200gbe"
    GBE_400 = "400gbe"
    GBE_800 = "800gbe"
    IB_HDR = "ib-hdr"
    IB_NDR = "ib-ndr"
    IB_XDR = "ib-xdr"


FABRIC_GBPS: dict[Fabric, float] = {
    Fabric.GBE_10: 10,
    Fabric.GBE_25: 25,
    Fabric.GBE_40: 40,
    Fabric.GBE_100: 100,
    Fabric.GBE_200: 200,
    Fabric.GBE_400: 400,
    Fabric.GBE_800: 800,
    Fabric.IB_HDR: 200,
    Fabric.IB_NDR: 400,
    Fabric.IB_XDR: 800,
}


def is_infiniband(fabric: Fabric) -> bool:
    """Whether the fabric speaks InfiniBand rather than Ethernet, in one place: the RDMA rules,
    the switch family and the NIC check all follow it."""
    return fabric in (Fabric.IB_HDR, Fabric.IB_NDR, Fabric.IB_XDR)


class Rdma(StrEnum):
    NONE = "none"
    ROCE = "roce-v2"
    INFINIBAND = "infiniband"
    PVRDMA = "pvrdma"


class Hardware(Model):
    gpu: Ref
    server: Ref
    gpus_per_host: int = Field(ge=1, le=16)
    cpu: str | None = Field(
        default=None,
        min_length=1,
        max_length=120,
        description="Processor, one of the server's CPU options by name; None takes the "
        "server's usual AI build (the first listed).",
    )
    nic: Ref | None = None
    nics_per_host: int = Field(default=1, ge=0, le=16)
    fabric: Fabric = Fabric.GBE_25
    rdma: Rdma = Rdma.NONE
    gpudirect_rdma: bool = False
    nvlink: bool = Field(default=False, description="NVLink bridges, or the HGX NVSwitch board.")
    storage: Ref | None = None
    vgpu_mixed_sizes: bool = Field(
        default=False, description="The vGPU release and platform allow mixed-size vGPUs."
    )
    mig_time_slicing: bool = Field(
        default=False,
        description="Time-sliced, MIG-backed vGPU: several VMs share one MIG instance by time "
        "slices (Blackwell GPUs that list such vGPU types, on a release that supports it).",
    )
    service_fabric: Fabric = Field(
        default=Fabric.GBE_25,
        description="Ethernet speed of the host ports for management, vMotion and storage "
        "(the service network, apart from the GPU fabric).",
    )
    service_ports_per_host: int = Field(
        default=2,
        ge=0,
        le=8,
        description="Service-network ports per host, on an OCP or PCIe adapter the bill names "
        "(none where the server's catalog entry states onboard ports of that speed); 2 gives "
        "a redundant pair. 0 carries that traffic on the GPU fabric NICs.",
    )
    reasons: dict[Annotated[str, Field(max_length=40)], Annotated[str, Field(max_length=2000)]] = (
        Field(
            default_factory=dict,
            max_length=20,
            description="Why Recommend for me chose this hardware, by choice (gpu, server, "
            "fabric, ...); kept with the design and dropped when the hardware is edited",
        )
    )

    @model_validator(mode="after")
    def _rdma(self) -> Hardware:
        ib = is_infiniband(self.fabric)
        if ib and self.rdma is Rdma.ROCE:
            raise ValueError("RoCE runs over Ethernet, not an InfiniBand fabric")
        if not ib and self.rdma is Rdma.INFINIBAND:
            raise ValueError(f"InfiniBand RDMA needs an InfiniBand fabric, not {self.fabric.value}")
        if self.gpudirect_rdma and self.rdma is Rdma.NONE:
            raise ValueError("GPUDirect RDMA needs RDMA (RoCE v2 or InfiniBand)")
        if is_infiniband(self.service_fabric):
            raise ValueError(
                f"service_fabric carries management and vMotion, so it is Ethernet, not "
                f"{self.service_fabric.value}"
            )
        return self


# ------------------------------------------------------------------------------------- HA


class HaLevel(StrEnum):
    N0 = "n+0"
    N1 = "n+1"
    N2 = "n+2"
    PERCENT = "percent"


class FailureDomain(StrEnum):
    HOST = "host"
    RACK = "rack"


class AdmissionControl(StrEnum):
    HOST_FAILURES = "host-failures"  # cluster resource percentage from tolerated host failures
    PERCENTAGE = "percentage"  # a fixed percentage reserved
    DEDICATED_FAILOVER = "dedicated-failover"  # named standby hosts
    DISABLED = "disabled"


class HaPolicy(Model):
    level: HaLevel = HaLevel.N1
    reserve_percent: float = Field(default=0, ge=0, le=90, allow_inf_nan=False)
    maintenance_hosts: int = Field(default=0, ge=0, le=100)
    failure_domain: FailureDomain = FailureDomain.HOST
    hosts_per_rack: int | None = Field(default=None, ge=1, le=64)
    admission_control: AdmissionControl = AdmissionControl.HOST_FAILURES
    passthrough_spares: bool = Field(
        default=True,
        description="Reserve GPUs for passthrough VMs, which restart elsewhere instead of moving.",
    )

    @model_validator(mode="after")
    def _percent(self) -> HaPolicy:
        if self.level is HaLevel.PERCENT and self.reserve_percent <= 0:
            raise ValueError("level 'percent' needs reserve_percent above 0")
        if self.level is not HaLevel.PERCENT and self.reserve_percent:
            raise ValueError(
                f"reserve_percent is only used with level 'percent', not '{self.level.value}'"
            )
        return self


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


# ------------------------------------------------------------------------ data and platform


class DataPlan(Model):
    """What the shared storage must hold and feed. Defaults are stated assumptions."""

    dataset_gb: Positive | None = Field(
        default=None,
        le=1e12,
        description="Training data on shared storage, GB (one version). Replaces the size derived "
        "from the workloads (samples x bytes per sample, tokens x bytes per token).",
    )
    dataset_versions: int = Field(
        default=2, ge=1, le=1000, description="Versions of the dataset kept (current + previous)."
    )
    checkpoint_copies: int = Field(
        default=3, ge=0, le=10_000, description="Checkpoints kept per training job."
    )
    growth_headroom: float = Field(
        default=0.25,
        ge=0,
        le=100,
        allow_inf_nan=False,
        description="Capacity added for growth, as a share of the need (0.25 = 25 %).",
    )
    read_gbs_per_gpu: float = Field(
        default=0,
        ge=0,
        le=1000,
        allow_inf_nan=False,
        description="Read throughput, GB/s, each GPU of a group not sized from a model needs "
        "(development, HPC, capacity-analysis groups); 0 when unknown.",
    )
    storage_nodes: int | None = Field(
        default=None,
        ge=1,
        le=100_000,
        description="Storage nodes to check against the need; None lets the engine size them.",
    )


class KubernetesPlatform(StrEnum):
    NONE = "none"
    VKS = "vks"  # vSphere Kubernetes Service (formerly Tanzu Kubernetes Grid Service)
    OPENSHIFT = "openshift"  # Red Hat OpenShift Container Platform on vSphere VMs
    UPSTREAM = "upstream"  # upstream Kubernetes on VMs


class VsphereRelease(StrEnum):
    V8_0 = "8.0"  # vSphere 8.0 GA or Update 1
    V8_0_U2 = "8.0u2"
    V8_0_U3 = "8.0u3"
    V9_0 = "9.0"  # VMware Cloud Foundation 9.0 (ESXi 9.0)
    V9_1 = "9.1"  # VMware Cloud Foundation 9.1


VSPHERE_LABELS = {
    VsphereRelease.V8_0: "vSphere 8.0 or 8.0 Update 1",
    VsphereRelease.V8_0_U2: "vSphere 8.0 Update 2",
    VsphereRelease.V8_0_U3: "vSphere 8.0 Update 3",
    VsphereRelease.V9_0: "VMware Cloud Foundation 9.0 (vSphere 9.0)",
    VsphereRelease.V9_1: "VMware Cloud Foundation 9.1 (vSphere 9.1)",
}
# Releases in the order they came out, for "this release or later" rules
VSPHERE_ORDER = tuple(VsphereRelease)


def vsphere_at_least(release: VsphereRelease, minimum: VsphereRelease) -> bool:
    return VSPHERE_ORDER.index(release) >= VSPHERE_ORDER.index(minimum)


class PlatformChoice(Model):
    """The software platform the GPUs are consumed through."""

    vsphere: VsphereRelease = Field(
        default=VsphereRelease.V9_0,
        description="vSphere release of the GPU hosts; mixed-size vGPU needs 8.0 Update 3 or later.",
    )
    private_ai_foundation: bool = Field(
        default=False,
        description="VMware Private AI Foundation with NVIDIA, the add-on to VMware Cloud "
        "Foundation licensed per core beside VCF (NVIDIA AI Enterprise stays per GPU).",
    )
    kubernetes: KubernetesPlatform = Field(
        default=KubernetesPlatform.NONE,
        description="Kubernetes on the VMs, which decides how the NVIDIA operators are installed.",
    )
    nvaie_release: Ref | None = Field(
        default=None,
        description="NVIDIA AI Enterprise release (software catalog id); None picks the newest "
        "that supports the design's GPU, platform and sharing modes and whose support outlives "
        "the service period, preferring a long-term support branch.",
    )
    vsan_principal_storage: bool = Field(
        default=True,
        description="The GPU cluster's principal storage (for the VMs themselves) is vSAN: a "
        "VMware Cloud Foundation workload domain cluster then needs 3 hosts, else 2 (NFS, VMFS "
        "on FC or vVols with vSphere Lifecycle Manager images).",
    )
    service_years: int = Field(
        default=3,
        ge=1,
        le=10,
        description="Years the platform is to run from the proposal's date on the release it "
        "starts with; the default release is one whose support lasts that long.",
    )


# -------------------------------------------------------------------------------- licensing


DEFAULT_CORES_PER_SOCKET = 32


class Licensing(Model):
    """Software licences in the bill of materials; ``None`` leaves a licence out."""

    gpu_software: Ref | None = Field(
        default="nvidia-ai-enterprise", description="Licence catalog id counted per GPU."
    )
    platform: Ref | None = Field(
        default="vmware-vcf", description="Virtualization platform licence catalog id."
    )
    cores_per_socket: int | None = Field(
        default=None,
        ge=1,
        le=1024,
        description="CPU cores per socket, overriding the chosen processor's count for per-core "
        "platform licences. Unset: the processor's cores, or "
        f"{DEFAULT_CORES_PER_SOCKET} when the catalog lists no processor for the server.",
    )


# ------------------------------------------------------------------------------------ costs

# Uptime Institute Global Data Center Survey 2024: average annual PUE of the surveyed data
# centres 1.56, flat since 2020.
DEFAULT_PUE = 1.56


class CostInputs(Model):
    """What turns the priced bill of materials into a cost of ownership. Prices come only from
    the user's price list; where no honest default exists, the field is empty and the cost it
    drives is left out and said to be."""

    years: int = Field(default=3, ge=1, le=15, description="Years of ownership to total.")
    energy_price: float | None = Field(
        default=None, ge=0, le=100, allow_inf_nan=False,
        description="Price of one kWh in the price list's currency; empty leaves power out.",
    )  # fmt: skip
    pue: float = Field(
        default=DEFAULT_PUE, ge=1, le=4, allow_inf_nan=False,
        description="Power usage effectiveness: facility power over IT power (Uptime Institute "
        "survey 2024 average: 1.56).",
    )  # fmt: skip
    average_load: float = Field(
        default=1.0, gt=0, le=1, allow_inf_nan=False,
        description="Average draw as a share of the planning maximum; 1 is the upper bound.",
    )  # fmt: skip
    support_share: float | None = Field(
        default=None, ge=0, le=1, allow_inf_nan=False,
        description="Hardware support per year as a share of the hardware price; empty leaves "
        "it out (support is often in the quote).",
    )  # fmt: skip


# ---------------------------------------------------------------------------------- design


class ClusterRole(StrEnum):
    """What a cluster of the design is for."""

    GPU = "gpu-cluster"  # GPU hosts running workload groups (or a GPU pool serving remote clients)
    COMPUTE = (
        "compute-cluster"  # hosts without GPUs, e.g. the clients of a network-attached GPU pool
    )
    MANAGEMENT = "management-domain"  # the VMware Cloud Foundation management domain


class ClusterSpec(Model):
    """A further cluster of the design. vSphere HA works per cluster, so each has its own policy.
    A GPU cluster has hardware like the design's first; a compute or management cluster has a
    server model and a host count (a management domain is raised to the platform's minimum)."""

    name: Name
    role: ClusterRole = ClusterRole.GPU
    hardware: Hardware | None = None
    ha: HaPolicy = Field(default_factory=HaPolicy)
    server: Ref | None = Field(
        default=None, description="Host model of a compute or management cluster."
    )
    hosts: int | None = Field(
        default=None,
        ge=1,
        le=2500,
        description="Hosts of a compute cluster; of a management domain, more than its minimum.",
    )
    cpu: str | None = Field(default=None, max_length=100, description="Processor option")

    @model_validator(mode="after")
    def _fits_role(self) -> ClusterSpec:
        if self.role is ClusterRole.GPU:
            if self.hardware is None:
                raise ValueError(f"cluster '{self.name}': a GPU cluster needs its hardware")
            if self.server is not None or self.hosts is not None:
                raise ValueError(
                    f"cluster '{self.name}': a GPU cluster takes its server and host count from "
                    "its hardware and workloads, not from 'server' or 'hosts'"
                )
        else:
            if self.hardware is not None:
                raise ValueError(
                    f"cluster '{self.name}': a {self.role.value.replace('-', ' ')} has no GPU hardware; "
                    "give its server instead"
                )
            if self.server is None:
                raise ValueError(f"cluster '{self.name}': give the server model of its hosts")
            if self.role is ClusterRole.COMPUTE and self.hosts is None:
                raise ValueError(f"cluster '{self.name}': give how many hosts it has")
        return self


AS_DESIGNED = "As designed"
# the sections an option holds in place of the design's
OPTION_SECTIONS = ("workloads", "hardware", "ha", "cluster_name", "clusters")


class GroupChange(Model):
    """What an option changes in one workload group, named as in the design."""

    group: Name
    sharing_mode: SharingMode | None = None
    precision: Precision | None = None
    cluster: Name | None = None


class DesignOption(Model):
    """A named alternative to the design: the sections it replaces and the groups it changes;
    everything else is the design's own. An option saved from the wizard is a snapshot: it
    holds its workload groups whole, so a later edit of the design leaves it as saved."""

    name: Name
    note: Annotated[str, AfterValidator(plain_text)] = Field(
        default="", max_length=2000, description="What the option is, in words"
    )
    workloads: list[WorkloadGroup] | None = Field(
        default=None,
        max_length=1000,
        description="The workload groups as the option has them, whole; None: the design's, "
        "with the changes under 'groups'.",
    )
    hardware: Hardware | None = None
    ha: HaPolicy | None = None
    cluster_name: Name | None = None
    clusters: list[ClusterSpec] | None = Field(default=None, max_length=32)
    groups: list[GroupChange] = Field(default_factory=list, max_length=1000)


def _unique(what: str, names: list[str]) -> None:
    """Names are told apart as people read them: already NFC-normalised by the text gate, and
    compared here without case, so 'Chat' and 'chat' (which print alike in a table heading) are
    one name."""
    seen: dict[str, str] = {}
    for name in names:
        first = seen.get(name.casefold())
        if first is None:
            seen[name.casefold()] = name
            continue
        if first == name:
            raise ValueError(f"{what} '{name}' is used twice")
        raise ValueError(
            f"{what} '{name}' is '{first}' in another case; names are compared without case"
        )


class Design(Model):
    schema_version: int = Field(default=SCHEMA_VERSION, ge=1)
    project: ProjectInfo = Field(default_factory=ProjectInfo)
    workloads: list[WorkloadGroup] = Field(default_factory=list, max_length=1000)
    hardware: Hardware
    ha: HaPolicy = Field(default_factory=HaPolicy)
    cluster_name: Name = Field(
        default="GPU cluster", description="Name of the GPU cluster 'hardware' describes."
    )
    clusters: list[ClusterSpec] = Field(
        default_factory=list,
        max_length=32,
        description="Further clusters: more GPU clusters, compute clusters, the management domain.",
    )
    existing: ExistingEstate = Field(
        default_factory=ExistingEstate,
        description="What the customer already runs, as imported: kept, not bought.",
    )
    assumptions: Assumptions = Field(default_factory=Assumptions)
    data: DataPlan = Field(default_factory=DataPlan)
    platform: PlatformChoice = Field(default_factory=PlatformChoice)
    licensing: Licensing = Field(default_factory=Licensing)
    costs: CostInputs = Field(default_factory=CostInputs)
    options: list[DesignOption] = Field(
        default_factory=list,
        max_length=8,
        description="Alternatives compared side by side with the design as it stands.",
    )
    proposed: Name | None = Field(
        default=None,
        description="The option proposed to the customer, by name; None proposes the design as "
        "it stands.",
    )

    @field_validator("workloads")
    @classmethod
    def _unique_names(cls, groups: list[WorkloadGroup]) -> list[WorkloadGroup]:
        _unique("workload group name", [g.name for g in groups])
        return groups

    @model_validator(mode="after")
    def _cluster_names(self) -> Design:
        _unique("cluster name", [self.cluster_name] + [c.name for c in self.clusters])
        gpu = self.gpu_cluster_names()
        for group in self.workloads:
            if group.cluster is not None and group.cluster not in gpu:
                raise ValueError(
                    f"workload group '{group.name}': cluster '{group.cluster}' is not a GPU "
                    f"cluster of this design (GPU clusters: {', '.join(gpu)})"
                )
        return self

    @model_validator(mode="after")
    def _option_names(self) -> Design:
        _unique("option name", [o.name for o in self.options])
        for o in self.options:
            if o.name.casefold() == AS_DESIGNED.casefold():
                raise ValueError(f"option name '{AS_DESIGNED}' is the design itself")
            groups = {g.name for g in (o.workloads if o.workloads is not None else self.workloads)}
            for change in o.groups:
                if change.group not in groups:
                    raise ValueError(
                        f"option '{o.name}': no workload group is named '{change.group}'"
                    )
        if self.proposed is not None and self.proposed not in [o.name for o in self.options]:
            raise ValueError(f"proposed: no option is named '{self.proposed}'")
        for o in self.options:
            try:
                self.option(o.name)
            except ValidationError as exc:
                err = exc.errors(include_url=False)[0]
                msg = err["msg"].removeprefix("Value error, ")
                where = f"{field_path(err['loc'])}: " if err["loc"] else ""
                raise ValueError(
                    f"option '{o.name}' is not a design that can be built: {where}{msg}"
                ) from None
        return self

    def option(self, name: str) -> Design:
        """The design as option ``name`` has it (options and the proposal removed)."""
        o = next(x for x in self.options if x.name == name)
        update: dict[str, object] = {"options": [], "proposed": None}
        for key in ("hardware", "ha", "cluster_name", "clusters"):
            if getattr(o, key) is not None:
                update[key] = getattr(o, key)
        changes = {c.group: c for c in o.groups}
        groups = []
        for g in o.workloads if o.workloads is not None else self.workloads:
            c = changes.get(g.name)
            if c is not None:
                g = g.model_copy(
                    update={k: v for k, v in c.model_dump(exclude={"group"}).items() if v}
                )
            groups.append(g)
        update["workloads"] = groups
        data = self.model_copy(update=update).model_dump(mode="json")
        return Design.model_validate(data)  # the option must be a valid design too

    def as_option(self, name: str, note: str = "") -> DesignOption:
        """The design as it stands, kept as option ``name``: every section an option can replace,
        the workload groups whole, so later edits of the design leave the option as it was
        saved."""
        return DesignOption(
            name=name,
            note=note,
            workloads=list(self.workloads),
            hardware=self.hardware,
            ha=self.ha,
            cluster_name=self.cluster_name,
            clusters=list(self.clusters),
        )

    def as_designed(self) -> Design:
        """The design as the pages edit it, without its options and proposal: what an option
        saved now would hold."""
        return self.model_copy(update={"options": [], "proposed": None})

    def with_option(self, name: str) -> Design:
        """The design with option ``name``'s sections in place of its own, its options kept
        and that option proposed: what the pages show once it is made the proposal."""
        chosen = self.option(name)
        update = {key: getattr(chosen, key) for key in OPTION_SECTIONS}
        return self.model_copy(update={**update, "proposed": name})

    def proposal(self) -> Design:
        """The design the proposal specifies and the order buys: the proposed option when one
        is named, else the design as it stands (its options kept, for the comparison)."""
        if self.proposed is None:
            return self
        return self.option(self.proposed)

    def gpu_cluster_names(self) -> list[str]:
        return [self.cluster_name] + [c.name for c in self.clusters if c.role is ClusterRole.GPU]

    def is_single_cluster(self) -> bool:
        return not self.clusters


def group_assumptions(design: Design, group: WorkloadGroup) -> Assumptions:
    """The assumptions one group is sized with: the design's, with the factors the group's own
    measurements fitted in their place (and their spreads narrowed to the fit's)."""
    cal = group.calibration
    if cal is None:
        return design.assumptions
    update: dict[str, object] = {}
    for f in cal.factors:
        update[f.name] = f.value
        if f.name in RANGES:
            update[RANGES[f.name]] = (f.low, f.high)
    return design.assumptions.model_copy(update=update)
