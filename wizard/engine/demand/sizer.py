"""What every sizing of a model-based group shares: the model, memory per GPU with its
calculation log, the layout search for training, and the result fields common to all kinds."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from wizard.base.numbers import count
from wizard.engine.basis import memory, sources
from wizard.engine.basis.expr import Formula
from wizard.engine.basis.memory import Shape, Sharding
from wizard.engine.basis.record import Chain, Recorder
from wizard.engine.basis.sources import CALIBRATED
from wizard.engine.demand import model_shape
from wizard.engine.demand.training_stack import REFERENCE_RIDGE, RIDGE_SOURCE, StackProfile
from wizard.model.catalog import Catalog, Gpu, ModelArch, ModelPreset, Server
from wizard.model.design import (
    Assumptions,
    Design,
    Hardware,
    Precision,
    WorkloadGroup,
    WorkloadKind,
    group_assumptions,
)
from wizard.model.result import (
    Layout,
    MemoryBreakdown,
    ServingResult,
    Severity,
    SizedFrom,
    TrainingFigures,
    WorkloadSizing,
)

TRAINING_KINDS = (WorkloadKind.TRAINING, WorkloadKind.FINE_TUNING)
WEIGHTS_PER_GPU = Formula("parameters * bytes_per_parameter / (tp * pp) / 1e9")


@dataclass(frozen=True)
class ModelInfo:
    name: str
    params: float
    active_params: float
    shape: Shape | None  # None for non-transformer presets
    preset: ModelPreset | None
    experts: int = 0  # routed experts per MoE layer; 0 for a dense model
    experts_per_token: int = 0
    kv_latent_dim: int = 0  # latent attention: cached values per token per layer


def weight_bytes(preset: ModelPreset | None, precision: Precision) -> float:
    """Bytes per weight at ``precision``; at int4, the model's own 4-bit checkpoint where the
    catalog gives it (gpt-oss keeps MXFP4 block scales and 16-bit attention and embeddings)."""
    if precision is Precision.INT4 and preset is not None and preset.int4_weight_bytes:
        return preset.int4_weight_bytes
    return memory.PARAM_BYTES[precision]


def resolve_model(
    group: WorkloadGroup, models: Mapping[str, ModelPreset], chain: Chain | None = None
) -> ModelInfo | None:
    """The group's model, its preset read from the catalog's ``models``; a custom model without
    a parameter count is counted from its shape (logged when ``chain`` records)."""
    if group.model is None:
        return None
    if group.model.preset:
        p = models[group.model.preset]
        shape = None
        if p.architecture is not ModelArch.CNN:
            assert p.hidden_size and p.heads and p.kv_heads  # enforced by the catalog schema
            shape = Shape(p.layers, p.hidden_size, p.heads, p.kv_heads, p.head_dim or 0)
        return ModelInfo(
            p.name, p.parameters, p.active_parameters or p.parameters, shape, p,
            p.experts or 0, p.experts_per_token or 0, p.kv_latent_dim or 0,
        )  # fmt: skip
    c = group.model.custom
    assert c is not None
    shape = Shape(c.layers, c.hidden_size, c.heads, c.kv_heads or c.heads)
    params = active = c.parameters or 0.0
    if not params or c.experts:
        counted = model_shape.count((chain or Chain()) if not params else Chain(), c)
        params = params or counted.parameters
        # a given total keeps the shape's share of it active
        active = params * counted.active / counted.parameters
    latent = c.kv_lora_rank + c.qk_rope_head_dim if c.kv_lora_rank else 0
    return ModelInfo(
        "custom model", params, active, shape, None,
        c.experts or 0, c.experts_per_token or 0, latent,
    )  # fmt: skip


UTILIZATION = Formula("achievable_utilization * relative_utilization")
UTILIZATION_BY_GPU = Formula(
    "achievable_utilization * stack_scale * (reference_ridge / gpu_ridge) ** ridge_exponent"
)
GPU_RIDGE = Formula("peak_tflops * 1000 / memory_bandwidth_gbs")


def model_utilization(
    base: Assumptions, preset: ModelPreset | None, chain: Chain | None = None,
    a: Assumptions | None = None, stack: StackProfile | None = None,
    gpu: tuple[float, float] | None = None,
) -> tuple[float, str]:  # fmt: skip
    """The training utilization for the model: the design's (``base``; or the group's
    calibrated one, ``a``), scaled by what the preset measured against the transformer default (a CNN reaches
    less of peak), or for a transformer by how the training stack's share of peak follows the
    GPU's ridge point (``gpu``: peak TFLOPS and memory GB/s), with its source."""
    a = a or base
    calibrated = a is not base and a.achievable_utilization != base.achievable_utilization
    base_source = CALIBRATED if calibrated else sources.ASSUMPTION
    chain = chain or Chain()
    if (
        stack is not None
        and gpu is not None
        and (stack.utilization_scale != 1 or stack.ridge_exponent)
    ):
        ridge = chain(
            "gpu_ridge_flops_per_byte", GPU_RIDGE, "FLOPs per byte",
            "The GPU's dense peak at the training precision over its memory bandwidth",
            peak_tflops=gpu[0], memory_bandwidth_gbs=gpu[1],
        )  # fmt: skip
        value = chain(
            "training_utilization", UTILIZATION_BY_GPU, "share of peak",
            f"{base_source}; {RIDGE_SOURCE}",
            achievable_utilization=a.achievable_utilization, stack_scale=stack.utilization_scale,
            reference_ridge=REFERENCE_RIDGE, gpu_ridge=ridge,
            ridge_exponent=stack.ridge_exponent,
        )  # fmt: skip
        return value, f"{base_source}; {RIDGE_SOURCE}"
    if preset is None or not preset.relative_utilization:
        return a.achievable_utilization, base_source
    source = preset.relative_utilization_source or preset.source
    value = chain(
        "training_utilization", UTILIZATION, "share of peak", source,
        achievable_utilization=a.achievable_utilization,
        relative_utilization=preset.relative_utilization,
    )  # fmt: skip
    return value, source


@dataclass(frozen=True)
class DemandFacts:
    """What sizing a group reads beyond the group itself, and nothing more: the hardware answers
    (GPUs per host, NVLink, fabric and NICs: the links a replica's traffic crosses), the design's
    assumptions (a group's calibration sits on them) and the catalog's model presets."""

    hardware: Hardware
    assumptions: Assumptions
    models: Mapping[str, ModelPreset]

    @classmethod
    def of(cls, design: Design, catalog: Catalog) -> DemandFacts:
        return cls(design.hardware, design.assumptions, catalog.models)


class SizerBase:
    """One group's context; every headline figure goes through the recorder with its source."""

    def __init__(self, index: int, group: WorkloadGroup, facts: DemandFacts,
                 gpu: Gpu, server: Server, rec: Recorder) -> None:  # fmt: skip
        self.i = index
        self.g = group
        self.facts = facts
        # the group's calibrated factors, if any
        self.a = group_assumptions(facts.assumptions, group)
        self.gpu = gpu
        self.server = server
        self.rec = rec
        self.key = f"workloads[{index}]"
        self.model = resolve_model(group, facts.models, Chain(rec, self.key))

    # ------------------------------------------------------------------ memory

    def _weights_memory(self, sh: Sharding, record: bool) -> MemoryBreakdown:
        """Weights and workspace per GPU, for a model served without a serving plan (a vision
        model, or a language model no layout holds)."""
        g, m, a = self.g, self.model, self.a
        assert m is not None
        chain = Chain(self.rec if record else None, self.key)
        weights = chain(
            "memory.weights", WEIGHTS_PER_GPU, "GB per GPU", sources.ZERO,
            parameters=m.params, bytes_per_parameter=weight_bytes(m.preset, g.precision),
            tp=sh.tensor, pp=sh.pipeline,
        )  # fmt: skip
        overhead = chain(
            "memory.overhead", Formula("framework_overhead_gb"), "GB per GPU",
            f"{sources.ASSUMPTION}: CUDA context, framework workspace and fragmentation, "
            "typically 1-3 GB per GPU",
            framework_overhead_gb=a.framework_overhead_gb,
        )  # fmt: skip
        total = chain(
            "memory.total", Formula("weights + overhead"), "GB per GPU", sources.DERIVED,
            weights=weights, overhead=overhead,
        )  # fmt: skip
        return MemoryBreakdown(
            weights=weights,
            gradients=0.0,
            optimizer=0.0,
            activations=0.0,
            kv_cache=0.0,
            overhead=overhead,
            workspace=0.0,
            total=total,
        )

    def _model_result(
        self,
        mem: MemoryBreakdown,
        sh: Sharding,
        replicas: int,
        by_engine: bool,
        reason: str | None = None,
        *,
        training: TrainingFigures | None = None,
        serving: ServingResult | None = None,
        planned_slice: str | None = None,
        planned_compute_share: float = 1.0,
        shard_group: int = 1,
        recompute: str | None = None,
        members: int | None = None,
        memory_basis: str | None = None,
    ) -> WorkloadSizing:
        """The fields every model-sized group shares, plus its kind's own figures;
        ``replicas`` is per member (the data-parallel degree of one member); ``members`` is the
        group's count unless given (a service is one)."""
        g, gpr = self.g, sh.model_parallel
        n = g.count if members is None else members
        layout = Layout(
            data_parallel=replicas,
            tensor_parallel=sh.tensor,
            pipeline_parallel=sh.pipeline,
            zero_stage=sh.zero_stage,
            chosen_by_engine=by_engine,
            reason=reason or self._layout_reason(mem, sh),
            shard_group=shard_group,
            recompute=recompute,
            memory_basis=memory_basis,
        )
        return WorkloadSizing(
            name=g.name,
            kind=g.kind,
            sized_from=SizedFrom.MODEL,
            memory_gb=mem,
            memory_gb_per_replica=mem.total * gpr,
            fits_one_gpu=gpr == 1 and mem.total <= self.gpu.memory_gb,
            gpus_per_replica=gpr,
            replicas=replicas * n,
            members=n,
            gpus_total=gpr * replicas * n,
            layout=layout,
            planned_slice=planned_slice,
            planned_compute_share=planned_compute_share,
            training=training,
            serving=serving,
        )

    # ------------------------------------------------------------------ messages

    def _layout_reason(self, mem: MemoryBreakdown, sh: Sharding) -> str:
        if sh.model_parallel == 1:
            return f"{mem.total:,.1f} GB fits one {self.gpu.memory_gb:g} GB {self.gpu.name}"
        return (
            f"{mem.total:,.1f} GB per GPU with tensor parallelism {sh.tensor} inside a host and "
            f"{count(sh.pipeline, 'pipeline stage')}: the fewest GPUs whose share fits "
            f"{self.gpu.memory_gb:g} GB"
        )

    def _fit_messages(
        self, mem: MemoryBreakdown, sh: Sharding, by_engine: bool, fit: str, whole_gb: float
    ) -> None:
        """``whole_gb``: what one replica needs on a single GPU, sharded nowhere."""
        g, m = self.g, self.model
        assert m is not None
        if fit != "fits":
            # the remedies of the group's own kind: a service keeps no gradients or optimizer
            # state, so training's remedies (ZeRO, recomputation) do not apply to it
            remedy = (
                "give more tensor parallelism, a shorter longest request, a lower precision "
                "(FP8) or a GPU with more memory"
                if g.kind is WorkloadKind.INFERENCE
                else "use ZeRO, recomputation, a smaller batch, lower precision or a larger GPU"
            )
            self.rec.error(
                "model-does-not-fit",
                f"{self.key}.model",
                f"{g.name}: no layout found that fits {m.name} in {self.gpu.memory_gb:g} GB per GPU "
                f"(best: {mem.total:,.1f} GB per GPU with tensor parallelism {sh.tensor} and "
                f"{count(sh.pipeline, 'pipeline stage')}); {remedy}",
            )
            return
        if sh.model_parallel > 1:
            minimum = int(
                Chain(self.rec, self.key)(
                    "min_gpus_by_memory", Formula("ceil(replica_gb / gpu_gb)"), "GPUs",
                    sources.DERIVED, replica_gb=whole_gb, gpu_gb=self.gpu.memory_gb,
                )
            )  # fmt: skip
            self.rec.warn(
                "replica-spans-gpus",
                f"{g.name}: {m.name} needs {whole_gb:,.0f} GB per replica, more than one "
                f"{self.gpu.memory_gb:g} GB {self.gpu.name}; each replica uses "
                f"{sh.model_parallel} GPUs (TP {sh.tensor} x PP {sh.pipeline}; at least "
                f"{minimum} by memory alone)",
                Severity.INFO,
            )
