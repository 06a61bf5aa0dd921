"""Sizing an inference group: the serving planner for language models, one replica per member
for models whose serving is not modelled."""

from __future__ import annotations

from wizard.engine.inference import LAYOUT_SOURCE, Plan, ServingPlanner, transformer
from wizard.engine.memory import Sharding
from wizard.engine.sizer import SizerBase
from wizard.model.result import Severity, WorkloadResult


class ServingSizer(SizerBase):
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
            mem,
            sh,
            plan.replicas,
            by_engine,
            serving=serving,
            reason=self._serving_reason(plan),
            planned_slice=serving.slice_profile,
            planned_compute_share=serving.compute_share,
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
        targets = "meet every target" if not plan.misses else "come closest to the targets"
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
