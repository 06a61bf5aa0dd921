"""The VMs a group's GPUs are handed out in: how many GPUs one VM holds, which decides what can
talk peer to peer, the VM's memory-mapped I/O and whether it is an NVSwitch partition."""

from __future__ import annotations

from wizard.engine.demand.sizer import TRAINING_KINDS
from wizard.model.design import SharingMode, WorkloadGroup
from wizard.model.result import WorkloadSizing


def vm_gpus(group: WorkloadGroup, w: WorkloadSizing, gpus_per_host: int) -> int:
    """GPUs one VM of the group holds. A training member whose data-parallel replicas each take a
    whole GPU runs as one VM per host holding its share of the job: GPUs of different VMs cannot
    exchange data peer to peer (vGPUs only inside one VM, NVIDIA AI Enterprise 'Multi-vGPU and
    P2P'; passthrough GPUs likewise), and the gradient ring inside a host is planned on NVLink or
    PCIe peer to peer. Otherwise a VM holds a replica."""
    replica = min(w.gpus_per_replica, gpus_per_host)
    if (
        group.kind in TRAINING_KINDS
        and w.replicas_per_member > 1
        and w.planned_slice is None
        and w.planned_compute_share >= 1
        and group.sharing_mode in (SharingMode.PASSTHROUGH, SharingMode.VGPU)
    ):
        return min(w.gpus_per_replica * w.replicas_per_member, gpus_per_host)
    return replica


def vm_sizes(group: WorkloadGroup, w: WorkloadSizing, gpus_per_host: int) -> list[tuple[int, int]]:
    """(VMs, GPUs each) of a group whose VMs hold several replicas: each member's GPUs in VMs of
    ``vm_gpus``, the last one smaller when they do not divide."""
    vm = vm_gpus(group, w, gpus_per_host)
    per_member = w.gpus_per_replica * w.replicas_per_member
    members = w.gpus_total // per_member
    full, rest = divmod(per_member, vm)
    return [(members * full, vm)] + ([(members, rest)] if rest else [])
