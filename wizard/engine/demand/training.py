"""Sizing a training or fine-tuning group: the method, the strategy that fits memory, the replicas
that meet the target time, and the time itself with its FLOPs, pipeline bubble and communication.
Every figure is logged by the formula that computes it (``record.Chain``)."""

from __future__ import annotations

import math
from typing import TypedDict

from wizard.base.numbers import count
from wizard.engine.basis import compute, memory, sources, topology
from wizard.engine.basis.boards import (
    PARTITIONS_SOURCE,
    blackwell_board,
    nvswitch_board,
    vm_partitions,
)
from wizard.engine.basis.links import NVLS_EFFICIENCY, NVLS_SOURCE, Link, efficiency
from wizard.engine.basis.record import Chain
from wizard.engine.basis.slices import SOURCE as slices_source
from wizard.engine.basis.slices import Slice, slices
from wizard.engine.basis.sources import CALIBRATED
from wizard.engine.basis.sources_platform import FM_CRX
from wizard.engine.demand import comms
from wizard.engine.demand import serving_physics as sp
from wizard.engine.demand import training_physics as tp_
from wizard.engine.demand import training_stack as ts
from wizard.engine.demand.search import first_true
from wizard.engine.demand.sizer import SizerBase, model_utilization
from wizard.engine.demand.training_flops import attention_passes, flops_per_iteration
from wizard.engine.demand.training_memory import record_memory
from wizard.engine.demand.training_plan import (
    Job,
    Strategy,
    ladder,
    memory_total,
    recomputed_share,
)
from wizard.model.design import (
    AttentionKernel,
    FineTuningMethod,
    LoraTargets,
    Optimizer,
    Precision,
    SharingMode,
    TrainingStack,
)
from wizard.model.names import ATTENTION_LABEL
from wizard.model.result import Severity, TrainingFigures, WorkloadSizing


class _Timing(TypedDict, total=False):
    """One iteration's figures; the communication ones only where the strategy communicates."""

    gpus: float
    data_parallel: float
    compute_s: float
    iteration_s: float
    bubble_share: float | None
    tp_comm_s: float
    ring_gb: float
    limit_gb: float
    ring_s: float
    limit_s: float
    exposed_s: float
    contention_s: float  # the compute slowed by the hidden part of the all-reduce
    link: str  # the link the gradient all-reduce crosses


MAX_UNITS = 65_536


class TrainingSizer(SizerBase):
    # ------------------------------------------------------------------ inputs

    def stack(self) -> TrainingStack:
        g = self.g
        ft = g.fine_tuning
        return g.training_stack or ts.default_stack(g.kind, ft.method if ft else None)

    def profile(self) -> ts.StackProfile:
        """The stack's profile with the design's pure BF16 and torch.compile choices."""
        g = self.g
        return ts.profile(self.stack(), self._pure_bf16(), g.compiled, g.chunked_loss)

    def _pure_bf16(self) -> bool:
        """Pure BF16 changes what a full training or fine-tune keeps; LoRA and QLoRA keep the
        frozen base in its own precision and the adapters as the stack does (PEFT in FP32)."""
        ft = self.g.fine_tuning
        return self.g.pure_bf16 and (ft is None or ft.method is FineTuningMethod.FULL)

    def _job(self) -> Job:
        g, m, a = self.g, self.model, self.a
        assert m is not None
        ft = g.fine_tuning
        p = m.preset
        stack = self.profile()
        mixed = ts.sixteen_bit(g.precision)
        weight_bytes = stack.weight_bytes if mixed else 4.0
        gradient_bytes = (
            a.gradient_bytes
            if a.gradient_bytes is not None
            else (stack.gradient_bytes if mixed else 4.0)
        )
        moments = memory.OPTIMIZER_BYTES[g.optimizer]
        if g.optimizer is not Optimizer.ADAMW_8BIT and mixed:
            moments *= stack.moment_scale
        # FP8 / FP4 training reads low-precision copies of the 16-bit weights (Transformer
        # Engine keeps them for the forward and backward passes)
        cast = stack.cast_copy_bytes if mixed else 0.0
        if g.precision in (Precision.FP8, Precision.FP4):
            cast += memory.PARAM_BYTES[g.precision]
        return Job(
            params=m.params,
            active_params=m.active_params,
            shape=m.shape,
            vocabulary=(p.vocab_size if p else None)
            or (g.model.custom.vocab_size if g.model and g.model.custom else 0)
            or 0,
            ffn=p.ffn_hidden_size
            if p
            else (g.model.custom.ffn_hidden_size if g.model and g.model.custom else None),
            experts=m.experts,
            precision=g.precision,
            method=ft.method if ft else FineTuningMethod.FULL,
            lora_rank=ft.lora_rank if ft else 16,
            lora_targets=ft.lora_targets if ft else LoraTargets.ATTENTION_MLP,
            gradient_bytes=gradient_bytes,
            optimizer_bytes=moments,
            master_bytes=stack.master_bytes if mixed else 0.0,
            sequence=g.sequence_length,
            micro_batch=g.micro_batch_size,
            overhead_gb=a.framework_overhead_gb,
            activation_gb_per_sample=p.activation_gb_per_sample if p else None,
            weight_bytes=weight_bytes,
            cast_copy_bytes=cast,
            norm_extra=stack.norm_extra,
            gated_mlp_bytes=stack.gated_mlp_bytes,
            logit_bytes=stack.logit_bytes,
            eager_attention=g.attention is AttentionKernel.EAGER,
            allocator_reserve=a.allocator_reserve,
            virtual_stages=g.parallelism.virtual_pipeline_stages or 1,
            recompute_layers=g.recompute_layers,
            optimizer_in_backward=self._optimizer_in_backward(),
            fresh_gradients=self.stack() in ts.PYTORCH_STACKS and self._one_micro_batch(),
            one_replica=g.parallelism.data_parallel == 1,
            stack_source=stack.source,
        )

    def _one_micro_batch(self) -> bool:
        """Each step is one micro-batch a GPU: no global batch beyond the micro-batch times the
        stated data parallelism, and no pipeline stages (whose schedule runs several
        micro-batches)."""
        g = self.g
        p = g.parallelism
        one = g.global_batch_size is None or (
            p.data_parallel is not None
            and g.global_batch_size == g.micro_batch_size * p.data_parallel
        )
        return one and (p.pipeline_parallel or 1) == 1

    def _optimizer_in_backward(self) -> bool:
        """The optimizer steps in the backward pass only where each step is one micro-batch."""
        return self.g.optimizer_in_backward and self._one_micro_batch()

    def _choose(self, job: Job, trainable: float) -> tuple[Strategy, bool, list[tuple]]:
        tried: list[tuple[Strategy, float]] = []
        for st in self._ladder(job):
            total = memory_total(job, st, trainable)
            tried.append((st, total))
            if total <= self.gpu.memory_gb:
                return st, True, tried
        best = min(tried, key=lambda x: x[1])
        return best[0], False, tried

    def _ladder(self, job: Job) -> list[Strategy]:
        g, hw = self.g, self.facts.hardware
        p = g.parallelism
        return ladder(
            job,
            p.tensor_parallel,
            p.pipeline_parallel,
            p.zero_stage,
            g.recompute,
            p.data_parallel,
            p.sequence_parallel is not False,
            hw.gpus_per_host,
            topology.nvlink_domain(self.gpu, self.server, hw),
        )

    # ------------------------------------------------------------------ time

    def _time(
        self, chain: Chain, job: Job, st: Strategy, trainable: float, units: int,
        flops_iter: float | None, global_batch: int,
    ) -> _Timing:  # fmt: skip
        """One iteration on ``units`` copies of the strategy's unit; logged when the chain
        records."""
        a, g = self.a, self.g
        peak = self._peak()[0]
        d = st.shard * units
        gpus = st.gpus * units
        out: _Timing = {"gpus": gpus, "data_parallel": d}
        if flops_iter is None:
            return out
        util, util_src = self._utilization(chain)
        # a global batch that does not divide over the copies: the even split is logged apart,
        # and the compute per iteration is the fullest copy's (one figure under one name)
        uneven = not a.utilization_includes_communication and bool(
            global_batch % (g.micro_batch_size * d)
        )
        split = "compute_seconds_even_split" if uneven else "compute_seconds_per_iteration"
        attention_peak = self._attention_peak()
        if attention_peak is not None and job.shape is not None:
            attention = chain(
                "attention_flops_per_iteration", tp_.ATTENTION_FLOPS, "FLOPs", tp_.NARAYANAN_EQ3,
                attention_passes=attention_passes(job, st), layers=job.shape.layers,
                sequence=job.sequence, attention_width=job.shape.attention_width,
                global_batch=global_batch,
            )  # fmt: skip
            compute_s = chain(
                split, tp_.COMPUTE_SPLIT_S, "s",
                f"{sources.NARAYANAN}; {tp_.FP8_ATTENTION}; {util_src}",
                flops_per_iteration=flops_iter, attention_flops=attention, peak_tflops=peak,
                attention_tflops=attention_peak, gpus=gpus, utilization=util,
            )  # fmt: skip
        else:
            compute_s = chain(
                split, tp_.COMPUTE_S, "s",
                sources.NARAYANAN + "; " + util_src,
                flops_per_iteration=flops_iter, gpus=gpus, peak_tflops=peak,
                utilization=util,
            )  # fmt: skip
        out["compute_s"] = compute_s
        if a.utilization_includes_communication:
            out["iteration_s"] = chain(
                "iteration_seconds", tp_.END_TO_END_ITERATION_S, "s",
                "The utilization given is measured end to end: bubbles and communication are in it",
                compute_s=compute_s,
            )  # fmt: skip
            return out
        micro = chain(
            "micro_batches", tp_.MICRO_BATCHES, "micro-batches per iteration", tp_.BUBBLE,
            global_batch=global_batch, micro_batch=g.micro_batch_size, data_parallel=d,
        )  # fmt: skip
        if uneven:
            # the step lasts as long as the copy with the most micro-batches
            compute_s = out["compute_s"] = chain(
                "compute_seconds_per_iteration", tp_.FULLEST_COPY_S, "s", tp_.UNEVEN_BATCH,
                compute_s=compute_s, micro_batches=micro, micro_batch=g.micro_batch_size,
                data_parallel=d, global_batch=global_batch,
            )  # fmt: skip
            if chain.rec is not None:
                refused = (
                    " Megatron-Core refuses to start such a run (its micro-batch calculator "
                    "asserts that the global batch is a multiple of the micro-batch times the "
                    "data-parallel size)."
                    if self.stack() is TrainingStack.MEGATRON
                    else ""
                )
                self.rec.caution(
                    "global-batch-uneven",
                    f"{self.key}.global_batch_size",
                    f"Global batch size {global_batch:,} does not divide into micro-batches of "
                    f"{g.micro_batch_size:,} on {d:,} data-parallel copies: a copy runs up to "
                    f"{micro:,.0f} micro-batches a step, and the others wait for it; the step "
                    f"time counts that copy.{refused}",
                )
        bubble = 0.0
        v = g.parallelism.virtual_pipeline_stages or 1
        if st.pipeline > 1:
            bubble = chain(
                "pipeline_bubble_seconds", tp_.BUBBLE_S, "s", tp_.BUBBLE,
                compute_s=compute_s, pp=st.pipeline, virtual_stages=v,
                micro_batches=max(micro, 1),
            )  # fmt: skip
        out["bubble_share"] = (st.pipeline - 1) / (v * max(micro, 1)) if st.pipeline > 1 else None
        tp_comm = 0.0
        if st.tensor > 1 and job.shape is not None:
            link = self._ring_link(st.tensor, False)
            eff, eff_src = efficiency(link, a.link_efficiency)
            if g.calibration is not None and g.calibration.factor("link_efficiency"):
                eff_src = CALIBRATED
            ar = sp.activation_allreduce_s(
                chain, "tensor_parallel.allreduce_seconds", link, tp=st.tensor,
                tokens=g.micro_batch_size * job.sequence, hidden=job.shape.hidden,
                latency_s=a.collective_latency_us * 1e-6, link_efficiency=eff,
                ring_source=f"{tp_.TP_COMM}; link: {link.name}; efficiency: {eff_src}",
                nvls_source=f"{tp_.TP_COMM}; link: {link.name}; {NVLS_SOURCE}",
            )  # fmt: skip
            # the recomputed layers' forward all-reduces run again
            passes = 4 + 2 * recomputed_share(job, st)
            tp_comm = chain(
                "tensor_parallel_seconds_per_iteration", tp_.TP_COMM_S, "s",
                f"{tp_.TP_COMM}; {tp_.TP_OVERLAP}",
                tp_allreduces=passes, layers=job.shape.layers, pp=st.pipeline,
                micro_batches=max(micro, 1), allreduce_s=ar, overlap=a.tensor_parallel_overlap,
            )  # fmt: skip
            out["tp_comm_s"] = tp_comm
        exposed = contention = 0.0
        if d > 1:
            grad = chain(
                "gradient_gb_per_gpu", tp_.GRADIENT_GB, "GB", sources.SEED_MULTI_GPU,
                trainable_parameters=trainable, gradient_bytes=job.gradient_bytes,
                tp=st.tensor, pp=st.pipeline,
            )  # fmt: skip
            spans = gpus > self.facts.hardware.gpus_per_host
            link = self._ring_link(d, spans)
            sharp = a.sharp and link.kind == "network"
            # a measured bus bandwidth (nccl-tests) is what NCCL reached by whatever algorithm
            # it chose: with it, the ring's formula at the measured efficiency gives its time
            measured = g.calibration is not None and g.calibration.factor("link_efficiency")
            nvls = link.multicast and not spans and st.zero < 3 and not measured
            factor = (3 if st.zero >= 3 else 2) * (0.5 if sharp else 1.0)
            if nvls:
                ring = chain(
                    "allreduce_gb_per_gpu_per_iteration", tp_.NVLS_GB, "GB", NVLS_SOURCE,
                    gradient_gb=grad,
                )  # fmt: skip
                limit = ring
            else:
                # ZeRO stage 3 exchanges the parameters and gradients in every micro-batch
                zero3 = st.zero >= 3
                suffix = "_per_micro_batch" if zero3 else ""
                ring = chain(
                    "allreduce_gb_per_gpu_" + ("per_micro_batch" if zero3 else "per_iteration"),
                    tp_.RING_GB, "GB",
                    tp_.RING + ("; SHARP reduces in the switch: half the traffic (seed, NVIDIA AI "
                                "Enterprise deep dive)" if sharp else ""),
                    ring_factor=factor, data_parallel=d, gradient_gb=grad,
                )  # fmt: skip
                limit = chain(
                    "allreduce_gb_large_ring_limit" + suffix, tp_.RING_LIMIT_GB, "GB",
                    tp_.RING + " (N large: (N - 1) / N tends to 1)",
                    ring_factor=factor, gradient_gb=grad,
                )  # fmt: skip
                if zero3:
                    ring = chain(
                        "allreduce_gb_per_gpu_per_iteration", tp_.PER_MICRO_BATCH_GB, "GB",
                        tp_.ZERO3_PER_MICRO_BATCH,
                        micro_batches=max(micro, 1), gb_per_micro_batch=ring,
                    )  # fmt: skip
                    limit = chain(
                        "allreduce_gb_large_ring_limit", tp_.PER_MICRO_BATCH_GB, "GB",
                        tp_.ZERO3_PER_MICRO_BATCH,
                        micro_batches=max(micro, 1), gb_per_micro_batch=limit,
                    )  # fmt: skip
            eff, eff_src = efficiency(link, a.link_efficiency)
            if measured:
                eff_src = CALIBRATED
            if nvls:
                eff, eff_src = NVLS_EFFICIENCY, NVLS_SOURCE
            ring_s = chain(
                "allreduce_seconds_per_iteration", tp_.RING_S, "s",
                f"{link.source}; efficiency: {eff_src}",
                ring_gb=ring, link_gbs=link.gbs, link_efficiency=eff,
            )  # fmt: skip
            limit_s = chain(
                "allreduce_seconds_large_ring_limit", tp_.RING_S, "s",
                f"{link.source}; efficiency: {eff_src}",
                ring_gb=limit, link_gbs=link.gbs, link_efficiency=eff,
            )  # fmt: skip
            backward = 1.0 if st.zero >= 3 else (0.5 if job.lora else 2 / 3)
            window = chain(
                "overlap_window_seconds", tp_.OVERLAP_WINDOW_S, "s", tp_.OVERLAP,
                compute_s=compute_s, backward_share=backward,
            )  # fmt: skip
            exposed = chain(
                "exposed_allreduce_seconds", tp_.EXPOSED_S, "s", tp_.OVERLAP,
                allreduce_s=ring_s, overlap_window_s=window,
            )  # fmt: skip
            contention = chain(
                "overlap_contention_seconds", tp_.CONTENTION_S, "s", tp_.OVERLAP_SLOWDOWN,
                overlap_slowdown=a.overlap_slowdown, allreduce_s=ring_s, overlap_window_s=window,
            )  # fmt: skip
            out.update({
                "ring_gb": ring, "limit_gb": limit, "ring_s": ring_s, "limit_s": limit_s,
                "exposed_s": exposed, "contention_s": contention, "link": link.name,
            })  # fmt: skip
        out["iteration_s"] = chain(
            "iteration_seconds", tp_.ITERATION_S, "s",
            "Compute, pipeline bubble, tensor-parallel all-reduces, the exposed part of the "
            "gradient all-reduce and the compute its hidden part slows, one after another",
            compute_s=compute_s, bubble_s=bubble, tp_comm_s=tp_comm, exposed_allreduce_s=exposed,
            overlap_contention_s=contention,
        )  # fmt: skip
        return out

    def _utilization(self, chain: Chain) -> tuple[float, str]:
        """The share of peak the matrix products reach: the design's, as the training stack
        reaches it on this GPU (a transformer), or the preset's measured share (a CNN)."""
        m = self.model
        transformer = m is not None and m.shape is not None
        stack = self.profile() if transformer else None
        peak = compute.peak_tflops(self.gpu, self.g.precision)[0]
        return model_utilization(
            self.facts.assumptions, m.preset if m else None, chain, self.a, stack,
            (peak, self.gpu.memory_bandwidth_gbs),
        )  # fmt: skip

    def _ring_link(self, gpus: int, spans: bool) -> Link:
        link = comms.ring_bottleneck(self.gpu, self.server, self.facts.hardware, gpus, spans)
        if link is None:  # one GPU per host and the ring stays inside: cannot happen for > 1
            return topology.ring_path(self.gpu, self.server, self.facts.hardware, 2, True)[-1]
        return link

    def _attention_peak(self) -> float | None:
        """The 16-bit peak the attention core runs at when the linear layers train in FP8 or
        FP4; None when everything runs at the job's own precision."""
        if self.g.precision not in (Precision.FP8, Precision.FP4):
            return None
        return compute.peak_tflops(self.gpu, Precision.BF16)[0] * getattr(self, "_share", 1.0)

    def _peak(self) -> tuple[float, str]:
        peak, path = compute.peak_tflops(self.gpu, self.g.precision)
        return peak * getattr(self, "_share", 1.0), path

    def _partition_units(self, units: int, st: Strategy) -> int:
        """On an NVSwitch board under vSphere a VM is a partition of 1, 2, 4 or 8 GPUs. The
        replicas of a member share a VM per host (wizard.engine.demand.vms), so their GPUs on the last
        host are rounded up to fill a partition (6 become 8), which keeps the VM valid and its
        ring on NVLink; the design says so."""
        gph = self.facts.hardware.gpus_per_host
        g = self.g
        if (
            units * st.gpus <= 1
            or g.sharing_mode not in (SharingMode.PASSTHROUGH, SharingMode.VGPU)
            or not nvswitch_board(self.gpu, self.server)
        ):
            return units
        gpus = units * st.gpus
        full, rest = divmod(gpus, gph)
        if rest == 0:
            return units
        fill = next((p for p in vm_partitions(self.gpu, self.server) if p >= rest), gph)
        rounded = math.ceil((full * gph + fill) / st.gpus)
        if rounded != units:
            self.rec.warn(
                "nvswitch-partition-rounded",
                f"{g.name}: {count(gpus, 'GPU')} meet the target time; planned on "
                f"{count(rounded * st.gpus, 'GPU')}, since a VM on the NVSwitch board of the "
                f"{self.server.product_name} holds "
                f"{_or(vm_partitions(self.gpu, self.server))} GPUs "
                f"({FM_CRX if blackwell_board(self.gpu, self.server) else PARTITIONS_SOURCE})",
                Severity.INFO,
            )
        return rounded

    def _slice(
        self, job: Job, st: Strategy, trainable: float, flops_iter: float | None,
        global_batch: int, iterations: float | None,
    ) -> tuple[Slice, Strategy] | None:  # fmt: skip
        """For a one-GPU job under MIG or time-sliced vGPU: the smallest slice that holds it (with
        the first one-GPU strategy that fits the slice's memory) and still meets the target
        time, timed with the slice's share of compute."""
        tr, g = self.g.training, self.g
        if st.gpus != 1 or flops_iter is None or not iterations or not tr or not tr.target_hours:
            return None
        one_gpu = [s for s in self._ladder(job) if s.gpus == 1]
        for sl in slices(self.gpu, g.sharing_mode):
            fit = next(
                (s for s in one_gpu if memory_total(job, s, trainable) <= sl.memory_gb), None
            )
            if fit is None:
                continue
            self._share = sl.compute
            f = self._flops_per_iteration(Chain(), job, fit, trainable, global_batch)
            t = self._time(Chain(), job, fit, trainable, 1, f, global_batch)
            self._share = 1.0
            if iterations * float(t["iteration_s"] or 0) / 3600 <= tr.target_hours:
                return sl, fit
        return None

    # ------------------------------------------------------------------ the group

    def _training(self) -> WorkloadSizing:
        g, m, rec, k = self.g, self.model, self.rec, self.key
        assert m is not None
        tr = g.training
        job = self._job()
        log = Chain(rec, k)
        quiet = Chain()
        if g.optimizer_in_backward and not job.optimizer_in_backward:
            rec.warn(
                "optimizer-in-backward-accumulates",
                f"{g.name}: the optimizer cannot step in the backward pass when a step "
                "accumulates several micro-batches (a global batch beyond the micro-batch times "
                "the data parallelism, or pipeline stages); the plan keeps every gradient",
            )
        trainable = job.trainable()
        if job.lora:
            assert job.shape is not None
            att, mlp, experts = job.lora_widths()
            log(
                "trainable_parameters", tp_.LORA_PARAMS, "parameters", tp_.LORA,
                rank=job.lora_rank, layers=job.shape.layers, attention_width=att,
                mlp_width=mlp, experts_adapted=experts,
            )  # fmt: skip
        st, fits, tried = self._choose(job, trainable)
        by_engine = (
            g.parallelism.tensor_parallel is None
            or g.parallelism.pipeline_parallel is None
            or g.parallelism.zero_stage is None
            or g.recompute is None
        )
        fixed_dp = g.parallelism.data_parallel
        units = max(1, math.ceil(fixed_dp / st.shard)) if fixed_dp else 1

        # Iterations and FLOPs
        d0 = st.shard * units
        global_batch = g.global_batch_size or g.micro_batch_size * d0
        iters_epoch = self._iterations(tr, global_batch, m.shape is not None, record=False)
        epochs = tr.epochs if tr else 1
        total_iters = iters_epoch * epochs if iters_epoch else None
        flops_iter = self._flops_per_iteration(quiet, job, st, trainable, global_batch)

        # Replicas for the target time (the strategy's unit copied), unless given
        gpus_for_target = None
        if flops_iter is not None and total_iters and tr and tr.target_hours and not fixed_dp:
            cap = max(1, min(MAX_UNITS, max(global_batch // (g.micro_batch_size * st.shard), 1)))
            if g.global_batch_size is None:
                cap = MAX_UNITS // st.gpus or 1

            def meets(n: int) -> bool:
                gb = g.global_batch_size or g.micro_batch_size * st.shard * n
                its = self._iterations(tr, gb, m.shape is not None, record=False)
                f = self._flops_per_iteration(quiet, job, st, trainable, gb)
                t = self._time(quiet, job, st, trainable, n, f, gb)
                assert its is not None and t.get("iteration_s") is not None
                return its * epochs * float(t["iteration_s"] or 0) / 3600 <= tr.target_hours

            n = first_true(meets, 1, cap)
            units = n if n is not None else 1
            gpus_for_target = units * st.gpus if n is not None else None
            if n is None and tr.iterations_per_epoch is None:
                # Out of reach within one design: size it on compute alone, so the design's
                # limit names the target that asks for it
                its = self._iterations(tr, global_batch, m.shape is not None, record=False)
                total = flops_iter * (its or 0) * epochs
                util = self._utilization(Chain())[0]
                peak = self._peak()[0] * 1e12 * util
                estimate = math.ceil(total / (tr.target_hours * 3600 * peak * st.gpus))
                if estimate > cap:
                    units = estimate
                    gpus_for_target = units * st.gpus
            units = self._partition_units(units, st)
            global_batch = g.global_batch_size or g.micro_batch_size * st.shard * units
            iters_epoch = self._iterations(tr, global_batch, m.shape is not None, record=False)
            total_iters = iters_epoch * epochs if iters_epoch else None

        # A one-GPU job on a MIG instance or a vGPU is timed on that slice
        sl = None
        if units == 1 and not fixed_dp:
            found = self._slice(
                job, st, trainable, flops_iter, global_batch,
                iters_epoch * epochs if iters_epoch else None,
            )  # fmt: skip
            if found is not None:
                sl, st = found
        if sl is not None:
            self._share = sl.compute
            log(
                "slice_compute_share", tp_.Formula("compute_share"), "share of one GPU",
                f"{slices_source}: {sl.label}", compute_share=sl.compute,
            )  # fmt: skip

        # Record the chosen plan
        if iters_epoch is not None:
            self._iterations(tr, global_batch, m.shape is not None)
        flops_iter = self._flops_per_iteration(log, job, st, trainable, global_batch)
        flops = None
        if flops_iter is not None and total_iters is not None:
            flops = log(
                "training_flops", tp_.Formula("flops_per_iteration * iterations"), "FLOPs",
                tp_.NARAYANAN_EQ3, flops_per_iteration=flops_iter, iterations=total_iters,
            )  # fmt: skip
        t = self._time(log, job, st, trainable, units, flops_iter, global_batch)
        mem = record_memory(log, job, st, trainable)
        hours = None
        if total_iters is not None and t.get("iteration_s") is not None:
            hours = log(
                "time_to_train_hours", tp_.TRAIN_HOURS, "h", sources.DERIVED,
                iterations=total_iters, iteration_s=float(t["iteration_s"] or 0),
            )  # fmt: skip
        if gpus_for_target is not None:
            log(
                "gpus_for_target_time", tp_.Formula("units * gpus_per_unit"), "GPUs",
                sources.DERIVED + ": fewest copies of the strategy that meet the target time",
                units=units, gpus_per_unit=st.gpus,
            )  # fmt: skip
        comm_h = comm_h_limit = share = None
        if t.get("ring_s") is not None and total_iters is not None:
            comm_h = log(
                "communication_hours_total", tp_.Formula("iterations * allreduce_s / 3600"),
                "h", sources.SEED_MULTI_GPU,
                iterations=total_iters, allreduce_s=float(t["ring_s"] or 0),
            )  # fmt: skip
            comm_h_limit = log(
                "communication_hours_large_ring_limit",
                tp_.Formula("iterations * allreduce_s / 3600"), "h", sources.SEED_MULTI_GPU,
                iterations=total_iters, allreduce_s=float(t["limit_s"] or 0),
            )  # fmt: skip
        it = t.get("iteration_s")
        if it:
            exposed = (
                float(t.get("exposed_s") or 0)
                + float(t.get("contention_s") or 0)
                + float(t.get("tp_comm_s") or 0)
            )
            share = exposed / float(it)
        self._messages(job, st, fits, tried, units, t, hours, share)
        sharding = memory.Sharding(
            st.tensor, st.pipeline, st.shard * units, st.zero, st.sequence_parallel
        )
        whole = memory_total(job, Strategy(recompute=st.recompute), trainable)
        self._fit_messages(mem, sharding, by_engine, "fits" if fits else "does not fit", whole)
        figures = TrainingFigures(
            flops=flops,
            iterations_per_epoch=iters_epoch,
            compute_seconds_per_iteration=t.get("compute_s"),
            allreduce_gb_per_gpu_per_iteration=t.get("ring_gb"),
            allreduce_gb_large_ring_limit=t.get("limit_gb"),
            allreduce_seconds_per_iteration=t.get("ring_s"),
            allreduce_seconds_large_ring_limit=t.get("limit_s"),
            allreduce_link=t.get("link"),
            communication_share=share,
            communication_hours_total=comm_h,
            communication_hours_large_ring_limit=comm_h_limit,
            time_to_train_hours=hours,
            gpus_for_target_time=gpus_for_target,
            iteration_seconds=t.get("iteration_s"),
            pipeline_bubble_share=t.get("bubble_share"),
            tensor_parallel_seconds_per_iteration=t.get("tp_comm_s"),
            fine_tuning_method=job.method if g.fine_tuning else None,
            trainable_parameters=trainable,
        )
        return self._model_result(
            mem,
            sharding,
            units * st.shard,
            by_engine,
            reason=self._reason(st, fits, tried, mem.total, sl),
            training=figures,
            planned_slice=sl.profile if sl else None,
            planned_compute_share=sl.compute if sl else 1.0,
            shard_group=st.shard,
            recompute=st.recompute.value,
            memory_basis=self.memory_basis() if self.model and self.model.shape else None,
        )

    # ------------------------------------------------------------------ pieces

    def _iterations(self, tr, global_batch: int, transformer: bool, record: bool = True):
        """Iterations per epoch from the dataset, or as given."""
        if tr is None:
            return None
        chain = Chain(self.rec, self.key) if record else Chain()
        if tr.iterations_per_epoch:
            return chain(
                "iterations_per_epoch", tp_.Formula("iterations_per_epoch"), "iterations",
                "Design input", iterations_per_epoch=tr.iterations_per_epoch,
            )  # fmt: skip
        if tr.dataset_samples:
            return chain(
                "iterations_per_epoch", tp_.Formula("ceil(dataset_samples / global_batch)"),
                "iterations", sources.SEED_MULTI_GPU,
                dataset_samples=tr.dataset_samples, global_batch=global_batch,
            )  # fmt: skip
        if tr.dataset_tokens and transformer:
            return chain(
                "iterations_per_epoch",
                tp_.Formula("ceil(dataset_tokens / (global_batch * sequence_length))"),
                "iterations", sources.SEED_MULTI_GPU,
                dataset_tokens=tr.dataset_tokens, global_batch=global_batch,
                sequence_length=self.g.sequence_length,
            )  # fmt: skip
        return None

    def _flops_per_iteration(
        self, chain: Chain, job: Job, st: Strategy, trainable: float, global_batch: int
    ) -> float | None:
        assert self.model is not None
        return flops_per_iteration(chain, self.model, self.g, job, st, trainable, global_batch)

    def _reason(
        self, st: Strategy, fits: bool, tried: list[tuple[Strategy, float]], chosen: float,
        sl: Slice | None,
    ) -> str:  # fmt: skip
        if sl is not None:
            return (
                (
                    f"{st.describe()} on a {sl.label}: {chosen:,.1f} GB fits its {sl.memory_gb:g} GB, "
                    "and it is the smallest slice that still meets the target time"
                )
                + self._partial_words(st)
                + self._stack_words()
            )
        gb = self.gpu.memory_gb
        rejected = [f"{s.describe()}: {total:,.0f} GB" for s, total in tried if s != st][:4]
        text = (
            f"{st.describe()}: {chosen:,.1f} GB per GPU "
            + (f"fits the {gb:g} GB {self.gpu.name}" if fits else f"is the least; it does not fit {gb:g} GB")
        )  # fmt: skip
        if rejected:
            text += f" (tried first: {'; '.join(rejected)})"
        if self.g.parallelism.tensor_parallel is None and st.tensor == 1:
            dom = topology.nvlink_domain(self.gpu, self.server, self.facts.hardware)
            if dom == 1 and fits is False:
                text += "; no tensor parallelism, which would run over PCIe"
        return text + self._partial_words(st) + self._stack_words()

    def _partial_words(self, st: Strategy) -> str:
        """Where full recomputation covers only some layers of each stage, how many."""
        job = self._job()
        share = recomputed_share(job, st)
        if not 0 < share < 1 or job.shape is None:
            return ""
        v = job.virtual_stages if st.pipeline > 1 else 1
        chunk = job.shape.layers / (st.pipeline * v)
        where = "each stage's" if st.pipeline > 1 else "the"
        return (
            f"; {job.recompute_layers} of {where} {chunk:g} layers recomputed, the rest storing "
            "their activations"
        )

    def _stack_words(self) -> str:
        """Which software and attention kernel the memory assumes, in words: a transformer's
        (a network without attention, a CNN, is counted from its preset's measured figures)."""
        if self.model is None or self.model.shape is None:
            return ""
        stack, parts = self._memory_terms()
        return f"; memory as {stack} keeps it, " + ", ".join(parts)

    def memory_basis(self) -> str:
        """The software the memory is counted as, with its attention kernel and the stated
        choices, for a reader to show beside the memory."""
        stack, parts = self._memory_terms()
        return ", ".join((stack, *parts))

    def _memory_terms(self) -> tuple[str, list[str]]:
        g = self.g
        parts = []
        if self._pure_bf16():
            parts.append("in pure BF16 (no FP32 master weights)")
        if g.compiled:
            parts.append("compiled with torch.compile")
        if g.chunked_loss is not None:
            parts.append(
                "the loss computed in chunks"
                if g.chunked_loss
                else "the loss over the whole vocabulary at once"
            )
        parts.append(f"with {ATTENTION_LABEL[g.attention]}")
        return ts.stack_name(self.stack()), parts

    def _messages(
        self, job: Job, st: Strategy, fits: bool, tried, units: int,
        t: _Timing, hours: float | None, share: float | None,
    ) -> None:  # fmt: skip
        g, rec, tr = self.g, self.rec, self.g.training
        if share is not None and share > 0.5:
            rec.warn(
                "communication-bound",
                f"{g.name}: {share:.0%} of each iteration waits for communication over "
                f"{t.get('link') or 'the GPUs links'}; a faster fabric, NVLink/NVSwitch, RDMA or "
                "fewer, larger replicas would shorten training",
            )
        target = tr.target_hours if tr is not None else None
        if hours is not None and target and hours > target * 1.0001:
            rec.warn(
                "target-time-missed",
                f"{g.name}: estimated {hours:,.1f} h exceeds the target of {target:g} h with "
                f"{units * st.gpus} GPUs per job",
            )
        sized = tr is not None and bool(
            tr.dataset_samples or tr.dataset_tokens or tr.iterations_per_epoch
        )
        if not sized:
            rec.warn(
                "training-size-unknown",
                f"{g.name}: no dataset size or iteration count, so time to train is not estimated",
                Severity.INFO,
            )


def _or(numbers: tuple[int, ...]) -> str:
    """'1, 2, 4 or 8'."""
    *rest, last = map(str, numbers)
    return f"{', '.join(rest)} or {last}" if rest else last
