"""What a vSphere administrator applies, in order: per host (BIOS, the NVIDIA host driver of the
chosen release, the graphics and vGPU mode, MIG mode) and per VM (its vGPU types or passthrough
GPUs, MMIO, memory reservation). On vSphere only MIG *mode* is set by hand: vSphere creates each
GPU instance when its VM powers on, so no partition file is part of the plan."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Literal

from wizard.engine.basis.sources_platform import (
    DEVICE_GROUPS,
    FM_CRX,
    MIG_ON_VSPHERE,
    MIG_REBOOT,
    NIC_SRIOV,
    VGPU_MODE,
    VLCM_IMAGE,
)
from wizard.engine.basis.sources_software import SEED_STACK, SETTINGS, VGPU_HOST
from wizard.engine.demand.vms import vm_sizes
from wizard.engine.platform.platform_rules import blackwell_board
from wizard.model.catalog import Gpu, Nic, Server, SoftwareRelease
from wizard.model.design import (
    Hardware,
    Rdma,
    SharingMode,
    VsphereRelease,
    WorkloadGroup,
    vsphere_at_least,
)
from wizard.model.platform import HostStep, VmMmio, VmStep, VsphereSteps
from wizard.model.result import Packing, WorkloadResult

# Generations whose vGPUs are SR-IOV virtual functions (Denneman: "Enable on Ampere & Hopper").
SRIOV_ARCHITECTURES = ("ampere", "ada lovelace", "hopper", "blackwell")
# VMware: only devices mapping more than 16 GB need the large-BAR settings.
LARGE_BAR_GB = 16
BRANCH_NAME = {"ltsb": "long-term support branch", "pb": "production branch", "": "branch"}
# A NIC's family as the PCI device name of the host shows it ("MT2910 Family [ConnectX-7]")
_NIC_FAMILY = re.compile(r"^(ConnectX-\d+(?: (?:Dx|Lx))?|BlueField-\d+)")


def nic_family(nic: Nic) -> str:
    """The family of a compute-fabric adapter, as the start of its catalog model ('ConnectX-7',
    'ConnectX-6 Dx'); empty for an adapter outside the ConnectX and BlueField families."""
    m = _NIC_FAMILY.match(nic.model)
    return m.group(1) if m else ""


def mig_reboots(gpu: Gpu) -> bool:
    """Enabling MIG on ESXi reboots the host on Ampere GPUs only (NVIDIA: 'GPUs based only on
    the NVIDIA Ampere architecture: Reboot the hypervisor host')."""
    return gpu.architecture == "Ampere"


def mig_enable_step(gpu: Gpu) -> str:
    """What enabling MIG takes on an ESXi host."""
    command = "nvidia-smi -i <gpu> -mig 1 on every GPU of the MIG hosts, in maintenance mode"
    if mig_reboots(gpu):
        return f"Enabled: {command}, then reboot the host ({gpu.architecture} GPUs)"
    return f"Enabled: {command}; no host reboot on {gpu.architecture} GPUs"


def host_driver(release: SoftwareRelease | None) -> str:
    if release is None:
        return "the NVIDIA AI Enterprise host driver for ESXi of the chosen release"
    version = release.vgpu_version or f"{release.vgpu_branch}.x"
    return (
        f"NVIDIA AI Enterprise host driver for ESXi (NVD-AIE), vGPU {version} of "
        f"{release.name}, driver branch {release.driver_branch} ({BRANCH_NAME[release.branch]})"
    )


def vsphere_steps(
    groups: Sequence[WorkloadGroup],
    hw: Hardware,
    vsphere: VsphereRelease,
    gpu: Gpu,
    server: Server,
    workloads: list[WorkloadResult],
    release: SoftwareRelease | None,
    mmio: list[VmMmio],
    nic: Nic | None = None,
    packing: Packing | None = None,
) -> VsphereSteps:
    used = [(g, w) for g, w in zip(groups, workloads, strict=True) if w.gpus_total]
    modes = {g.sharing_mode for g, _ in used}
    virtual = bool(modes & {SharingMode.VGPU, SharingMode.MIG})
    hosts: list[HostStep] = []
    bios = ["Intel VT-d / AMD IOMMU: Enabled"]
    if virtual and gpu.architecture.lower() in SRIOV_ARCHITECTURES:
        bios.append("SR-IOV: Enabled")
    if gpu.memory_gb > LARGE_BAR_GB:
        bios.append("Above 4G decoding: Enabled")
    hosts.append(
        HostStep(
            action="firmware",
            step="Host firmware (BIOS/UEFI) settings",
            value="; ".join(bios),
            reason="The GPUs reach the VMs through the IOMMU, as SR-IOV virtual functions for "
            "vGPU, with their large frame-buffer BARs mapped above 4 GB",
            source=SETTINGS,
        )
    )
    if virtual:
        driver = host_driver(release)
        hosts.append(
            HostStep(
                action="driver",
                step="Add the NVIDIA host driver to the cluster's vSphere Lifecycle Manager "
                "image as a component, then remediate the cluster (not per host: a host given "
                "components by hand no longer complies with the image)",
                value=driver,
                reason="vGPU and MIG-backed vGPU need the NVIDIA AI Enterprise package for "
                "vSphere, not the graphics 'Complete vGPU Package'; the image keeps every host's "
                "driver the same through upgrades",
                source=f"{SEED_STACK}; {VLCM_IMAGE}; {release.source if release else ''}".rstrip(
                    "; "
                ),
                reboot=True,
            )
        )
        if blackwell_board(gpu, server):
            hosts.append(
                HostStep(
                    action="fabric-manager",
                    step="Add the NVIDIA Fabric Manager component for ESXi to the same image "
                    "(a component of the cluster's image, like the driver)",
                    value=f"the Fabric Manager component of {release.name if release else 'the release'}",
                    reason=f"The NVSwitch fabric of the {gpu.name} "
                    "board is configured by Fabric Manager on the host before any vGPU uses it",
                    source=FM_CRX,
                )
            )
        hosts.append(
            HostStep(
                action="graphics",
                step="Default graphics type of the host (Configure > Hardware > Graphics)",
                value="Shared Direct (sharedDirect)",
                reason="vGPUs need the GPU in shared-direct mode, not shared (vSGA)",
                source=VGPU_HOST,
            )
        )
    vgpu_mode: Literal["", "sameSize", "mixedSize"] = ""
    if SharingMode.VGPU in modes and vsphere_at_least(vsphere, VsphereRelease.V8_0_U3):
        mixed = hw.vgpu_mixed_sizes
        vgpu_mode = "mixedSize" if mixed else "sameSize"
        hosts.append(
            HostStep(
                action="vgpu-mode",
                step="vGPU mode of each GPU that runs time-sliced vGPUs",
                value="Mixed Size (mixedSize)" if mixed else "Same Size (sameSize)",
                reason="Profiles of different sizes share a GPU only in mixed-size mode"
                if mixed
                else "One profile per GPU, set by the first VM that powers on there",
                source=VGPU_MODE,
            )
        )
    if SharingMode.MIG in modes:
        hosts.append(
            HostStep(
                action="mig-mode",
                step="MIG mode of each GPU that runs MIG-backed vGPUs (ESXi shell, host in "
                "maintenance mode); vSphere creates the GPU instances when the VMs power on",
                value=mig_enable_step(gpu),
                reason="Only MIG mode is set by hand on vSphere; the GPU instances are not "
                "partitioned in advance",
                source=f"{MIG_ON_VSPHERE}; {MIG_REBOOT}",
                reboot=mig_reboots(gpu),
            )
        )
    vms = _vm_steps(hw, used, mmio, nic) + _guest_mig_vms(hw, used, mmio, packing, nic)
    family = nic_family(nic) if nic is not None and any(v.fabric_nics for v in vms) else ""
    if family:
        hosts.append(_fabric_host_step(hw, nic, family, vms))
    return VsphereSteps(
        vgpu_mode=vgpu_mode,
        release=release.name if release else "",
        host_driver=host_driver(release) if virtual else "",
        hosts=hosts,
        vms=vms
        if family
        else [v.model_copy(update={"fabric_nics": 0, "fabric_backing": ""}) for v in vms],
        fabric_nic=family,
        fabric_adapters=hw.nics_per_host if family else 0,
        fabric_vfs=_fabric_vfs(hw, vms, packing) if family else 0,
    )


def _fabric_vfs(hw: Hardware, vms: list[VmStep], packing: Packing | None) -> int:
    """SR-IOV functions per adapter where VMs share adapters: each VM on the busiest host (one
    per GPU instance or vGPU slot) gets one, over the host's adapters, rounded up."""
    adapters = hw.nics_per_host
    if not adapters or not any(v.fabric_backing == "sr-iov" for v in vms):
        return 0
    hosts = packing.hosts if packing is not None else []
    per_host = max((sum(max(len(g.slots), 1) for g in h.gpus) for h in hosts), default=1)
    return -(-per_host // adapters)


def _fabric_host_step(hw: Hardware, nic: Nic | None, family: str, vms: list[VmStep]) -> HostStep:
    """The host side of giving VMs their compute-fabric NICs: passthrough with the fabric label
    on whole adapters, or SR-IOV virtual functions where VMs outnumber them."""
    name = nic.model if nic is not None else family
    per_host = hw.nics_per_host
    if any(v.fabric_backing == "sr-iov" for v in vms):
        return HostStep(
            action="fabric-nics",
            step="SR-IOV on the compute-fabric NICs, so VMs that share an adapter each get a "
            "virtual function of it",
            value=f"SR-IOV enabled on the {per_host} × {name} of each host, one virtual function "
            "per VM that uses it",
            reason="More GPU VMs than adapters share each NIC by SR-IOV virtual functions; "
            "RDMA needs the adapter's function in the VM, not a virtual switch port",
            source=NIC_SRIOV,
            reboot=True,
        )
    return HostStep(
        action="fabric-nics",
        step="Passthrough on the compute-fabric NICs, with the fabric's hardware label (Dynamic "
        "DirectPath I/O), so each GPU VM gets the adapters beside its GPUs",
        value=f"Passthrough on the {per_host} × {name} of each host; where the host lists "
        "GPU-NIC device groups (vSphere 8), add each VM's GPU and NIC as one group",
        reason="RDMA and GPUDirect RDMA need the adapter itself in the VM; a pair under one "
        "PCIe switch keeps GPU-to-NIC traffic off the CPU",
        source=DEVICE_GROUPS,
    )


def _guest_mig_vms(
    hw: Hardware, used, mmio: list[VmMmio], packing: Packing | None, nic: Nic | None
) -> list[VmStep]:
    """The VMs that partition their GPUs with MIG themselves: one per host that holds such GPUs,
    given them whole by passthrough (the groups' instances share GPUs, so the VM is the host's,
    not a group's)."""
    names = [g.name for g, _ in used if g.sharing_mode is SharingMode.MIG_GUEST]
    if not names or packing is None:
        return []
    per_host = [
        sum(1 for gpu in h.gpus if any(s.workload in names for s in gpu.slots))
        for h in packing.hosts
    ]
    per_host = [n for n in per_host if n]
    if not per_host:
        return []
    size = max((m.mmio_size_gb for m in mmio if m.workload in names), default=None)
    settings = [("Firmware", "EFI"), ("Reserve all guest memory", "Yes")]
    if size is not None:
        settings += [
            ("pciPassthru.use64bitMMIO", "TRUE"),
            ("pciPassthru.64bitMMIOSizeGB", str(size)),
        ]
    out = []
    for gpus in sorted(set(per_host), reverse=True):  # one shape per GPU count
        nics, backing = (
            _fabric(hw, gpus, hw.gpus_per_host // gpus) if _rdma_fabric(hw, nic) else (0, "")
        )
        out.append(
            VmStep(
                workload="MIG in the guest: " + ", ".join(names),
                vms=per_host.count(gpus),
                gpu_devices=["passthrough"] * gpus,
                mmio_size_gb=size,
                settings=settings,
                fabric_nics=nics,
                fabric_backing=backing,  # type: ignore[arg-type]
            )
        )
    return out


def _rdma_fabric(hw: Hardware, nic: Nic | None) -> bool:
    """Whether the GPUs have an RDMA fabric their VMs must reach with the adapter itself
    (RoCE v2 or InfiniBand; paravirtual RDMA and plain Ethernet reach VMs through a virtual
    switch)."""
    hw = hw
    return (
        nic is not None
        and hw.nics_per_host > 0
        and hw.rdma in (Rdma.ROCE, Rdma.INFINIBAND)
        and bool(nic_family(nic))
    )


def _fabric(hw: Hardware, whole: int, vms_per_host: int) -> tuple[int, str]:
    """The fabric NICs of one VM of ``whole`` GPUs given whole (0: a share of a GPU), and how:
    whole adapters in proportion to its GPUs while the host's VMs need no more adapters than it
    has, else one SR-IOV virtual function."""
    hw = hw
    if whole <= 0:
        return 1, "sr-iov"
    per_vm = math.ceil(whole * hw.nics_per_host / hw.gpus_per_host)
    if per_vm * max(vms_per_host, 1) <= hw.nics_per_host:
        return per_vm, "passthrough"
    return 1, "sr-iov"


def _vm_steps(hw: Hardware, used, mmio: list[VmMmio], nic: Nic | None = None) -> list[VmStep]:
    gph = hw.gpus_per_host
    mmio_of = {m.workload: m.mmio_size_gb for m in mmio}
    rdma = _rdma_fabric(hw, nic)
    out = []
    for g, w in used:
        mode = g.sharing_mode
        if mode in (SharingMode.REMOTE, SharingMode.MIG_GUEST):
            continue  # pool servers are not the design's VMs; guest MIG: _guest_mig_vms
        # a MIG instance, or a time-sliced vGPU smaller than its GPU: VMs that share GPUs, so
        # more VMs than GPUs on a host, and none is given adapters in proportion to GPUs
        fractional = w.sharing.gpus_allocated < w.gpus_total - 1e-9
        shared = (
            mode is SharingMode.MIG or fractional or w.gpus_per_replica * w.replicas_per_member <= 0
        )
        # one VM per instance or per shared slot, else the group's VM sizes
        shapes = [(w.gpus_total, 1)] if shared else [(n, k) for n, k in vm_sizes(g, w, gph) if n]
        size = mmio_of.get(g.name)
        for vms, per_vm in shapes:
            if mode is SharingMode.PASSTHROUGH:
                devices = ["passthrough"] * per_vm
            else:
                devices = [w.sharing.vgpu_type or w.sharing.slot_profile or "vGPU"] * per_vm
            settings = [("Firmware", "EFI"), ("Reserve all guest memory", "Yes")]
            if size is not None:  # the group's largest VM's window; a smaller VM's fits in it
                settings += [
                    ("pciPassthru.use64bitMMIO", "TRUE"),
                    ("pciPassthru.64bitMMIOSizeGB", str(size)),
                ]
            nics, backing = (
                _fabric(hw, 0 if shared else per_vm, gph // max(per_vm, 1)) if rdma else (0, "")
            )
            out.append(
                VmStep(
                    workload=g.name,
                    vms=vms,
                    gpu_devices=devices,
                    mmio_size_gb=size,
                    settings=settings,
                    fabric_nics=nics,
                    fabric_backing=backing,  # type: ignore[arg-type]
                )
            )
    return out
