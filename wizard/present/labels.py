"""One customer wording for every choice a design makes, in product names and plain words.

Each concept has one wording; a ``*_SHORT`` form, where there is one, is the same wording cut to
fit a narrow column or a diagram. The names the engine itself writes into the Result (sharing
modes, fabrics, vSphere releases) are defined beside the model, because the engine cannot import
from this layer, and are taken from there.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from wizard.model.buildout import BomCategory, DeviceKind, LinkKind
from wizard.model.catalog import Certification, FormFactor, NvlinkKind, PcieTopology
from wizard.model.design import (
    VSPHERE_LABELS,
    AdmissionControl,
    AttentionKernel,
    ClusterRole,
    Fabric,
    FailureDomain,
    FineTuningMethod,
    HaLevel,
    KubernetesPlatform,
    LoraTargets,
    Optimizer,
    Precision,
    Rdma,
    Recompute,
    SharingMode,
    TrainingStack,
    VsphereRelease,
    WorkloadKind,
    is_infiniband,
)
from wizard.model.names import (
    ATTENTION_LABEL,
    FABRIC_LABEL,
    NETWORK_LABEL,
    OPTIMIZER_LABEL,
    TRAINING_STACK_LABEL,
)
from wizard.model.names import MODE_LABELS as _MODE_LABELS
from wizard.model.names import RDMA_SHORT as _RDMA_SHORT
from wizard.model.result import Severity
from wizard.present.severity import SEVERITY

__all__ = ["is_infiniband", "label"]

AS_DESIGNED = "as-designed"  # the comparison's first row: each group in its own mode

MODE: dict[SharingMode, str] = {m: _MODE_LABELS[m.value] for m in SharingMode}
MODE_SHORT: dict[SharingMode, str] = {
    SharingMode.PASSTHROUGH: "Passthrough",
    SharingMode.VGPU: "Time-sliced vGPU",
    SharingMode.MIG: "MIG-backed vGPU",
    SharingMode.REMOTE: "GPU pool",
    SharingMode.MIG_GUEST: "MIG in the guest",
}


def mode(value: str) -> str:
    """A comparison row's or a group's mode by its value, "as-designed" included."""
    return _MODE_LABELS[value]


def mode_short(value: str) -> str:
    return "As designed" if value == AS_DESIGNED else MODE_SHORT[SharingMode(value)]


KIND: dict[WorkloadKind, str] = {
    WorkloadKind.TRAINING: "Training (from scratch)",
    WorkloadKind.FINE_TUNING: "Fine-tuning",
    WorkloadKind.INFERENCE: "Inference / serving",
    WorkloadKind.DEVELOPMENT: "Development (notebooks, workstations)",
    WorkloadKind.HPC: "HPC / other CUDA",
}
KIND_SHORT: dict[WorkloadKind, str] = {
    WorkloadKind.TRAINING: "Training",
    WorkloadKind.FINE_TUNING: "Fine-tuning",
    WorkloadKind.INFERENCE: "Inference",
    WorkloadKind.DEVELOPMENT: "Development",
    WorkloadKind.HPC: "HPC",
}

PRECISION: dict[Precision, str] = {
    Precision.FP32: "FP32 (4 bytes)",
    Precision.TF32: "TF32 (FP32 storage, tensor-core maths)",
    Precision.BF16: "BF16 mixed precision (2 bytes)",
    Precision.FP16: "FP16 mixed precision (2 bytes)",
    Precision.FP8: "FP8 (1 byte)",
    Precision.INT8: "INT8 (1 byte, inference)",
    Precision.INT4: "INT4 (half a byte, inference)",
    Precision.FP4: "FP4 (NVFP4, 4.5 bits with its scales)",
}
PRECISION_SHORT: dict[Precision, str] = {p: p.value.upper() for p in Precision}

OPTIMIZER: dict[Optimizer, str] = dict(OPTIMIZER_LABEL)

RECOMPUTE: dict[Recompute, str] = {
    Recompute.NONE: "None (keep every activation)",
    Recompute.SELECTIVE: "Selective (attention only)",
    Recompute.FULL: "Full (recompute every layer)",
}

TRAINING_STACK: dict[TrainingStack, str] = dict(TRAINING_STACK_LABEL)
ATTENTION: dict[AttentionKernel, str] = dict(ATTENTION_LABEL)
# the training loss over the vocabulary: the stack's way, in chunks, or all at once
CHUNKED_LOSS: dict[bool | None, str] = {
    None: "as the training software computes it",
    True: "in chunks (torchtune's chunked cross-entropy)",
    False: "whole vocabulary at once",
}

FINE_TUNING: dict[FineTuningMethod, str] = {
    FineTuningMethod.FULL: "Full fine-tuning (every weight)",
    FineTuningMethod.LORA: "LoRA (16-bit base frozen, adapters trained)",
    FineTuningMethod.QLORA: "QLoRA (4-bit base frozen, adapters trained)",
}
FINE_TUNING_SHORT: dict[FineTuningMethod, str] = {
    FineTuningMethod.FULL: "Full fine-tuning",
    FineTuningMethod.LORA: "LoRA",
    FineTuningMethod.QLORA: "QLoRA",
}
# the wizard's group editor, a narrow column at 1024 pixels: the whole name is the tooltip
FINE_TUNING_BRIEF: dict[FineTuningMethod, str] = {
    FineTuningMethod.FULL: "Full fine-tuning (every weight)",
    FineTuningMethod.LORA: "LoRA (16-bit base frozen)",
    FineTuningMethod.QLORA: "QLoRA (4-bit base frozen)",
}
ATTENTION_BRIEF: dict[AttentionKernel, str] = {
    AttentionKernel.FUSED: "fused (FlashAttention)",
    AttentionKernel.EAGER: "eager (score matrices kept)",
}

LORA_TARGETS: dict[LoraTargets, str] = {
    LoraTargets.ATTENTION_MLP: "attention and MLP projections",
    LoraTargets.ATTENTION: "attention projections only",
}

FABRIC: dict[Fabric, str] = dict(FABRIC_LABEL)

RDMA: dict[Rdma, str] = {
    Rdma.NONE: "None (TCP/IP)",
    Rdma.ROCE: "RoCE v2 (RDMA over Ethernet)",
    Rdma.INFINIBAND: "InfiniBand",
    Rdma.PVRDMA: "PVRDMA (paravirtual RDMA for VMs)",
}
RDMA_SHORT: dict[Rdma, str] = dict(_RDMA_SHORT)

# Why a design with a direct GPU-NIC path still does not use GPUDirect RDMA, by its RDMA choice.
GPUDIRECT_NOT_USED: dict[Rdma, str] = {
    Rdma.NONE: "the GPU fabric runs without RDMA",
    Rdma.PVRDMA: "PVRDMA, vSphere's paravirtual adapter, does not carry it",
}
GPUDIRECT_NOT_CHOSEN = "it is not chosen on the Hardware page"

HA_LEVEL: dict[HaLevel, str] = {
    HaLevel.N0: "N+0: no spare host",
    HaLevel.N1: "N+1: survive one host failure",
    HaLevel.N2: "N+2: survive two host failures",
    HaLevel.PERCENT: "Reserve a percentage of capacity",
}
HA_LEVEL_SHORT: dict[HaLevel, str] = {
    HaLevel.N0: "N+0",
    HaLevel.N1: "N+1",
    HaLevel.N2: "N+2",
    HaLevel.PERCENT: "Percentage reserve",
}

FAILURE_DOMAIN: dict[FailureDomain, str] = {
    FailureDomain.HOST: "A host",
    FailureDomain.RACK: "A whole rack",
}

ADMISSION: dict[AdmissionControl, str] = {
    AdmissionControl.HOST_FAILURES: "Host failures the cluster tolerates",
    AdmissionControl.PERCENTAGE: "Cluster resource percentage",
    AdmissionControl.DEDICATED_FAILOVER: "Dedicated failover hosts",
    AdmissionControl.DISABLED: "Disabled",
}

# What each policy does, after its name in a proposal.
ADMISSION_MEANING: dict[AdmissionControl, str] = {
    AdmissionControl.HOST_FAILURES: "vSphere HA reserves the capacity of the tolerated host "
    "failures across the cluster",
    AdmissionControl.PERCENTAGE: "vSphere HA reserves a fixed percentage of the cluster's "
    "resources",
    AdmissionControl.DEDICATED_FAILOVER: "named failover hosts stand by empty",
    AdmissionControl.DISABLED: "admission control is off: nothing guarantees restart capacity",
}

KUBERNETES: dict[KubernetesPlatform, str] = {
    KubernetesPlatform.NONE: "None: GPUs used directly in VMs",
    KubernetesPlatform.VKS: "vSphere Kubernetes Service (VKS)",
    KubernetesPlatform.OPENSHIFT: "Red Hat OpenShift on vSphere VMs",
    KubernetesPlatform.UPSTREAM: "Upstream Kubernetes on VMs",
}

VSPHERE: dict[VsphereRelease, str] = dict(VSPHERE_LABELS)

CLUSTER_ROLE: dict[ClusterRole, str] = {
    ClusterRole.GPU: "GPU cluster",
    ClusterRole.COMPUTE: "compute cluster, no GPUs",
    ClusterRole.MANAGEMENT: "management domain",
}

# ------------------------------------------------------------------- hardware and topology

FORM_FACTOR: dict[FormFactor, str] = {FormFactor.PCIE: "PCIe card", FormFactor.SXM: "SXM module"}

PCIE_TOPOLOGY: dict[PcieTopology, str] = {
    PcieTopology.CPU_DIRECT: "GPU slots on the CPUs' root complexes",
    PcieTopology.PCIE_SWITCH: "GPUs behind PCIe switches",
    PcieTopology.HGX: "HGX baseboard",
}

NVLINK_KIND: dict[NvlinkKind, str] = {
    NvlinkKind.NONE: "none",
    NvlinkKind.BRIDGE: "NVLink bridges",
    NvlinkKind.SXM: "NVLink on the baseboard",
}

# How a host layout's GPUs are joined, as the topology writes it ('none', 'bridge', 'baseboard').
NVLINK_LAYOUT: dict[str, str] = {
    "none": "none",
    "bridge": "NVLink bridges between board pairs",
    "baseboard": "NVLink on the baseboard",
}

CERTIFICATION: dict[Certification, str] = {
    Certification.CERTIFIED: "NVIDIA-Certified System",
    Certification.QUALIFIED: "qualified by NVIDIA, not certified",
    Certification.NONE: "not certified by NVIDIA",
    Certification.UNKNOWN: "certification not known",
}

DEVICE: dict[DeviceKind, str] = {
    DeviceKind.SOCKET: "CPU socket",
    DeviceKind.ROOT_COMPLEX: "PCIe root complex",
    DeviceKind.PCIE_SWITCH: "PCIe switch",
    DeviceKind.GPU: "GPU",
    DeviceKind.NIC: "NIC",
    DeviceKind.NVLINK_BRIDGE: "NVLink bridge",
    DeviceKind.NVSWITCH: "NVSwitch baseboard",
    DeviceKind.NVLINK_MESH: "NVLink board (direct links)",
    DeviceKind.NETWORK: "network",
}

LINK: dict[LinkKind, str] = {
    LinkKind.PCIE: "PCIe",
    LinkKind.NVLINK: "NVLink",
    LinkKind.CPU_INTERCONNECT: "CPU interconnect",
    LinkKind.NETWORK: "network",
}

# What joins the devices of a group a VM gets ('nvswitch', 'nvlink-mesh', 'nvlink', 'gpu-nic').
DEVICE_GROUP: dict[str, str] = {
    "nvswitch": "NVSwitch partition",
    "nvlink-mesh": "NVLink board (direct links)",
    "nvlink": "NVLink bridge",
    "gpu-nic": "GPU and NIC",
}

# The nearest point a GPU and its NIC share in the PCIe tree.
SHARED_POINT: dict[str, str] = {
    "pcie-switch": "PCIe switch",
    "root-complex": "root complex",
    "cpu": "CPU socket",
    "cross-socket": "none (other CPU)",
    "none": "none",
}

# ------------------------------------------------------------------------------ networks

# The networks of the fabric, as headings name them; ``NETWORK_SHORT`` in a table column.
NETWORK: dict[str, str] = dict(NETWORK_LABEL)
NETWORK_SHORT: dict[str, str] = {
    "compute": "Compute (GPU fabric)",
    "service": "Service",
    "oob": "Out-of-band",
}

NIC_ROLE: dict[str, str] = {
    "gpu-rdma": "GPU traffic",
    "management": "ESXi management",
    "vmotion": "vMotion",
    "storage": "Storage",
    "oob": "BMC",
}

# What a cable run joins.
CABLE_RUN: dict[str, str] = {
    "host-leaf": "host to leaf",
    "leaf-spine": "leaf to spine",
    "peer-link": "leaf pair",
    "host-oob": "BMC to out-of-band",
    "oob-uplink": "out-of-band uplink",
}

# ------------------------------------------------------------------------------ software

# The layer of a software component and the scope of a platform checklist setting.
LAYER: dict[str, str] = {
    "host-bios": "Host BIOS",
    "esxi-host": "ESXi host",
    "vcenter": "vCenter",
    "vm": "VM",
    "vm-guest": "VM guest",
    "guest-os": "Guest OS",
    "kubernetes": "Kubernetes",
    "licensing": "Licensing",
}

BOM_CATEGORY: dict[BomCategory, str] = {
    BomCategory.SERVER: "Server",
    BomCategory.SERVER_PART: "Server configuration",
    BomCategory.GPU: "GPU",
    BomCategory.NIC: "NIC",
    BomCategory.NVLINK_BRIDGE: "NVLink bridge",
    BomCategory.SWITCH: "Switch",
    BomCategory.CABLE: "Cable",
    BomCategory.TRANSCEIVER: "Transceiver",
    BomCategory.LICENCE: "Licence",
    BomCategory.STORAGE: "Storage",
    BomCategory.RACK: "Racks and power distribution",
    BomCategory.COOLING: "Liquid cooling",
}


# Words of an id (a calculation's, a warning's) that are units or product names, as a sentence
# writes them.
WORDS: dict[str, str] = {
    "gpu": "GPU", "gpus": "GPUs", "nic": "NIC", "nics": "NICs", "cpu": "CPU", "gb": "GB",
    "gbs": "GB/s", "tb": "TB", "kv": "KV", "w": "W", "kw": "kW", "ha": "HA", "mmio": "MMIO",
    "btu": "BTU", "itl": "ITL", "ttft": "TTFT", "tflops": "TFLOPS", "vgpu": "vGPU",
    "vgpus": "vGPUs", "mig": "MIG", "pcie": "PCIe", "nvlink": "NVLink", "tp": "TP", "pp": "PP",
    "dp": "DP", "vmotion": "vMotion", "nvaie": "NVIDIA AI Enterprise", "rdma": "RDMA",
    "roce": "RoCE", "sxm": "SXM", "hgx": "HGX", "bios": "BIOS", "oob": "out-of-band",
    "gpudirect": "GPUDirect", "nvswitch": "NVSwitch", "esxi": "ESXi", "vm": "VM", "vms": "VMs",
    "ai": "AI", "bom": "BOM", "gbps": "Gb/s", "flops": "FLOPs", "10gbps": "10 Gb/s",
    "pue": "PUE", "fp4": "FP4", "fp8": "FP8", "fp16": "FP16", "bf16": "BF16",
}  # fmt: skip


def words(text: str) -> str:
    """An id's words (split at spaces, dashes and underscores) as a sentence writes them:
    "vmotion-large-vgpu" reads "vMotion large vGPU"."""
    return " ".join(WORDS.get(w, w) for w in text.replace("_", " ").replace("-", " ").split(" "))


# Storage protocols as their vendors write them
PROTOCOL: dict[str, str] = {
    "nfs": "NFS", "nfs-rdma": "NFS over RDMA", "smb": "SMB", "hdfs": "HDFS", "s3": "S3",
    "iscsi": "iSCSI", "fc": "Fibre Channel", "nvme-of": "NVMe-oF", "lustre": "Lustre",
    "gpfs": "GPFS", "exascaler": "EXAScaler",
}  # fmt: skip


def protocol(value: str) -> str:
    """A storage protocol of the catalog as its vendors write it."""
    return PROTOCOL.get(value, value)


# Warning codes whose words alone do not read as a topic
TOPIC: dict[str, str] = {
    "nvlink-bridge-2u": "NVLink bridges in a 2U server",
    "storage-need-not-modelled": "Storage demand not modelled",
    "storage-dataset-not-known": "Dataset size not known",
    "storage-kept-not-known": "Checkpoints or model files not known",
}


def topic(code: str) -> str:
    """A warning's code as the topic a proposal names: "mmio-setting-needed" reads "MMIO
    setting needed"."""
    if code in TOPIC:
        return TOPIC[code]
    text = words(code)
    return text[:1].upper() + text[1:]


def name(table: Mapping[Any, str], value: str) -> str:
    """A name or enum value the engine writes (a StrEnum table takes its plain value too), in the
    customer's words; a name the table does not know is shown as it is (a new value belongs in
    its table: the proposal test finds it)."""
    return table.get(value, value)


def modes(values: list[str]) -> str:
    """Sharing modes by their values, in their short wording."""
    return ", ".join(mode_short(v) for v in values)


# Every enumerated choice of the Design a customer sees, with its wording.
BY_ENUM: dict[type[StrEnum], Mapping] = {
    SharingMode: MODE,
    WorkloadKind: KIND,
    Precision: PRECISION,
    Optimizer: OPTIMIZER,
    Recompute: RECOMPUTE,
    TrainingStack: TRAINING_STACK,
    AttentionKernel: ATTENTION,
    FineTuningMethod: FINE_TUNING,
    LoraTargets: LORA_TARGETS,
    Fabric: FABRIC,
    Rdma: RDMA,
    HaLevel: HA_LEVEL,
    FailureDomain: FAILURE_DOMAIN,
    AdmissionControl: ADMISSION,
    KubernetesPlatform: KUBERNETES,
    VsphereRelease: VSPHERE,
    ClusterRole: CLUSTER_ROLE,
}

# The enums of the Result, the catalog and the build-out a proposal shows, with their wording.
RESULT_ENUMS: dict[type[StrEnum], Mapping] = {
    FormFactor: FORM_FACTOR,
    PcieTopology: PCIE_TOPOLOGY,
    NvlinkKind: NVLINK_KIND,
    Certification: CERTIFICATION,
    DeviceKind: DEVICE,
    LinkKind: LINK,
    BomCategory: BOM_CATEGORY,
    Severity: SEVERITY,
}

# Every name the engine writes as a plain string (no enum) that a customer sees, with its table.
BY_NAME: dict[str, Mapping[str, str]] = {
    "nvlink layout": NVLINK_LAYOUT,
    "device group": DEVICE_GROUP,
    "shared point": SHARED_POINT,
    "network": NETWORK,
    "NIC role": NIC_ROLE,
    "cable run": CABLE_RUN,
    "layer": LAYER,
    "storage protocol": PROTOCOL,
}


def label(value: StrEnum) -> str:
    """The customer wording of any enumerated design choice or result value."""
    return {**BY_ENUM, **RESULT_ENUMS}[type(value)][value]
