"""The memory per GPU of a training or fine-tuning job, logged part by part: each figure by the
formula that computes it and the source of its bytes (the training stack, the attention kernel,
the optimizer step), checked against the unlogged sum the strategy search used."""

from __future__ import annotations

from wizard.engine.basis import sources
from wizard.engine.basis.record import Chain
from wizard.engine.demand import training_physics as tp_
from wizard.engine.demand.training_plan import (
    ACTIVATIONS_BESIDE_GRADIENTS_GB,
    ALLOCATOR_GB,
    Job,
    Strategy,
    memory_parts,
    memory_values,
)
from wizard.model.design import FineTuningMethod
from wizard.model.result import MemoryBreakdown

ATTENTION_WORDS = {
    False: "fused attention (FlashAttention, PyTorch's fused kernels) stores no score matrix (Dao et al., "
    "arXiv:2205.14135, section 3.1: only the output and the softmax statistics)",
    True: "eager attention stores the score matrices",
}
ASSUMED = sources.ASSUMPTION
OPTIMIZER_IN_BACKWARD = (
    "the optimizer steps each parameter in the backward pass as soon as its gradient is ready "
    "and frees the gradient (torchtune's optimizer-in-backward hooks; PyTorch tutorial 'How to "
    "save memory by fusing the optimizer step into the backward pass', which needs no gradient "
    "accumulation): at most the largest parameter's gradient is held"
)


FRESH_GRADIENTS = (
    "PyTorch sets the gradients to None after each step (Optimizer.zero_grad, set_to_none=True "
    "by default since PyTorch 2.0) and the backward pass allocates each one as it frees the "
    "activations that made it; with one micro-batch a step and no data-parallel bucket, the "
    "start of the backward pass (the activations and logits, no gradient yet) and its end "
    "(every gradient, one layer's working set) are two peaks: the activations count only "
    "beyond the gradients"
)


def record_memory(chain: Chain, job: Job, st: Strategy, trainable: float) -> MemoryBreakdown:
    """Log each part of the memory per GPU by the formula that gives it, and the peak they make:
    the model states, the activations at the start of the backward pass (stored, the layer being
    recomputed, the loss's logits) and the overhead with the allocator's reserve."""
    stack = job.stack_source
    src = {
        "weights": f"{sources.ZERO}; {stack}"
        + (f"; {tp_.QLORA}" if job.method is FineTuningMethod.QLORA else ""),
        "gradients": f"{sources.SEED_MULTI_GPU}; ZeRO stage 2 shards them; {stack}"
        + (f"; {OPTIMIZER_IN_BACKWARD}" if job.optimizer_in_backward else ""),
        "optimizer": f"{sources.ZERO}; {stack}",
        "activations": f"{sources.KORTHIKANTI}; {ATTENTION_WORDS[job.eager_attention]}; {stack}",
        "recompute_working": f"{sources.KORTHIKANTI}: the backward pass recomputes one layer "
        "in full at a time",
        "logits": f"The loss over the vocabulary: {stack}",
    }
    ids = {"activations": "memory.stored_activations"}
    values = {
        name: chain(ids.get(name, f"memory.{name}"), f, "GB per GPU", src[name], **inputs)
        for name, (f, inputs) in memory_parts(job, st, trainable).items()
    }
    # at the peak (the start of the backward pass) the activations are those stored, the
    # layer being recomputed and the loss's logits
    act = chain(
        "memory.activations", tp_.Formula("stored + recompute_working + logits"),
        "GB per GPU", "The activations at the start of the backward pass",
        stored=values.get("activations", 0.0),
        recompute_working=values.get("recompute_working", 0.0),
        logits=values.get("logits", 0.0),
    )  # fmt: skip
    if job.gradients_in_backward(st) and job.shape is not None:
        act = chain(
            "memory.activations_beside_gradients", ACTIVATIONS_BESIDE_GRADIENTS_GB, "GB per GPU",
            FRESH_GRADIENTS, activations=act, gradients=values["gradients"],
            recompute_working=values.get("recompute_working", 0.0),
        )  # fmt: skip
    tensors = chain(
        "memory.tensors",
        tp_.Formula("weights + gradients + optimizer + activations"),
        "GB per GPU", sources.DERIVED,
        weights=values["weights"], gradients=values["gradients"],
        optimizer=values["optimizer"], activations=act,
    )  # fmt: skip
    reserve = chain(
        "memory.allocator_reserve", ALLOCATOR_GB, "GB per GPU",
        f"{ASSUMED}: PyTorch's caching allocator holds rounded blocks above the tensors' "
        "peak (its reserved over its allocated memory)",
        tensors_gb=tensors, allocator_reserve=job.allocator_reserve,
    )  # fmt: skip
    overhead = chain(
        "memory.overhead", tp_.Formula("framework_overhead_gb + allocator_reserve_gb"),
        "GB per GPU",
        f"{ASSUMED}: the CUDA context, the libraries' workspaces and communication buffers "
        "(typically 1-3 GB), and the allocator's reserve",
        framework_overhead_gb=job.overhead_gb, allocator_reserve_gb=reserve,
    )  # fmt: skip
    total = chain(
        "memory.total",
        tp_.Formula("weights + gradients + optimizer + activations + overhead"),
        "GB per GPU", sources.DERIVED,
        weights=values["weights"], gradients=values["gradients"],
        optimizer=values["optimizer"], activations=act, overhead=overhead,
    )  # fmt: skip
    check = memory_values(job, st, trainable)
    assert abs(check["tensors"] - tensors) <= 1e-9 * max(tensors, 1.0)
    return MemoryBreakdown(
        weights=values["weights"],
        gradients=values["gradients"],
        optimizer=values["optimizer"],
        activations=act,
        kv_cache=0.0,
        overhead=overhead,
        workspace=0.0,
        total=total,
    )
