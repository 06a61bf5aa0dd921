"""The vGPU type an administrator assigns to a VM. MIG-backed vGPU types are named
<board prefix>-<compute slices>-<memory GB>C, media-extension instances end in CME (NVIDIA AI
Enterprise, 'Virtual GPU Types for Supported GPUs', MIG-backed C-series tables, e.g. H100-1-10C,
H100-3-40C, A100-1-5C, A100DX-7-80C, H100XM-1-10CME)."""

from __future__ import annotations

import pytest

from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict
from wizard.engine.placement.sharing import vgpu_type
from wizard.engine.size import size
from wizard.model.design import SharingMode


@pytest.mark.parametrize(
    ("gpu_id", "profile", "expected"),
    [
        ("h100-pcie-80gb", "1g.10gb", "H100-1-10C"),  # named in NVIDIA's H100 PCIe table
        ("h100-pcie-80gb", "3g.40gb", "H100-3-40C"),
        ("a100-pcie-40gb", "1g.5gb", "A100-1-5C"),
        ("a100-sxm4-80gb", "7g.80gb", "A100DX-7-80C"),
        ("h100-sxm5-80gb", "1g.10gb+me", "H100XM-1-10CME"),
        ("rtx-pro-6000-bse", "1g.24gb", "DC-1-24C"),  # vGPU 19.0 device-manager config
        ("rtx-pro-6000-bse", "1g.24gb+gfx", "DC-1-24CGFX"),  # its type grammar's example
    ],
)
def test_mig_backed_vgpu_type_names(catalog, gpu_id, profile, expected):
    assert vgpu_type(catalog.gpus[gpu_id], SharingMode.MIG, profile) == expected


def test_time_sliced_profiles_keep_their_name_and_whole_gpus_have_none(catalog):
    gpu = catalog.gpus["h100-pcie-80gb"]
    assert vgpu_type(gpu, SharingMode.VGPU, "H100-20C") == "H100-20C"
    assert vgpu_type(gpu, SharingMode.PASSTHROUGH, "whole GPU") is None
    assert vgpu_type(gpu, SharingMode.REMOTE, "GPU share") is None
    assert vgpu_type(gpu, SharingMode.MIG, "9g.99gb") is None  # not one of its profiles


def test_a_mig_gpu_without_vgpu_types_names_none(catalog):
    gpu = catalog.gpus["h100-pcie-80gb"].model_copy(update={"vgpu": None})
    assert vgpu_type(gpu, SharingMode.MIG, "1g.10gb") is None


def test_mig_groups_carry_the_type_to_the_result_and_the_decision(catalog):
    r = size(design_from_dict(design_dict("mig-shared")), catalog)
    for w in r.workloads:
        assert w.sharing.slot_profile and w.sharing.vgpu_type
        g, mem = (
            w.sharing.slot_profile.split(".")[0].removesuffix("g"),
            w.sharing.slot_profile.split(".")[1],
        )
        assert w.sharing.vgpu_type == f"H100-{g}-{mem.removesuffix('gb')}C"
        assert any(w.sharing.vgpu_type in d.text for d in r.decisions)


def test_a_vgpu_profile_stops_at_its_maximum_per_gpu(catalog):
    """NVIDIA AI Enterprise vGPU types for the H200 NVL (catalog source): H200-8C, at most 16 per
    GPU. A 17th would still fit the frame buffer (17 x 8 = 136 GB of 141 GB) and the compute
    (17 x 1/32 < 1), so only the maximum refuses it."""
    from wizard.engine.placement.vgpu import VgpuState

    gpu = catalog.gpus["h200-nvl-141gb"]
    p = next(q for q in gpu.vgpu.profiles if q.name == "H200-8C")
    assert p.max_per_gpu == 16 and gpu.memory_gb >= 17 * 8
    state = VgpuState()
    for _ in range(16):
        state = state.place(gpu, p, 1 / 32, mixed=False)
        assert state is not None
    assert state.counts == (("H200-8C", 16),)
    assert state.place(gpu, p, 1 / 32, mixed=False) is None
