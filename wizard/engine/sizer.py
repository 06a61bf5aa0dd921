"""What every sizing of a model-based group shares: the model, memory per GPU with its
calculation log, the layout search for training, and the result fields common to all kinds."""

from __future__ import annotations

import math
from dataclasses import dataclass

from wizard.engine import memory, sources
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


class SizerBase:
    """One group's context; every headline figure goes through the recorder with its source."""

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
