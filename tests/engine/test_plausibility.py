"""Plausibility rules of a serving group: a head count typed as members, more people than any
employer has, and more replicas than requests in flight each give a caution under the field,
with its reason; a sensible design gets none. Expected figures are worked by hand here."""

from __future__ import annotations

import json

import pytest

from wizard.base.bundled import example_text
from wizard.engine import plan
from wizard.model.design import Design

# 500 people, 10 % active in the busiest hour, 6 requests an hour each:
# 500 x 0.1 x 6 / 3,600 = 0.08333 requests a second
RATE_500 = 500 * 0.1 * 6 / 3600


def _chat(catalog, users: int, count: int = 1, **parallelism: int):
    d = json.loads(example_text("llm-serving"))
    g = d["workloads"][0]
    g["count"] = count
    g["inference"] = {
        "input_tokens": 1024,
        "output_tokens": 256,
        "people": {"users": users, "active_share": 0.1, "requests_per_hour": 6},
    }
    if parallelism:
        g["parallelism"] = parallelism
    return plan(Design.model_validate(d), catalog)


def _cautions(p) -> dict[str, str]:
    return {c.field: c.message for c in p.cautions}


def test_members_do_not_multiply_a_service_and_the_count_is_named(catalog):
    one = _chat(catalog, 500)
    trap = _chat(catalog, 500, count=500)
    # one service for 500 people, whatever the member count: the same GPUs as Members 1
    assert trap.workloads[0].gpus_total == one.workloads[0].gpus_total
    assert trap.workloads[0].members == 1
    assert trap.workloads[0].serving.requests_per_s_total >= RATE_500
    said = _cautions(trap)
    msg = said["workloads[0].inference.people.users"]
    assert msg.startswith("Members 500 does not multiply a service")
    assert "its 500 people (0.083 requests a second)" in msg


def test_a_hundred_million_people_is_more_than_any_employer(catalog):
    p = _chat(catalog, 99_999_999)
    msg = _cautions(p)["workloads[0].inference.people.users"]
    assert "99,999,999 people use" in msg
    assert "more than the 2,200,000 who work for the largest employer" in msg


def test_replicas_beyond_the_requests_in_flight_say_how_idle_each_gpu_is(catalog):
    # 64 replicas of tensor parallelism 4 = 256 GPUs; 256 / 0.08333 = 3,072 s between requests
    # per GPU, 51.2 minutes
    p = _chat(catalog, 500, tensor_parallel=4, data_parallel=64)
    assert p.workloads[0].gpus_total == 256
    msg = _cautions(p)["workloads[0].parallelism.data_parallel"]
    assert msg.startswith("256 GPUs for 0.083 requests a second: each GPU would serve one "
                          "request every 51 minutes")  # fmt: skip


def test_the_requests_in_flight_follow_littles_law(catalog):
    s = _chat(catalog, 500).workloads[0].serving
    # L = lambda x W: 0.08333 requests/s x (first token + 256 token intervals)
    assert s.requests_in_flight == pytest.approx(
        RATE_500 * (s.ttft_ms + 256 * s.itl_ms) / 1000, rel=1e-9
    )


def test_a_sensible_design_gets_no_caution(catalog):
    assert _cautions(_chat(catalog, 500)) == {}
    # each bundled example sizes without a plausibility caution
    for name in ("bert-large-25gbe", "enterprise", "gpt3-175b", "hgx-h200-llm", "imagenet-resnet50",
                 "llm-serving", "mig-shared", "rtx-pro-vsphere", "starter"):  # fmt: skip
        d = Design.model_validate(json.loads(example_text(name)))
        assert plan(d, catalog).cautions == [], name
