"""What vSphere and NVIDIA AI Enterprise allow, one rule at a time, each with a case where it
applies and one where it does not."""

from __future__ import annotations

import pytest

from tests.engine.conftest import design_dict
from wizard.engine.size import size
from wizard.errors import DesignError
from wizard.io import design_from_dict


def codes(doc: dict, catalog) -> dict[str, str]:
    r = size(design_from_dict(doc), catalog)
    return {w.code: w.message for w in r.warnings}


def test_passthrough_on_an_nvswitch_board_is_flagged(catalog):
    """NVIDIA AI Enterprise, 'NVIDIA NVSwitch': on HGX systems with NVSwitch under vSphere the
    GPUs go to VMs as time-sliced full-framebuffer vGPUs with the Fabric Manager service VM."""
    doc = design_dict("gpt3-175b")
    assert "hgx-passthrough-unsupported" not in codes(doc, catalog)  # the example uses vGPU
    doc["workloads"][0]["sharing_mode"] = "passthrough"
    found = codes(doc, catalog)
    assert "hgx-passthrough-unsupported" in found
    assert "time-sliced full-framebuffer vGPUs" in found["hgx-passthrough-unsupported"]


def test_passthrough_without_nvswitch_is_not_flagged(catalog):
    """The 4-GPU HGX A100 board (XE8545) links its GPUs directly, without NVSwitch."""
    doc = design_dict("gpt3-175b")
    doc["workloads"][0]["sharing_mode"] = "passthrough"
    doc["workloads"][0]["precision"] = "bf16"
    doc["hardware"].update(gpu="a100-sxm4-80gb", server="dell-xe8545", gpus_per_host=4)
    assert "hgx-passthrough-unsupported" not in codes(doc, catalog)


@pytest.mark.parametrize(("gpus", "flagged"), [(3, True), (4, False), (8, False)])
def test_vm_sizes_on_an_nvswitch_board_are_fabric_manager_partitions(gpus, flagged, catalog):
    """NVSwitch partitions give a VM 1, 2, 4 or 8 GPUs of an HGX board."""
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
    """NVIDIA vGPU 17.0 introduced mixed-size mode (the GPU catalog's mixed_size_min_release);
    NVIDIA AI Enterprise 4 ships vGPU 16, 5 ships vGPU 17."""
    with pytest.raises(DesignError) as info:
        size(design_from_dict(_mixed("nvaie-4")), catalog)
    (line,) = info.value.problems
    assert line.startswith("hardware.vgpu_mixed_sizes: ") and "17.0" in line
    assert size(design_from_dict(_mixed("nvaie-5")), catalog).packing.gpus_used >= 1


def test_vmotion_of_a_large_vgpu_is_explained(catalog):
    """The stun time of a vGPU vMotion grows with the frame buffer copied; the destination needs
    the same board and a free vGPU of the same profile."""
    found = codes(design_dict("llm-serving"), catalog)  # 4 x 80 GB vGPUs per VM
    assert "vmotion-large-vgpu" in found and "same GPU board" in found["vmotion-large-vgpu"]
    small = design_dict("llm-serving")
    small["workloads"][0] = {"name": "Notebooks", "kind": "development", "count": 4,
                             "shared": {"gpu_memory_gb": 10}, "sharing_mode": "vgpu",
                             "constraints": {"live_migration_required": True}}  # fmt: skip
    assert "vmotion-large-vgpu" not in codes(small, catalog)
