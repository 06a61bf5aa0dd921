"""What vSphere and NVIDIA AI Enterprise allow on the chosen hardware, checked per group: each
rule has a stable code, its source and a message that names the fix."""

from __future__ import annotations

from wizard.engine.record import Recorder
from wizard.model.catalog import FormFactor, Gpu, NvlinkKind, PcieTopology, Server
from wizard.model.design import Design, SharingMode
from wizard.model.result import Severity, WorkloadResult

NVSWITCH_SOURCE = (
    "NVIDIA AI Enterprise documentation, 'NVIDIA NVSwitch' (vGPU for Compute): on HGX systems "
    "with NVSwitch under VMware vSphere, GPUs are given to VMs as time-sliced full-framebuffer "
    "vGPUs with the Fabric Manager service VM; multi-GPU VMs take NVSwitch partitions of 1, 2, 4 "
    "or 8 GPUs"
)
VMOTION_SOURCE = (
    "VMware, 'vMotion of vGPU-enabled VMs' (vSphere 8 documentation and the VMware blog on vGPU "
    "vMotion): the stun time grows with the vGPU frame buffer to copy, and the destination host "
    "needs the same GPU board type and a free vGPU of the same profile"
)
FABRIC_MANAGER_PARTITIONS = (1, 2, 4, 8)


def nvswitch_board(gpu: Gpu, server: Server) -> bool:
    """An HGX baseboard whose GPUs reach each other through NVSwitch chips: the 8-GPU boards
    (the 4-GPU HGX A100 board links its GPUs directly)."""
    if server.pcie_topology is not PcieTopology.HGX or gpu.form_factor is not FormFactor.SXM:
        return False
    if gpu.nvlink.kind is not NvlinkKind.SXM:
        return False
    return any(s.form_factor is FormFactor.SXM and s.max_gpus >= 8 for s in server.gpu_support)


def platform_rules(
    design: Design, gpu: Gpu, server: Server, workloads: list[WorkloadResult], rec: Recorder
) -> None:
    gph = design.hardware.gpus_per_host
    board = nvswitch_board(gpu, server)
    for g, w in zip(design.workloads, workloads, strict=True):
        if not w.gpus_total:
            continue
        vm_gpus = min(w.gpus_per_replica, gph)
        if board and g.sharing_mode is SharingMode.PASSTHROUGH:
            rec.warn(
                "hgx-passthrough-unsupported",
                f"{g.name}: passthrough of GPUs on an NVSwitch board ({server.vendor} "
                f"{server.model}) is not supported under vSphere; give the VMs time-sliced "
                "full-framebuffer vGPUs (sharing mode: time-sliced vGPU) with the Fabric Manager "
                "service VM instead",
                Severity.ERROR,
            )
        if board and vm_gpus not in FABRIC_MANAGER_PARTITIONS:
            rec.warn(
                "hgx-vm-size",
                f"{g.name}: a VM of {vm_gpus} GPUs is not an NVSwitch partition of an HGX board "
                f"(1, 2, 4 or 8 GPUs); plan {_nearest(vm_gpus)} GPUs per VM",
            )
        if (
            g.constraints.live_migration_required
            and g.sharing_mode is SharingMode.VGPU
            and w.slot_profile
        ):
            fb = _framebuffer(gpu, w.slot_profile) * vm_gpus
            if fb >= 32:
                rec.warn(
                    "vmotion-large-vgpu",
                    f"{g.name}: each VM holds {fb:g} GB of vGPU memory; vMotion copies all of it "
                    "while the VM is stunned, which grows with the frame buffer (tens of seconds "
                    "for 32 GB over 10 GbE) and needs a destination host with the same GPU board "
                    "and a free vGPU of the same profile; plan migrations in a quiet window over "
                    "a 25 GbE or faster vMotion network",
                    Severity.INFO,
                )


def _nearest(n: int) -> int:
    return next((p for p in FABRIC_MANAGER_PARTITIONS if p >= n), 8)


def _framebuffer(gpu: Gpu, profile: str) -> float:
    if gpu.vgpu is None:
        return gpu.memory_gb
    return next((p.framebuffer_gb for p in gpu.vgpu.profiles if p.name == profile), gpu.memory_gb)
