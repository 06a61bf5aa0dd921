"""GPUDirect Storage: whether the reads can go straight from the storage into GPU memory
(storage that offers it, a NIC with GPUDirect RDMA, RoCE v2 or InfiniBand, and no vGPU on an
Ampere GPU), and the decision or warning that says so."""

from __future__ import annotations

from collections.abc import Sequence

from wizard.engine.basis.expr import Formula
from wizard.engine.basis.record import Recorder
from wizard.model.catalog import Gpu, Nic, Storage
from wizard.model.design import Rdma, SharingMode, WorkloadGroup
from wizard.model.names import RDMA_SHORT
from wizard.model.result import Severity

GDS_REQUIREMENTS = (
    "NVIDIA GPUDirect Storage nvidia-fs driver (https://github.com/NVIDIA/gds-nvidia-fs): NFS over "
    "RDMA or RDMA distributed file systems (DDN EXAScaler, WekaFS, VAST) with MOFED on an RDMA NIC; "
    "NVIDIA AI Enterprise vGPU for Compute, GPUDirect RDMA and GPUDirect Storage limitations "
    "(https://docs.nvidia.com/ai-enterprise/release-7/latest/infra-software/vgpu/features/"
    "gpudirect.html): GDS is not supported with vGPU on Ampere GPUs"
)


def gds_blockers(
    storage: Storage | None,
    nic: Nic | None,
    rdma: Rdma,
    groups: Sequence[WorkloadGroup],
    gpu: Gpu,
) -> list[str]:
    """What keeps GPUDirect Storage from carrying the reads, each in words; none: it can."""
    out: list[str] = []
    if storage is None:
        out.append("no storage system is chosen (hardware.storage)")
    elif not storage.gpudirect_storage:
        out.append(f"{storage.product_name} does not offer GPUDirect Storage")
    if nic is None:
        out.append("no NIC is chosen (hardware.nic)")
    elif not nic.gpudirect_rdma:
        out.append(f"the {nic.model} has no GPUDirect RDMA (peer memory) support")
    if rdma not in (Rdma.ROCE, Rdma.INFINIBAND):
        now = "there is no RDMA" if rdma is Rdma.NONE else f"RDMA is {RDMA_SHORT[rdma]}"
        out.append(
            f"{now}: GPUDirect Storage needs RoCE v2 or InfiniBand on a NIC given to the VM "
            "(passthrough or SR-IOV), not PVRDMA"
        )
    shared = {g.sharing_mode for g in groups} & {SharingMode.VGPU, SharingMode.MIG}
    if shared and gpu.architecture.lower() == "ampere":
        out.append(
            f"vGPU on the Ampere {gpu.name}: NVIDIA does not support GPUDirect Storage "
            "with vGPU on Ampere GPUs"
        )
    return out


def gds_outcome(storage: Storage | None, blockers: list[str], rec: Recorder) -> None:
    """The decision to read with GPUDirect Storage, or the warning of why it cannot, logged
    with the count of what is missing."""
    rec.expr(
        "storage.gpudirect_storage",
        Formula("1 - min(missing_links, 1)"),
        {"missing_links": len(blockers)},
        "1 = possible, 0 = not possible",
        f"{GDS_REQUIREMENTS}; storage with GDS, a NIC with GPUDirect RDMA, RoCE v2 or "
        f"InfiniBand, no vGPU on an Ampere GPU; missing: {'; '.join(blockers) or 'none'}",
    )
    if not blockers:
        assert storage is not None
        rec.decide(
            f"Training VMs read from the {storage.product_name} with GPUDirect "
            "Storage (nvidia-fs) over RDMA.",
            "Storage, NIC and RDMA all support it, so reads go straight into GPU memory "
            "without a bounce buffer in host memory.",
            implication="The VMs need the nvidia-fs driver and the storage its RDMA front "
            "end enabled; the data path is validated at installation.",
        )
        return
    if storage is None:
        return
    capable = storage.gpudirect_storage
    rec.warn(
        "gpudirect-storage-unavailable",
        "GPUDirect Storage is not possible: "
        + "; ".join(blockers)
        + (
            ". Reads go through host memory (a bounce buffer), which costs CPU time."
            if capable
            else "."
        ),
        Severity.WARNING if capable else Severity.INFO,
    )
