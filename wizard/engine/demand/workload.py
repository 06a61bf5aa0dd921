"""Sizing of one workload group, by kind: training and fine-tuning, serving, shared users, or
a known GPU count."""

from __future__ import annotations

import math

from wizard.engine.basis import sources
from wizard.engine.basis.expr import Formula
from wizard.engine.demand.inference import KV_BYTES, KV_CHOSEN_SOURCE, KV_DEFAULT_SOURCE, kv_bits
from wizard.engine.demand.serving_group import ServingSizer
from wizard.engine.demand.sizer import TRAINING_KINDS, ModelInfo, SizerBase, resolve_model
from wizard.engine.demand.training import TrainingSizer
from wizard.model.calibration import FACTORS
from wizard.model.design import SharingMode, WorkloadKind
from wizard.model.result import MemoryBreakdown, SizedFrom, WorkloadSizing

# each factor as a plan's caution names it
FACTOR_WORDS = {
    "decode_bandwidth_efficiency": "the decode bandwidth efficiency",
    "prefill_compute_efficiency": "the prefill compute efficiency",
    "link_efficiency": "the all-reduce link efficiency",
    "achievable_utilization": "the training utilization",
}

__all__ = ["TRAINING_KINDS", "ModelInfo", "SizerBase", "WorkloadSizer", "resolve_model"]


class WorkloadSizer(TrainingSizer, ServingSizer):
    """Sizes one group; every headline figure goes through the recorder with its source."""

    # ------------------------------------------------------------------ the group

    def size(self) -> WorkloadSizing:
        self._calibration_at_bound()
        figures = self._model_figures()  # logged first: the serving figures use the KV bytes
        return self._by_kind().model_copy(update=figures)

    def _model_figures(self) -> dict[str, float]:
        """What the documents state beside the group's model whatever sized it: its parameter
        count (the catalog's, or counted from a custom model's shape and logged as
        ``workloads[i].model.parameters``) and, for a service, the bytes each KV-cache element
        takes (the chosen precision, else the serving stack's default for the GPU)."""
        out: dict[str, float] = {}
        if self.model is not None:
            out |= {"parameters": self.model.params, "active_parameters": self.model.active_params}
        if self.g.inference is not None:
            kv = self.g.inference.kv_cache_precision
            out["kv_cache_bytes_per_element"] = self.rec.expr(
                f"{self.key}.kv_cache_bytes_per_element", KV_BYTES,
                {"kv_bits": kv_bits(self.g.precision, kv, self.gpu)}, "bytes",
                KV_DEFAULT_SOURCE if kv is None else KV_CHOSEN_SOURCE,
            )  # fmt: skip
        return out

    def _by_kind(self) -> WorkloadSizing:
        if self.g.gpus_per_member is not None:
            return self._by_count(self.g.gpus_per_member)
        if self.g.kind in (WorkloadKind.DEVELOPMENT, WorkloadKind.HPC):
            return self._shared()
        if self.g.kind in TRAINING_KINDS:
            return self._training()
        return self._inference()

    def _calibration_at_bound(self) -> None:
        """A factor fitted at its physical bound means the customer's runs sit at the model's
        limit: the figures it sets may be wrong, so the plan says so (a caution)."""
        cal = self.g.calibration
        if cal is None:
            return
        for f in cal.factors:
            low, high = FACTORS[f.name]
            side = "lower" if f.value <= low * 1.01 else "upper" if f.value >= high * 0.99 else None
            if side is not None:
                words = FACTOR_WORDS[f.name]
                self.rec.warn(
                    "calibration-at-bound",
                    f"{self.g.name}: the measurements sit at the model's limit for {words}: "
                    f"fitted at its {side} bound ({f.value:g}), so the figures it sets may be "
                    "wrong",
                )

    def _empty(
        self, gpus: int, workspace: float, sized_from: SizedFrom, replicas: int, total: int
    ) -> WorkloadSizing:
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
        return WorkloadSizing(
            name=g.name,
            kind=g.kind,
            sized_from=sized_from,
            memory_gb=mem,
            memory_gb_per_replica=workspace * gpus,
            fits_one_gpu=gpus <= 1,
            gpus_per_replica=gpus,
            replicas=replicas,
            members=g.count,
            gpus_total=total,
        )

    def _by_count(self, gpus: int) -> WorkloadSizing:
        g = self.g
        total = self.rec.expr(
            f"{self.key}.gpus", Formula("members * gpus_per_member"),
            {"members": g.count, "gpus_per_member": gpus}, "GPUs",
            f"{sources.SEED_WHITE_PAPER}: demand from a capacity analysis",
        )  # fmt: skip
        return self._empty(gpus, self.gpu.memory_gb, SizedFrom.GPUS_PER_MEMBER, g.count, int(total))

    def _shared(self) -> WorkloadSizing:
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
        active = int(
            self.rec.expr(
                f"{self.key}.active_members", Formula("ceil(members * concurrency - 1e-9)"),
                {"members": g.count, "concurrency": s.concurrency}, "users or jobs",
                sources.ASSUMPTION,
            )
        )  # fmt: skip
        whole_gpus = g.sharing_mode is SharingMode.PASSTHROUGH
        total = self.rec.expr(
            f"{self.key}.gpus", Formula("active * gpus_each"),
            {"active": active, "gpus_each": whole}, "GPUs" if whole_gpus else "GPU allocations",
            "Whole-GPU placement: a partial need still takes a whole GPU in passthrough"
            if whole_gpus
            else "One allocation (a vGPU, a MIG instance or a pool share) per GPU of each active "
            "user; the allocations are packed onto physical GPUs under Sharing modes",
        )  # fmt: skip
        workspace = need if whole == 1 else self.gpu.memory_gb
        return self._empty(whole, workspace, SizedFrom.SHARED, active, int(total))
