"""One customer wording for every choice a design makes, in product names and plain words.

Each concept has one wording; a ``*_SHORT`` form, where there is one, is the same wording cut to
fit a narrow column or a diagram. The names the engine itself writes into the Result (sharing
modes, fabrics, vSphere releases) are defined beside the model, because the engine cannot import
from this layer, and are taken from there.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from wizard.model.design import (
    VSPHERE_LABELS,
    AdmissionControl,
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
    VsphereRelease,
    WorkloadKind,
    is_infiniband,
)
from wizard.model.names import FABRIC_LABEL
from wizard.model.names import MODE_LABELS as _MODE_LABELS

__all__ = ["is_infiniband", "label"]

AS_DESIGNED = "as-designed"  # the comparison's first row: each group in its own mode

MODE: dict[SharingMode, str] = {m: _MODE_LABELS[m.value] for m in SharingMode}
MODE_SHORT: dict[SharingMode, str] = {
    SharingMode.PASSTHROUGH: "Passthrough",
    SharingMode.VGPU: "Time-sliced vGPU",
    SharingMode.MIG: "MIG-backed vGPU",
    SharingMode.REMOTE: "GPU pool",
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
}
PRECISION_SHORT: dict[Precision, str] = {p: p.value.upper() for p in Precision}

OPTIMIZER: dict[Optimizer, str] = {
    Optimizer.SGD: "SGD",
    Optimizer.SGD_MOMENTUM: "SGD with momentum",
    Optimizer.ADAM: "Adam",
    Optimizer.ADAMW: "AdamW",
}

RECOMPUTE: dict[Recompute, str] = {
    Recompute.NONE: "None (keep every activation)",
    Recompute.SELECTIVE: "Selective (attention only)",
    Recompute.FULL: "Full (recompute every layer)",
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
RDMA_SHORT: dict[Rdma, str] = {
    Rdma.NONE: "None",
    Rdma.ROCE: "RoCE v2",
    Rdma.INFINIBAND: "InfiniBand",
    Rdma.PVRDMA: "PVRDMA",
}

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

# Every enumerated choice of the Design a customer sees, with its wording.
BY_ENUM: dict[type[StrEnum], Mapping] = {
    SharingMode: MODE,
    WorkloadKind: KIND,
    Precision: PRECISION,
    Optimizer: OPTIMIZER,
    Recompute: RECOMPUTE,
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


def label(value: StrEnum) -> str:
    """The customer wording of any enumerated design choice."""
    return BY_ENUM[type(value)][value]
