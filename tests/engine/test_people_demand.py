"""Serving demand in people: users x share active in the busiest hour x requests an hour each /
3,600 s gives the service's requests per second, a throughput target like any other (the
requests in flight follow by Little's law). Expected values by hand."""

from __future__ import annotations

import pytest

from tests.engine.conftest import calc, design_dict
from wizard.app.io import design_from_dict
from wizard.engine.basis.expr import Formula
from wizard.engine.size import size


def _service(users: int, share: float = 0.1, per_hour: float = 6, catalog=None):
    doc = design_dict("llm-serving")
    w = doc["workloads"][0]
    w.update(model={"preset": "llama-3.3-70b"}, precision="fp8", sharing_mode="passthrough")
    w["constraints"] = {}
    w["inference"] = {"input_tokens": 1000, "output_tokens": 300, "concurrent_sequences": 1,
                      "people": {"users": users, "active_share": share,
                                 "requests_per_hour": per_hour}}  # fmt: skip
    return size(design_from_dict(doc), catalog)


def test_500_employees_make_a_request_every_twelve_seconds(catalog):
    """500 people, 10 % active in the busiest hour, 6 requests an hour each: 500 x 0.1 x 6 =
    300 requests an hour = 300 / 3,600 = 0.0833 requests/s; at 300 output tokens a request the
    service must generate 0.0833 x 300 = 25 tokens/s."""
    r = _service(500, catalog=catalog)
    c = calc(r, "workloads[0].serving.requests_per_s_from_people")
    assert c.value == pytest.approx(500 * 0.1 * 6 / 3600)
    assert Formula(c.formula)(**c.inputs) == pytest.approx(c.value)  # the log holds
    s = r.workloads[0].serving
    tput = next(t for t in s.targets if t.metric == "throughput")
    assert tput.target == pytest.approx(500 * 0.1 * 6 / 3600 * 300)
    assert tput.met
    assert "demand-from-people" in {w.code for w in r.warnings}


def test_a_hundred_times_the_people_need_the_tokens_of_a_hundred_times(catalog):
    """50,000 people at the same habits: 8.33 requests/s, 2,500 output tokens/s to plan for;
    the plan grows to meet it (more replicas or sequences), never below the target."""
    small, large = _service(500, catalog=catalog), _service(50_000, catalog=catalog)
    tput = next(t for t in large.workloads[0].serving.targets if t.metric == "throughput")
    assert tput.target == pytest.approx(50_000 * 0.1 * 6 / 3600 * 300)
    assert large.workloads[0].serving.tokens_per_s_total >= tput.target * 0.9999
    assert large.cluster.gpus_demand >= small.cluster.gpus_demand


def test_a_stated_rate_above_the_peoples_wins(catalog):
    """The larger of a stated requests/s target and the people's rate is planned for."""
    doc = design_dict("llm-serving")
    w = doc["workloads"][0]
    w["inference"] = {"input_tokens": 1000, "output_tokens": 300, "target_requests_per_s": 1.0,
                      "people": {"users": 500, "active_share": 0.1, "requests_per_hour": 6}}  # fmt: skip
    r = size(design_from_dict(doc), catalog)
    tput = next(t for t in r.workloads[0].serving.targets if t.metric == "throughput")
    assert tput.target == pytest.approx(1.0 * 300)
