"""Requirements: the workload groups as the customer described them, and their answers."""

from __future__ import annotations

from reportlab.platypus import Flowable

from reports.numbers import num, value
from reports.story import Story
from wizard.model.design import WorkloadGroup, WorkloadKind


def _model(st: Story, g: WorkloadGroup) -> str:
    if g.model is None:
        return "–"
    if g.model.preset:
        preset = st.data.catalog.models.get(g.model.preset)
        return preset.name if preset else g.model.preset
    c = g.model.custom
    assert c is not None
    return f"custom, {num(c.parameters)} parameters"


def _basis(g: WorkloadGroup) -> str:
    if g.gpus_per_member is not None:
        return f"{g.gpus_per_member} GPU(s) per member"
    if g.kind in (WorkloadKind.DEVELOPMENT, WorkloadKind.HPC):
        return "per-user need"
    return "sized from the model"


def answers(st: Story, g: WorkloadGroup) -> list[tuple[str, str]]:
    """The answers that shaped this group's sizing, as (question, answer)."""
    out: list[tuple[str, str]] = [
        ("Kind", g.kind.value),
        ("Members (jobs, services or users)", num(g.count)),
        ("Sizing basis", _basis(g)),
        ("GPU sharing mode", g.sharing_mode.value),
    ]
    if g.gpus_per_member is None and g.model is not None:
        out += [
            ("Model", _model(st, g)),
            ("Precision", g.precision.value),
            ("Micro-batch / sequence length", f"{g.micro_batch_size} / {g.sequence_length}"),
        ]
        if g.kind is not WorkloadKind.INFERENCE:
            out += [
                ("Optimizer", g.optimizer.value),
                (
                    "Activation recomputation",
                    g.recompute.value if g.recompute else "chosen by the sizing",
                ),
                (
                    "ZeRO stage",
                    str(g.parallelism.zero_stage)
                    if g.parallelism.zero_stage is not None
                    else "chosen by the sizing",
                ),
            ]
            if g.fine_tuning is not None:
                ft = g.fine_tuning
                text = {"full": "full fine-tuning", "lora": "LoRA", "qlora": "QLoRA"}[
                    ft.method.value
                ]
                if ft.method.value != "full":
                    text += f", rank {ft.lora_rank} on the {ft.lora_targets.value} projections"
                out.append(("Fine-tuning method", text))
            if g.global_batch_size:
                out.append(("Global batch", num(g.global_batch_size)))
        par = g.parallelism
        given = [
            f"{k} {v}"
            for k, v in (
                ("DP", par.data_parallel),
                ("TP", par.tensor_parallel),
                ("PP", par.pipeline_parallel),
            )
            if v
        ]
        out.append(("Parallelism", ", ".join(given) if given else "chosen by the sizing"))
    if g.training:
        t = g.training
        for name, v in (
            ("Dataset samples", t.dataset_samples),
            ("Dataset tokens", t.dataset_tokens),
            ("Iterations per epoch", t.iterations_per_epoch),
            ("Epochs", t.epochs),
            ("Target time to train (h)", t.target_hours),
        ):
            if v is not None:
                out.append((name, value(v)))
    if g.inference:
        i = g.inference
        out += [
            (
                "Prompt / output tokens (average)",
                f"{num(i.input_tokens)} / {num(i.output_tokens)}",
            ),
            ("Longest request (tokens)", num(i.context_tokens)),
            ("Requests in flight at the peak", num(i.concurrent_sequences)),
            (
                "KV cache precision",
                i.kv_cache_precision.value.upper()
                if i.kv_cache_precision
                else "16-bit (engine default)",
            ),
        ]
        for name, v in (
            ("Target requests/s", i.target_requests_per_s),
            ("Target output tokens/s", i.target_tokens_per_s),
            ("Time to first token, at most (ms)", i.ttft_target_ms),
            ("Time between tokens, at most (ms)", i.itl_target_ms),
        ):
            if v is not None:
                out.append((name, value(v)))
    if g.shared:
        s = g.shared
        need = (
            f"{num(s.gpu_memory_gb)} GB of GPU memory"
            if s.gpu_memory_gb
            else f"{s.gpu_fraction:.0%} of a GPU"
            if s.gpu_fraction
            else f"{s.gpus_per_job} whole GPU(s)"
        )
        out += [("Need per user", need), ("Users active at once", f"{s.concurrency:.0%}")]
    cons = g.constraints
    needs = [
        n
        for n, on in (
            ("performance isolation", cons.isolation_required),
            ("live migration", cons.live_migration_required),
            ("remote GPU access acceptable", cons.remote_ok),
        )
        if on
    ]
    out.append(("Constraints", ", ".join(needs) if needs else "none"))
    return out


def build(st: Story) -> list[Flowable] | None:
    d = st.data.design
    flow: list[Flowable] = []
    hw = d.hardware
    flow += st.h2("Platform choices")
    flow.append(
        st.pairs(
            [
                ("GPU", st.data.gpu.name),
                ("Server", f"{st.data.server.vendor} {st.data.server.model}"),
                ("GPUs per host", str(hw.gpus_per_host)),
                ("NIC", st.data.nic.model if st.data.nic else "–"),
                ("Data fabric", f"{hw.fabric.value}, RDMA {hw.rdma.value}"),
                ("NVLink", "yes" if hw.nvlink else "no"),
                (
                    "Storage",
                    f"{st.data.storage.vendor} {st.data.storage.model}" if st.data.storage else "–",
                ),
                (
                    "High availability",
                    f"{d.ha.level.value.upper()}, admission control "
                    f"{d.ha.admission_control.value}, failure domain {d.ha.failure_domain.value}",
                ),
            ]
        )
    )
    flow += st.h2("Workload groups")
    if not d.workloads:
        flow.append(st.p("The design has no workload groups yet."))
        return flow
    rows: list[list] = [["Group", "Kind", "Count", "Basis", "Mode", "Model"]]
    rows += [
        [g.name, g.kind.value, num(g.count), _basis(g), g.sharing_mode.value, _model(st, g)]
        for g in d.workloads
    ]
    flow.append(st.table(rows, [2.6, 1.6, 0.9, 2.1, 1.3, 2], right=(2,)))
    for g in d.workloads:
        flow += [*st.h3(g.name), st.pairs(answers(st, g))]
    return flow
