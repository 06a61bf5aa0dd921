"""The serving planner gives a replica as many requests in flight as carry its share of the
throughput target at the pessimistic end of the assumptions' spread, where the latency targets
allow: the rule the plan's ranges judge a target "at risk" by, so an easy throughput target is
not left at risk by a replica held at the fewest requests that carry it on the point estimate.
"""

from __future__ import annotations

from wizard.base.bundled import example_text
from wizard.engine import plan
from wizard.engine.decide.ranges import assumptions_at
from wizard.model.design import Design


def _plan(catalog, **inference: float):
    import json

    d = json.loads(example_text("llm-serving"))
    d["workloads"][0]["inference"].update(inference)
    return plan(Design.model_validate(d), catalog)


def _status(p, metric: str):
    return next(t for t in p.targets if t.metric == metric)


def test_an_easy_throughput_target_is_not_left_at_risk(catalog):
    # llm-serving: 2,000 generated tokens a second over its replicas, time between tokens at
    # most 100 ms
    p = _plan(catalog)
    tput, itl = _status(p, "throughput"), _status(p, "itl")
    assert tput.met and not tput.at_risk
    assert tput.pessimistic is not None and tput.pessimistic >= 2000
    assert itl.met and itl.value <= 100


def test_the_latency_target_bounds_the_requests_in_flight(catalog):
    """Negative case: a time-between-tokens target 10 % below the plan's holds fewer requests
    in flight per replica, and the target is met: no more are planned than it allows."""
    loose = _plan(catalog)
    target = loose.workloads[0].serving.itl_ms * 0.9
    tight = _plan(catalog, itl_target_ms=target)
    t = tight.workloads[0].serving
    assert _status(tight, "itl").met and t.itl_ms <= target * 1.0001
    assert t.sequences_per_replica < loose.workloads[0].serving.sequences_per_replica


def test_the_pessimistic_end_is_the_low_end_of_each_spread(catalog):
    d = Design.model_validate_json(example_text("llm-serving"))
    a = assumptions_at(d.assumptions, 0.0)
    lo, _hi = d.assumptions.decode_bandwidth_efficiency_range
    assert a.decode_bandwidth_efficiency == min(lo, d.assumptions.decode_bandwidth_efficiency)
