"""Sizing a training or fine-tuning group: FLOPs, iterations, layout, gradient all-reduce and
time to train."""

from __future__ import annotations

import math

from wizard.engine import comms, compute, sources
from wizard.engine.memory import Sharding
from wizard.engine.sizer import SizerBase
from wizard.model.result import Severity, WorkloadResult


class TrainingSizer(SizerBase):
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
