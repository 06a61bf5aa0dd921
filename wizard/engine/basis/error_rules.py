"""The error-level rules of the rule book: what makes a design impossible to build as it stands.

Each has a stable code, what it is about and its source. The engine records such a problem with
``Recorder.error`` and the design field it concerns; one list of them then answers for every door:
``gpuwizard validate`` exits non-zero, ``size`` prints it, the wizard shows it under the field on
the page that edits it and keeps Next and Export shut, and the proposal cannot be written until it
is resolved. A test walks every code here with a design that breaks it.
"""

from __future__ import annotations

from dataclasses import dataclass

from wizard.engine.basis.sources_platform import (
    DGX_VGPU,
    ESXI_NVSWITCH,
    FM_CRX,
    GPUDIRECT_VGPU,
    MIG_IN_GUEST,
    NVSWITCH_PAGE,
    VGPUS_PER_VM,
)


@dataclass(frozen=True)
class ErrorRule:
    about: str
    source: str


ERROR_RULES: dict[str, ErrorRule] = {
    "hgx-passthrough-unsupported": ErrorRule(
        "GPU passthrough on an NVSwitch board under vSphere", NVSWITCH_PAGE
    ),
    "hgx-mig-vgpu-unsupported": ErrorRule(
        "MIG-backed vGPU on an NVSwitch board under vSphere", NVSWITCH_PAGE
    ),
    "hgx-blackwell-release": ErrorRule(
        "HGX B200/B300 under vSphere on a release without the Fabric Manager component", FM_CRX
    ),
    "hgx-blackwell-multi-vgpu": ErrorRule(
        "a VM of several vGPUs (but not the whole board) on HGX B200/B300 under vSphere", FM_CRX
    ),
    "dgx-not-vgpu-host": ErrorRule("vGPU on an NVIDIA DGX system", DGX_VGPU),
    "vgpus-per-vm-over-limit": ErrorRule("more vGPUs in one VM than vSphere allows", VGPUS_PER_VM),
    "nvswitch-vgpu-esxi-minimum": ErrorRule(
        "vGPU on an NVSwitch board on an ESXi release before the one NVIDIA requires",
        ESXI_NVSWITCH,
    ),
    "gpudirect-rdma-vgpu-nic": ErrorRule(
        "GPUDirect RDMA in vGPU VMs through a NIC NVIDIA does not list for it", GPUDIRECT_VGPU
    ),
    "mig-two-ways": ErrorRule(
        "MIG-backed vGPU and MIG in the guest in one design (a GPU is partitioned one way)",
        MIG_IN_GUEST,
    ),
    "model-does-not-fit": ErrorRule(
        "a model that fits no layout of the chosen GPU", "memory model of the sizing engine"
    ),
    "nic-slower-than-fabric": ErrorRule(
        "NIC ports slower than the fabric", "NIC and switch catalog (port speeds)"
    ),
    "nic-slots-exceeded": ErrorRule(
        "more NICs per host than the server has slots for", "server catalog (NIC slots)"
    ),
    "host-power-over-psu": ErrorRule(
        "a host drawing more than all its power supplies deliver", "server catalog (PSUs)"
    ),
}
