"""Security and operations as the vendors document them: what each GPU sharing mode keeps apart,
how tenants are separated, the release order of upgrades, how the GPUs are monitored and where
the licences are served. Every statement carries the vendor's words it rests on; the proposal
prints only those for the modes and platform the design uses."""

from __future__ import annotations

from dataclasses import dataclass

from wizard.model.design import Design, KubernetesPlatform, SharingMode

VGPU_ISOLATION = (
    "NVIDIA AI Enterprise 8, vGPU for Compute overview, supported vGPU modes: 'Time-Sliced vGPU "
    "— Multiple Compute VMs time-share the same physical GPU: SMs and engines are used one vGPU "
    "at a time in scheduled slices. | Temporal | Strong hardware memory and fault isolation'; "
    "vGPU User Guide 18.0: 'the vGPU retains exclusive use of that framebuffer until it is "
    "destroyed', https://docs.nvidia.com/ai-enterprise/release-8/latest/infra-software/vgpu/"
    "overview.html"
)
MIG_ISOLATION = (
    "NVIDIA AI Enterprise 8, MIG-backed vGPU: 'Hardware-level isolation - Each vGPU has "
    "exclusive access to its GPU instance's resources, including compute and video decode "
    "engines'; NVIDIA: 'failure in an application running on one instance doesn't impact "
    "applications running on other instances', https://docs.nvidia.com/ai-enterprise/release-8/"
    "latest/infra-software/vgpu/features/mig-backed-vgpu.html"
)
MIG_GUEST_ISOLATION = (
    "NVIDIA Multi-Instance GPU User Guide, 'Virtualization': 'Under Linux guests on supported "
    "hypervisors, when MIG-supported GPUs are in GPU pass-through, the same workflows, tools, and "
    "Supported MIG Profiles available on bare-metal can be used.', https://docs.nvidia.com/"
    "datacenter/tesla/mig-user-guide/virtualization.html"
)
PASSTHROUGH_ISOLATION = (
    "NVIDIA Virtual GPU Software User Guide 17.0, GPU pass-through: 'an entire physical GPU is "
    "directly assigned to one VM… The GPU is not shared among VMs', "
    "https://docs.nvidia.com/grid/17.0/grid-vgpu-user-guide/index.html"
)
NAMESPACE = (
    "VMware vSphere 8.0, TKG Service: 'A vSphere Namespace is a network-scoped tenancy on "
    "Supervisor… a /28 overlay segment and corresponding IP pool is instantiated to service pods "
    "in that vSphere Namespace', https://docs.vmware.com/en/VMware-vSphere/8.0/"
    "vsphere-with-tanzu-tkg/GUID-690F01B0-D4B7-4DF3-A24F-0DEF914ED5C3.html"
)
VCF_ORDER = (
    "Broadcom KB 390634 (VCF 9): 'Core SDDC components follow a distinct upgrade order (SDDC "
    "Mgr, NSX, VC, ESXi)'; VCF 4.4 Lifecycle: management domain components 'must be upgraded in "
    "the following order', https://knowledge.broadcom.com/external/article/390634/"
)
VSPHERE_ORDER = (
    "VMware vSphere 7.0 ESXi Upgrade, overview of the upgrade process: '4. Upgrade vCenter "
    "Server… 5. Upgrade your ESXi hosts… 7. Upgrade your VMs', https://docs.vmware.com/en/"
    "VMware-vSphere/7.0/com.vmware.esxi.upgrade.doc/GUID-7AFB6672-0B0B-4902-B254-EE6AE81993B2.html"
)
VGPU_COMPAT = (
    "NVIDIA vGPU 19.0 release notes for VMware vSphere, 1.2: 'The releases of the NVIDIA vGPU "
    "Manager and guest VM drivers that you install must be compatible… Compatible: … NVIDIA vGPU "
    "Manager from a later major release branch with guest VM drivers from the previous branch'; "
    "before updating the vGPU Manager 'make sure that all VMs are powered off and the ESXi host "
    "is placed in maintenance mode' (NVIDIA AI Enterprise User Guide), "
    "https://docs.nvidia.com/vgpu/19.0/grid-vgpu-release-notes-vmware-vsphere/index.html"
)
DCGM = (
    "NVIDIA DCGM User Guide, supported platforms: 'Bare metal and virtualized (full passthrough "
    "only)', https://docs.nvidia.com/datacenter/dcgm/latest/user-guide/getting-started.html"
)
VGPU_MONITOR = (
    "NVIDIA AI Enterprise User Guide, monitoring: to get a summary of the vGPUs on each physical GPU, "
    "run nvidia-smi with its vGPU option on the hypervisor; 'MIG-backed vGPU activity cannot be monitored on GPUs "
    "based on the NVIDIA Ampere GPU architecture'; vGPU User Guide 17.0, 1.3.5: the GPU Operator "
    "'provides telemetry support through DCGM Exporter running in a guest VM', "
    "https://docs.nvidia.com/grid/17.0/grid-vgpu-user-guide/index.html"
)
DLS = (
    "NVIDIA License System User Guide, 1.2: 'A DLS instance is hosted on-premises at a location "
    "that is accessible from your private network, such as inside your data center'; 'Each node "
    "in an HA cluster must be a DLS instance', https://docs.nvidia.com/license-system/latest/"
    "nvidia-license-system-user-guide/index.html"
)


@dataclass(frozen=True)
class Statement:
    text: str
    source: str


ISOLATION: dict[SharingMode, tuple[str, str, str]] = {
    SharingMode.PASSTHROUGH: (
        "the whole GPU: its compute, memory and engines",
        "nothing: one VM per GPU",
        PASSTHROUGH_ISOLATION,
    ),
    SharingMode.VGPU: (
        "its share of GPU memory, kept apart in hardware; a fault stays in its VM",
        "the GPU's compute, run for one VM at a time in turns: a busy neighbour slows the others",
        VGPU_ISOLATION,
    ),
    SharingMode.MIG: (
        "its own GPU instance: compute, memory, cache and memory paths; a fault or a busy "
        "neighbour on another instance does not reach it",
        "the physical board and its host only",
        MIG_ISOLATION,
    ),
    SharingMode.MIG_GUEST: (
        "its own GPU instance inside the VM that holds the GPUs: compute, memory, cache and "
        "memory paths, as on bare metal",
        "the VM that partitions the GPUs (its operating system and drivers), the board and host",
        MIG_GUEST_ISOLATION,
    ),
}


def modes(design: Design) -> list[SharingMode]:
    """The sharing modes the design's groups use, in the catalogue's order."""
    used = {w.sharing_mode for w in design.workloads}
    return [m for m in SharingMode if m in used]


def on_vcf(design: Design) -> bool:
    """Whether the design runs on VMware Cloud Foundation (its licence or Private AI Foundation)."""
    return design.licensing.platform == "vmware-vcf" or design.platform.private_ai_foundation


def tenancy(design: Design) -> list[Statement]:
    out = [
        Statement(
            "Each workload group runs in its own virtual machines; its GPUs, or GPU shares, are "
            "attached to those machines only.",
            "",
        ),
        Statement(
            "The GPU fabric, the service network and the out-of-band network are separate "
            "networks; the out-of-band network (server BMCs and switch management) is reachable "
            "only from the administrators' network.",
            "",
        ),
    ]
    if design.platform.kubernetes is KubernetesPlatform.VKS:
        out.append(
            Statement(
                "Teams that share the Kubernetes service get a vSphere Namespace each: its own "
                "network segment, resource limits and permissions.",
                NAMESPACE,
            )
        )
    return out


def upgrades(design: Design) -> list[Statement]:
    """The release order of an upgrade of the platform, each step with its vendor rule."""
    steps = []
    if on_vcf(design):
        steps.append(
            Statement(
                "VMware Cloud Foundation first, in its own order: SDDC Manager, NSX, vCenter, "
                "then the ESXi hosts.",
                VCF_ORDER,
            )
        )
    else:
        steps.append(Statement("vCenter Server before the ESXi hosts.", VSPHERE_ORDER))
    if any(m in (SharingMode.VGPU, SharingMode.MIG) for m in modes(design)):
        steps.append(
            Statement(
                "On each host in turn: maintenance mode (its VMs moved to the high-availability "
                "reserve or powered off), then the NVIDIA vGPU Manager of the new release.",
                VGPU_COMPAT,
            )
        )
        steps.append(
            Statement(
                "Then the NVIDIA driver in the VMs: a host may run guests of the same or the "
                "previous release branch, never a newer one, so the hosts go first.",
                VGPU_COMPAT,
            )
        )
    if SharingMode.PASSTHROUGH in modes(design):
        steps.append(
            Statement(
                "VMs with whole GPUs carry their own NVIDIA driver, upgraded with the VM after "
                "the hosts.",
                VSPHERE_ORDER,
            )
        )
    if design.platform.kubernetes is not KubernetesPlatform.NONE:
        steps.append(
            Statement(
                "Last, the NVIDIA GPU Operator and the serving containers in the Kubernetes "
                "clusters, at the NVIDIA AI Enterprise release the hosts now run.",
                "",
            )
        )
    return steps


def monitoring(design: Design) -> list[Statement]:
    used = modes(design)
    out = []
    if SharingMode.PASSTHROUGH in used:
        out.append(
            Statement(
                "GPUs passed through whole: NVIDIA DCGM (and its exporter for Prometheus) in the "
                "VM watches utilisation, memory, temperature, power and errors.",
                DCGM,
            )
        )
    if SharingMode.VGPU in used or SharingMode.MIG in used:
        out.append(
            Statement(
                "Shared GPUs: nvidia-smi on each ESXi host lists every vGPU on every physical "
                "GPU; inside the VMs, the GPU Operator's DCGM Exporter reports each "
                "VM's own vGPU. DCGM itself lists passthrough as its only virtualised platform, "
                "so confirm the metrics you need on a vGPU VM before relying on them.",
                VGPU_MONITOR,
            )
        )
    return out


def licensing() -> Statement:
    return Statement(
        "NVIDIA AI Enterprise licences are served on-premises by a Delegated License Service "
        "(DLS) instance in the data centre, so VMs keep their licences without a connection to "
        "NVIDIA's cloud; for high availability, further DLS nodes join it in a cluster (every "
        "node of such a cluster is a DLS instance).",
        DLS,
    )
