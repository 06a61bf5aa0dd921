"""The compute of one training iteration: the FLOPs each pass of the forward, backward and
recomputation runs, from the model's shape (Narayanan et al., SC21, Eq. 3) or the preset's
measured forward FLOPs."""

from __future__ import annotations

from wizard.engine.basis.record import Chain
from wizard.engine.demand import training_physics as tp_
from wizard.engine.demand.sizer import ModelInfo
from wizard.engine.demand.training_plan import Job, Strategy, recomputed_share
from wizard.model.design import Recompute, WorkloadGroup


def flops_per_iteration(
    chain: Chain, m: ModelInfo, g: WorkloadGroup, job: Job, st: Strategy, trainable: float,
    global_batch: int,
) -> float | None:  # fmt: skip
    """One iteration's FLOPs, logged: Narayanan et al.'s Eq. 3 term by term for a transformer
    (the matrix products, attention and logits, each pass the method and recomputation run,
    and the adapters'), or the preset's measured forward FLOPs for another model."""
    if job.shape is not None:
        p = m.preset
        custom = g.model.custom if g.model else None
        tied = 1 if (p and p.tied_embeddings) or (custom and custom.tied_embeddings) else 2
        vocab = job.vocabulary
        matrix = chain(
            "matrix_parameters", tp_.NON_EMBEDDING_PARAMS, "parameters",
            tp_.NARAYANAN_EQ3 + ": embeddings are looked up, not multiplied; the logits "
            "are counted on their own",
            parameters=m.active_params, embedding_copies=tied, vocabulary=vocab,
            hidden=job.shape.hidden,
        )  # fmt: skip
        lora = job.lora
        recomputed = recomputed_share(job, st)
        per_token = chain(
            "flops_per_token", tp_.FLOPS_PER_TOKEN, "FLOPs per token", tp_.NARAYANAN_EQ3,
            linear_passes=(2 if lora else 3) + recomputed,
            matrix_parameters=max(matrix, 0.0),
            attention_passes=attention_passes(job, st),
            layers=job.shape.layers, sequence=job.sequence,
            attention_width=job.shape.attention_width, hidden=job.shape.hidden,
            logit_passes=2 if lora else 3, vocabulary=vocab,
            adapter_passes=3 if lora else 0, trainable_parameters=trainable if lora else 0,
        )  # fmt: skip
        return chain(
            "flops_per_iteration", tp_.FLOPS_PER_ITERATION, "FLOPs", tp_.NARAYANAN_EQ3,
            flops_per_token=per_token, global_batch=global_batch, sequence=job.sequence,
        )  # fmt: skip
    if m.preset and m.preset.forward_gflops_per_sample:
        return chain(
            "flops_per_iteration",
            tp_.Formula("passes * forward_gflops_per_sample * 1e9 * global_batch"), "FLOPs",
            m.preset.source + "; backward = 2 x forward, one more forward with recomputation",
            passes=4 if st.recompute is Recompute.FULL else 3,
            forward_gflops_per_sample=m.preset.forward_gflops_per_sample,
            global_batch=global_batch,
        )  # fmt: skip
    return None


def attention_passes(job: Job, st: Strategy) -> float:
    """Forward, two backward products, and one more forward of the attention core under any
    recomputation (selective recomputes just that core; full recomputation of some layers, in
    those layers)."""
    if st.recompute is Recompute.FULL:
        return 3 + recomputed_share(job, st)
    return 3 + (0 if st.recompute is Recompute.NONE else 1)
