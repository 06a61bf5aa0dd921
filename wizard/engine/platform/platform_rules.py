"""What vSphere and NVIDIA AI Enterprise allow on the chosen hardware, checked per group: each
rule has a stable code, its source and a message that names the fix."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from wizard.engine.basis.boards import (
    FABRIC_MANAGER_PARTITIONS,
    PARTITIONS_SOURCE,
    blackwell_board,
    nvswitch_board,
    vm_partitions,
)
from wizard.engine.basis.expr import Formula
from wizard.engine.basis.record import Recorder
from wizard.engine.basis.sources_platform import (
    ESXI_NVSWITCH,
    FM_CRX,
    GPUDIRECT_VGPU,
    MIG_IN_GUEST,
    NVSWITCH_PAGE,
    STUN_LIMIT,
    UNIFIED_MEMORY,
    VGPUS_PER_VM,
)
from wizard.engine.demand.vms import vm_gpus
from wizard.model.catalog import (
    Catalog,
    Gpu,
    Nic,
    Server,
    SoftwareRelease,
)
from wizard.model.design import (
    FABRIC_GBPS,
    VSPHERE_LABELS,
    Design,
    Fabric,
    SharingMode,
    VsphereRelease,
    WorkloadGroup,
    vsphere_at_least,
)
from wizard.model.result import Severity, WorkloadResult

NVSWITCH_SOURCE = NVSWITCH_PAGE
# The sharing modes vSphere does not run on an NVSwitch board, by the name NVIDIA's page gives
NVSWITCH_REFUSED = {
    SharingMode.PASSTHROUGH: "GPU passthrough",
    SharingMode.MIG: "MIG-backed vGPU",
    SharingMode.REMOTE: "GPU passthrough to the pool's server VM",
    SharingMode.MIG_GUEST: "GPU passthrough to the VM that partitions them",
}
NVSWITCH_CODES = {
    SharingMode.PASSTHROUGH: "hgx-passthrough-unsupported",
    SharingMode.MIG: "hgx-mig-vgpu-unsupported",
    SharingMode.REMOTE: "hgx-passthrough-unsupported",
    SharingMode.MIG_GUEST: "hgx-passthrough-unsupported",
}
VMOTION_SOURCE = (
    "VMware vSphere 7.0, 'vSphere vMotion of vGPU VMs': expected stun times over a 10 Gb network "
    "with V100 32 GB, 39 s for 32 GB of used vGPU frame buffer"
)
STUN_S = Formula("framebuffer_gb * stun_seconds_per_gb_over_10gbps * 10 / vmotion_gbps")
# vSphere's limit of vGPUs in one VM (VMware: "up to 8 virtual GPUs (vGPUs) to one VM")
MAX_VGPUS_PER_VM = 8


def platform_refusal(mode: SharingMode, gpu: Gpu, server: Server) -> tuple[str, str] | None:
    """(code, reason) when the server cannot run ``mode`` under vSphere at all, or None: an
    NVIDIA DGX system is no vGPU host, and an NVSwitch board runs time-sliced vGPU only."""
    if server.nvidia_dgx and mode in (SharingMode.VGPU, SharingMode.MIG):
        return (
            "dgx-not-vgpu-host",
            f"NVIDIA does not support vGPU on DGX systems such as the {server.vendor} "
            f"{server.model}; choose an NVIDIA-Certified HGX server for vGPU",
        )
    if mode in NVSWITCH_REFUSED and nvswitch_board(gpu, server):
        return (
            NVSWITCH_CODES[mode],
            f"on the NVSwitch board of the {server.product_name}, vSphere supports "
            f"time-sliced vGPU only ({NVSWITCH_REFUSED[mode]} is not supported)",
        )
    return None


@dataclass(frozen=True)
class PlatformFacts:
    """What the platform's rules read, and nothing more: the groups (their modes and
    constraints), the GPUs of a host, the vSphere release, the vMotion network's fabric,
    whether GPUDirect RDMA is asked for and on which NIC (None where none is chosen), and the
    catalog's releases by id (to name one that runs the board)."""

    groups: tuple[WorkloadGroup, ...]
    gpus_per_host: int
    vsphere: VsphereRelease
    service_fabric: Fabric
    gpudirect_rdma: bool
    nic: Nic | None
    releases: Mapping[str, SoftwareRelease]

    @classmethod
    def of(cls, design: Design, catalog: Catalog) -> PlatformFacts:
        hw = design.hardware
        return cls(
            groups=tuple(design.workloads),
            gpus_per_host=hw.gpus_per_host,
            vsphere=design.platform.vsphere,
            service_fabric=hw.service_fabric,
            gpudirect_rdma=hw.gpudirect_rdma,
            nic=catalog.nic_of(hw.nic),
            releases=catalog.software,
        )


def platform_rules(
    facts: PlatformFacts,
    gpu: Gpu,
    server: Server,
    workloads: list[WorkloadResult],
    release: SoftwareRelease | None,
    rec: Recorder,
) -> None:
    """The rule book's vSphere and NVIDIA AI Enterprise rules for this design, each recorded as
    an error at the field that fixes it, or as a warning."""
    gph = facts.gpus_per_host
    board = nvswitch_board(gpu, server)
    virtual = False
    for i, (g, w) in enumerate(zip(facts.groups, workloads, strict=True)):
        if not w.gpus_total:
            continue
        mode = g.sharing_mode
        virtual = virtual or mode in (SharingMode.VGPU, SharingMode.MIG)
        vm = vm_gpus(g, w, gph)
        if refused := platform_refusal(mode, gpu, server):
            code, why = refused
            field = (
                "hardware.server" if code == "dgx-not-vgpu-host" else f"workloads[{i}].sharing_mode"
            )
            source = server.nvidia_dgx_source if code == "dgx-not-vgpu-host" else NVSWITCH_PAGE
            rec.error(code, field, f"{g.name}: {why} ({source})")
            continue
        if board and mode is SharingMode.VGPU:
            _nvswitch_vm(facts.vsphere, i, g.name, vm, gpu, server, rec)
        if mode is SharingMode.VGPU and vm > MAX_VGPUS_PER_VM:
            rec.error(
                "vgpus-per-vm-over-limit",
                f"workloads[{i}].sharing_mode",
                f"{g.name}: a VM would hold {vm} vGPUs; vSphere allows up to "
                f"{MAX_VGPUS_PER_VM} in one VM ({VGPUS_PER_VM}): plan at most "
                f"{MAX_VGPUS_PER_VM} GPUs per host for it, or give its VMs whole GPUs by "
                "passthrough",
            )
        if g.constraints.live_migration_required and mode is SharingMode.VGPU:
            _vmotion(facts, i, g.name, vm, w, gpu, board, rec)
    _mig_one_way(facts.groups, rec)
    if virtual and release is not None:
        _blackwell_release(facts.releases, gpu, server, release, rec)
    if facts.gpudirect_rdma and virtual and facts.nic is not None:
        _gpudirect_vgpu(facts.nic, release, rec)


def _mig_one_way(groups: tuple[WorkloadGroup, ...], rec: Recorder) -> None:
    """A GPU runs MIG either under vSphere (MIG-backed vGPU, ESXi's driver partitions it) or
    inside a VM that holds it by passthrough (the guest's driver does): one way per design, so
    no GPU is planned both ways."""
    modes = [g.sharing_mode for g in groups]
    if SharingMode.MIG in modes and SharingMode.MIG_GUEST in modes:
        i = modes.index(SharingMode.MIG_GUEST)
        rec.error(
            "mig-two-ways",
            f"workloads[{i}].sharing_mode",
            f"{groups[i].name}: MIG in the guest, while other groups run MIG-backed "
            "vGPU; a GPU is partitioned either by ESXi's NVIDIA driver for vGPUs or by the "
            f"driver of the VM it is passed through to ({MIG_IN_GUEST}): choose one way for "
            "every MIG group, or put the groups in clusters of their own",
        )


def _blackwell_release(
    releases: Mapping[str, SoftwareRelease],
    gpu: Gpu,
    server: Server,
    release: SoftwareRelease,
    rec: Recorder,
) -> None:
    """vGPU on an HGX B200/B300 board under vSphere needs a release with the Fabric Manager
    component for ESXi."""
    if not blackwell_board(gpu, server) or "Blackwell" in release.vsphere_nvswitch_architectures:
        return
    ok = [r.name for r in releases.values() if "Blackwell" in r.vsphere_nvswitch_architectures]
    fits = f"choose {' or '.join(ok)}, which does" if ok else "no release in the catalog does"
    rec.error(
        "hgx-blackwell-release",
        "platform.nvaie_release",
        f"{release.name} does not include the Fabric Manager component for ESXi that vSphere "
        f"needs on the {gpu.name} board of the {server.vendor} "
        f"{server.model}: {fits} ({FM_CRX})",
    )


def _gpudirect_vgpu(nic: Nic, release: SoftwareRelease | None, rec: Recorder) -> None:
    """GPUDirect RDMA into vGPU VMs runs only through the NICs NVIDIA names for it."""
    why = gpudirect_vgpu_reason(nic, release)
    if why is None:
        return
    rec.error(
        "gpudirect-rdma-vgpu-nic",
        "hardware.gpudirect_rdma",
        f"{why}: choose one of those NICs, or plan without GPUDirect RDMA",
    )


def gpudirect_vgpu_reason(nic: Nic, release: SoftwareRelease | None) -> str | None:
    """Why GPUDirect RDMA into vGPU VMs does not run through ``nic`` under ``release``: the NICs
    the release's GPUDirect RDMA page names (by the start of their model names), or, where the
    catalog did not record that page, the NIC's own listing (NVIDIA AI Enterprise 6's list)."""
    if release is not None and release.gpudirect_vgpu_nics:
        if any(nic.model.startswith(prefix) for prefix in release.gpudirect_vgpu_nics):
            return None
        named = " or ".join(release.gpudirect_vgpu_nics)
        return (
            f"{release.name} names {named} NICs for GPUDirect RDMA into vGPU VMs, and the "
            f"{nic.model} is not one of them ({release.gpudirect_vgpu_source})"
        )
    if nic.gpudirect_rdma_vgpu:
        return None
    return (
        f"GPUDirect RDMA into vGPU VMs runs only through the NICs NVIDIA lists for it, and the "
        f"{nic.model} is not one of them ({GPUDIRECT_VGPU})"
    )


def _nvswitch_vm(
    vsphere: VsphereRelease, i: int, name: str, vm: int, gpu: Gpu, server: Server, rec: Recorder
) -> None:
    """A VM of several vGPUs on an NVSwitch board: an NVSwitch partition, on HGX B200/B300 one
    GPU or the whole board, on an ESXi release that supports it."""
    allowed = vm_partitions(gpu, server)
    if blackwell_board(gpu, server) and vm not in allowed:
        rec.error(
            "hgx-blackwell-multi-vgpu",
            f"workloads[{i}].sharing_mode",
            f"{name}: a VM of {vm} vGPUs on the {gpu.name} board; "
            f"under vSphere NVIDIA supports VMs of one GPU or of the whole board ({allowed[-1]} "
            f"GPUs) there ({FM_CRX})",
        )
    elif vm not in allowed:
        rec.warn(
            "hgx-vm-size",
            f"{name}: a VM of {vm} GPUs is not an NVSwitch partition of an HGX board "
            f"(1, 2, 4 or 8 GPUs; {PARTITIONS_SOURCE}); plan {_nearest(vm)} GPUs per VM",
        )
    # NVIDIA's table of the ESXi releases that support NVSwitch names Hopper and Ampere; HGX
    # B200/B300 are covered by the release rule (the Fabric Manager component)
    if vm <= 1 or gpu.architecture not in ("Hopper", "Ampere"):
        return
    minimum = VsphereRelease.V8_0 if gpu.architecture == "Ampere" else VsphereRelease.V8_0_U2
    if not vsphere_at_least(vsphere, minimum):
        rec.error(
            "nvswitch-vgpu-esxi-minimum",
            "platform.vsphere",
            f"{name}: VMs of {vm} vGPUs over the NVSwitch board of {gpu.architecture} GPUs need "
            f"vSphere 8.0 Update 2 or later; the hosts run "
            f"{VSPHERE_LABELS[vsphere]} ({ESXI_NVSWITCH})",
        )
    elif gpu.architecture == "Ampere" and vsphere is VsphereRelease.V8_0:
        rec.warn(
            "nvswitch-vgpu-esxi-minimum-ampere",
            f"{name}: VMs of {vm} vGPUs over the NVSwitch board of the {gpu.name} need vSphere "
            f"8.0 Update 1 or later; plan Update 1 at least ({ESXI_NVSWITCH})",
            Severity.INFO,
        )


def _vmotion(
    facts: PlatformFacts,
    i: int,
    name: str,
    vm: int,
    w: WorkloadResult,
    gpu: Gpu,
    board: bool,
    rec: Recorder,
) -> None:
    """What vMotion of the group's vGPU VMs takes: the stun time while the vGPU memory is
    copied, the per-VM stun limit an administrator sets from vSphere 8.0 Update 2, and unified
    memory (needed for NVLink multicast), with which NVIDIA disables vGPU migration."""
    if board and vm > 1 and gpu.architecture in ("Hopper", "Blackwell"):
        rec.warn(
            "vmotion-unified-memory",
            f"{name}: its VMs of {vm} vGPUs can live-migrate only with unified memory off, so "
            "NCCL cannot use NVLink multicast (NVLink SHARP) on the NVSwitch board; keep "
            f"unified memory off for these VMs ({UNIFIED_MEMORY})",
        )
    if not w.sharing.slot_profile:
        return
    fb = _framebuffer(gpu, w.sharing.slot_profile) * vm
    if fb < 32:
        return
    vmotion_gbps = FABRIC_GBPS[facts.service_fabric]
    stun = rec.expr(
        f"workloads[{i}].vmotion_stun_s",
        STUN_S,
        {
            "framebuffer_gb": fb,
            "stun_seconds_per_gb_over_10gbps": 39 / 32,
            "vmotion_gbps": vmotion_gbps,
        },
        "s",
        VMOTION_SOURCE + "; scaled to the vMotion network's speed",
    )
    limit = (
        f"; from vSphere 8.0 Update 2 the VM's maximum stun time is a setting of its own "
        f"(vMotion refuses a migration it estimates above it): set it above {stun:,.0f} s or "
        f"keep the default and accept that such VMs are restarted, not moved ({STUN_LIMIT})"
        if vsphere_at_least(facts.vsphere, VsphereRelease.V8_0_U2)
        else "; vSphere 8.0 before Update 2 has no per-VM stun time limit to set"
    )
    rec.warn(
        "vmotion-large-vgpu",
        f"{name}: each VM holds {fb:g} GB of vGPU memory; vMotion copies it while the VM is "
        f"stunned, about {stun:,.0f} s over the {vmotion_gbps:g} Gb/s vMotion network (VMware "
        f"measured 39 s for 32 GB over 10 Gb/s){limit}; the destination host needs the same GPU "
        "board and a free vGPU of the same profile",
        # said only for groups that require live migration: a stun they must live with
        Severity.WARNING,
    )


def _nearest(n: int) -> int:
    return next((p for p in FABRIC_MANAGER_PARTITIONS if p >= n), 8)


def _framebuffer(gpu: Gpu, profile: str) -> float:
    if gpu.vgpu is None:
        return gpu.memory_gb
    return next((p.framebuffer_gb for p in gpu.vgpu.profiles if p.name == profile), gpu.memory_gb)
