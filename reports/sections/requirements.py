"""Requirements: the workload groups as the customer described them, and their answers."""

from __future__ import annotations

from reports.doctree import Block
from reports.story import Story
from wizard.base.numbers import MISSING, count, num, pct, value
from wizard.model.catalog import ModelArch
from wizard.model.design import FineTuningMethod, WorkloadGroup, WorkloadKind
from wizard.model.result import WorkloadResult
from wizard.present import labels


def _transformer(st: Story, g: WorkloadGroup) -> bool:
    """Whether the group's model is a transformer (the training software and attention kernel
    shape its memory); a CNN preset is not."""
    if g.model is None:
        return False
    if g.model.custom is not None:
        return True
    preset = st.data.catalog.models.get(g.model.preset or "")
    return preset is not None and preset.architecture is not ModelArch.CNN


def _sized(st: Story, g: WorkloadGroup) -> WorkloadResult | None:
    """The group as the plan sized it, in whichever cluster it runs."""
    return next((w for w in st.data.plan.workloads if w.name == g.name), None)


def _model(st: Story, g: WorkloadGroup) -> str:
    if g.model is None:
        return MISSING
    if g.model.preset:
        preset = st.data.catalog.models.get(g.model.preset)
        return preset.name if preset else g.model.preset
    c = g.model.custom
    assert c is not None
    if c.parameters:
        return f"custom, {num(c.parameters)} parameters"
    sized = _sized(st, g)
    if sized is None or sized.parameters is None:
        return "custom, parameters counted from its shape"
    text = f"custom, {num(sized.parameters)} parameters counted from its shape"
    return text + (f", {num(sized.active_parameters)} active per token" if c.experts else "")


def _kv_default(st: Story, g: WorkloadGroup) -> str:
    """The cache the serving stack keeps when the design names none, in words, as the plan
    sized the group."""
    sized = _sized(st, g)
    size = sized.kv_cache_bytes_per_element if sized is not None else None
    if size is None:
        return "serving stack default"
    if size == 1:
        return "FP8, following the weights (serving stack default)"
    return f"{8 * size:.0f}-bit (serving stack default)"


def _basis(g: WorkloadGroup) -> str:
    if g.gpus_per_member is not None:
        return f"{count(g.gpus_per_member, 'GPU')} per member"
    if g.kind in (WorkloadKind.DEVELOPMENT, WorkloadKind.HPC):
        return "per-user need"
    return "sized from the model"


def answers(st: Story, g: WorkloadGroup) -> list[tuple[str, str]]:
    """The answers that shaped this group's sizing, as (question, answer)."""
    out: list[tuple[str, str]] = [
        ("Kind", labels.KIND[g.kind]),
        ("Members (jobs, services or users)", num(g.count)),
        ("Sizing basis", _basis(g)),
        ("GPU sharing mode", labels.MODE[g.sharing_mode]),
    ]
    if g.gpus_per_member is None and g.model is not None:
        out += [
            ("Model", _model(st, g)),
            ("Precision", labels.PRECISION[g.precision]),
            ("Micro-batch / sequence length", f"{g.micro_batch_size} / {g.sequence_length}"),
        ]
        if g.kind is not WorkloadKind.INFERENCE:
            out += [
                ("Optimizer", labels.OPTIMIZER[g.optimizer]),
                (
                    "Activation recomputation",
                    labels.RECOMPUTE[g.recompute] if g.recompute else "chosen by the sizing",
                ),
                (
                    "ZeRO stage",
                    str(g.parallelism.zero_stage)
                    if g.parallelism.zero_stage is not None
                    else "chosen by the sizing",
                ),
            ]
            if _transformer(st, g):
                stack = g.training_stack
                out += [
                    (
                        "Training software",
                        labels.TRAINING_STACK[stack] if stack else "chosen by the sizing",
                    ),
                    ("Attention kernel", labels.ATTENTION[g.attention]),
                ]
                full = g.fine_tuning is None or g.fine_tuning.method is FineTuningMethod.FULL
                if g.pure_bf16 and full:  # LoRA adapters stay as the stack keeps them
                    out.append(("Model states", "pure BF16 (no FP32 master weights)"))
                if g.compiled:
                    out.append(("Compilation", "compiled with torch.compile"))
                if g.chunked_loss is not None:
                    out.append(("Loss over the vocabulary", labels.CHUNKED_LOSS[g.chunked_loss]))
            if g.fine_tuning is not None:
                ft = g.fine_tuning
                text = labels.FINE_TUNING[ft.method]
                if ft.method is not FineTuningMethod.FULL:
                    text += f", rank {ft.lora_rank} on {labels.LORA_TARGETS[ft.lora_targets]}"
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
                labels.PRECISION_SHORT[i.kv_cache_precision]
                if i.kv_cache_precision
                else _kv_default(st, g),
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
        if i.people is not None:
            pp = i.people
            out.append(
                (
                    "Demand in people",
                    f"{num(pp.users)} people, {pct(pp.active_share)} active in the busiest hour, "
                    f"{num(pp.requests_per_hour)} requests an hour each: "
                    f"{num(pp.requests_per_s)} requests a second",
                )
            )
    if g.shared:
        s = g.shared
        need = (
            f"{num(s.gpu_memory_gb)} GB of GPU memory"
            if s.gpu_memory_gb
            else f"{s.gpu_fraction:.0%} of a GPU"
            if s.gpu_fraction
            else f"{count(s.gpus_per_job, 'whole GPU')}"
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


def build(st: Story) -> list[Block] | None:
    d = st.data.design
    flow: list[Block] = []
    hw = d.hardware
    flow += st.h2("Platform choices")
    flow.append(
        st.pairs(
            [
                ("GPU", st.data.gpu.name),
                ("Server", st.data.server.product_name),
                ("GPUs per host", str(hw.gpus_per_host)),
                ("NIC", st.data.nic.model if st.data.nic else MISSING),
                (
                    "Data fabric",
                    f"{labels.FABRIC[hw.fabric]}, RDMA: {labels.RDMA_SHORT[hw.rdma]}",
                ),
                ("NVLink", "yes" if hw.nvlink else "no"),
                (
                    "Storage",
                    st.data.storage.product_name if st.data.storage else MISSING,
                ),
                (
                    "High availability",
                    f"{labels.HA_LEVEL[d.ha.level]}; admission control: "
                    f"{labels.ADMISSION[d.ha.admission_control]}; what fails together: "
                    f"{labels.FAILURE_DOMAIN[d.ha.failure_domain].lower()}",
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
        [
            g.name,
            labels.KIND_SHORT[g.kind],
            num(g.count),
            _basis(g),
            labels.MODE_SHORT[g.sharing_mode],
            _model(st, g),
        ]
        for g in d.workloads
    ]
    flow.append(st.table(rows, [2.4, 1.4, 0.8, 2.0, 1.9, 2.0], right=(2,)))
    for g in d.workloads:
        flow += [*st.h3(g.name), st.pairs(answers(st, g))]
    return flow
