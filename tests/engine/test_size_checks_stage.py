"""The two checks between sizing and placement, from their own inputs: peer-to-peer transfers
a multi-GPU replica needs (the groups' modes, whether the GPUs are linked by NVLink) and the
scale one design holds (the groups and their sized counts)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from wizard.base.errors import DesignError
from wizard.engine.basis.record import Recorder
from wizard.engine.size import MAX_GPU_ALLOCATIONS, _check_peer_to_peer, _check_scale
from wizard.model.design import SharingMode
from wizard.model.workloads import WorkloadGroup


def _group(mode: SharingMode, name: str = "Train") -> WorkloadGroup:
    return WorkloadGroup(name=name, kind="training", gpus_per_member=2, sharing_mode=mode)


def _sized(per_replica: int = 2, total: int = 4, name: str = "Train") -> SimpleNamespace:
    return SimpleNamespace(
        name=name, gpus_per_replica=per_replica, gpus_total=total, sized_from="gpus_per_member"
    )


def _p2p(catalog, mode: SharingMode, nvlink: bool, gpu: str = "h100-sxm5-80gb") -> Recorder:
    rec = Recorder()
    _check_peer_to_peer((_group(mode),), nvlink, [_sized()], catalog.gpus[gpu], rec)  # type: ignore[list-item]
    return rec


def test_time_sliced_vgpus_exchange_data_only_over_nvlink(catalog):
    """2-GPU replicas on time-sliced vGPUs: with the GPUs' NVLink in use, no warning; without
    it (the answer off, or a GPU with none), the transfers go through system memory."""
    assert not _p2p(catalog, SharingMode.VGPU, nvlink=True).warnings
    (w,) = _p2p(catalog, SharingMode.VGPU, nvlink=False).warnings
    assert w.code == "vgpu-no-peer-to-peer"
    (w,) = _p2p(catalog, SharingMode.VGPU, nvlink=True, gpu="l40s").warnings
    assert w.code == "vgpu-no-peer-to-peer"
    assert not _p2p(catalog, SharingMode.PASSTHROUGH, nvlink=False).warnings


@pytest.mark.parametrize("mode", [SharingMode.MIG, SharingMode.MIG_GUEST])
def test_mig_replicas_of_several_gpus_are_refused_at_the_groups_mode(catalog, mode):
    with pytest.raises(DesignError, match=r"workloads\[0\]\.sharing_mode: 'Train' needs 2 GPUs"):
        _p2p(catalog, mode, nvlink=True)


def test_a_design_beyond_its_gpu_allocations_names_the_largest_groups():
    """Two groups of 40,000 allocations each: 80,000 > 65,536, refused naming both at their
    count; one of them alone fits."""
    groups = (_group(SharingMode.PASSTHROUGH, "A"), _group(SharingMode.PASSTHROUGH, "B"))
    big = [_sized(2, 40_000, "A"), _sized(2, 40_000, "B")]
    with pytest.raises(DesignError) as info:
        _check_scale(groups, big)  # type: ignore[arg-type]
    assert [p.split(":")[0] for p in info.value.problems] == [
        "workloads[0].count",
        "workloads[1].count",
    ]
    assert f"{80_000:,} in all, more than the {MAX_GPU_ALLOCATIONS:,}" in info.value.problems[0]
    _check_scale(groups[:1], big[:1])  # type: ignore[arg-type]
