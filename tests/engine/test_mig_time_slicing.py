"""Time-sliced, MIG-backed vGPU: several VMs of a group share one MIG instance by time slices
(NVIDIA vGPU 19 on Blackwell boards such as the RTX PRO 6000 Blackwell Server Edition, whose
vGPU 19.0 types include DC-1-8C: three 8 GB vGPUs in a 1g.24gb instance)."""

from __future__ import annotations

import pytest

from wizard.app.io import design_from_dict
from wizard.engine.platform.compat import check_design
from wizard.engine.size import size


def _notebooks(users: int, time_slicing: bool, gpu: str = "rtx-pro-6000-bse") -> dict:
    server = {"rtx-pro-6000-bse": "dell-xe7740", "h100-pcie-80gb": "dell-r760xa"}[gpu]
    return {
        "project": {"customer": "Example Corp", "project_name": "Notebooks"},
        "workloads": [
            {
                "name": "Notebooks",
                "kind": "development",
                "count": users,
                "shared": {"gpu_memory_gb": 8, "concurrency": 1.0},
                "sharing_mode": "mig",
            }
        ],
        "hardware": {
            "gpu": gpu,
            "server": server,
            "gpus_per_host": 2,
            "mig_time_slicing": time_slicing,
        },
    }


def test_three_notebooks_share_each_1g_instance(catalog):
    """12 users of 8 GB on a 96 GB board with four 1g.24gb instances: one instance each needs
    12 instances = 3 GPUs; three per instance (DC-1-8C) needs 12 / 3 = 4 instances = 1 GPU.
    Each user's compute share, 8 / 96, times 3 users = 0.25 = the instance's 1 of 4 slices."""
    own = size(design_from_dict(_notebooks(12, False)), catalog)
    shared = size(design_from_dict(_notebooks(12, True)), catalog)
    assert own.workloads[0].sharing.slot_profile == "1g.24gb"
    assert own.workloads[0].sharing.vgpu_type == "DC-1-24C"
    assert own.packing is not None and own.packing.gpus_used == 3
    assert shared.workloads[0].sharing.vgpu_type == "DC-1-8C"
    assert shared.packing is not None and shared.packing.gpus_used == 1
    slots = [s for h in shared.packing.hosts for g in h.gpus for s in g.slots]
    assert len(slots) == 4 and all(s.users == 3 for s in slots)
    assert any("up to 3 members share each 1g.24gb" in d.text for d in shared.decisions)


def test_a_remainder_still_takes_a_whole_instance(catalog):
    """13 users: ceil(13 / 3) = 5 instances, more than the 4 on one board: 2 GPUs."""
    r = size(design_from_dict(_notebooks(13, True)), catalog)
    assert r.packing is not None and r.packing.gpus_used == 2
    assert sum(len(g.slots) for h in r.packing.hosts for g in h.gpus) == 5


def test_a_gpu_without_time_sliced_mig_types_is_refused(catalog):
    problems = check_design(design_from_dict(_notebooks(12, True, "h100-pcie-80gb")), catalog)
    assert [p.field for p in problems] == ["hardware.mig_time_slicing"]
    assert "no time-sliced MIG-backed vGPU types" in problems[0].message


def test_a_release_without_it_is_refused(catalog):
    """The mode arrives with vGPU 19 (NVIDIA AI Enterprise 7): release 5 does not have it."""
    doc = _notebooks(12, True)
    doc["platform"] = {"nvaie_release": "nvaie-5"}
    fields = [p.field for p in check_design(design_from_dict(doc), catalog)]
    assert "hardware.mig_time_slicing" in fields
    doc["platform"] = {"nvaie_release": "nvaie-7"}
    fields = [p.field for p in check_design(design_from_dict(doc), catalog)]
    assert "hardware.mig_time_slicing" not in fields


def test_members_sharing_an_instance_need_their_summed_compute(catalog):
    """A 6 GB member fits an 8 GB DC-1-8C vGPU, three to a 1g.24gb instance, whose compute is
    1 of 4 slices. At 0.08 of the GPU each, three need 0.24 <= 0.25: they share, a third of an
    instance each. At 0.2 each, two would need 0.4 and three 0.6, more than the instance has;
    the 2g.48gb types (1/2 of the GPU) hold two (0.4) at 1/4 each, no cheaper than a 1g.24gb
    instance of its own (1/4), which the member then takes."""
    from wizard.engine.placement.sharing import Need, slot_for
    from wizard.model.design import SharingMode

    gpu = catalog.gpus["rtx-pro-6000-bse"]
    light = slot_for(SharingMode.MIG, Need("n", 3, 1, 6, 0.08, 0.08), gpu, True)
    assert (light.profile, light.vgpu_type, light.users) == ("1g.24gb", "DC-1-8C", 3)
    heavy = slot_for(SharingMode.MIG, Need("n", 3, 1, 6, 0.2, 0.2), gpu, True)
    assert (heavy.profile, heavy.vgpu_type, heavy.users) == ("1g.24gb", None, 1)


def test_an_instance_shared_by_time_slices_carries_its_members_summed_need(catalog):
    """12 users of 8 GB, three to a 1g.24gb instance (DC-1-8C): each user's need is 8 / 96 of the
    96 GB board (compute in proportion to memory), so an instance of three carries
    3 x 8 / 96 = 0.25 of the GPU, and a GPU of four instances is fully used (4 x 0.25 = 1)."""
    shared = size(design_from_dict(_notebooks(12, True)), catalog)
    assert shared.packing is not None
    slots = [s for h in shared.packing.hosts for g in h.gpus for s in g.slots]
    assert [s.demand_share for s in slots] == [pytest.approx(3 * 8 / 96)] * 4
    used = [g for h in shared.packing.hosts for g in h.gpus if g.slots]
    assert [g.utilization for g in used] == [pytest.approx(1.0)]
