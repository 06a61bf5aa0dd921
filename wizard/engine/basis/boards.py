"""What a GPU board is, as vSphere and NVIDIA's Fabric Manager see it: an 8-GPU NVSwitch board, a
Blackwell HGX board, and the GPUs a VM of it may hold. Hardware facts the training and serving
layouts and the platform rules both need."""

from __future__ import annotations

from wizard.model.catalog import FormFactor, Gpu, NvlinkKind, PcieTopology, Server

PARTITIONS_SOURCE = (
    "NVIDIA Fabric Manager User Guide, sections 6.2-6.6: virtual machines of 1, 2, 4, 8 or 16 "
    "GPUs of an NVSwitch system (16 on HGX-2 only)"
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


def blackwell_board(gpu: Gpu, server: Server) -> bool:
    """An HGX B200/B300 board: vSphere runs it only with the Fabric Manager component for ESXi
    (NVIDIA AI Enterprise Infra 8.2) and without multi-vGPU VMs smaller than the board."""
    return gpu.architecture == "Blackwell" and nvswitch_board(gpu, server)


def vm_partitions(gpu: Gpu, server: Server) -> tuple[int, ...]:
    """The GPUs a VM of an NVSwitch board may hold under vSphere: NVIDIA's NVSwitch partitions,
    and on HGX B200/B300 one GPU or the whole board (no multi-vGPU VM is listed for vSphere)."""
    if blackwell_board(gpu, server):
        return (1, max((s.max_gpus for s in server.gpu_support), default=8))
    return FABRIC_MANAGER_PARTITIONS
