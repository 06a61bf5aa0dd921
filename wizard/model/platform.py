"""Result parts for the data path and the software platform: what storage must hold and feed,
which NVIDIA components the design needs, and the host and VM settings to make before go-live."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Out(BaseModel):
    # built on first use, not at import: the wizard shows its window before anything is sized
    model_config = ConfigDict(extra="forbid", defer_build=True)


class DataNeed(Out):
    """What one workload group asks of shared storage. A figure that is not known (no dataset
    size given or derivable, no model to derive a read rate from and no rate given) is None,
    never 0: 0 is a known figure, such as a serving group's training data (it keeps none) and its
    reads per request (it reads its weights at start-up, not per request)."""

    workload: str
    dataset_gb: float | None = Field(
        description="One version of the group's training data, GB; None when not known"
    )
    dataset_basis: str = Field(description="How the dataset size was obtained")
    checkpoint_gb: float | None = Field(
        description="One checkpoint of one job, GB; None when not known (a training group "
        "sized by its GPU count has no model to derive it from)"
    )
    checkpoints_gb: float | None = Field(
        description="Checkpoints kept for every job of the group, GB; None when not known"
    )
    model_files_gb: float | None = Field(
        description="Model weights kept for serving or fine-tuning, GB; None when not known (a "
        "group sized by its GPU count names no model)"
    )
    read_gbs: float | None = Field(
        description="Read throughput that keeps the group's GPUs fed, GB/s; None when not known"
    )
    read_gbs_per_gpu: float | None
    read_basis: str = Field(description="How the read throughput was obtained")


class StorageResult(Out):
    """The data path's need and what serves it. The totals add the needs that are known; the
    groups whose need is not known are named (``dataset_not_known``, ``read_not_known``) so a
    reader says "at least" the total, or "not known", instead of a total that reads complete."""

    system: str | None = Field(description="Storage catalog id, or None when none was chosen")
    system_name: str | None
    needs: list[DataNeed]
    datasets_gb: float = Field(description="All dataset versions kept, GB (the known ones)")
    dataset_not_known: list[str] = Field(
        default_factory=list,
        description="Groups whose dataset size is not known, left out of datasets_gb and "
        "capacity_needed_tb (empty when the design gives the dataset size)",
    )
    checkpoints_gb: float = Field(description="Checkpoints kept, GB (the known ones)")
    model_files_gb: float = Field(description="Model files kept, GB (the known ones)")
    checkpoints_not_known: list[str] = Field(
        default_factory=list,
        description="Groups whose checkpoints are not known, left out of checkpoints_gb and "
        "capacity_needed_tb",
    )
    model_files_not_known: list[str] = Field(
        default_factory=list,
        description="Groups whose model files are not known, left out of model_files_gb and "
        "capacity_needed_tb",
    )
    capacity_needed_tb: float = Field(description="Datasets, checkpoints and models plus headroom")
    read_gbs_needed: float = Field(description="Cluster-wide read throughput, GB/s (known needs)")
    read_gbs_per_host_needed: float = Field(description="Busiest host's read throughput, GB/s")
    read_not_known: list[str] = Field(
        default_factory=list,
        description="Groups whose read throughput is not known, left out of read_gbs_needed "
        "and read_gbs_per_host_needed",
    )
    host_network_gbs: float | None = Field(
        description="What a host's NICs carry, GB/s (port speed capped by fabric and PCIe)"
    )
    nodes_for_capacity: int | None
    nodes_for_throughput: int | None
    nodes: int | None = Field(description="Storage nodes in the design (given or sized)")
    nodes_given: bool
    usable_tb: float | None
    read_gbs_available: float | None
    rack_units: int | None
    gpudirect_storage: bool = Field(description="Every link of the GPUDirect Storage path is there")
    gpudirect_storage_blockers: list[str] = Field(
        description="Why GPUDirect Storage is not possible, one reason per missing link"
    )

    @property
    def kept_not_known(self) -> list[str]:
        """Groups whose checkpoints or model files (or both) are not known, each once."""
        return list(dict.fromkeys([*self.checkpoints_not_known, *self.model_files_not_known]))

    @property
    def capacity_not_known(self) -> list[str]:
        """Groups some part of whose kept data (dataset, checkpoints or model files) the
        capacity needed leaves out, each once: a reader says "at least" the capacity."""
        return list(dict.fromkeys([*self.dataset_not_known, *self.kept_not_known]))


class SoftwareComponent(Out):
    name: str
    layer: str = Field(
        description="'esxi-host', 'vcenter', 'vm-guest', 'kubernetes' or 'licensing'"
    )
    version: str = Field(description="Branch or version to use; empty when not pinned")
    needed_for: str
    source: str


class ChecklistItem(Out):
    """One host BIOS, ESXi, vCenter or VM setting, and the sharing modes that need it."""

    scope: str = Field(description="'host-bios', 'esxi-host', 'vcenter', 'vm' or 'guest-os'")
    setting: str
    value: str
    modes: list[str] = Field(description="Sharing modes of this design that need it")
    reason: str
    source: str


class VmMmio(Out):
    """The 64-bit MMIO window a VM of one workload group needs for its GPUs' BARs."""

    workload: str
    mode: str
    gpus_per_vm: int
    gpu_memory_gb: float
    mmio_size_gb: int = Field(description="Value for pciPassthru.64bitMMIOSizeGB")


class ServerCertification(Out):
    server: str
    status: str = Field(description="'nvidia-certified', 'qualified', 'none' or 'unknown'")
    source: str
    gpu_nvaie_supported: bool


class SoftwareResult(Out):
    nvaie_release: str | None
    release_name: str | None
    vgpu_branch: int | None
    driver_branch: str | None
    kubernetes: str
    components: list[SoftwareComponent]
    certification: ServerCertification
    checklist: list[ChecklistItem]
    vm_mmio: list[VmMmio]
    vsphere_steps: VsphereSteps | None = Field(
        default=None, description="Host and VM steps on vSphere, for vGPU and MIG designs"
    )


class HostStep(Out):
    """One step an administrator takes on every GPU host of the cluster, in order."""

    action: Literal[
        "firmware", "driver", "fabric-manager", "graphics", "vgpu-mode", "mig-mode", "fabric-nics"
    ]
    step: str = Field(description="What to do, in the administrator's words")
    value: str = Field(description="The setting, command or version to apply")
    reason: str
    source: str
    reboot: bool = Field(default=False, description="The host reboots after this step")


class VmStep(Out):
    """The VMs of one workload group as the administrator builds them."""

    workload: str
    vms: int = Field(description="VMs of this shape")
    gpu_devices: list[str] = Field(
        description="What each VM is given: NVIDIA vGPU type names (e.g. 'H100-3-40C'), or "
        "'passthrough' once per whole GPU"
    )
    mmio_size_gb: int | None = Field(description="pciPassthru.64bitMMIOSizeGB, or None")
    settings: list[tuple[str, str]] = Field(description="VM settings (name, value)")
    fabric_nics: int = Field(
        default=0,
        ge=0,
        description="Compute-fabric NIC functions each VM is given for RDMA (one per GPU where "
        "the host has a NIC per GPU); 0 when the design has no RDMA fabric for the GPUs",
    )
    fabric_backing: Literal["", "passthrough", "sr-iov"] = Field(
        default="",
        description="How they reach the VM: 'passthrough' (whole adapters by Dynamic DirectPath "
        "I/O) or 'sr-iov' (virtual functions, where VMs outnumber the adapters)",
    )


class VsphereSteps(Out):
    """What the administrator applies on vSphere: per host, then per VM."""

    vgpu_mode: Literal["", "sameSize", "mixedSize"] = Field(
        default="", description="The vSphere API's vgpuMode of each GPU; empty: not set"
    )
    release: str = Field(description="NVIDIA AI Enterprise release of the host driver")
    host_driver: str
    hosts: list[HostStep]
    vms: list[VmStep]
    fabric_nic: str = Field(
        default="",
        description="The compute-fabric adapter's family as the host's PCI device name shows it "
        "(e.g. 'ConnectX-7'); empty when no VM is given fabric NICs",
    )
    fabric_adapters: int = Field(
        default=0, ge=0, description="Compute-fabric adapters each host readies for its VMs"
    )
    fabric_vfs: int = Field(
        default=0,
        ge=0,
        description="SR-IOV virtual functions per adapter where VMs share adapters (one per VM "
        "on the busiest host); 0: whole adapters by passthrough",
    )
