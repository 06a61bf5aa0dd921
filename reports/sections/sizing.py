"""Sizing per workload: the memory chart, an overview, then for each group its key figures and
the calculation log that produced them."""

from __future__ import annotations

from reports.diagrams import charts
from reports.doctree import Block
from reports.sections import calculations
from reports.story import Story
from wizard.app.serving_text import Spread, serving_rows, spread_text
from wizard.base.numbers import MISSING, count, figure, num, pct, unit
from wizard.model.design import WorkloadGroup
from wizard.model.result import SizedFrom, TrainingFigures, WorkloadResult
from wizard.present import labels
from wizard.present.basis import group_gpu, serving_basis, training_basis
from wizard.present.figures import WHOLE, gpus_text


def gpu_count_text(w: WorkloadResult) -> str:
    """Physical GPUs first, slots on them when shared: '40 × 1g.10gb on 5.7 GPUs (40 active
    users × 1 slot)', '4 GPUs (1 member × 2 replicas × 2 GPUs)'."""
    each = "slot" if w.sharing.slot_profile not in (None, WHOLE) else "GPU"
    if w.sized_from is SizedFrom.MODEL:
        return (
            f"{gpus_text(w)} ({count(w.members, 'member')} × "
            f"{count(w.replicas_per_member, 'replica')} × {count(w.gpus_per_replica, each)})"
        )
    who = "active user" if w.sized_from is SizedFrom.SHARED else "member"
    return f"{gpus_text(w)} ({count(w.replicas, who)} × {count(w.gpus_per_replica, each)})"


def key_figures(
    w: WorkloadResult, spread: Spread | None = None, target_hours: float | None = None,
    group: WorkloadGroup | None = None, gpu: str | None = None,
) -> list[tuple[str, str]]:  # fmt: skip
    """The group's figures; times and rates with their range over the stated spread, and each
    target met, at risk or missed."""
    m = w.memory_gb
    out = [("GPUs", gpu_count_text(w))]
    if w.sized_from is SizedFrom.MODEL:
        parts = [
            ("weights", m.weights),
            ("gradients", m.gradients),
            ("optimizer", m.optimizer),
            ("activations", m.activations),
            ("KV cache", m.kv_cache),
            ("overhead", m.overhead),
        ]
        out.append(
            (
                "Memory per GPU",
                f"{num(m.total)} GB: "
                + ", ".join(f"{name} {num(v)}" for name, v in parts if v > 0),
            )
        )
        out.append(("Memory per replica", unit(w.memory_gb_per_replica, "GB")))
    elif m.total:
        out.append(("Memory per GPU", f"{num(m.total)} GB"))
    if w.layout:
        lay = w.layout
        out.append(
            (
                "Parallel layout",
                f"DP {lay.data_parallel} × TP {lay.tensor_parallel} × PP "
                f"{lay.pipeline_parallel}, ZeRO {lay.zero_stage} "
                f"({'chosen by the sizing' if lay.chosen_by_engine else 'as given'}): "
                f"{lay.reason}",
            )
        )
    t = w.training
    if t is not None and t.fine_tuning_method:
        out.append(
            (
                "Fine-tuning method",
                f"{labels.FINE_TUNING_SHORT[t.fine_tuning_method]}, "
                f"{num(t.trainable_parameters)} trainable parameters",
            )
        )
    if w.layout and w.layout.recompute and w.layout.recompute != "none":
        out.append(("Activation recomputation", w.layout.recompute))
    if t is not None and t.flops:
        out.append(("Training compute", unit(t.flops, "FLOPs")))
    if w.planned_slice:
        out.append(
            ("Runs on", f"a {w.planned_slice} slice, {pct(w.planned_compute_share)} of a GPU")
        )
    if t is not None:
        out += _training_figures(t, spread or {}, target_hours, training_basis(group))
    if w.serving is not None:
        out += serving_rows(w.serving, spread, serving_basis(group, w, gpu))
    return out


def _training_figures(
    t: TrainingFigures, spread: Spread, target_hours: float | None, basis: str
) -> list[tuple[str, str]]:
    out = []
    if t.iteration_seconds is not None:
        out.append(("Time per iteration", unit(t.iteration_seconds, "s")))
    if t.pipeline_bubble_share:
        out.append(("Pipeline bubble", pct(t.pipeline_bubble_share) + " of the compute time"))
    if t.tensor_parallel_seconds_per_iteration:
        out.append(
            (
                "Tensor-parallel all-reduces per iteration",
                unit(t.tensor_parallel_seconds_per_iteration, "s"),
            )
        )
    if t.compute_seconds_per_iteration is not None:
        out.append(("Compute per iteration", unit(t.compute_seconds_per_iteration, "s")))
    if t.allreduce_gb_per_gpu_per_iteration is not None:
        out.append(
            (
                "Allreduce per GPU per iteration",
                f"{num(t.allreduce_gb_per_gpu_per_iteration)} GB over {t.allreduce_link or MISSING}"
                f", {unit(t.allreduce_seconds_per_iteration, 's')}",
            )
        )
    if t.communication_share is not None:
        out.append(("Communication not hidden by compute", pct(t.communication_share)))
    if t.time_to_train_hours is not None:
        rng = spread.get("time_to_train_hours")
        text = spread_text(t.time_to_train_hours, rng, "h")
        if target_hours:
            hours = t.time_to_train_hours
            if hours > target_hours:
                text += f" (target {num(target_hours)} h: missed)"
            elif rng is not None and rng.pessimistic > target_hours:
                text += (
                    f" (target {num(target_hours)} h: at risk: met as estimated, missed at the "
                    f"pessimistic end ({figure(rng.pessimistic, 'h')}))"
                )
            else:
                text += f" (target {num(target_hours)} h: met)"
        out.append(("Time to train", f"{text}; {basis}"))
    if t.gpus_for_target_time is not None:
        out.append(("GPUs for the target time", num(t.gpus_for_target_time)))
    return out


def build(st: Story) -> list[Block] | None:
    r = st.data.result
    if not r.workloads:
        return None
    flow: list[Block] = [
        st.p(
            "Each workload group is sized on its own: memory per GPU decides how many GPUs a "
            "replica needs, compute and communication decide how long work takes, and the "
            "members and replicas give the GPU count. Every figure below comes with the formula, "
            "the inputs substituted into it and its source (numbered in the appendix)."
            + (
                " Times and rates carry, in brackets, their range over the stated spread of the "
                "efficiency assumptions (training utilization, decode and prefill efficiency; see "
                "the appendix), and a target counts as met only when it holds at the pessimistic "
                "end."
                if st.data.ranges
                else ""
            )
        )
    ]
    chart = charts.memory(st.data, st.width)
    if chart is not None:
        flow.append(
            st.figure(
                chart,
                f"Memory per GPU by component for each workload group, against the "
                f"{num(st.data.gpu.memory_gb)} GB of one {st.data.gpu.name}.",
            )
        )
    rows: list[list] = [["Group", "Kind", "GPUs / replica", "Replicas", "Members", "GPUs"]]
    rows += [
        [w.name, labels.KIND_SHORT[w.kind], num(w.gpus_per_replica), num(w.replicas),
         num(w.members), gpus_text(w)]
        for w in r.workloads
    ]  # fmt: skip
    # the physical GPUs after packing: shared slots of several groups fill the same GPUs
    rows.append(["Total after packing", "", "", "", "", count(r.cluster.gpus_demand, "GPU")])
    flow.append(st.table(rows, [2.4, 1.2, 0.9, 0.9, 1, 2.4], right=(2, 3, 4)))
    for i, w in enumerate(r.workloads):
        flow += st.h2(w.name)
        g = st.data.design.workloads[i]
        target = g.training.target_hours if g.training else None
        gpu = group_gpu(st.data.design, g)
        flow.append(st.pairs(key_figures(w, st.data.ranges.get(w.name), target, g, gpu), 0.3))
        prefix = f"workloads[{i}]."
        calcs = st.data.calculations(prefix)
        if calcs:
            flow += st.h3("Calculations")
            flow.append(calculations.table(st, calcs, prefix))
    return flow
