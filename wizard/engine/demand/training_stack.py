"""What the training software keeps in GPU memory, stack by stack.

The same model trains in different memory under Megatron-Core, PyTorch FSDP, torchtune, Hugging
Face with PEFT or DeepSpeed: each holds the weights, gradients and optimizer moments in its own
precision, stores its own tensors for the backward pass and computes the loss its own way. The
figures below count those tensors (bytes per parameter, per hidden unit of a token, per logit),
each from how the stack documents or implements it; the measured peaks they are checked against
are in tests/engine/data/training_memory_measured.toml (docs/model.md, "Training memory").
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TypedDict

from wizard.model.design import FineTuningMethod, Precision, TrainingStack, WorkloadKind
from wizard.model.names import TRAINING_STACK_LABEL


@dataclass(frozen=True)
class StackProfile:
    """Bytes a stack keeps, for 16-bit mixed-precision training (FP32 training keeps 4-byte
    weights and gradients and no master copy on every stack), and how its share of peak moves
    with the GPU (UTILIZATION_BY_GPU)."""

    weight_bytes: float  # per trained weight, as the forward pass reads it or its master
    gradient_bytes: float  # per trained weight
    master_bytes: float  # an FP32 copy beside 16-bit weights, for the optimizer step
    moment_scale: float  # AdamW's two moments: 1 in FP32 (8 bytes), 0.5 in BF16 (4 bytes)
    cast_copy_bytes: float  # 16-bit copies of FP32 weights autocast keeps for the backward pass
    norm_extra: float  # bytes per hidden unit per layer per token beyond the norms' 16-bit input
    gated_mlp_bytes: float  # bytes per MLP unit of a token a gated (SwiGLU) MLP stores
    logit_bytes: float  # bytes per token per vocabulary entry the loss holds at its peak
    source: str
    # the loss computed over the vocabulary in chunks by default (CHUNKED_LOGIT_BYTES)
    chunked_loss: bool = False
    # utilization against the design's achievable_utilization, at the reference GPU's ridge
    utilization_scale: float = 1.0
    # how the share of peak falls as the GPU's peak outgrows its memory bandwidth; 0: flat
    ridge_exponent: float = 0.0


# Time. Megatron-Core's Transformer Engine kernels fuse the work between the matrix products, so
# its share of peak holds across GPU generations: the design's achievable_utilization (0.5, set
# from Megatron-LM's Table 1 and checked on MegaScale, NeMo and Megatron-Bridge runs on A100,
# H100 and B200). The PyTorch stacks run that work as separate kernels timed by the memory's
# bandwidth, so their share falls as a GPU's peak outgrows its bandwidth (its ridge point,
# Williams et al., Roofline, CACM 2009): utilization = achievable_utilization x scale x
# (153 / ridge) ^ exponent, 153 FLOPs per byte being the A100 SXM4's BF16 ridge (312 TFLOPS /
# 2,039 GB/s). Scale 1.26 (0.63 of peak on an A100) and exponent 0.56 were fitted, by the least
# mean absolute error, on llm-foundry's eleven 8-GPU MPT runs at 2,048 tokens on A100 80GB and
# H100 in BF16 (their error 20 % -> 10 %), with ZeRO-3's exchange counted in every micro-batch
# and the compute under it slowed by the stated overlap_slowdown (training_physics); held back:
# 34 other PyTorch-stack runs (llm-foundry FP8, A100 40GB, long sequences, recomputation at
# large micro-batches, 16 to 64 GPUs; torchtitan on H200; torchtune on A100; FlashAttention's
# GPT runs), 23 within 25 % with one utilization for every GPU, 28 with the ridge alone, 31 with
# the exchange per micro-batch; mean error 21 % -> 13 % -> 11.8 %
# (tests/engine/test_training_measured.py, docs/model.md).
REFERENCE_RIDGE = 312 / 2.039  # A100 SXM4 80GB, BF16 dense TFLOPS over TB/s
PYTORCH_SCALE = 1.26
PYTORCH_RIDGE_EXPONENT = 0.56
RIDGE_SOURCE = (
    "PyTorch stacks' share of peak by the GPU's ridge point (peak over memory bandwidth): "
    "fitted on llm-foundry's MPT tables (A100 80GB, H100), checked on 34 held-back runs"
)


# What the PyTorch stacks share: eager RMSNorm keeps its input in FP32 (4 bytes in place of 2)
# and the normalised BF16 input (2), two norms a layer; the SwiGLU keeps its gate, up,
# activation and product (4 x 2 bytes per MLP unit); their share of peak follows the ridge point
class _Eager(TypedDict):
    norm_extra: float
    gated_mlp_bytes: float
    utilization_scale: float
    ridge_exponent: float


EAGER_PYTORCH: _Eager = {
    "norm_extra": 8,
    "gated_mlp_bytes": 8,
    "utilization_scale": PYTORCH_SCALE,
    "ridge_exponent": PYTORCH_RIDGE_EXPONENT,
}

MEGATRON = StackProfile(
    weight_bytes=2,
    gradient_bytes=4,
    master_bytes=4,
    moment_scale=1,
    cast_copy_bytes=0,
    norm_extra=0,
    gated_mlp_bytes=6,
    logit_bytes=6,
    source=(
        "Megatron-Core: BF16 weights with FP32 main gradients and an FP32 master copy in the "
        "distributed optimizer (2 + 4 + 4 + 8 bytes per parameter, docs 'Distributed "
        "Optimizer'); Transformer Engine's fused norms keep the 16-bit input; the fused SwiGLU "
        "keeps its input (2 x 2 bytes per MLP unit) and the second matrix's input (2); the "
        "vocabulary-parallel cross-entropy turns the BF16 logits into FP32 softmax in place "
        "(2 + 4 bytes per logit, split over tensor parallelism)"
    ),
)
FSDP = StackProfile(
    **EAGER_PYTORCH,
    weight_bytes=4,
    gradient_bytes=4,
    master_bytes=0,
    moment_scale=1,
    cast_copy_bytes=0,
    logit_bytes=12,
    source=(
        "PyTorch FSDP with BF16 mixed precision: FP32 sharded weights, FP32 gradient reduction, "
        "AdamW's FP32 moments (4 + 4 + 8 bytes per parameter; the BF16 all-gathered layer is "
        "freed after use); eager RMSNorm keeps its input in FP32 (4 bytes in place of 2) and "
        "the normalised BF16 input (2), two norms a layer; the SwiGLU's gate, up, activation "
        "and product (4 x 2 bytes per MLP unit); cross-entropy on the FP32 upcast keeps the "
        "FP32 log-probabilities and, at the start of the backward pass, their gradient and the "
        "logits' gradient (3 x 4 bytes per logit)"
    ),
)
TORCHTUNE = StackProfile(
    **EAGER_PYTORCH,
    weight_bytes=2,
    gradient_bytes=2,
    master_bytes=0,
    moment_scale=0.5,
    cast_copy_bytes=0,
    logit_bytes=12,
    chunked_loss=True,
    source=(
        "torchtune: the model in pure BF16, gradients and AdamW's moments in the "
        "weights' BF16 (2 + 2 + 4 bytes per parameter, no FP32 copy); eager RMSNorm and SwiGLU "
        "as PyTorch stores them; its recipes' default loss is the chunked cross-entropy "
        "(CEWithChunkedOutputLoss); PyTorch's plain cross-entropy on its FP32 output keeps the "
        "log-probabilities and, at the start of the backward pass, their gradient and the "
        "logits' gradient (3 x 4 bytes per logit)"
    ),
)
HF_PEFT = StackProfile(
    **EAGER_PYTORCH,
    weight_bytes=4,
    gradient_bytes=4,
    master_bytes=0,
    moment_scale=1,
    cast_copy_bytes=2,
    logit_bytes=12,
    source=(
        "Hugging Face Transformers Trainer in BF16 mixed precision: FP32 weights, gradients and AdamW "
        "moments (4 + 4 + 8 bytes per parameter) and the BF16 copies automatic mixed precision "
        "makes of each weight, kept for the backward pass (2); PEFT keeps LoRA adapters in FP32 "
        "over the base in its own precision; eager RMSNorm and "
        "SwiGLU as PyTorch stores them; cross-entropy on FP32 logits (3 x 4 bytes per logit)"
    ),
)
DEEPSPEED = StackProfile(
    **EAGER_PYTORCH,
    weight_bytes=2,
    gradient_bytes=2,
    master_bytes=4,
    moment_scale=1,
    cast_copy_bytes=0,
    logit_bytes=12,
    source=(
        "DeepSpeed ZeRO with BF16: 16-bit weights and gradients, an FP32 master copy and "
        "AdamW's FP32 moments (2 + 2 + 12 bytes per parameter, Rajbhandari et al., "
        "arXiv:1910.02054, section 3.1) on Hugging Face models: eager RMSNorm and SwiGLU, "
        "cross-entropy on FP32 logits (3 x 4 bytes per logit)"
    ),
)

# The stacks whose gradients PyTorch allocates in each backward pass (set to None after each
# step); Megatron-Core keeps a persistent FP32 gradient buffer, DeepSpeed its gradient partitions
PYTORCH_STACKS = frozenset({TrainingStack.FSDP, TrainingStack.TORCHTUNE, TrainingStack.HF_PEFT})

STACKS: dict[TrainingStack, StackProfile] = {
    TrainingStack.MEGATRON: MEGATRON,
    TrainingStack.FSDP: FSDP,
    TrainingStack.TORCHTUNE: TORCHTUNE,
    TrainingStack.HF_PEFT: HF_PEFT,
    TrainingStack.DEEPSPEED: DEEPSPEED,
}


# Pure BF16: the model loaded in bfloat16 and trained without automatic mixed precision. The
# weights, their gradients and AdamW's two moments are all BF16 and there is no FP32 master copy:
# PyTorch's optimizers create each state as zeros_like(param), in the parameter's dtype
# (torch/optim/adamw.py), and a BF16 parameter's gradient is BF16. 2 + 2 + 4 = 8 bytes a
# parameter in place of mixed precision's 16 (FP32 weights, gradients, moments) + 2 (the BF16
# copy autocast keeps). torchtune always trains so; Hugging Face's Trainer does for a model loaded
# with torch_dtype=bfloat16 without bf16 autocast; PEFT still upcasts LoRA adapters to FP32.
PURE_BF16: dict[str, float] = {
    "weight_bytes": 2,
    "gradient_bytes": 2,
    "master_bytes": 0,
    "moment_scale": 0.5,
    "cast_copy_bytes": 0,
}
PURE_BF16_SOURCE = (
    "pure BF16, as the design states: weights, gradients and AdamW's moments in BF16 with no "
    "FP32 master copy (2 + 2 + 4 bytes per parameter; PyTorch's AdamW keeps its states in the "
    "parameter's dtype, torch/optim/adamw.py)"
)

# torch.compile: Inductor fuses the work between the matrix products, and its partitioner
# (torch/_functorch/partitioners.py, min_cut_rematerialization_partition) keeps for the backward
# pass only what a fused kernel cannot rebuild: a matrix product's output (never recomputed) and
# a tensor a matrix product reads in the backward pass (is_materialized_backwards); pointwise
# work (an RMSNorm's FP32 upcast and normalised copy, SiLU) is recomputed inside the backward
# kernels. So the norms keep only their 16-bit input and the output the next projection's
# weight gradient reads (both already counted): no extra bytes; the SwiGLU keeps the gate and up
# projections' outputs and the product silu(gate) x up the down projection reads, 3 x 2 bytes
# per MLP unit, where eager PyTorch also keeps silu(gate) (8). Checked on torchtune's Llama 3.2 3B
# table: compile saved 9.6 GB at 2 x 4,096 tokens, these counts 9.4 GB (docs/model.md).
COMPILED: dict[str, float] = {"norm_extra": 0, "gated_mlp_bytes": 6}
COMPILED_SOURCE = (
    "compiled with torch.compile: Inductor's partitioner keeps matrix outputs and what a matrix "
    "product reads in the backward pass and recomputes the pointwise work, so the norms keep "
    "only their 16-bit input and the SwiGLU its gate, up and product (3 x 2 bytes per MLP "
    "unit; torch/_functorch/partitioners.py, min_cut_rematerialization_partition)"
)


# A chunked loss (torchtune's CEWithChunkedOutputLoss, 8 chunks): the output projection and the
# cross-entropy run chunk by chunk, keeping each chunk's FP32 log-probabilities for the backward
# pass (4 bytes per logit) and one chunk's two gradients at a time (2 x 4 / 8)
CHUNKED_LOGIT_BYTES = 4 + 2 * 4 / 8
CHUNKED_SOURCE = (
    "the loss computed in 8 chunks of the sequence (torchtune's CEWithChunkedOutputLoss) keeps "
    "the FP32 log-probabilities (4 bytes per logit) and one chunk's gradients at a time "
    "(2 x 4 / 8)"
)


def profile(
    stack: TrainingStack,
    pure_bf16: bool = False,
    compiled: bool = False,
    chunked_loss: bool | None = None,
) -> StackProfile:
    """The stack's profile with the design's pure BF16, torch.compile and loss choices applied
    (``chunked_loss`` None: the stack's own); the source says which were."""
    p = STACKS[stack]
    words = [p.source]
    chunked = p.chunked_loss if chunked_loss is None else chunked_loss
    if chunked:
        p = replace(p, logit_bytes=CHUNKED_LOGIT_BYTES, chunked_loss=True)
        words.append(CHUNKED_SOURCE)
    elif p.chunked_loss:
        p = replace(p, chunked_loss=False)
        words.append("the loss over the whole vocabulary at once, as the design states")
    if pure_bf16:
        b = PURE_BF16
        p = replace(
            p,
            weight_bytes=b["weight_bytes"],
            gradient_bytes=b["gradient_bytes"],
            master_bytes=b["master_bytes"],
            moment_scale=b["moment_scale"],
            cast_copy_bytes=b["cast_copy_bytes"],
        )
        words.append(PURE_BF16_SOURCE)
    if compiled:
        p = replace(
            p, norm_extra=COMPILED["norm_extra"], gated_mlp_bytes=COMPILED["gated_mlp_bytes"]
        )
        words.append(COMPILED_SOURCE)
    return replace(p, source="; ".join(words))


def default_stack(kind: WorkloadKind, method: FineTuningMethod | None) -> TrainingStack:
    """What a team most likely runs when the design does not say: Megatron-Core for training
    from scratch, Hugging Face with PEFT for LoRA and QLoRA, PyTorch FSDP for full
    fine-tuning."""
    if kind is WorkloadKind.TRAINING:
        return TrainingStack.MEGATRON
    if method in (FineTuningMethod.LORA, FineTuningMethod.QLORA):
        return TrainingStack.HF_PEFT
    return TrainingStack.FSDP


def stack_name(stack: TrainingStack) -> str:
    return TRAINING_STACK_LABEL[stack]


def sixteen_bit(precision: Precision) -> bool:
    """Mixed precision (BF16, FP16, FP8, FP4 matrix products) keeps the stack's layout; FP32
    and TF32 training hold 4-byte weights and gradients and no copy."""
    return precision not in (Precision.FP32, Precision.TF32)
