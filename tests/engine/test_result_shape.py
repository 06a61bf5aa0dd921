"""The Result's shape: replicas always count the whole group, figures live in the sub-model of
their kind, and every group carries its placement."""

from __future__ import annotations

import re

import pytest

from tests.engine.test_fine_tuning import H100, acme, sized
from wizard.app.io import design_from_text
from wizard.base.bundled import example_names, example_text
from wizard.engine.size import size
from wizard.model.design import SharingMode, WorkloadKind
from wizard.model.result import Result, SizedFrom


def test_replicas_count_every_member(catalog):
    """Three teams each fine-tune with two data-parallel replicas of one GPU: 3 x 2 = 6
    replicas in the group, 2 per member (the layout), 6 GPUs."""
    doc = acme(H100, "lora", count=3, parallelism={"data_parallel": 2})
    doc["workloads"][0]["training"].pop("target_hours")
    w = sized(doc, catalog).workloads[0]
    assert w.sized_from is SizedFrom.MODEL
    assert (w.members, w.layout.data_parallel, w.replicas_per_member) == (3, 2, 2)
    assert w.replicas == 6
    assert w.gpus_total == 6 * w.gpus_per_replica


@pytest.mark.parametrize("name", example_names())
def test_every_group_totals_replicas_times_gpus(name, catalog):
    """GPUs of a group = its replicas (all members') x GPUs per replica, for every kind."""
    r = size(design_from_text(example_text(name), name), catalog)
    for w in r.workloads:
        assert w.gpus_total == w.replicas * w.gpus_per_replica, w.name


@pytest.mark.parametrize("name", example_names())
def test_figures_sit_with_their_kind_and_placement_is_always_set(name, catalog):
    design = design_from_text(example_text(name), name)
    r = size(design, catalog)
    for g, w in zip(design.workloads, r.workloads, strict=True):
        assert w.kind is g.kind and w.sharing.mode is g.sharing_mode
        if w.training is not None:
            assert g.kind in (WorkloadKind.TRAINING, WorkloadKind.FINE_TUNING)
            assert w.sized_from is SizedFrom.MODEL
        if w.serving is not None:
            assert g.kind is WorkloadKind.INFERENCE
        if g.sharing_mode is SharingMode.PASSTHROUGH:
            assert w.sharing.gpus_allocated == w.gpus_total
    assert Result.model_validate_json(r.model_dump_json()) == r


ONE_WITH_PLURAL = re.compile(
    r"(?<![\d.,])1 (GPUs|hosts|racks|nodes|replicas|switches|members|bridges)\b"
)


@pytest.mark.parametrize("name", example_names())
def test_engine_text_agrees_in_number(name, catalog):
    """Decisions and warnings say '1 host' and '2 hosts', never 'host(s)' or '1 hosts'."""
    r = size(design_from_text(example_text(name), name), catalog)
    texts = [d.text for d in r.decisions] + [d.reason for d in r.decisions]
    texts += [w.message for w in r.warnings]
    for text in texts:
        assert "(s)" not in text, text
        assert not ONE_WITH_PLURAL.search(text), text
