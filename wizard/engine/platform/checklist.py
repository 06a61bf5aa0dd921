"""The platform-readiness checklist as data: each host BIOS, ESXi, vCenter, VM and guest setting
with the sharing modes that need it, the condition under which it applies (from a small, closed
vocabulary) and its source. Values and reasons are templates over named facts of the design
(``{gpu_name}``, ``{host_bar_gb}`` …) that the software planner computes; nothing here runs code
from the data, and an unknown condition, mode group or fact is refused when the module loads."""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass

from wizard.engine.basis.sources_platform import (
    MIG_IN_GUEST,
    MIG_ON_VSPHERE,
    MIG_REBOOT,
    UNIFIED_MEMORY,
    VGPU_MODE,
)
from wizard.engine.basis.sources_software import (
    BAR_POWER_OF_TWO,
    LARGE_BAR,
    MMIO_PER_VM,
    MMIO_TABLE,
    OPERATOR_NVAIE,
    PAIF_OPERATORS,
    PASSTHROUGH_HOST,
    SEED_STACK,
    SETTINGS,
    SUPERVISOR,
    VGPU_HOST,
    VM_CLASS_VGPU,
)

# Which sharing modes a setting serves
MODE_GROUPS: Mapping[str, tuple[str, ...]] = {
    "all": ("passthrough", "vgpu", "mig", "remote", "mig-guest"),
    "virtual": ("vgpu", "mig"),
    "direct": ("passthrough", "remote", "mig-guest"),
    "mig": ("mig",),
    "mig-guest": ("mig-guest",),
    "vgpu": ("vgpu",),
}
# When a setting applies, beyond the modes: the planner answers each word for the design
CONDITIONS = (
    "always",
    "sriov-gpu",
    "large-bar",
    "vgpu-mode-setting",
    "nvlink-multicast",
    "vsphere-kubernetes",  # the design's Kubernetes is the vSphere Kubernetes Service
)
# The facts a value or reason may name
FACTS = (
    "gpu_name",
    "gpu_architecture",
    "gpu_memory_gb",
    "gpus_per_host",
    "host_bar_gb",
    "host_driver",
    "vm_mmio",
    "vgpu_mode",
    "mig_enable",
)


@dataclass(frozen=True)
class Rule:
    scope: str  # 'host-bios', 'esxi-host', 'vcenter', 'vm' or 'guest-os'
    setting: str
    value: str
    modes: str  # a key of MODE_GROUPS
    reason: str
    source: str
    when: str = "always"  # one of CONDITIONS


RULES: tuple[Rule, ...] = (
    Rule("host-bios", "Intel VT-d / AMD I/O virtualization (IOMMU)", "Enabled", "all",
         "Passthrough and vGPU map the GPU into VMs through the IOMMU", SETTINGS),
    Rule("host-bios", "SR-IOV", "Enabled", "virtual",
         "{gpu_architecture} GPUs present each vGPU as an SR-IOV virtual function", SETTINGS,
         when="sriov-gpu"),
    Rule("host-bios", "Above 4G decoding (memory-mapped I/O above 4 GB)", "Enabled", "all",
         "The {gpu_name} maps {gpu_memory_gb} GB of frame buffer, more than 16 GB",
         f"{LARGE_BAR}; {SETTINGS}", when="large-bar"),
    Rule("host-bios", "64-bit MMIO window (MMIO high size / MMIO base; the name varies by vendor)",
         "Large enough for {host_bar_gb} GB of GPU BARs ({gpus_per_host} x {gpu_memory_gb} GB "
         "GPUs)", "all",
         "Every GPU's frame-buffer BAR must fit the window the firmware reserves above 4 GB",
         BAR_POWER_OF_TWO, when="large-bar"),
    Rule("esxi-host", "Graphics device default type",
         "Shared Direct (esxcli graphics host set --default-type SharedPassthru)", "virtual",
         "vGPUs need the GPU in shared-direct mode, not shared (vSGA)", VGPU_HOST),
    Rule("esxi-host", "NVIDIA AI Enterprise host driver (NVD-AIE VIB)", "{host_driver}",
         "virtual", "The graphics 'Complete vGPU Package' does not run compute vGPUs",
         SEED_STACK),
    Rule("esxi-host", "vGPU mode of each GPU (Configure > Hardware > Graphics)", "{vgpu_mode}",
         "vgpu", "A GPU in same-size mode takes vGPUs of one profile only, set by the first VM "
         "that powers on there; mixed-size mode lets profiles of different sizes share it",
         VGPU_MODE, when="vgpu-mode-setting"),
    Rule("esxi-host", "MIG mode", "{mig_enable}", "mig",
         "Only MIG mode is set by hand: vSphere creates the GPU instances itself when a VM with a "
         "MIG-backed vGPU powers on, so no partition is written in advance",
         f"{MIG_ON_VSPHERE}; {MIG_REBOOT}"),
    Rule("esxi-host", "PCI device passthrough",
         "Toggle passthrough for each GPU (Configure > Hardware > PCI Devices), then reboot",
         "direct", "(Dynamic) DirectPath I/O hands the whole GPU to one VM", PASSTHROUGH_HOST),
    Rule("vcenter", "vgpu.hotmigrate.enabled", "true", "virtual",
         "Allows vMotion of VMs with vGPUs (host maintenance without stopping them)", SETTINGS),
    Rule("vcenter", "vSphere Supervisor on the GPU cluster (Workload Management)",
         "Enabled, with a vSphere Namespace for the GPU workloads", "all",
         "The Supervisor is the Kubernetes control plane in the hypervisor layer that creates the "
         "vSphere Kubernetes Service clusters; the namespace sets the resource boundaries where "
         "their VMs run", f"{SUPERVISOR}; {PAIF_OPERATORS}", when="vsphere-kubernetes"),
    Rule("vcenter", "VM class of the GPU worker nodes (assigned to the vSphere Namespace)",
         "A custom VM class with the {gpu_name} vGPU device; the vGPU profile is read from the "
         "device, not set in the class", "virtual",
         "Kubernetes worker nodes get their vGPU from the VM class they are created with; the "
         "NVIDIA GPU Operator in the cluster then installs the guest driver",
         f"{VM_CLASS_VGPU}; {PAIF_OPERATORS}", when="vsphere-kubernetes"),
    Rule("vm", "Firmware", "EFI", "all", "Large GPU BARs map only under EFI", SETTINGS),
    Rule("vm", "Memory reservation", "Reserve all guest memory", "all",
         "The GPU DMAs into guest memory, which must never be swapped or ballooned", SETTINGS),
    Rule("vm", "pciPassthru.use64bitMMIO", "TRUE", "all",
         "Places the GPU BARs above 4 GB in the VM", f"{LARGE_BAR}; {SETTINGS}",
         when="large-bar"),
    Rule("vm", "pciPassthru.64bitMMIOSizeGB", "{vm_mmio}", "all",
         "The VM's 64-bit MMIO window must hold what NVIDIA lists for each of its GPUs",
         f"{MMIO_TABLE}; {MMIO_PER_VM}", when="large-bar"),
    Rule("vm", "Unified memory of each vGPU (a vGPU plugin parameter of the VM)",
         "Off (the default) for VMs that must live-migrate; on only where NCCL is to use NVLink "
         "multicast", "vgpu",
         "NVLink multicast on the NVSwitch board needs unified memory, and unified memory "
         "disables vGPU migration for the VM", UNIFIED_MEMORY, when="nvlink-multicast"),
    Rule("guest-os", "Operating system", "A supported 64-bit OS", "all", "", SETTINGS),
    Rule("guest-os", "MIG partitions of the passthrough GPUs",
         "The design's MIG configuration (gpuwizard mig-config), applied by the GPU Operator's "
         "MIG Manager (node label nvidia.com/mig.config) or by nvidia-mig-parted at boot",
         "mig-guest",
         "The VM holds its GPUs whole and cuts them into MIG instances itself, as on bare metal",
         MIG_IN_GUEST),
    Rule("guest-os", "NVIDIA License System client configuration token",
         "Placed in the guest (or the GPU Operator's licensing config map)", "virtual",
         "vGPU guest drivers run unlicensed, with reduced capability, without it",
         OPERATOR_NVAIE),
)  # fmt: skip


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def check_rules(rules: tuple[Rule, ...] = RULES) -> None:
    """Refuse a rule whose condition, mode group or named fact is not in the vocabulary."""
    for r in rules:
        if r.when not in CONDITIONS:
            raise ValueError(f"checklist rule '{r.setting}': unknown condition '{r.when}'")
        if r.modes not in MODE_GROUPS:
            raise ValueError(f"checklist rule '{r.setting}': unknown mode group '{r.modes}'")
        unknown = (_fields(r.value) | _fields(r.reason)) - set(FACTS)
        if unknown:
            raise ValueError(f"checklist rule '{r.setting}': unknown fact {sorted(unknown)}")


check_rules()


def fill(template: str, facts: Mapping[str, str]) -> str:
    """A template with its facts put in (the facts are text: a name in them stays as written)."""
    return template.format_map({k: facts[k] for k in _fields(template)})
