"""Sizing one group as a stage of its own: beyond the group it reads the hardware answers, the
design's assumptions and the catalog's model presets, so it is tested from those alone (no
design, no catalog object): each figure by hand, each logged formula giving its value."""

from __future__ import annotations

import pytest

from wizard.engine.basis.expr import evaluate
from wizard.engine.basis.record import Recorder
from wizard.engine.demand.sizer import DemandFacts
from wizard.engine.demand.workload import WorkloadSizer
from wizard.model.design import Assumptions, Hardware
from wizard.model.workloads import WorkloadGroup

HARDWARE = Hardware(gpu="h100-sxm5-80gb", server="dell-xe9680", gpus_per_host=8, nvlink=True)


def _size(catalog, group: WorkloadGroup, models=None, **assumptions):
    facts = DemandFacts(HARDWARE, Assumptions(**assumptions), models or {})
    rec = Recorder()
    gpu, server = catalog.gpus["h100-sxm5-80gb"], catalog.servers["dell-xe9680"]
    w = WorkloadSizer(0, group, facts, gpu, server, rec).size()
    for c in rec.calculations:
        assert evaluate(c.formula, c.inputs) == pytest.approx(c.value), c.id
    return w


def test_a_known_gpu_count_is_members_times_gpus(catalog):
    """3 jobs of 2 whole GPUs: 6 GPUs, each holding its 80 GB."""
    group = WorkloadGroup(name="Jobs", kind="training", count=3, gpus_per_member=2)
    w = _size(catalog, group)
    assert (w.gpus_total, w.gpus_per_replica, w.memory_gb.total) == (6, 2, 80.0)


def test_shared_users_take_their_share_of_the_users_active(catalog):
    """10 notebook users, half active at once, a quarter of an 80 GB GPU each: ceil(10 x 0.5)
    = 5 allocations of 0.25 x 80 = 20 GB."""
    group = WorkloadGroup(
        name="Notebooks", kind="development", count=10, sharing_mode="vgpu",
        shared={"gpu_fraction": 0.25, "concurrency": 0.5},
    )  # fmt: skip
    w = _size(catalog, group)
    assert (w.gpus_total, w.memory_gb.total) == (5, 20.0)


def test_the_model_is_the_preset_the_facts_hold(catalog):
    """The group names a preset; its parameters are those of the facts' preset of that name, so
    a preset of 7 billion parameters under that name sizes 7 billion."""
    group = WorkloadGroup(
        name="Chat", kind="inference", model={"preset": "llama-3.1-8b"},
        inference={"input_tokens": 512, "output_tokens": 256},
    )  # fmt: skip
    real = catalog.models["llama-3.1-8b"]
    assert _size(catalog, group, {"llama-3.1-8b": real}).parameters == real.parameters
    other = real.model_copy(update={"parameters": 7e9, "active_parameters": None})
    assert _size(catalog, group, {"llama-3.1-8b": other}).parameters == 7e9


@pytest.mark.parametrize("overhead", [2.0, 3.5])
def test_a_services_overhead_is_the_assumed_framework_overhead(catalog, overhead):
    """A served model's memory carries the assumed framework overhead per GPU, as stated."""
    group = WorkloadGroup(
        name="Chat", kind="inference", model={"preset": "llama-3.1-8b"},
        inference={"input_tokens": 512, "output_tokens": 256},
    )  # fmt: skip
    models = {"llama-3.1-8b": catalog.models["llama-3.1-8b"]}
    w = _size(catalog, group, models, framework_overhead_gb=overhead)
    assert w.memory_gb.overhead == overhead


@pytest.mark.parametrize(("gph", "link"), [(4, "100 GbE"), (8, "PCIe Gen5 x16")])
def test_the_gradient_ring_crosses_the_network_when_the_job_spans_hosts(catalog, gph, link):
    """Eight data-parallel replicas of Llama 3.1 8B on H100 PCIe: on hosts of 4 the job spans
    two hosts and its ring is bound by the one 100 GbE NIC; on a host of 8 it stays inside the
    host, bound by PCIe."""
    hw = Hardware(gpu="h100-pcie-80gb", server="dell-r760xa", gpus_per_host=gph,
                  fabric="100gbe", nics_per_host=1)  # fmt: skip
    group = WorkloadGroup(
        name="Pretraining", kind="training", model={"preset": "llama-3.1-8b"},
        parallelism={"data_parallel": 8}, training={"dataset_tokens": 1e9},
    )  # fmt: skip
    facts = DemandFacts(hw, Assumptions(), {"llama-3.1-8b": catalog.models["llama-3.1-8b"]})
    gpu, server = catalog.gpus["h100-pcie-80gb"], catalog.servers["dell-r760xa"]
    w = WorkloadSizer(0, group, facts, gpu, server, Recorder()).size()
    assert w.gpus_total == 8 and w.training is not None
    assert w.training.allreduce_link == link
