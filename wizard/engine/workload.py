"""Sizing of one workload group: memory per GPU, parallel layout, compute, communication."""

from __future__ import annotations

import math
from dataclasses import dataclass

from wizard.engine import comms, compute, memory, sources
from wizard.engine.inference import LAYOUT_SOURCE, Plan, ServingPlanner, transformer
from wizard.engine.memory import Shape, Sharding
from wizard.engine.record import Recorder
from wizard.model.catalog import Catalog, Gpu, ModelArch, ModelPreset, Server
from wizard.model.design import Design, WorkloadGroup, WorkloadKind
from wizard.model.result import Layout, MemoryBreakdown, Severity, WorkloadResult

TRAINING_KINDS = (WorkloadKind.TRAINING, WorkloadKind.FINE_TUNING)


@dataclass(frozen=True)
class ModelInfo:
    name: str
    params: float
    active_params: float
    shape: Shape | None  # None for non-transformer presets
    preset: ModelPreset | None


def resolve_model(group: WorkloadGroup, catalog: Catalog) -> ModelInfo | None:
    if group.model is None:
        return None
    if group.model.preset:
        p = catalog.models[group.model.preset]
        shape = None
        if p.architecture is not ModelArch.CNN:
            assert p.hidden_size and p.heads and p.kv_heads  # enforced by the catalog schema
            shape = Shape(p.layers, p.hidden_size, p.heads, p.kv_heads)
        return ModelInfo(p.name, p.parameters, p.active_parameters or p.parameters, shape, p)
    c = group.model.custom
    assert c is not None
    shape = Shape(c.layers, c.hidden_size, c.heads, c.kv_heads or c.heads)
    return ModelInfo("custom model", c.parameters, c.parameters, shape, None)


@dataclass
class Sized:
    memory: MemoryBreakdown
    sharding: Sharding


class WorkloadSizer:
    """Sizes one group; every headline figure goes through the recorder with its source."""

    def __init__(self, index: int, group: WorkloadGroup, design: Design, catalog: Catalog,
                 gpu: Gpu, server: Server, rec: Recorder) -> None:  # fmt: skip
        self.i = index
        self.g = group
        self.design = design
        self.a = design.assumptions
        self.gpu = gpu
        self.server = server
        self.rec = rec
        self.model = resolve_model(group, catalog)
        self.key = f"workloads[{index}]"

    # ------------------------------------------------------------------ memory

    def _memory(self, sh: Sharding, record: bool) -> MemoryBreakdown:
        g, m, a = self.g, self.model, self.a
        assert m is not None
        training = g.kind in TRAINING_KINDS
        grad_bytes = a.gradient_bytes
        w = memory.weights_gb(m.params, g.precision, sh)
        grads = memory.gradients_gb(m.params, grad_bytes, sh) if training else 0.0
        opt = memory.optimizer_gb(m.params, g.precision, g.optimizer, sh) if training else 0.0
        act = 0.0
        kv = 0.0
        if training:
            if m.shape is not None:
                act = memory.activations_gb(
                    m.shape, g.sequence_length, g.micro_batch_size, g.recompute, sh, g.precision
                )
            elif m.preset and m.preset.activation_gb_per_sample:
                act = (
                    m.preset.activation_gb_per_sample
                    * g.micro_batch_size
                    * memory.activation_element_bytes(g.precision)
                    / 4
                )
        overhead = a.framework_overhead_gb
        total = w + grads + opt + act + kv + overhead
        mem = MemoryBreakdown(
            weights=w,
            gradients=grads,
            optimizer=opt,
            activations=act,
            kv_cache=kv,
            overhead=overhead,
            workspace=0.0,
            total=total,
        )
        if record:
            self._record_memory(mem, sh, training)
        return mem

    def _record_memory(self, mem: MemoryBreakdown, sh: Sharding, training: bool) -> None:
        g, m, a, k = self.g, self.model, self.a, self.key
        assert m is not None
        pb = memory.PARAM_BYTES[g.precision]
        shards = f"TP {sh.tensor} x PP {sh.pipeline}" + (
            f", ZeRO-{sh.zero_stage} over DP {sh.data}" if sh.zero_stage else ""
        )
        self.rec.calc(
            f"{k}.memory.weights_per_replica",
            "parameters x bytes per parameter",
            {"parameters": m.params, "bytes_per_parameter": pb, "precision": g.precision.value},
            m.params * pb / memory.GB,
            "GB",
            sources.SEED_MULTI_GPU,
        )
        self.rec.calc(
            f"{k}.memory.weights",
            "parameters x bytes per parameter / shards",
            {"parameters": m.params, "bytes_per_parameter": pb, "shards": shards},
            mem.weights,
            "GB per GPU",
            memory.SOURCES["weights"],
        )
        if training:
            self.rec.calc(
                f"{k}.memory.gradients",
                "parameters x gradient bytes / shards",
                {
                    "parameters": m.params,
                    "gradient_bytes": a.gradient_bytes,
                    "shards": shards,
                    "assumption": "gradients kept in FP32 whatever the forward precision (seed view)"
                    if a.gradient_bytes == 4
                    else "gradients in the training precision",
                },
                mem.gradients,
                "GB per GPU",
                memory.SOURCES["gradients"],
            )
            opt_b = memory.OPTIMIZER_BYTES[g.optimizer]
            master = memory.master_copy_bytes(g.precision)
            self.rec.calc(
                f"{k}.memory.optimizer",
                "parameters x (optimizer state bytes + FP32 master copy) / shards",
                {
                    "parameters": m.params,
                    "optimizer": g.optimizer.value,
                    "state_bytes": opt_b,
                    "master_copy_bytes": master,
                    "shards": shards,
                    "model_state_bytes_per_parameter": memory.model_state_bytes_per_param(
                        g.precision, g.optimizer, a.gradient_bytes
                    ),
                },
                mem.optimizer,
                "GB per GPU",
                memory.SOURCES["optimizer"],
            )
            if m.shape is not None:
                self.rec.calc(
                    f"{k}.memory.activations",
                    "layers x s x b x h x (34 + 5 a s / h) bytes, adjusted for TP/SP and recomputation",
                    {
                        "layers": m.shape.layers,
                        "s": g.sequence_length,
                        "b": g.micro_batch_size,
                        "h": m.shape.hidden,
                        "a": m.shape.heads,
                        "t": sh.tensor,
                        "sequence_parallel": str(sh.sequence_parallel),
                        "recompute": g.recompute.value,
                    },
                    mem.activations,
                    "GB per GPU",
                    memory.SOURCES["activations"],
                )
            elif mem.activations:
                self.rec.calc(
                    f"{k}.memory.activations",
                    "activation GB per sample x micro-batch",
                    {"micro_batch": g.micro_batch_size},
                    mem.activations,
                    "GB per GPU",
                    f"{m.name} preset ({m.preset.source if m.preset else ''})",
                )
        self.rec.calc(
            f"{k}.memory.overhead",
            "CUDA context, framework workspace and fragmentation",
            {"framework_overhead_gb": a.framework_overhead_gb},
            mem.overhead,
            "GB per GPU",
            f"{sources.ASSUMPTION}: typically 1-3 GB per GPU",
        )
        self.rec.calc(
            f"{k}.memory.total",
            "weights + gradients + optimizer + activations + KV cache + overhead",
            {
                "weights": mem.weights,
                "gradients": mem.gradients,
                "optimizer": mem.optimizer,
                "activations": mem.activations,
                "kv_cache": mem.kv_cache,
                "overhead": mem.overhead,
            },
            mem.total,
            "GB per GPU",
            sources.DERIVED,
        )

    def _candidates(self, data: int) -> list[Sharding]:
        """Layouts to try, fewest GPUs first: tensor parallelism in powers of two inside a host
        (it needs the fastest links) that divide the heads; pipeline stages across hosts."""
        p = self.g.parallelism
        m = self.model
        assert m is not None
        heads = m.shape.heads if m.shape else 1
        layers = m.shape.layers if m.shape else 1
        if p.tensor_parallel is not None:
            tps = [p.tensor_parallel]
        elif m.shape is None:
            tps = [1]
        else:
            tps = [
                t
                for t in (1, 2, 4, 8, 16)
                if t <= self.design.hardware.gpus_per_host and heads % t == 0
            ]
        pps = (
            [p.pipeline_parallel] if p.pipeline_parallel is not None else list(range(1, layers + 1))
        )
        out = [
            Sharding(t, pp, data, p.zero_stage, p.sequence_parallel and t > 1)
            for t in tps
            for pp in pps
        ]
        return sorted(out, key=lambda s: (s.model_parallel, -s.tensor))

    def choose_layout(self, data: int) -> tuple[Sized, bool, str]:
        usable = self.gpu.memory_gb
        chosen_by_engine = (
            self.g.parallelism.tensor_parallel is None
            or self.g.parallelism.pipeline_parallel is None
        )
        best: Sized | None = None
        for sh in self._candidates(data):
            mem = self._memory(sh, record=False)
            if mem.total <= usable:
                return Sized(mem, sh), chosen_by_engine, "fits"
            if best is None or mem.total < best.memory.total:
                best = Sized(mem, sh)
        assert best is not None
        return best, chosen_by_engine, "does not fit"

    # ------------------------------------------------------------------ the group

    def size(self) -> WorkloadResult:
        if self.g.gpus_per_member is not None:
            return self._by_count(self.g.gpus_per_member, "gpus_per_member")
        if self.g.kind in (WorkloadKind.DEVELOPMENT, WorkloadKind.HPC):
            return self._shared()
        if self.g.kind in TRAINING_KINDS:
            return self._training()
        return self._inference()

    def _empty(self, gpus: int, workspace: float, sized_from: str) -> WorkloadResult:
        g = self.g
        mem = MemoryBreakdown(
            weights=0,
            gradients=0,
            optimizer=0,
            activations=0,
            kv_cache=0,
            overhead=0,
            workspace=workspace,
            total=workspace,
        )
        return WorkloadResult(
            name=g.name,
            kind=g.kind.value,
            sized_from=sized_from,
            memory_gb=mem,
            memory_gb_per_replica=workspace * gpus,
            fits_one_gpu=gpus <= 1,
            gpus_per_replica=gpus,
            replicas=1,
            members=g.count,
            gpus_total=0,
        )

    def _by_count(self, gpus: int, sized_from: str) -> WorkloadResult:
        g = self.g
        r = self._empty(gpus, self.gpu.memory_gb, sized_from)
        total = self.rec.calc(
            f"{self.key}.gpus",
            "members x GPUs per member",
            {"members": g.count, "gpus_per_member": gpus},
            g.count * gpus,
            "GPUs",
            f"{sources.SEED_WHITE_PAPER}: demand from a capacity analysis",
        )
        return r.model_copy(update={"replicas": g.count, "gpus_total": int(total)})

    def _shared(self) -> WorkloadResult:
        g = self.g
        s = g.shared
        assert s is not None
        if s.gpu_memory_gb is not None:
            need = s.gpu_memory_gb
            if need > self.gpu.memory_gb:
                self.rec.warn(
                    "shared-need-exceeds-gpu",
                    f"{g.name}: {need:g} GB per user is more than one {self.gpu.name} "
                    f"({self.gpu.memory_gb:g} GB); each user gets whole GPUs",
                )
        elif s.gpu_fraction is not None:
            need = s.gpu_fraction * self.gpu.memory_gb
        else:
            need = self.gpu.memory_gb
        whole = max(s.gpus_per_job, math.ceil(need / self.gpu.memory_gb - 1e-9))
        active = math.ceil(g.count * s.concurrency - 1e-9)
        self.rec.calc(
            f"{self.key}.active_members",
            "ceil(members x concurrency)",
            {"members": g.count, "concurrency": s.concurrency},
            active,
            "users or jobs",
            sources.ASSUMPTION,
        )
        total = self.rec.calc(
            f"{self.key}.gpus",
            "active members x whole GPUs each (whole-GPU placement)",
            {"active": active, "gpus_each": whole},
            active * whole,
            "GPUs",
            "Whole-GPU placement: a partial need still takes a whole GPU in passthrough",
        )
        r = self._empty(whole, need if whole == 1 else self.gpu.memory_gb, "shared")
        return r.model_copy(update={"replicas": active, "gpus_total": int(total)})

    def _training(self) -> WorkloadResult:
        g, m, a, rec, k = self.g, self.model, self.a, self.rec, self.key
        assert m is not None
        tr = g.training
        peak, path = compute.peak_tflops(self.gpu, g.precision)
        explicit_dp = g.parallelism.data_parallel
        data = explicit_dp or 1
        sized, by_engine, fit = self.choose_layout(data)
        gpr = sized.sharding.model_parallel

        # Tokens (or samples) per iteration, iterations, total FLOPs
        global_batch = g.global_batch_size or g.micro_batch_size * data
        iters_epoch = None
        if tr is not None:
            if tr.iterations_per_epoch:
                iters_epoch = tr.iterations_per_epoch
                rec.calc(
                    f"{k}.iterations_per_epoch",
                    "given",
                    {"iterations_per_epoch": iters_epoch},
                    iters_epoch,
                    "iterations",
                    "Design input",
                )
            elif tr.dataset_samples:
                iters_epoch = rec.calc(
                    f"{k}.iterations_per_epoch",
                    "ceil(dataset samples / global batch)",
                    {"dataset_samples": tr.dataset_samples, "global_batch": global_batch},
                    compute.iterations_per_epoch(tr.dataset_samples, global_batch),
                    "iterations",
                    sources.SEED_MULTI_GPU,
                )
            elif tr.dataset_tokens and m.shape is not None:
                per_iter = global_batch * g.sequence_length
                iters_epoch = rec.calc(
                    f"{k}.iterations_per_epoch",
                    "ceil(dataset tokens / (global batch x sequence length))",
                    {
                        "dataset_tokens": tr.dataset_tokens,
                        "global_batch": global_batch,
                        "sequence_length": g.sequence_length,
                    },
                    compute.iterations_per_epoch(tr.dataset_tokens, per_iter),
                    "iterations",
                    sources.SEED_MULTI_GPU,
                )
        epochs = tr.epochs if tr else 1
        total_iters = iters_epoch * epochs if iters_epoch else None

        flops = flops_iter = None
        if total_iters is not None:
            if m.shape is not None:
                tokens_iter = global_batch * g.sequence_length
                mult = compute.flops_multiplier(g.recompute)
                flops_iter = compute.training_flops(m.active_params, tokens_iter, g.recompute)
                flops = rec.calc(
                    f"{k}.training_flops",
                    f"{mult} x parameters x tokens",
                    {
                        "parameters": m.active_params,
                        "tokens": tokens_iter * total_iters,
                        "recompute": g.recompute.value,
                    },
                    flops_iter * total_iters,
                    "FLOPs",
                    sources.KAPLAN + "; " + sources.NARAYANAN,
                )
            elif m.preset and m.preset.forward_gflops_per_sample:
                fwd = m.preset.forward_gflops_per_sample * 1e9
                flops_iter = compute.vision_training_flops(fwd, global_batch, g.recompute)
                flops = rec.calc(
                    f"{k}.training_flops",
                    "3 x forward FLOPs per sample x samples (4 x with recomputation)",
                    {"forward_flops_per_sample": fwd, "samples": global_batch * total_iters},
                    flops_iter * total_iters,
                    "FLOPs",
                    m.preset.source,
                )

        # Replicas: explicit, or enough to meet the target time, or one.
        gpus_for_target = None
        if flops is not None and tr is not None and tr.target_hours:
            need = compute.gpus_for_target(flops, tr.target_hours, peak, a.achievable_utilization)
            gpus_for_target = math.ceil(need / gpr - 1e-9) * gpr
            rec.calc(
                f"{k}.gpus_for_target_time",
                "FLOPs / (target seconds x peak x utilization), rounded up to whole replicas",
                {
                    "flops": flops,
                    "target_hours": tr.target_hours,
                    "peak_tflops": peak,
                    "precision_path": path,
                    "utilization": a.achievable_utilization,
                    "gpus_per_replica": gpr,
                },
                gpus_for_target,
                "GPUs",
                sources.NARAYANAN,
            )
        replicas = explicit_dp or (gpus_for_target // gpr if gpus_for_target else 1)
        if replicas != data and g.parallelism.zero_stage:
            sized, by_engine, fit = self.choose_layout(replicas)
            gpr = sized.sharding.model_parallel
        sh = Sharding(
            sized.sharding.tensor,
            sized.sharding.pipeline,
            replicas,
            sized.sharding.zero_stage,
            sized.sharding.sequence_parallel,
        )
        mem = self._memory(sh, record=True)
        self._fit_messages(mem, sh, by_engine, fit)

        # Compute and communication per iteration
        gpus_job = gpr * replicas
        compute_s = None
        if flops_iter is not None:
            compute_s = rec.calc(
                f"{k}.compute_seconds_per_iteration",
                "FLOPs per iteration / (GPUs x peak x utilization)",
                {
                    "flops_per_iteration": flops_iter,
                    "gpus": gpus_job,
                    "peak_tflops": peak,
                    "precision_path": path,
                    "utilization": a.achievable_utilization,
                },
                compute.seconds_for_flops(flops_iter, gpus_job, peak, a.achievable_utilization),
                "s",
                sources.NARAYANAN + "; utilization: " + sources.ASSUMPTION,
            )

        grad_gb = rec.calc(
            f"{k}.gradient_gb_per_gpu",
            "parameters x gradient bytes / (TP x PP)",
            {
                "parameters": m.params,
                "gradient_bytes": a.gradient_bytes,
                "tp": sh.tensor,
                "pp": sh.pipeline,
            },
            m.params * a.gradient_bytes / sh.model_parallel / 1e9,
            "GB",
            sources.SEED_MULTI_GPU,
        )
        sharp = 0.5 if a.sharp else 1.0
        factor = comms.ring_allreduce_factor(replicas, sh.zero_stage) * sharp
        limit_factor = (3 if sh.zero_stage >= 3 else 2) * sharp
        ar_gb = rec.calc(
            f"{k}.allreduce_gb_per_gpu_per_iteration",
            "2 x (N - 1) / N x gradient GB" + (" x 0.5 (SHARP)" if a.sharp else ""),
            {
                "N": replicas,
                "gradient_gb": grad_gb,
                "zero_stage": sh.zero_stage,
                "sharp": str(a.sharp),
            },
            factor * grad_gb,
            "GB",
            sources.SEED_MULTI_GPU + ("; " + sources.SEED_NVAIE if a.sharp else ""),
        )
        ar_limit = rec.calc(
            f"{k}.allreduce_gb_large_ring_limit",
            "2 x gradient GB (N large)",
            {"gradient_gb": grad_gb},
            limit_factor * grad_gb,
            "GB",
            sources.SEED_MULTI_GPU,
        )
        spans = gpus_job > self.design.hardware.gpus_per_host
        link = (
            comms.ring_bottleneck(self.gpu, self.server, self.design.hardware, replicas, spans)
            if replicas > 1
            else None
        )
        ar_s = ar_s_limit = None
        if link is not None:
            ar_s = rec.calc(
                f"{k}.allreduce_seconds_per_iteration",
                "allreduce GB / (slowest link GB/s x efficiency)",
                {
                    "allreduce_gb": ar_gb,
                    "link": link.name,
                    "link_gbs": link.gbs,
                    "efficiency": a.link_efficiency,
                },
                comms.allreduce_seconds(ar_gb, link, a.link_efficiency),
                "s",
                link.source,
            )
            ar_s_limit = rec.calc(
                f"{k}.allreduce_seconds_large_ring_limit",
                "2 x gradient GB / (slowest link GB/s x efficiency)",
                {"allreduce_gb": ar_limit, "link_gbs": link.gbs, "efficiency": a.link_efficiency},
                comms.allreduce_seconds(ar_limit, link, a.link_efficiency),
                "s",
                link.source,
            )
        elif replicas > 1:
            ar_s = ar_s_limit = 0.0

        comm_share = comm_h = comm_h_limit = hours = None
        if ar_s is not None and total_iters is not None:
            comm_h = rec.calc(
                f"{k}.communication_hours_total",
                "iterations per epoch x epochs x allreduce seconds / 3600",
                {"iterations_per_epoch": iters_epoch, "epochs": epochs, "allreduce_s": ar_s},
                total_iters * ar_s / 3600,
                "h",
                sources.SEED_MULTI_GPU,
            )
            comm_h_limit = rec.calc(
                f"{k}.communication_hours_large_ring_limit",
                "iterations per epoch x epochs x allreduce seconds (N large) / 3600",
                {
                    "iterations_per_epoch": iters_epoch,
                    "epochs": epochs,
                    "allreduce_s": ar_s_limit or 0.0,
                },
                total_iters * (ar_s_limit or 0.0) / 3600,
                "h",
                sources.SEED_MULTI_GPU,
            )
        if compute_s is not None and total_iters is not None:
            per_iter = compute_s + (ar_s or 0.0)
            hours = rec.calc(
                f"{k}.time_to_train_hours",
                "iterations x (compute + allreduce seconds) / 3600, no overlap",
                {"iterations": total_iters, "compute_s": compute_s, "allreduce_s": ar_s or 0.0},
                total_iters * per_iter / 3600,
                "h",
                sources.DERIVED + "; communication not overlapped with compute (upper bound)",
            )
            if ar_s:
                comm_share = ar_s / per_iter
                if comm_share > 0.5:
                    rec.warn(
                        "communication-bound",
                        f"{g.name}: {comm_share:.0%} of each iteration is gradient allreduce over "
                        f"{link.name if link else 'the network'}; a faster fabric, NVLink/NVSwitch, "
                        "RDMA or fewer, larger replicas would shorten training",
                    )
            if tr is not None and tr.target_hours and hours > tr.target_hours * 1.0001:
                rec.warn(
                    "target-time-missed",
                    f"{g.name}: estimated {hours:,.1f} h exceeds the target of {tr.target_hours:g} h "
                    f"with {gpus_job} GPUs per job",
                )
        if flops is None:
            rec.warn(
                "training-size-unknown",
                f"{g.name}: no dataset size or iteration count, so time to train is not estimated",
                Severity.INFO,
            )

        return self._model_result(
            mem,
            sh,
            replicas,
            by_engine,
            training_flops=flops,
            iterations_per_epoch=iters_epoch,
            compute_seconds_per_iteration=compute_s,
            allreduce_gb_per_gpu_per_iteration=ar_gb,
            allreduce_gb_large_ring_limit=ar_limit,
            allreduce_seconds_per_iteration=ar_s,
            allreduce_seconds_large_ring_limit=ar_s_limit,
            allreduce_link=link.name if link else None,
            communication_share=comm_share,
            communication_hours_total=comm_h,
            communication_hours_large_ring_limit=comm_h_limit,
            time_to_train_hours=hours,
            gpus_for_target_time=gpus_for_target,
        )

    def _inference(self) -> WorkloadResult:
        g, m, rec = self.g, self.model, self.rec
        assert m is not None
        if g.inference is None or m.shape is None:
            return self._inference_unmodelled()
        p = m.preset
        planner = ServingPlanner(
            self.key,
            g,
            self.design,
            self.gpu,
            self.server,
            transformer(
                m.name,
                m.params,
                m.active_params,
                m.shape.layers,
                m.shape.hidden,
                m.shape.heads,
                m.shape.kv_heads,
                g.precision,
                g.inference.kv_cache_precision,
                p.experts if p else None,
                p.experts_per_token if p else None,
            ),
            rec,
        )
        plan, par, by_engine = planner.choose()
        if plan is None:
            sh = Sharding(par.tensor, par.pipeline)
            mem = self._memory(sh, record=True)
            self._fit_messages(mem, sh, by_engine, "does not fit")
            return self._model_result(mem, sh, 1, by_engine)
        mem, serving = planner.record(plan, g.count)
        sh = Sharding(par.tensor, par.pipeline)
        self._fit_messages(mem, sh, by_engine, "fits")
        rec.calc(
            f"{self.key}.replicas",
            "fewest replicas whose load meets every target (see the serving steps)",
            {
                "load_sequences": serving.load_sequences,
                "sequences_per_replica": serving.sequences_per_replica,
                "max_sequences_per_replica": serving.max_sequences_per_replica,
            },
            plan.replicas,
            "replicas",
            LAYOUT_SOURCE,
        )
        return self._model_result(
            mem, sh, plan.replicas, by_engine, serving=serving, reason=self._serving_reason(plan)
        )

    def _serving_reason(self, plan: Plan) -> str:
        t, pp = plan.par.tensor, plan.par.pipeline
        where = (
            f"tensor parallelism {t} inside one host"
            if pp == 1
            else f"tensor parallelism {t} in each host and {pp} pipeline stages across hosts"
        )
        if t == 1 and pp == 1:
            where = "one GPU per replica"
        targets = "meets every target" if not plan.misses else "comes closest to the targets"
        return (
            f"{where}, {plan.replicas} replica{'s' if plan.replicas != 1 else ''}: of the layouts "
            f"serving stacks use, the fewest GPUs ({plan.gpus}) that hold the model with "
            f"{self.a.serving_memory_utilization:.0%} of GPU memory planned and {targets}"
        )

    def _inference_unmodelled(self) -> WorkloadResult:
        g = self.g
        sized, by_engine, fit = self.choose_layout(1)
        sh = sized.sharding
        mem = self._memory(sh, record=True)
        self._fit_messages(mem, sh, by_engine, fit)
        inf = g.inference
        if inf is not None and (inf.target_requests_per_s or inf.target_tokens_per_s):
            self.rec.warn(
                "throughput-not-modelled",
                f"{g.name}: throughput for non-transformer models is not modelled; one replica "
                "per member assumed",
                Severity.INFO,
            )
        return self._model_result(mem, sh, 1, by_engine)

    def _model_result(
        self,
        mem: MemoryBreakdown,
        sh: Sharding,
        replicas: int,
        by_engine: bool,
        reason: str | None = None,
        **figures: object,
    ) -> WorkloadResult:
        """The fields every model-sized group shares, plus its kind's own figures."""
        g, gpr = self.g, sh.model_parallel
        layout = Layout(
            data_parallel=replicas,
            tensor_parallel=sh.tensor,
            pipeline_parallel=sh.pipeline,
            zero_stage=sh.zero_stage,
            chosen_by_engine=by_engine,
            reason=reason or self._layout_reason(mem, sh),
        )
        return WorkloadResult.model_validate(
            {
                "name": g.name,
                "kind": g.kind.value,
                "sized_from": "model",
                "memory_gb": mem,
                "memory_gb_per_replica": mem.total * gpr,
                "fits_one_gpu": gpr == 1 and mem.total <= self.gpu.memory_gb,
                "gpus_per_replica": gpr,
                "replicas": replicas,
                "members": g.count,
                "gpus_total": gpr * replicas * g.count,
                "layout": layout,
                **figures,
            }
        )

    # ------------------------------------------------------------------ messages

    def _layout_reason(self, mem: MemoryBreakdown, sh: Sharding) -> str:
        if sh.model_parallel == 1:
            return f"{mem.total:,.1f} GB fits one {self.gpu.memory_gb:g} GB {self.gpu.name}"
        return (
            f"{mem.total:,.1f} GB per GPU with tensor parallelism {sh.tensor} inside a host and "
            f"{sh.pipeline} pipeline stage(s): the fewest GPUs whose share fits "
            f"{self.gpu.memory_gb:g} GB"
        )

    def _fit_messages(self, mem: MemoryBreakdown, sh: Sharding, by_engine: bool, fit: str) -> None:
        g, m = self.g, self.model
        assert m is not None
        whole_gb = self._unsharded_total()
        if fit != "fits":
            self.rec.warn(
                "model-does-not-fit",
                f"{g.name}: no layout found that fits {m.name} in {self.gpu.memory_gb:g} GB per GPU "
                f"(best: {mem.total:,.1f} GB per GPU with TP {sh.tensor} x PP {sh.pipeline}); "
                "use ZeRO, recomputation, a smaller batch, lower precision or a larger GPU",
                Severity.ERROR,
            )
            return
        if sh.model_parallel > 1:
            minimum = math.ceil(whole_gb / self.gpu.memory_gb - 1e-9)
            self.rec.calc(
                f"{self.key}.min_gpus_by_memory",
                "ceil(replica memory / GPU memory)",
                {"replica_gb": whole_gb, "gpu_gb": self.gpu.memory_gb},
                minimum,
                "GPUs",
                sources.DERIVED,
            )
            self.rec.warn(
                "replica-spans-gpus",
                f"{g.name}: {m.name} needs {whole_gb:,.0f} GB per replica, more than one "
                f"{self.gpu.memory_gb:g} GB {self.gpu.name}; each replica uses "
                f"{sh.model_parallel} GPUs (TP {sh.tensor} x PP {sh.pipeline}; at least "
                f"{minimum} by memory alone)",
                Severity.INFO,
            )

    def _unsharded_total(self) -> float:
        return self._memory(Sharding(zero_stage=0), record=False).total
