"""What vSphere and NVIDIA AI Enterprise allow on the chosen hardware, checked per group: each
rule has a stable code, its source and a message that names the fix."""

from __future__ import annotations

from wizard.engine.expr import Formula
from wizard.engine.record import Recorder
from wizard.engine.vms import vm_gpus
from wizard.model.catalog import FormFactor, Gpu, NvlinkKind, PcieTopology, Server
from wizard.model.design import FABRIC_GBPS, Design, SharingMode
from wizard.model.result import Severity, WorkloadResult

NVSWITCH_SOURCE = (
    "NVIDIA AI Enterprise 8.0, 'NVIDIA NVSwitch' (docs.nvidia.com/ai-enterprise/release-8/8.0/"
    "infra-software/vgpu/features/nvswitch.html): 'Only time-sliced vGPUs are supported. "
    "MIG-backed vGPUs are not supported. GPU passthrough is not supported on NVIDIA Systems that "
    "include NVSwitch when using VMware vSphere.'"
)
# The sharing modes vSphere does not run on an NVSwitch board, by the name NVIDIA's page gives
NVSWITCH_REFUSED = {SharingMode.PASSTHROUGH: "GPU passthrough", SharingMode.MIG: "MIG-backed vGPU"}
PARTITIONS_SOURCE = (
    "NVIDIA Fabric Manager User Guide, sections 6.2-6.6: virtual machines of 1, 2, 4, 8 or 16 "
    "GPUs of an NVSwitch system (16 on HGX-2 only)"
)
VMOTION_SOURCE = (
    "VMware vSphere 7.0, 'vSphere vMotion of vGPU VMs': expected stun times over a 10 Gb network "
    "with V100 32 GB, 39 s for 32 GB of used vGPU frame buffer; the vSphere 6.7 page warns that "
    "large frame buffers 'might exceed the 100 second timeout for vSphere vMotion stun time'"
)
STUN_S = Formula("framebuffer_gb * stun_s_per_gb_at_10g * 10 / vmotion_gbps")
VMOTION_TIMEOUT_S = 100
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
        vm = vm_gpus(g, w, gph)
        if board and g.sharing_mode is SharingMode.PASSTHROUGH:
            rec.warn(
                "hgx-passthrough-unsupported",
                f"{g.name}: passthrough of GPUs on an NVSwitch board ({server.vendor} "
                f"{server.model}) is not supported under vSphere; give the VMs time-sliced "
                f"full-framebuffer vGPUs (sharing mode: time-sliced vGPU) instead ({NVSWITCH_SOURCE})",
                Severity.ERROR,
            )
        if board and g.sharing_mode is SharingMode.MIG:
            rec.warn(
                "hgx-mig-vgpu-unsupported",
                f"{g.name}: MIG-backed vGPU on an NVSwitch board ({server.vendor} "
                f"{server.model}) is not supported under vSphere; use time-sliced vGPU, or a "
                f"PCIe server for MIG ({NVSWITCH_SOURCE})",
                Severity.ERROR,
            )
        if board and vm not in FABRIC_MANAGER_PARTITIONS:
            rec.warn(
                "hgx-vm-size",
                f"{g.name}: a VM of {vm} GPUs is not an NVSwitch partition of an HGX board "
                f"(1, 2, 4 or 8 GPUs; {PARTITIONS_SOURCE}); plan {_nearest(vm)} GPUs per VM",
            )
        if (
            g.constraints.live_migration_required
            and g.sharing_mode is SharingMode.VGPU
            and w.sharing.slot_profile
        ):
            fb = _framebuffer(gpu, w.sharing.slot_profile) * vm
            if fb >= 32:
                vmotion_gbps = FABRIC_GBPS[design.hardware.service_fabric]
                stun = rec.expr(
                    f"workloads[{design.workloads.index(g)}].vmotion_stun_s",
                    STUN_S,
                    {"framebuffer_gb": fb, "stun_s_per_gb_at_10g": 39 / 32,
                     "vmotion_gbps": vmotion_gbps},
                    "s",
                    VMOTION_SOURCE + "; scaled to the vMotion network's speed",
                )  # fmt: skip
                over = stun > VMOTION_TIMEOUT_S
                rec.warn(
                    "vmotion-stun-over-timeout" if over else "vmotion-large-vgpu",
                    f"{g.name}: each VM holds {fb:g} GB of vGPU memory; vMotion copies it while "
                    f"the VM is stunned, about {stun:,.0f} s over the {vmotion_gbps:g} Gb/s vMotion "
                    "network (VMware measured 39 s for 32 GB over 10 Gb/s)"
                    + (
                        f", beyond vMotion's {VMOTION_TIMEOUT_S} s stun timeout: the migration "
                        "fails; give vMotion a faster network, use smaller VMs, or plan "
                        "maintenance by restarting the VMs elsewhere"
                        if over
                        else "; the destination host needs the same GPU board and a free vGPU "
                        "of the same profile"
                    ),
                    Severity.WARNING if over else Severity.INFO,
                )


def _nearest(n: int) -> int:
    return next((p for p in FABRIC_MANAGER_PARTITIONS if p >= n), 8)


def _framebuffer(gpu: Gpu, profile: str) -> float:
    if gpu.vgpu is None:
        return gpu.memory_gb
    return next((p.framebuffer_gb for p in gpu.vgpu.profiles if p.name == profile), gpu.memory_gb)
