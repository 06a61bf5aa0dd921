"""A workload group as the design states it: what it runs (training, fine-tuning, serving,
development), its model, precision, parallelism and demand, and how it shares GPUs."""

from __future__ import annotations

from enum import StrEnum

from pydantic import (
    Field,
    field_validator,
    model_validator,
)

from wizard.model.calibration import Calibration
from wizard.model.fields import (
    MAX_GROUP_COUNT,
    MAX_PARAMETERS,
    Fraction,
    Model,
    Name,
    Positive,
    Ref,
)

# ------------------------------------------------------------------------------- workloads


class WorkloadKind(StrEnum):
    TRAINING = "training"
    FINE_TUNING = "fine-tuning"
    INFERENCE = "inference"
    DEVELOPMENT = "development"
    HPC = "hpc"


# "a training group", "an HPC group": each kind as the model's own messages name it, with its
# article (the wizard's labels live in wizard.present, above the model)
A_KIND_GROUP: dict[WorkloadKind, str] = {
    WorkloadKind.TRAINING: "a training group",
    WorkloadKind.FINE_TUNING: "a fine-tuning group",
    WorkloadKind.INFERENCE: "an inference group",
    WorkloadKind.DEVELOPMENT: "a development group",
    WorkloadKind.HPC: "an HPC group",
}


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
    requests_per_hour: float = Field(
        ge=0.01,  # the wizard's input: two decimals
        le=100_000,
        allow_inf_nan=False,
        description="Requests each active person makes in that hour.",
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
    pure_bf16: bool = Field(
        default=False,
        description="Pure BF16 training: the weights, their gradients and the optimizer's states "
        "all in BF16, with no FP32 master copy (a model loaded in bfloat16 and trained without "
        "automatic mixed precision); off: the training software's own layout (torchtune's is "
        "pure BF16 already).",
    )
    compiled: bool = Field(
        default=False,
        description="The model runs under torch.compile, whose fused kernels keep fewer "
        "tensors for the backward pass (the norms' FP32 copies and the SwiGLU's activation are "
        "recomputed).",
    )
    chunked_loss: bool | None = Field(
        default=None,
        description="The loss computed over the vocabulary in chunks (torchtune's chunked "
        "cross-entropy), which keeps a fraction of the logits' gradients; None: as the training "
        "software does (torchtune chunks it, the others do not).",
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
        if self.pure_bf16 and self.precision is not Precision.BF16:
            raise ValueError(
                "pure BF16 training (no FP32 master weights) keeps everything in BF16: it needs "
                f"the precision BF16, not {self.precision.value.upper()}"
            )
        return self

    def _check_fine_tuning(self) -> None:
        if self.fine_tuning is not None and self.kind is not WorkloadKind.FINE_TUNING:
            raise ValueError(
                f"fine_tuning (method {self.fine_tuning.method.value}) is for a fine-tuning "
                f"group, not {A_KIND_GROUP[self.kind]}"
            )

    def _check_questions(self) -> None:
        sized = (WorkloadKind.TRAINING, WorkloadKind.FINE_TUNING, WorkloadKind.INFERENCE)
        if self.kind in sized and self.model is None:
            raise ValueError(f"{A_KIND_GROUP[self.kind]} needs a model (or gpus_per_member)")
        if self.kind in (WorkloadKind.DEVELOPMENT, WorkloadKind.HPC) and self.shared is None:
            raise ValueError(f"{A_KIND_GROUP[self.kind]} needs 'shared' (or gpus_per_member)")

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
