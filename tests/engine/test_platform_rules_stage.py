"""The platform's rules as a stage of their own: they read the groups, the GPUs of a host, the
vSphere release, the vMotion network, GPUDirect RDMA and its NIC and the catalog's releases, so
they are tested from those alone (no design, no sizing: a group's sized result is the few
figures the rules read of it), each with a negative case that isolates it."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from wizard.engine.basis.expr import evaluate
from wizard.engine.basis.record import Recorder
from wizard.engine.platform.platform_rules import PlatformFacts, platform_rules
from wizard.model.catalog import SoftwareRelease
from wizard.model.design import Fabric, SharingMode, VsphereRelease
from wizard.model.result import Severity
from wizard.model.workloads import Constraints, WorkloadGroup


def _group(name: str, mode: SharingMode, live_migration: bool = False) -> WorkloadGroup:
    return WorkloadGroup(
        name=name,
        kind="inference",
        gpus_per_member=1,
        sharing_mode=mode,
        constraints=Constraints(live_migration_required=live_migration),
    )


def _sized(gpus: int = 1, profile: str | None = None) -> SimpleNamespace:
    """What the rules read of a sized group: its GPUs, its replica's and its vGPU profile."""
    return SimpleNamespace(
        gpus_total=2 * gpus,
        gpus_per_replica=gpus,
        replicas_per_member=1,
        planned_slice=None,
        planned_compute_share=1.0,
        sharing=SimpleNamespace(slot_profile=profile),
    )


def _rules(catalog, groups, sized, gpu="l40s", server="dell-r760xa", release=None, **update):
    base = {
        "groups": tuple(groups),
        "gpus_per_host": 8,
        "vsphere": VsphereRelease.V8_0_U3,
        "service_fabric": Fabric.GBE_25,
        "gpudirect_rdma": False,
        "nic": None,
        "releases": {},
    }
    rec = Recorder()
    facts = PlatformFacts(**(base | update))
    platform_rules(facts, catalog.gpus[gpu], catalog.servers[server], sized, release, rec)
    for c in rec.calculations:
        assert evaluate(c.formula, c.inputs) == pytest.approx(c.value), c.id
    return rec


def _codes(rec: Recorder) -> set[str]:
    return {w.code for w in rec.warnings}


def _errors(rec: Recorder) -> list[tuple[str, str | None]]:
    """Each error-level rule recorded, with the field that fixes it."""
    return [(w.code, w.field) for w in rec.warnings if w.severity is Severity.ERROR]


@pytest.mark.parametrize(("gph", "refused"), [(16, True), (8, False)])
def test_a_vm_of_more_than_eight_vgpus_is_refused_by_the_hosts_gpus(catalog, gph, refused):
    """vSphere gives one VM at most 8 vGPUs: a 16-GPU replica on hosts of 16 GPUs is one VM of
    16 vGPUs, refused at the group's sharing mode; on hosts of 8 its VMs hold 8, allowed."""
    rec = _rules(catalog, [_group("Big", SharingMode.VGPU)], [_sized(16)], gpus_per_host=gph)
    want = [("vgpus-per-vm-over-limit", "workloads[0].sharing_mode")] if refused else []
    assert _errors(rec) == want


def test_the_vmotion_stun_follows_the_service_network_and_the_vsphere_release(catalog):
    """A live-migrated VM of one L40S-48C vGPU: 48 GB x 39 s / 32 GB x 10 Gb/s / 25 Gb/s =
    23.4 s over 25 GbE, 5.85 s over 100 GbE. From vSphere 8.0 Update 2 the VM's stun limit is a
    setting of its own; on 8.0 there is none. A 24 GB profile is under the 32 GB the warning
    starts at."""
    group = [_group("Svc", SharingMode.VGPU, live_migration=True)]
    rec = _rules(catalog, group, [_sized(profile="L40S-48C")])
    (stun,) = [c for c in rec.calculations if c.id == "workloads[0].vmotion_stun_s"]
    assert stun.value == pytest.approx(48 * 39 / 32 * 10 / 25)
    (warning,) = [w for w in rec.warnings if w.code == "vmotion-large-vgpu"]
    assert "maximum stun time is a setting of its own" in warning.message
    rec = _rules(catalog, group, [_sized(profile="L40S-48C")], service_fabric=Fabric.GBE_100)
    (stun,) = [c for c in rec.calculations if c.id == "workloads[0].vmotion_stun_s"]
    assert stun.value == pytest.approx(48 * 39 / 32 * 10 / 100)
    rec = _rules(catalog, group, [_sized(profile="L40S-48C")], vsphere=VsphereRelease.V8_0)
    (warning,) = [w for w in rec.warnings if w.code == "vmotion-large-vgpu"]
    assert "has no per-VM stun time limit" in warning.message
    rec = _rules(catalog, group, [_sized(profile="L40S-24C")])
    assert "vmotion-large-vgpu" not in _codes(rec)


def test_mig_is_planned_one_way_per_design(catalog):
    """MIG-backed vGPU beside MIG in the guest is refused at the guest group's sharing mode;
    two groups on MIG-backed vGPU are not."""
    two = [_group("A", SharingMode.MIG), _group("B", SharingMode.MIG_GUEST)]
    rec = _rules(catalog, two, [_sized(), _sized()], gpu="h100-pcie-80gb")
    assert _errors(rec) == [("mig-two-ways", "workloads[1].sharing_mode")]
    one = [_group("A", SharingMode.MIG), _group("B", SharingMode.MIG)]
    assert not _errors(_rules(catalog, one, [_sized(), _sized()], gpu="h100-pcie-80gb"))


def test_gpudirect_rdma_into_vgpus_needs_a_listed_nic(catalog):
    """GPUDirect RDMA asked for vGPU VMs through a Broadcom P225P, which NVIDIA does not list
    for it: refused at GPUDirect RDMA. Not asked, or no NIC chosen, or no group on vGPUs: no
    such error."""
    groups, sized = [_group("Svc", SharingMode.VGPU)], [_sized()]
    p225p = catalog.nics["bcm-p225p"]
    rec = _rules(catalog, groups, sized, gpudirect_rdma=True, nic=p225p)
    assert _errors(rec) == [("gpudirect-rdma-vgpu-nic", "hardware.gpudirect_rdma")]
    assert not _errors(_rules(catalog, groups, sized, nic=p225p))
    assert not _errors(_rules(catalog, groups, sized, gpudirect_rdma=True))
    whole = [_group("Svc", SharingMode.PASSTHROUGH)]
    assert not _errors(_rules(catalog, whole, sized, gpudirect_rdma=True, nic=p225p))


def test_a_blackwell_board_names_the_releases_that_run_it(catalog):
    """vGPUs on an HGX B200 board under a release without the Fabric Manager component for
    ESXi: refused at the release, naming the catalog's releases that have it, or saying that
    none does."""
    bare = SoftwareRelease(id="old", name="Release old", release="19.0", vgpu_branch=19,
                           driver_branch="R570", source="written in the test")  # fmt: skip
    board = bare.model_copy(
        update={"id": "new", "name": "Release new", "vsphere_nvswitch_architectures": ["Blackwell"]}
    )
    groups, sized = [_group("Svc", SharingMode.VGPU)], [_sized(8)]
    on_board = {"gpu": "b200-sxm", "server": "nvidia-dgx-b200", "release": bare}

    def message(releases) -> str:
        rec = _rules(catalog, groups, sized, releases=releases, **on_board)
        (e,) = [w for w in rec.warnings if w.code == "hgx-blackwell-release"]
        assert e.field == "platform.nvaie_release"
        return e.message

    assert "choose Release new, which does" in message({"old": bare, "new": board})
    assert "no release in the catalog does" in message({"old": bare})
    rec = _rules(catalog, groups, sized, releases={"new": board}, **(on_board | {"release": board}))
    assert "hgx-blackwell-release" not in _codes(rec)


@pytest.mark.parametrize(
    ("vsphere", "refused"),
    [(VsphereRelease.V8_0, True), (VsphereRelease.V8_0_U2, False), (VsphereRelease.V9_0, False)],
)
def test_multi_vgpu_vms_on_an_hgx_hopper_board_need_vsphere_8_update_2(catalog, vsphere, refused):
    """VMs of 4 vGPUs over the NVSwitch board of HGX H100 (Dell XE9680): NVIDIA's table of the
    ESXi releases with NVSwitch support starts Hopper at vSphere 8.0 Update 2, so 8.0 is
    refused at the vSphere release and Update 2 and 9.0 are not."""
    rec = _rules(
        catalog, [_group("Svc", SharingMode.VGPU)], [_sized(4)],
        gpu="h100-sxm5-80gb", server="dell-xe9680", vsphere=vsphere,
    )  # fmt: skip
    assert _errors(rec) == ([("nvswitch-vgpu-esxi-minimum", "platform.vsphere")] if refused else [])


def test_a_vm_that_is_no_nvswitch_partition_is_warned_with_the_next_one(catalog):
    """A VM of 3 vGPUs on the HGX H100 board is no NVSwitch partition (1, 2, 4 or 8 GPUs): plan
    4; a VM of 4 is one."""
    on_board = {"gpu": "h100-sxm5-80gb", "server": "dell-xe9680"}
    rec = _rules(catalog, [_group("Svc", SharingMode.VGPU)], [_sized(3)], **on_board)
    (w,) = [w for w in rec.warnings if w.code == "hgx-vm-size"]
    assert w.message.endswith("plan 4 GPUs per VM")
    rec = _rules(catalog, [_group("Svc", SharingMode.VGPU)], [_sized(4)], **on_board)
    assert "hgx-vm-size" not in _codes(rec)


@pytest.mark.parametrize(("gpus", "warned"), [(2, True), (8, True), (1, False)])
def test_live_migrated_multi_vgpu_vms_on_an_hgx_board_keep_unified_memory_off(
    catalog, gpus, warned
):
    """NVIDIA disables vGPU migration with unified memory, which NVLink multicast needs: a
    live-migrated VM of 2 or more vGPUs on the HGX H100 board is warned to keep it off; a VM
    of one vGPU has no NVLink peers to multicast to."""
    group = [_group("Svc", SharingMode.VGPU, live_migration=True)]
    rec = _rules(catalog, group, [_sized(gpus)], gpu="h100-sxm5-80gb", server="dell-xe9680")
    assert ("vmotion-unified-memory" in _codes(rec)) is warned


@pytest.mark.parametrize(
    ("vsphere", "said"),
    [(VsphereRelease.V8_0, True), (VsphereRelease.V8_0_U2, False), (VsphereRelease.V8_0_U3, False)],
)
def test_multi_vgpu_vms_on_an_hgx_ampere_board_want_vsphere_8_update_1(catalog, vsphere, said):
    """NVIDIA's table starts Ampere NVSwitch boards at vSphere 8.0 Update 1: VMs of 4 vGPUs on
    the Dell XE9680's HGX A100 are told to plan Update 1 on 8.0 (which the design cannot tell
    apart from Update 1), and nothing on a later release."""
    rec = _rules(
        catalog, [_group("Svc", SharingMode.VGPU)], [_sized(4)],
        gpu="a100-sxm4-80gb", server="dell-xe9680", vsphere=vsphere,
    )  # fmt: skip
    assert ("nvswitch-vgpu-esxi-minimum-ampere" in _codes(rec)) is said
    assert not _errors(rec)
