"""Sizing an inference group: the serving planner for language models, one replica per member
for models whose serving is not modelled."""

from __future__ import annotations

from wizard.engine.basis.expr import Formula
from wizard.engine.basis.memory import Sharding
from wizard.engine.demand.inference import LAYOUT_SOURCE, ServingOption, ServingPlanner, transformer
from wizard.engine.demand.plausibility import check_serving
from wizard.engine.demand.sizer import SizerBase, weight_bytes
from wizard.model.result import Severity, WorkloadSizing


class ServingSizer(SizerBase):
    def _inference(self) -> WorkloadSizing:
        g, m, rec = self.g, self.model, self.rec
        assert m is not None
        if g.inference is None or m.shape is None:
            return self._inference_unmodelled()
        p = m.preset
        planner = ServingPlanner(
            self.key,
            g,
            self.facts,
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
                self.gpu,
                m.experts or None,
                m.experts_per_token or None,
                head_dim=m.shape.head_size or None,
                kv_latent_dim=m.kv_latent_dim or None,
                sliding_window=p.sliding_window if p else None,
                sliding_window_layers=p.sliding_window_layers if p else None,
                weight_bytes=weight_bytes(p, g.precision),
            ),
            rec,
        )
        plan, par, by_engine = planner.choose()
        whole = self._weights_memory(Sharding(), record=False).total
        if plan is None:
            sh = Sharding(par.tensor, par.pipeline)
            mem = self._weights_memory(sh, record=True)
            self._fit_messages(mem, sh, by_engine, "does not fit", whole)
            return self._model_result(mem, sh, 1, by_engine)
        # a service is one service: its demand is its people or its requests in flight, never
        # multiplied by a member count (plausibility says so when a file gives one)
        mem, serving = planner.record(plan, 1)
        check_serving(
            self.rec, self.key, g, serving, planner.load.rate, plan.replicas, plan.gpu_share
        )
        sh = Sharding(par.tensor, par.pipeline)
        self._fit_messages(mem, sh, by_engine, "fits", whole + mem.kv_cache * sh.model_parallel)
        rec.expr(
            f"{self.key}.replicas", Formula("replicas_searched"),
            {"replicas_searched": plan.replicas}, "replicas",
            f"{LAYOUT_SOURCE}: the fewest replicas whose load meets every target (the search "
            f"tried fewer); {serving.sequences_per_replica} requests in flight per replica",
        )  # fmt: skip
        return self._model_result(
            mem,
            sh,
            plan.replicas,
            by_engine,
            serving=serving,
            reason=self._serving_reason(plan),
            planned_slice=serving.slice_profile,
            planned_compute_share=serving.compute_share,
            members=1,
        )

    def _serving_reason(self, plan: ServingOption) -> str:
        t, pp = plan.par.tensor, plan.par.pipeline
        where = (
            f"tensor parallelism {t} inside one host"
            if pp == 1
            else f"tensor parallelism {t} in each host and {pp} pipeline stages across hosts"
        )
        if t == 1 and pp == 1:
            where = "one GPU per replica"
        targets = "meet every target" if not plan.misses else "come closest to the targets"
        return (
            f"{where}, {plan.replicas} replica{'s' if plan.replicas != 1 else ''}: of the layouts "
            f"serving stacks use, the fewest GPUs ({plan.gpus}) that hold the model with "
            f"{self.a.serving_memory_utilization:.0%} of GPU memory planned and {targets}"
        )

    def _inference_unmodelled(self) -> WorkloadSizing:
        g = self.g
        sh = Sharding()
        mem = self._weights_memory(sh, record=True)
        fit = "fits" if mem.total <= self.gpu.memory_gb else "does not fit"
        self._fit_messages(mem, sh, False, fit, mem.total)
        by_engine = False
        inf = g.inference
        if inf is not None and (inf.target_requests_per_s or inf.target_tokens_per_s):
            self.rec.warn(
                "throughput-not-modelled",
                f"{g.name}: throughput for non-transformer models is not modelled; one replica "
                "per member assumed",
                Severity.INFO,
            )
        return self._model_result(mem, sh, 1, by_engine)
