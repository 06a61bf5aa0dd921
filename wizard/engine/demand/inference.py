"""Sizing an LLM serving group: the layout and replicas that meet every target at the planned
load, with time to first token, time between tokens and throughput against each target.

Layouts are those serving stacks use (vLLM, TensorRT-LLM, NVIDIA NIM): tensor parallelism of 1,
2, 4 or 8 GPUs dividing the attention and KV heads, inside one host, where NVLink or NVSwitch
carries its all-reduces; pipeline stages only across hosts, each stage a host's tensor-parallel
group; every GPU planned to a memory headroom. Of the layouts that hold the model, the one
meeting every target with the fewest GPUs wins; on a tie, the smaller tensor-parallel group (more
replicas: a failed GPU takes less of the service away).
"""

from __future__ import annotations

from dataclasses import dataclass

from wizard.engine.basis import compute, topology
from wizard.engine.basis.expr import Formula
from wizard.engine.basis.links import nic as nic_link
from wizard.engine.basis.memory import PARAM_BYTES
from wizard.engine.basis.record import Chain, Recorder
from wizard.engine.basis.slices import Slice, slices
from wizard.engine.basis.spread import assumptions_at
from wizard.engine.demand import serving
from wizard.engine.demand import serving_physics as sp
from wizard.engine.demand.plausibility import in_flight_planned, requests_in_flight
from wizard.engine.demand.search import first_true
from wizard.engine.demand.serving import Capacity, Point, Request
from wizard.engine.demand.serving_physics import Accelerator, Efficiency, Parallel, Transformer
from wizard.engine.demand.sizer import DemandFacts
from wizard.model.catalog import FormFactor, Gpu, Server
from wizard.model.design import (
    SECONDS_PER_HOUR,
    Assumptions,
    Inference,
    Precision,
    WorkloadGroup,
    group_assumptions,
)
from wizard.model.result import MemoryBreakdown, ServingResult, Severity, TargetCheck

TP_SIZES = (1, 2, 4, 8)
LAYOUT_SOURCE = (
    "vLLM distributed serving guide (tensor parallelism inside a node, pipeline parallelism "
    "across nodes); NVIDIA Fabric Manager partitions of 1, 2, 4 or 8 GPUs on HGX systems"
)


KV_DEFAULT_SOURCE = (
    "The serving stack's default KV cache: NVIDIA's FP8 checkpoints and NIM's FP8 profiles run "
    "an FP8 KV cache (TensorRT-LLM performance overview: 'If you specify FP8 quantization, the KV "
    "cache will automatically be set to FP8'); 16-bit weights keep a 16-bit cache (vLLM and "
    "TensorRT-LLM's KV cache data type 'auto')"
)
KV_CHOSEN_SOURCE = (
    "The KV cache precision the design chooses for the group, at its number format's width: 8 "
    "bits per element in FP8 or INT8, 16 in BF16 or FP16, 32 in FP32 (vLLM's KV cache data "
    "type setting, TensorRT-LLM's KV cache quantization)"
)
# bits per KV-cache element of each precision a cache is kept in; BF16 and FP16 keep 16
KV_PRECISION_BITS = {Precision.FP8: 8, Precision.INT8: 8, Precision.FP32: 32}
KV_BYTES = Formula("kv_bits / 8")  # the group's figure, logged as workloads[i].kv_cache_bytes


def default_kv_precision(precision: Precision, gpu: Gpu) -> Precision:
    """The KV-cache precision a serving stack picks when the user names none: FP8 with FP8 or
    FP4 weights on a GPU with FP8 tensor cores (Hopper, Ada, Blackwell), as NIM's FP8 profiles
    and TensorRT-LLM's FP8 checkpoints do; otherwise the compute precision's 16 bits (32 for
    FP32 models)."""
    if precision in (Precision.FP8, Precision.FP4) and gpu.tflops.fp8:
        return Precision.FP8
    if precision in (Precision.FP32, Precision.TF32):
        return Precision.FP32
    return Precision.BF16


def kv_bits(precision: Precision, kv: Precision | None, gpu: Gpu) -> int:
    """Bits per KV-cache element: the chosen KV precision's, else the serving stack's default."""
    chosen = kv if kv is not None else default_kv_precision(precision, gpu)
    return KV_PRECISION_BITS.get(chosen, 16)


def kv_bytes(precision: Precision, kv: Precision | None, gpu: Gpu) -> float:
    """Bytes per KV-cache element: the chosen KV precision, else the serving stack's default."""
    return kv_bits(precision, kv, gpu) // 8


def attention_precision(kv: Precision) -> Precision:
    """The precision the attention core computes in: its KV cache's, never below FP8 (an INT8
    cache is dequantized to 16 bits; no engine runs attention in FP4)."""
    if kv in (Precision.FP4, Precision.INT4, Precision.INT8):
        return Precision.FP8 if kv is Precision.FP4 else Precision.BF16
    return kv


def compute_precision(precision: Precision) -> Precision:
    """The tensor-core path serving runs at: 4-bit integer weights are weight-only quantization
    (AWQ, GPTQ), dequantized to 16-bit for the matrix products; FP4 weights run FP4 tensor cores
    where the GPU has them (:func:`compute.peak_tflops` falls back to FP8 elsewhere)."""
    return Precision.BF16 if precision is Precision.INT4 else precision


@dataclass(frozen=True)
class ServingOption:
    """One way to serve the group that holds the model: a layout (or a GPU slice), the replicas
    that carry its load and the operating point they run at, with the targets it misses; the
    planner chooses one of these (the engine's Plan is something else: the whole design's)."""

    par: Parallel
    acc: Accelerator
    cap: Capacity
    replicas: int
    point: Point
    misses: tuple[tuple[str, float], ...]  # (metric, shortfall) of targets not met
    slice: Slice | None = None

    @property
    def gpus(self) -> int:
        return self.replicas * self.par.gpus

    @property
    def gpu_share(self) -> float:
        """Physical GPUs the option takes: slices count by their share."""
        return self.gpus * (self.slice.share if self.slice else 1.0)


@dataclass(frozen=True)
class Load:
    sequences: int  # in flight across the service
    rate: float | None  # requests/s the service must carry


class ServingPlanner:
    """Plans one serving group; the sizer gives it the group, the hardware and the recorder."""

    def __init__(
        self,
        key: str,
        group: WorkloadGroup,
        facts: DemandFacts,
        gpu: Gpu,
        server: Server,
        model: Transformer,
        rec: Recorder,
    ) -> None:
        assert group.inference is not None
        self.key = key
        self.g = group
        self.inf: Inference = group.inference
        self.facts = facts
        self.gpu = gpu
        self.server = server
        self.m = model
        self.rec = rec
        a = group_assumptions(facts.assumptions, group)  # the group's calibrated factors, if any
        self.eff = _efficiency(a, group)
        # the pessimistic end of the assumptions' spread (a calibrated group: of its fit's),
        # where the plan's ranges judge a throughput target "at risk": a replica holds as many
        # requests as carry the target there too, where the latency targets allow
        low_group = (
            group.model_copy(update={"calibration": group.calibration.at(0.0)})
            if group.calibration is not None
            else group
        )
        low = assumptions_at(facts.assumptions, 0.0)
        self.eff_low = _efficiency(group_assumptions(low, low_group), group)
        peak, self.path = compute.peak_tflops(gpu, compute_precision(group.precision))
        kv = self.inf.kv_cache_precision or default_kv_precision(group.precision, gpu)
        attention = compute.peak_tflops(gpu, attention_precision(kv))[0]
        self.acc = Accelerator(
            gpu.name, gpu.memory_gb, gpu.memory_bandwidth_gbs, peak, min(attention, peak)
        )
        self.req = Request(self.inf.input_tokens, self.inf.output_tokens, self.inf.context_tokens)
        self.load = self._load()

    # ------------------------------------------------------------------ inputs

    def _load(self) -> Load:
        inf = self.inf
        rate = inf.target_requests_per_s
        if inf.people is not None:  # the busy hour's requests, spread over its seconds
            rate = max(rate or 0.0, inf.people.requests_per_s)
        if inf.target_tokens_per_s:
            from_tokens = inf.target_tokens_per_s / inf.output_tokens
            rate = max(rate or 0.0, from_tokens)
        return Load(inf.concurrent_sequences, rate)

    def layouts(self) -> list[Parallel]:
        """Tensor-parallel sizes dividing the heads inside one host; pipeline stages across
        hosts only when a host's largest group cannot hold the model."""
        m, p, hw = self.m, self.g.parallelism, self.facts.hardware
        valid = [
            t
            for t in TP_SIZES
            if t <= hw.gpus_per_host
            and m.heads % t == 0
            and (m.kv_heads % t == 0 or t % m.kv_heads == 0)
        ]
        tps = [p.tensor_parallel] if p.tensor_parallel is not None else valid or [1]
        if p.pipeline_parallel is not None:
            return [self._parallel(t, p.pipeline_parallel) for t in tps]
        out = [self._parallel(t, 1) for t in tps]
        if not any(self._capacity(par).fits for par in out):
            # the fewest stages that hold it: more stages add no speed for a request, only
            # room that more replicas give as well
            top = max(tps)
            staged = (self._parallel(top, pp) for pp in range(2, m.layers + 1))
            first = next((par for par in staged if self._capacity(par).fits), None)
            out = [first] if first else [self._parallel(top, m.layers)] if m.layers > 1 else out
        return out

    def _parallel(self, t: int, pp: int) -> Parallel:
        hw = self.facts.hardware
        tp_link = None
        if t > 1:
            path = topology.ring_path(self.gpu, self.server, hw, t, spans_hosts=False)
            tp_link = min(path, key=lambda link: link.gbs) if path else None
        pp_link = nic_link(hw) if pp > 1 else None
        return Parallel(t, pp, tp_link, pp_link)

    def _capacity(
        self, par: Parallel, acc: Accelerator | None = None, chain: Chain | None = None
    ) -> Capacity:
        a = group_assumptions(self.facts.assumptions, self.g)
        return serving.capacity(
            chain or Chain(),
            self.m,
            par,
            acc or self.acc,
            self.req,
            a.serving_memory_utilization,
            a.framework_overhead_gb,
            a.serving_reserves_whole_request,
        )

    # ------------------------------------------------------------------ search

    def _misses(self, point: Point, replicas: int) -> tuple[tuple[str, float], ...]:
        inf, out = self.inf, []
        if inf.ttft_target_ms and point.ttft_ms > inf.ttft_target_ms * 1.0001:
            out.append(("ttft", point.ttft_ms / inf.ttft_target_ms - 1))
        if inf.itl_target_ms and point.itl_ms > inf.itl_target_ms * 1.0001:
            out.append(("itl", point.itl_ms / inf.itl_target_ms - 1))
        if self.load.rate and point.requests_per_s * replicas < self.load.rate * 0.9999:
            out.append(("throughput", 1 - point.requests_per_s * replicas / self.load.rate))
        return tuple(out)

    def _at_replicas(self, at, cap: Capacity, replicas: int, at_low=None) -> Point | None:
        """The point one of ``replicas`` replicas runs at, or None if no number of requests in
        flight carries its share of the throughput target. Requests beyond what the KV cache
        holds queue for room (continuous batching admits what fits), and their wait counts in
        the time to first token, which the targets then judge. A replica holds as many requests
        as carry its share at the pessimistic end of the assumptions (``at_low``) where the
        latency targets allow: the rule the plan's ranges judge a target "at risk" by."""
        per = serving.ceil_div(self.load.sequences, replicas)
        if self.load.rate:
            share = self.load.rate / replicas
            need = serving.sequences_for_rate(at, share, cap.max_sequences)
            if need is None:
                return None
            per = max(per, need)
            safe = (
                serving.sequences_for_rate(at_low, share, cap.max_sequences)
                if at_low is not None
                else None
            )
            if safe is not None and safe > per and not self._latency_misses(at(safe)):
                per = safe
        return at(per)

    def _latency_misses(self, point: Point) -> bool:
        inf = self.inf
        return bool(
            (inf.ttft_target_ms and point.ttft_ms > inf.ttft_target_ms * 1.0001)
            or (inf.itl_target_ms and point.itl_ms > inf.itl_target_ms * 1.0001)
        )

    def _slice_accelerator(self, sl: Slice) -> Accelerator:
        acc = self.acc
        return Accelerator(
            sl.label,
            sl.memory_gb,
            acc.bandwidth_gbs * sl.bandwidth,
            acc.peak_tflops * sl.compute,
            acc.attention_peak * sl.compute,
        )

    def _option(self, par: Parallel, sl: Slice | None = None) -> ServingOption | None:
        acc = self._slice_accelerator(sl) if sl else self.acc
        cap = self._capacity(par, acc)
        if not cap.fits:
            return None
        at = serving.quiet(self.m, par, acc, self.eff, self.req, cap.max_sequences)
        low = serving.quiet(self.m, par, acc, self.eff_low, self.req, cap.max_sequences)
        fixed = self.g.parallelism.data_parallel
        if fixed is not None:
            point = self._at_replicas(at, cap, fixed, low) or at(
                serving.ceil_div(self.load.sequences, fixed)
            )
            return ServingOption(par, acc, cap, fixed, point, self._misses(point, fixed), sl)
        top = max(
            serving.ceil_div(self.load.sequences, 1),
            serving.ceil_div(self.load.rate or 0.0, at(1).requests_per_s),
        )

        def ok(r: int, latency: bool) -> bool:
            point = self._at_replicas(at, cap, r, low)
            if point is None:
                return False
            misses = self._misses(point, r)
            return not any(latency or metric == "throughput" for metric, _ in misses)

        # fewest replicas that carry the throughput, then fewest that also meet latency
        replicas = first_true(lambda r: ok(r, False), 1, top)
        if replicas is None:
            replicas = top
        best = first_true(lambda r: ok(r, True), replicas, top)
        replicas = best if best is not None else top
        point = self._at_replicas(at, cap, replicas, low) or at(1)
        return ServingOption(par, acc, cap, replicas, point, self._misses(point, replicas), sl)

    def choose(self) -> tuple[ServingOption | None, Parallel, bool]:
        """The chosen option, the layout it uses (or the best that does not fit), and whether the
        engine chose it."""
        p = self.g.parallelism
        by_engine = p.tensor_parallel is None or p.pipeline_parallel is None
        layouts = self.layouts()
        plans = [plan for par in layouts if (plan := self._option(par)) is not None]
        one = [par for par in layouts if par.gpus == 1]
        if one:
            options = slices(self.gpu, self.g.sharing_mode)
            plans += [plan for sl in options if (plan := self._option(one[0], sl))]
        if not plans:
            candidates = self.layouts()
            most = max(candidates, key=lambda par: (par.gpus, -par.pipeline))
            return None, most, by_engine

        def worst(plan: ServingOption) -> float:
            return max((s for _, s in plan.misses), default=0.0)

        met = [plan for plan in plans if not plan.misses]
        pool = met or sorted(plans, key=worst)[:1]
        best = min(pool, key=lambda pl: (pl.gpu_share, pl.par.pipeline, pl.par.tensor, pl.replicas))
        return best, best.par, by_engine

    # ------------------------------------------------------------------ record

    def record(self, plan: ServingOption, members: int) -> tuple[MemoryBreakdown, ServingResult]:
        """Log every step of the chosen option (each formula with its inputs) and return the
        memory per GPU and the serving figures."""
        k = f"{self.key}.serving"
        chain = Chain(self.rec, k)
        people = self.inf.people
        if people is not None:
            chain(
                "requests_per_s_from_people",
                serving.Formula("users * active_share * requests_per_hour / seconds_per_hour"),
                "requests/s",
                "Demand in people: the busiest hour's requests spread over its seconds",
                users=people.users,
                active_share=people.active_share,
                requests_per_hour=people.requests_per_hour,
                seconds_per_hour=SECONDS_PER_HOUR,
            )
            self.rec.warn(
                "demand-from-people",
                f"{self.g.name}: {people.users:,} people, {people.active_share * 100:.0f} % of them active "
                f"in the busiest hour with {people.requests_per_hour:g} requests an hour each, "
                f"make {people.requests_per_s:.3g} requests a second; the plan's "
                f"{plan.replicas} replica{'s follow' if plan.replicas != 1 else ' follows'} from "
                "them, so "
                "confirm the share active and the requests per hour with the people who use it",
                Severity.INFO,
            )
        par = plan.par
        cap = self._capacity(par, plan.acc, chain)
        per = plan.point.sequences
        point = serving.evaluate(
            chain,
            self.m,
            par,
            plan.acc,
            self.eff,
            self.req,
            per,
            cap.context_in_flight,
            cap.kv_gb_per_token,
            cap.max_sequences,
        )
        kv_gb = chain(
            "kv_cache_gb_per_gpu",
            serving.KV_PER_GPU_GB,
            "GB per GPU",
            f"{sp.KV_SOURCE}; {cap.held_source}",
            sequences=min(per, cap.max_sequences),
            tokens_held=cap.tokens_held,
            kv_gb_per_token=cap.kv_gb_per_token_held,
            kv_shards=sp.kv_shards(self.m, par.tensor),
            pp=par.pipeline,
        )
        total_tps = chain(
            "tokens_per_s_total",
            serving.Formula("tokens_per_s_per_replica * replicas * members"),
            "output tokens/s",
            "Replicas serve independent requests",
            tokens_per_s_per_replica=point.tokens_per_s,
            replicas=plan.replicas,
            members=members,
        )
        planned = in_flight_planned(chain, per, plan.replicas, members)
        overhead = self.facts.assumptions.framework_overhead_gb
        mem = MemoryBreakdown(
            weights=cap.weights_per_gpu_gb,
            gradients=0.0,
            optimizer=0.0,
            activations=0.0,
            kv_cache=kv_gb,
            overhead=overhead,
            workspace=0.0,
            total=cap.weights_per_gpu_gb + kv_gb + overhead,
        )
        if self.inf.kv_cache_precision is None and self.m.kv_bytes == 1:
            self.rec.decide(
                f"{self.g.name}: the KV cache is kept in FP8, as the FP8 weights are.",
                KV_DEFAULT_SOURCE,
                implication=f"A replica's cache holds {cap.max_sequences:,} requests of the "
                "average size; choose BF16 as the KV cache precision to plan a 16-bit cache "
                "(half as many).",
            )
        targets = self._targets(point, plan.replicas)
        in_flight = (
            requests_in_flight(
                self.rec, self.key, self.load.rate, self.req.output_tokens, point.ttft_ms,
                point.itl_ms,
            )
            if self.load.rate
            else None
        )  # fmt: skip
        result = ServingResult(
            input_tokens=self.req.input_tokens,
            output_tokens=self.req.output_tokens,
            max_context_tokens=self.req.max_context_tokens,
            kv_cache_bytes_per_element=self.m.kv_bytes,
            load_sequences=self.load.sequences,
            sequences_per_replica=per,
            replicas=plan.replicas * members,
            sequences_planned=planned,
            max_sequences_per_replica=cap.max_sequences,
            ttft_ms=point.ttft_ms,
            itl_ms=point.itl_ms,
            prefill_ms=point.prefill_s * 1000,
            decode_step_ms=point.decode_step_s * 1000,
            tokens_per_s_per_replica=point.tokens_per_s,
            tokens_per_s_total=total_tps,
            requests_per_s_total=point.requests_per_s * plan.replicas * members,
            requests_in_flight=in_flight,
            decode_bound=point.bound,
            accelerator=plan.acc.label,
            slice_profile=plan.slice.profile if plan.slice else None,
            gpu_share=plan.slice.share if plan.slice else 1.0,
            compute_share=plan.slice.compute if plan.slice else 1.0,
            targets=targets,
        )
        self._warn(plan, result)
        return mem, result

    def _targets(self, point: Point, replicas: int) -> list[TargetCheck]:
        inf, out = self.inf, []

        def check(metric: str, target: float, value: float, unit: str, lower: bool) -> None:
            met = value <= target * 1.0001 if lower else value >= target * 0.9999
            short = 0.0 if met else (value / target - 1 if lower else 1 - value / target)
            out.append(TargetCheck(
                metric=metric, target=target, value=value, unit=unit, met=met, shortfall=short
            ))  # fmt: skip

        if inf.ttft_target_ms:
            check("ttft", inf.ttft_target_ms, point.ttft_ms, "ms", True)
        if inf.itl_target_ms:
            check("itl", inf.itl_target_ms, point.itl_ms, "ms", True)
        if self.load.rate:
            tokens = self.load.rate * inf.output_tokens
            check("throughput", tokens, point.tokens_per_s * replicas, "output tokens/s", False)
        return out

    def _warn(self, plan: ServingOption, s: ServingResult) -> None:
        g, gpu = self.g, self.gpu
        names = {
            "ttft": "time to first token",
            "itl": "time between tokens",
            "throughput": "throughput",
        }
        for t in s.targets:
            if t.met:
                continue
            self.rec.warn(
                f"serving-{t.metric}-target-missed",
                f"{g.name}: {names[t.metric]} of {_fmt(t.value)} {t.unit} misses the target of "
                f"{_fmt(t.target)} {t.unit} by {t.shortfall:.0%}; {self._remedy(t.metric, plan)}",
            )
        if s.sequences_per_replica > s.max_sequences_per_replica:
            self.rec.warn(
                "serving-kv-cache-full",
                f"{g.name}: a replica's KV cache holds {s.max_sequences_per_replica} requests of "
                f"the average size, fewer than the {s.sequences_per_replica} in flight; the rest "
                f"wait for room, and the time to first token of {_fmt(s.ttft_ms)} ms counts the "
                "wait"
                + (
                    ""
                    if self.inf.ttft_target_ms
                    else "; give a time-to-first-token target to plan replicas for it"
                ),
                Severity.INFO if self.inf.ttft_target_ms else Severity.WARNING,
            )
        if (
            g.precision is Precision.FP4
            and gpu.form_factor is FormFactor.SXM
            and gpu.architecture == "Blackwell"
        ):
            low, high = sp.FP4_SXM_BLACKWELL_READS_HIGH
            self.rec.warn(
                "serving-fp4-throughput-optimistic",
                f"{g.name}: FP4 serving on the {gpu.name}: for the same models this plan "
                f"computes {low:g} to {high:g} times NVIDIA's published maximum throughput "
                "(TensorRT-LLM 1.0, B200 in FP4, five models), where FP8 on Hopper matches; plan "
                "the throughput, and the replicas a throughput target needs, with that margin",
            )
        if plan.par.pipeline > 1:
            self.rec.warn(
                "serving-pipeline",
                f"{g.name}: the model does not fit one host's {gpu.name} GPUs, so each replica "
                f"runs {plan.par.pipeline} pipeline stages on {plan.par.pipeline} hosts; one "
                "request's tokens pass the stages one after another",
                Severity.INFO,
            )

    def _remedy(self, metric: str, plan: ServingOption) -> str:
        """What would meet a missed target, from what this design could change."""
        g, gpu, par = self.g, self.gpu, plan.par
        options = []
        if metric == "throughput":
            options.append("more replicas (more GPUs)")
        bigger = [t for t in TP_SIZES if t > par.tensor and t <= self.facts.hardware.gpus_per_host]
        if metric in ("ttft", "itl") and bigger and g.parallelism.tensor_parallel is not None:
            options.append(f"tensor parallelism {bigger[0]} (more GPUs per replica)")
        elif metric in ("ttft", "itl") and not bigger:
            options.append("fewer requests in flight per replica (more replicas)")
        if g.precision in (Precision.BF16, Precision.FP16, Precision.FP32) and gpu.tflops.fp8:
            options.append("FP8 weights")
        if metric == "itl":
            options.append(
                f"a GPU with more memory bandwidth than the {gpu.name}'s "
                f"{gpu.memory_bandwidth_gbs:,.0f} GB/s"
            )
        else:
            options.append(f"a GPU with more compute than the {gpu.name}")
        return "what would meet it: " + ", ".join(options)


def _efficiency(a: Assumptions, group: WorkloadGroup) -> Efficiency:
    """The serving efficiencies of ``a`` (a group's assumptions, its calibrated factors in)."""
    return Efficiency(
        a.decode_bandwidth_efficiency,
        a.prefill_compute_efficiency,
        a.link_efficiency,
        a.collective_latency_us * 1e-6,
        a.moe_routing_imbalance,
        a.serving_host_us_per_sequence,
        calibrated=group.calibration is not None,
        peer_latency_s=a.serving_allreduce_peer_latency_us * 1e-6,
        chunked_prefill=a.serving_chunked_prefill,
        first_token_host_ms=a.serving_first_token_host_ms,
    )


def _fmt(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 else f"{value:,.1f}"


def transformer(
    name: str,
    params: float,
    active: float,
    shape_layers: int,
    hidden: int,
    heads: int,
    kv_heads: int,
    precision: Precision,
    kv: Precision | None,
    gpu: Gpu,
    experts: int | None,
    experts_per_token: int | None,
    *,
    head_dim: int | None = None,
    kv_latent_dim: int | None = None,
    sliding_window: int | None = None,
    sliding_window_layers: int | None = None,
    weight_bytes: float | None = None,
) -> Transformer:
    """``weight_bytes`` overrides the precision's bytes per weight (a model's own 4-bit
    checkpoint); the attention fields come from the preset where it has them."""
    return Transformer(
        name,
        params,
        active,
        shape_layers,
        hidden,
        heads,
        kv_heads,
        weight_bytes or PARAM_BYTES[precision],
        kv_bytes(precision, kv, gpu),
        experts or 0,
        experts_per_token or 0,
        head_size=head_dim or 0,
        kv_latent_dim=kv_latent_dim or 0,
        window=sliding_window or 0,
        window_layers=sliding_window_layers or 0,
    )
