"""Ranges over the stated spread of the efficiency assumptions, on the plan as sized, and targets
that hold only at the optimistic end reported as at risk."""

from __future__ import annotations

import pytest

from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict
from wizard.engine.decide.ranges import (
    figure_ranges,
    misses,
    targets_at_risk,
    training_at_risk,
)
from wizard.engine.size import size


def _sized(doc, catalog):
    d = design_from_dict(doc)
    r = size(d, catalog)
    return d, r, {(x.workload, x.figure): x for x in figure_ranges(d, catalog, r)}


def test_time_to_train_over_the_utilization_spread(catalog):
    """ResNet-50 on one GPU is all compute: its time at 0.5 of peak (times the model's measured
    0.39) is that x 0.5 / 0.57 at the optimistic end and x 0.5 / 0.42 at the pessimistic one."""
    _d, r, rng = _sized(design_dict("imagenet-resnet50"), catalog)
    (w,) = r.workloads
    x = rng[(w.name, "time_to_train_hours")]
    h = w.training.time_to_train_hours
    assert x.value == h
    assert x.low == pytest.approx(h * 0.5 / 0.57, rel=1e-9)
    assert x.high == pytest.approx(h * 0.5 / 0.42, rel=1e-9)
    assert x.pessimistic == x.high  # longer is worse


def test_the_exposed_communication_is_held_while_compute_scales(catalog):
    """BERT-Large over 25 GbE: only the compute part of each iteration scales with
    utilization, so the range is narrower than the compute alone would make it."""
    _d, r, rng = _sized(design_dict("bert-large-25gbe"), catalog)
    (w,) = r.workloads
    t = w.training
    x = rng[(w.name, "time_to_train_hours")]
    iters = t.time_to_train_hours * 3600 / t.iteration_seconds
    compute = t.compute_seconds_per_iteration * (1 + (t.pipeline_bubble_share or 0))
    rest = t.iteration_seconds - compute
    assert rest > 0  # the case this test is for
    assert x.high == pytest.approx(iters * (compute * 0.5 / 0.42 + rest) / 3600, rel=1e-9)
    assert x.high < t.time_to_train_hours * 0.5 / 0.42


def test_a_zero_spread_gives_the_point_estimate_back(catalog):
    """With each spread closed on its default, the re-sized serving plan (layout, replicas and
    requests in flight pinned) must give exactly the sized figures: the range moves the
    assumptions, never the plan."""
    doc = design_dict("llm-serving")
    doc["assumptions"] = {**doc.get("assumptions", {}),
                          "decode_bandwidth_efficiency_range": [0.6, 0.6],
                          "prefill_compute_efficiency_range": [0.5, 0.5]}  # fmt: skip
    _d, r, rng = _sized(doc, catalog)
    s = r.workloads[0].serving
    for figure, value in (("ttft_ms", s.ttft_ms), ("itl_ms", s.itl_ms),
                          ("tokens_per_s_total", s.tokens_per_s_total)):  # fmt: skip
        x = rng[(r.workloads[0].name, figure)]
        assert x.low == pytest.approx(value, rel=1e-9) and x.high == pytest.approx(value, rel=1e-9)
    assert targets_at_risk(r, list(rng.values())) == []


def test_a_target_met_only_at_the_optimistic_end_is_at_risk(catalog):
    """The llm-serving example with its plan held and a time-between-tokens target 3 % above
    the point estimate: at the pessimistic end of the decode efficiency (0.52 against 0.6) each
    step is longer, and the target is missed there: at risk."""
    doc = design_dict("llm-serving")
    _d, r0, _rng = _sized(doc, catalog)
    w0 = r0.workloads[0]
    doc["workloads"][0]["parallelism"] = {
        "tensor_parallel": w0.layout.tensor_parallel,
        "pipeline_parallel": w0.layout.pipeline_parallel,
        "data_parallel": w0.replicas,
    }
    target = round(w0.serving.itl_ms * 1.03, 3)
    doc["workloads"][0]["inference"]["itl_target_ms"] = target
    _d, r, rng = _sized(doc, catalog)
    w = r.workloads[0]
    itl = next(t for t in w.serving.targets if t.metric == "itl")
    x = rng[(w.name, "itl_ms")]
    assert itl.met and x.value <= itl.target < x.pessimistic
    risks = targets_at_risk(r, list(rng.values()))
    assert ("itl", target) in [(k.metric, k.target) for k in risks]
    # a target missed outright is a miss, not a risk: a decode step reads every weight once,
    # 141 GB of Llama 3 70B in BF16 over at most 8 H100s at 3,350 GB/s is at least
    # 141 / 8 / 3,350 s = 5.3 ms, so 2 ms between tokens is out of reach
    doc = design_dict("llm-serving")
    doc["workloads"][0]["inference"]["itl_target_ms"] = 2.0
    _d2, r2, rng2 = _sized(doc, catalog)
    assert "itl" not in [k.metric for k in targets_at_risk(r2, list(rng2.values()))]


def test_a_training_target_that_holds_only_optimistically_is_at_risk(catalog):
    """hgx-h200-llm's LoRA job with its GPUs held and a target 5 % above its time at 0.5 of
    peak: at 0.42 the compute takes 0.5 / 0.42 = 1.19 times as long and the job overruns: at
    risk. A target past the pessimistic end is not."""
    doc = design_dict("hgx-h200-llm")
    _d, r0, _rng = _sized(doc, catalog)
    lora = r0.workloads[0]
    doc["workloads"][0]["parallelism"] = {"data_parallel": lora.layout.data_parallel}
    doc["workloads"][0]["training"]["target_hours"] = lora.training.time_to_train_hours * 1.05
    d, r, rng = _sized(doc, catalog)
    assert r.workloads[0].gpus_total == lora.gpus_total
    risks = training_at_risk(d, r, list(rng.values()))
    assert [k.workload for k in risks] == ["Llama 3.1 70B LoRA fine-tuning"]
    x = rng[("Llama 3.1 70B LoRA fine-tuning", "time_to_train_hours")]
    doc["workloads"][0]["training"]["target_hours"] = x.pessimistic + 1
    d2, r2, rng2 = _sized(doc, catalog)
    assert training_at_risk(d2, r2, list(rng2.values())) == []


@pytest.mark.parametrize(
    ("figure", "value", "target", "missed"),
    [
        ("ttft_ms", 200.0, 200.0, False),  # at most 200 ms: exactly 200 meets it
        ("ttft_ms", 200.5, 200.0, True),
        ("itl_ms", 30.0, 30.0, False),
        ("time_to_train_hours", 24.0, 24.0, False),
        ("time_to_train_hours", 24.1, 24.0, True),
        ("tokens_per_s_total", 1000.0, 1000.0, False),  # at least 1,000: exactly meets it
        ("tokens_per_s_total", 999.0, 1000.0, True),
    ],
)
def test_a_figure_equal_to_its_target_meets_it(figure, value, target, missed):
    """A target of at most (times) or at least (throughput) is met by a figure equal to it."""
    assert misses(figure, value, target) is missed
