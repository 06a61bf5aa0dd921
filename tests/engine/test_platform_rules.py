"""What vSphere and NVIDIA AI Enterprise allow, one rule at a time, each with a case where it
applies and one where it does not."""

from __future__ import annotations

import pytest

from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict
from wizard.base.errors import DesignError
from wizard.engine.size import size


def codes(doc: dict, catalog) -> dict[str, str]:
    r = size(design_from_dict(doc), catalog)
    return {w.code: w.message for w in r.warnings}


def test_passthrough_on_an_nvswitch_board_is_flagged(catalog):
    """NVIDIA AI Enterprise 8.0, 'NVIDIA NVSwitch': "Only time-sliced vGPUs are supported.
    MIG-backed vGPUs are not supported. GPU passthrough is not supported on NVIDIA Systems that
    include NVSwitch when using VMware vSphere." """
    doc = design_dict("gpt3-175b")
    assert "hgx-passthrough-unsupported" not in codes(doc, catalog)  # the example uses vGPU
    doc["workloads"][0]["sharing_mode"] = "passthrough"
    r = size(design_from_dict(doc), catalog)
    (error,) = [w for w in r.warnings if w.code == "hgx-passthrough-unsupported"]
    assert error.severity == "error" and error.field == "workloads[0].sharing_mode"
    assert "vSphere supports time-sliced vGPU only" in error.message
    assert "GPU passthrough is not supported on NVIDIA Systems that include NVSwitch" in (
        error.message
    )


def test_mig_backed_vgpu_on_an_nvswitch_board_is_flagged(catalog):
    """NVIDIA AI Enterprise 8.0, 'NVIDIA NVSwitch': "Only time-sliced vGPUs are supported.
    MIG-backed vGPUs are not supported." The same group on an H100 PCIe server is not flagged."""
    doc = design_dict("mig-shared")
    assert "hgx-mig-vgpu-unsupported" not in codes(doc, catalog)  # R760xa, PCIe: no NVSwitch
    doc["hardware"].update(gpu="h100-sxm5-80gb", server="dell-xe9680", gpus_per_host=8)
    found = codes(doc, catalog)
    assert "hgx-mig-vgpu-unsupported" in found
    assert "MIG-backed vGPU" in found["hgx-mig-vgpu-unsupported"]


def test_a_member_larger_than_a_host_is_one_vm_per_host(catalog):
    """A VM runs on one host: a 16-GPU member on 8-GPU hosts is two 8-GPU VMs, never one VM of
    16 GPUs."""
    r = size(design_from_dict(design_dict("gpt3-175b")), catalog)
    (text,) = [d.text for d in r.decisions if "vGPU profile" in d.text]
    assert "2 VMs of 8 GPUs, one per host" in text
    assert "each of its 16 GPUs" not in text


def test_passthrough_without_nvswitch_is_not_flagged(catalog):
    """The 4-GPU HGX A100 board (XE8545) links its GPUs directly, without NVSwitch."""
    doc = design_dict("gpt3-175b")
    doc["workloads"][0]["sharing_mode"] = "passthrough"
    doc["workloads"][0]["precision"] = "bf16"
    doc["hardware"].update(gpu="a100-sxm4-80gb", server="dell-xe8545", gpus_per_host=4)
    assert "hgx-passthrough-unsupported" not in codes(doc, catalog)


@pytest.mark.parametrize(("gpus", "flagged"), [(3, True), (4, False), (8, False)])
def test_vm_sizes_on_an_nvswitch_board_are_fabric_manager_partitions(gpus, flagged, catalog):
    """NVIDIA Fabric Manager User Guide, sections 6.2-6.6: virtual machines with 16 (HGX-2
    only), 8, 4, 2 or 1 GPUs of an NVSwitch system."""
    doc = design_dict("gpt3-175b")
    doc["workloads"] = [{"name": "Jobs", "kind": "training", "gpus_per_member": gpus,
                         "sharing_mode": "vgpu"}]  # fmt: skip
    assert ("hgx-vm-size" in codes(doc, catalog)) is flagged


def _mixed(release: str) -> dict:
    return {
        "workloads": [
            {"name": "Big", "kind": "development", "count": 2,
             "shared": {"gpu_memory_gb": 24}, "sharing_mode": "vgpu"},
            {"name": "Small", "kind": "development", "count": 2,
             "shared": {"gpu_memory_gb": 12}, "sharing_mode": "vgpu"},
        ],
        "hardware": {"gpu": "l40s", "server": "dell-r760xa", "gpus_per_host": 2,
                     "vgpu_mixed_sizes": True},
        "platform": {"nvaie_release": release},
    }  # fmt: skip


def test_mixed_size_vgpu_needs_vgpu_17(catalog):
    """NVIDIA vGPU 17.0 introduced mixed-size mode (the GPU catalog's mixed_size_min_release,
    from the vGPU 17 release's 'Maximum vGPUs per GPU in Mixed-Size Mode' column); the vSphere
    API has mixedSize 'Since vSphere API Release 8.0.3.0'. NVIDIA AI Enterprise 4 ships vGPU 16,
    5 ships vGPU 17."""
    with pytest.raises(DesignError) as info:
        size(design_from_dict(_mixed("nvaie-4")), catalog)
    (line,) = info.value.problems
    assert line.startswith("hardware.vgpu_mixed_sizes: ") and "17.0" in line
    assert size(design_from_dict(_mixed("nvaie-5")), catalog).packing.gpus_used >= 1


def test_vmotion_of_a_large_vgpu_is_explained(catalog):
    """VMware vSphere 7.0, 'vSphere vMotion of vGPU VMs': expected stun times over 10 Gb with
    V100 32 GB, 39 s for 32 GB of frame buffer. llm-serving's VMs hold 4 x 80 GB: 320 x 39/32 x
    10/25 = 156 s over its 25 GbE vMotion network, a Caution (over 100 s) that names the per-VM
    stun time limit of vSphere 8.0 Update 2 and later, not a fixed 100 s timeout (a vSphere 6.7
    defect); enterprise's hold 4 x 32 GB: 62 s, a Caution because the group requires live
    migration (the rule speaks only for such groups: without the requirement, nothing is said)."""
    from tests.engine.conftest import calc

    r = size(design_from_dict(design_dict("llm-serving")), catalog)
    (w,) = [w for w in r.warnings if w.code == "vmotion-large-vgpu"]
    assert w.severity == "warning" and "156 s" in w.message
    assert "stun time" in w.message and "set it above 156 s" in w.message
    assert "the migration fails" not in w.message  # a vSphere 6.7 U1/U2 limit, not today's
    assert calc(r, "workloads[0].vmotion_stun_s").value == pytest.approx(320 * 39 / 32 * 10 / 25)
    doc = design_dict("enterprise")
    assert doc["workloads"][0]["constraints"]["live_migration_required"] is True
    r = size(design_from_dict(doc), catalog)
    (w,) = [w for w in r.warnings if w.code == "vmotion-large-vgpu"]
    assert w.severity == "warning" and "same GPU board" in w.message and " 62 s " in w.message
    doc["workloads"][0]["constraints"]["live_migration_required"] = False
    r = size(design_from_dict(doc), catalog)
    assert not [w for w in r.warnings if w.code == "vmotion-large-vgpu"]
    small = design_dict("llm-serving")
    small["workloads"][0] = {"name": "Notebooks", "kind": "development", "count": 4,
                             "shared": {"gpu_memory_gb": 10}, "sharing_mode": "vgpu",
                             "constraints": {"live_migration_required": True}}  # fmt: skip
    assert "vmotion-large-vgpu" not in codes(small, catalog)


def test_vmotion_before_8_0_update_2_has_no_stun_limit_to_set(catalog):
    """The per-VM stun time limit arrived with vSphere 8.0 Update 2: on 8.0 (or Update 1) the
    warning says there is none to set (negative case: the same design on 9.0 names it)."""
    doc = design_dict("llm-serving")
    doc.setdefault("platform", {})["vsphere"] = "8.0"
    r = size(design_from_dict(doc), catalog)
    (w,) = [w for w in r.warnings if w.code == "vmotion-large-vgpu"]
    assert "has no per-VM stun time limit" in w.message


def test_multi_gpu_vgpu_replicas_without_nvlink_are_warned(catalog):
    """NVIDIA AI Enterprise 9.0, peer-to-peer: 'NVLink P2P supports only NVIDIA vGPU for Compute
    time-sliced vGPUs. Each vGPU must use all of the framebuffer of a physical GPU that supports
    NVLink.' and 'P2P transfers over PCIe are not supported.'"""
    doc = {
        "workloads": [{"name": "Pairs", "kind": "training", "gpus_per_member": 2,
                       "sharing_mode": "vgpu"}],
        "hardware": {"gpu": "l40s", "server": "dell-r760xa", "gpus_per_host": 2},
    }  # fmt: skip
    assert "vgpu-no-peer-to-peer" in codes(doc, catalog)
    doc["workloads"][0]["gpus_per_member"] = 1
    assert "vgpu-no-peer-to-peer" not in codes(doc, catalog)


@pytest.mark.parametrize(("nvlink", "warned"), [(True, False), (False, True)])
def test_bridged_vgpu_pairs_are_warned_only_without_their_nvlink(catalog, nvlink, warned):
    """H100 NVL pairs on NVLink bridges exchange data peer to peer between full-framebuffer
    vGPUs; with the bridges left out (the hardware answer off) they cannot."""
    doc = {
        "workloads": [{"name": "Pairs", "kind": "training", "gpus_per_member": 2,
                       "sharing_mode": "vgpu"}],
        "hardware": {"gpu": "h100-nvl-94gb", "server": "dell-r760xa", "gpus_per_host": 4,
                     "nvlink": nvlink},
    }  # fmt: skip
    assert ("vgpu-no-peer-to-peer" in codes(doc, catalog)) is warned
