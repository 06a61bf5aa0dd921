"""The software stack and platform readiness: which NVIDIA components the design needs (and how
the chosen Kubernetes platform installs them), whether the server is on NVIDIA's certified list,
and the host BIOS, ESXi, vCenter and VM settings that passthrough, vGPU, MIG and large-BAR GPUs
need before the first VM powers on."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from wizard.base.numbers import some
from wizard.engine.basis.expr import Formula
from wizard.engine.basis.record import Recorder
from wizard.engine.basis.sources_platform import (
    FABRIC_MANAGER_VSPHERE,
    FM_CRX,
    MIG_IN_GUEST,
)
from wizard.engine.basis.sources_software import (
    BAR_POWER_OF_TWO,
    FABRIC_MANAGER,
    LICENCE_SERVICE,
    MMIO_PER_VM,
    MMIO_TABLE,
    NIM_OPERATOR,
    OPERATOR_NVAIE,
    OPERATOR_OCP,
    OPERATOR_RDMA,
    PAIF_OPERATORS,
    PVRDMA,
    RUN_AI,
    SEED_STACK,
    SUPERVISOR,
)
from wizard.engine.demand.vms import vm_gpus
from wizard.engine.platform.checklist import MODE_GROUPS, RULES, fill
from wizard.engine.platform.deployment import (
    BRANCH_NAME,
    LARGE_BAR_GB,
    SRIOV_ARCHITECTURES,
    mig_enable_step,
    vsphere_steps,
)
from wizard.engine.platform.lifecycle import lifecycle
from wizard.engine.platform.platform_rules import blackwell_board, nvswitch_board
from wizard.engine.platform.releases import (
    ReleaseFacts,
    release_choice,
)
from wizard.model.catalog import (
    Catalog,
    Certification,
    Gpu,
    Licence,
    Nic,
    PcieTopology,
    Server,
    SoftwareRelease,
)
from wizard.model.design import (
    VSPHERE_LABELS,
    Design,
    Hardware,
    KubernetesPlatform,
    PlatformChoice,
    Rdma,
    SharingMode,
    VsphereRelease,
    WorkloadGroup,
    WorkloadKind,
    vsphere_at_least,
)
from wizard.model.platform import (
    ChecklistItem,
    ServerCertification,
    SoftwareComponent,
    SoftwareResult,
    StorageResult,
    VmMmio,
)
from wizard.model.result import Packing, Severity, WorkloadResult

# A VM's 64-bit MMIO window: NVIDIA's figure per GPU times the GPUs the VM holds, rounded up to
# a power of two (one window for the whole VM); and the host's GPU BARs, each rounded up.
MMIO_VM = Formula("2 ** max(ceil(log2(gpus_per_vm * gpu_mmio_gb)), 0)")
# NVIDIA's per-GPU figures are twice the frame-buffer BAR (memory rounded up to a power of two):
# the rule gives 21 of the 22 rows of NVIDIA's table (Quadro RTX 8000 lists 64, not 128), so it
# stands in for a GPU the table does not list yet.
MMIO_PER_GPU = Formula("2 * 2 ** max(ceil(log2(gpu_memory_gb)), 0)")
HOST_BARS = Formula("gpus_per_host * 2 ** max(ceil(log2(gpu_memory_gb)), 0)")


def next_power_of_two_at_least(value: float) -> int:
    p = 1
    while p < value:
        p *= 2
    return p


# Kubernetes platforms as decisions name them (the wizard's labels live above the engine)
_K8S_NAME = {
    KubernetesPlatform.NONE: "none",
    KubernetesPlatform.VKS: "vSphere Kubernetes Service",
    KubernetesPlatform.OPENSHIFT: "Red Hat OpenShift",
    KubernetesPlatform.UPSTREAM: "upstream Kubernetes",
}


def _mmio_value(mmio: list[VmMmio]) -> str:
    """The checklist's MMIO value: each size with the groups that need it, by name while their
    names take at most 80 characters, else as a count (the VM memory-mapped I/O table names every one), so a
    design of many long group names still gives a row that fits a page."""
    by_size: dict[int, list[str]] = {}
    for m in mmio:
        by_size.setdefault(m.mmio_size_gb, []).append(m.workload)
    parts = []
    for size, names in by_size.items():
        named = ", ".join(names)
        if len(named) > 80:
            named = f"{len(names)} workload groups (each in the VM memory-mapped I/O table)"
        parts.append(f"{size} for {named}")
    return "; ".join(parts)


@dataclass(frozen=True)
class SoftwareFacts:
    """What the software stack and the platform's readiness read, and nothing more: the groups
    (their modes), the hardware answers and the NIC they name (None for none), the platform's
    answers (vSphere, Kubernetes, Private AI Foundation, service years), what choosing the
    release reads, and the catalog's licences (whose sources the components cite)."""

    groups: tuple[WorkloadGroup, ...]
    hardware: Hardware
    nic: Nic | None
    platform: PlatformChoice
    release: ReleaseFacts
    licences: Mapping[str, Licence]

    @classmethod
    def of(
        cls, design: Design, catalog: Catalog, release: ReleaseFacts | None = None
    ) -> SoftwareFacts:
        """``release``: the release facts of the same design where they are at hand."""
        return cls(
            groups=tuple(design.workloads),
            hardware=design.hardware,
            nic=catalog.nic_of(design.hardware.nic),
            platform=design.platform,
            release=release or ReleaseFacts.of(design, catalog),
            licences=catalog.licences,
        )


class SoftwarePlanner:
    def __init__(
        self,
        facts: SoftwareFacts,
        gpu: Gpu,
        server: Server,
        workloads: list[WorkloadResult],
        storage: StorageResult | None,
        rec: Recorder,
        packing: Packing | None = None,
    ) -> None:
        self.f = facts
        self.packing = packing
        self.gpu = gpu
        self.server = server
        self.workloads = workloads
        self.storage = storage
        self.rec = rec
        self.licences = facts.licences
        self.release, self.release_reason = release_choice(facts.release)
        used = [g for g, w in zip(facts.groups, workloads, strict=True) if w.gpus_total]
        self.modes = {g.sharing_mode for g in used} or {g.sharing_mode for g in facts.groups}
        self.virtual = bool(self.modes & {SharingMode.VGPU, SharingMode.MIG})  # a vGPU host
        self.large_bar = gpu.memory_gb > LARGE_BAR_GB

    # ------------------------------------------------------------------ components

    def _release_text(self) -> tuple[str, str, str]:
        r = self.release
        if r is None:
            return "", "", "no NVIDIA AI Enterprise release in the software catalog"
        vgpu = f"vGPU {r.vgpu_version or r.vgpu_branch} ({r.name})"
        driver = f"{r.driver_branch}" + (f" ({r.driver_version})" if r.driver_version else "")
        return vgpu, driver, r.source

    def _licence_source(self, key: str) -> str:
        """The vendor's reference for a licence of the catalog."""
        licence = self.licences.get(key)
        return licence.source if licence is not None else "vendor licensing guide"

    def components(self) -> list[SoftwareComponent]:
        out: list[SoftwareComponent] = []
        k8s = self.f.platform.kubernetes
        hw = self.f.hardware
        vgpu, driver, rsource = self._release_text()
        r = self.release

        def add(name: str, layer: str, version: str, needed_for: str, source: str) -> None:
            out.append(
                SoftwareComponent(
                    name=name, layer=layer, version=version, needed_for=needed_for, source=source
                )
            )

        add(
            "VMware vSphere (ESXi hosts, vCenter)",
            "esxi-host",
            VSPHERE_LABELS[self.f.platform.vsphere],
            "Every GPU host; vGPU needs vSphere Enterprise Plus or VMware Cloud Foundation",
            "Design input: platform release; " + self._licence_source("vmware-vcf"),
        )
        if self.f.platform.private_ai_foundation:
            add(
                "VMware Private AI Foundation with NVIDIA (VCF add-on)",
                "licensing",
                VSPHERE_LABELS[self.f.platform.vsphere],
                "Licensed per core on the GPU hosts beside VCF and assigned to the GPU workload "
                "domain; the NVIDIA half is the NVIDIA AI Enterprise subscription below",
                self._licence_source("vmware-paif"),
            )
        add(
            "NVIDIA AI Enterprise subscription",
            "licensing",
            r.name if r else "",
            "One licence per physical GPU, whatever the sharing mode",
            self._licence_source("nvidia-ai-enterprise"),
        )
        if self.virtual:
            add(
                "NVIDIA Virtual GPU Manager (NVD-AIE host driver for vSphere)",
                "esxi-host",
                vgpu,
                "vGPU and MIG-backed vGPU groups; install the NVIDIA AI Enterprise package for "
                "vSphere, not the graphics 'Complete vGPU Package'",
                f"{SEED_STACK}; {rsource}",
            )
            prev = f" (or {r.vgpu_branch - 1}.x while hosts are upgraded first)" if r else ""
            add(
                "NVIDIA vGPU for Compute guest driver",
                "vm-guest",
                (f"vGPU {r.vgpu_branch}.x" + prev) if r else "",
                "VMs with vGPUs; the guest branch must match the host's or be one branch older",
                f"{SEED_STACK}; {rsource}",
            )
            add(
                "NVIDIA License System (Cloud License Service, or an on-premises Delegated "
                "License Service for sites without internet access)",
                "licensing",
                "",
                "vGPU guest drivers check out a licence with a client configuration token",
                LICENCE_SERVICE,
            )
        if self.modes & {SharingMode.PASSTHROUGH, SharingMode.REMOTE, SharingMode.MIG_GUEST}:
            add(
                "NVIDIA Data Center GPU driver",
                "vm-guest",
                driver,
                "Passthrough VMs (and GPU-pool servers): the driver runs in the guest; ESXi needs "
                "no NVIDIA driver"
                if SharingMode.MIG_GUEST not in self.modes
                else "Passthrough VMs, and the VMs that partition their GPUs with MIG: the driver "
                "runs in the guest; ESXi needs no NVIDIA driver for them",
                f"{SEED_STACK}; {rsource}",
            )
        if SharingMode.MIG_GUEST in self.modes and k8s is KubernetesPlatform.NONE:
            add(
                "NVIDIA MIG Partition Editor (nvidia-mig-parted)",
                "vm-guest",
                "",
                "VMs that partition their passthrough GPUs with MIG: it applies the design's MIG "
                "configuration (gpuwizard mig-config) at boot",
                MIG_IN_GUEST,
            )
        hgx8 = self.server.pcie_topology is PcieTopology.HGX and self._hgx_gpus() >= 8
        if nvswitch_board(self.gpu, self.server) and SharingMode.VGPU in self.modes:
            blackwell = blackwell_board(self.gpu, self.server)
            add(
                "NVIDIA Fabric Manager"
                + (" CRX (Container Runtime for ESXi)" if blackwell else ""),
                "esxi-host",
                f"the component of {r.name}"
                if (blackwell and r)
                else "as the host driver's release",
                "The NVSwitch fabric of the HGX board: it is configured on the host before "
                "multi-vGPU VMs exchange data over NVLink",
                FM_CRX if blackwell else FABRIC_MANAGER_VSPHERE,
            )
        elif hgx8 and SharingMode.PASSTHROUGH in self.modes:
            add(
                "NVIDIA Fabric Manager",
                "vm-guest",
                f"same version as the driver ({driver or 'its branch'})",
                "NVSwitch on the HGX 8-GPU board, passed through with the GPUs: the fabric must "
                "be configured before NVLink traffic flows",
                FABRIC_MANAGER,
            )
        if k8s is not KubernetesPlatform.NONE:
            out += self._kubernetes(r)
        if hw.gpudirect_rdma:
            add(
                "NCCL with GPUDirect RDMA (DMA-BUF or the nvidia-peermem module)",
                "vm-guest",
                "",
                "Multi-node training: gradients move NIC-to-GPU without host-memory copies",
                f"{OPERATOR_RDMA}; {SEED_STACK}",
            )
        if hw.rdma is Rdma.PVRDMA:
            add(
                "PVRDMA virtual adapters on a vSphere Distributed Switch",
                "vm-guest",
                "",
                "RDMA between VMs that keeps vMotion; it does not carry GPUDirect RDMA",
                PVRDMA,
            )
        if self.storage is not None and self.storage.gpudirect_storage:
            add(
                "GPUDirect Storage (nvidia-fs kernel module, cuFile)",
                "vm-guest",
                "",
                "Training reads straight into GPU memory; needs the open GPU kernel modules "
                "on Ada, Hopper and Blackwell",
                OPERATOR_RDMA,
            )
        return out

    def _hgx_gpus(self) -> int:
        return max((s.max_gpus for s in self.server.gpu_support), default=0)

    def _kubernetes(self, r: SoftwareRelease | None) -> list[SoftwareComponent]:
        k8s, hw = self.f.platform.kubernetes, self.f.hardware
        op = r.gpu_operator if r else ""
        net = r.network_operator if r else ""
        out: list[SoftwareComponent] = []
        driver_note = (
            "with the NVIDIA AI Enterprise vGPU guest driver image" if self.virtual else ""
        )
        if k8s is KubernetesPlatform.VKS:
            out.append(
                SoftwareComponent(
                    name="vSphere Supervisor with the vSphere Kubernetes Service",
                    layer="vcenter",
                    version=VSPHERE_LABELS[self.f.platform.vsphere],
                    needed_for="Creates the Kubernetes clusters; their GPU worker nodes are VMs "
                    "of a VM class that carries the GPU, in a vSphere Namespace",
                    source=f"{SUPERVISOR}; {PAIF_OPERATORS}",
                )
            )
            out.append(
                SoftwareComponent(
                    name="NVIDIA GPU Operator (NVIDIA AI Enterprise helm repository "
                    "https://helm.ngc.nvidia.com/nvaie)",
                    layer="kubernetes",
                    version=op,
                    needed_for="vSphere Kubernetes Service GPU worker nodes (VM classes with the "
                    f"vGPU profile or passthrough GPU) {driver_note}".strip(),
                    source=f"{SEED_STACK}; {OPERATOR_NVAIE}",
                )
            )
        elif k8s is KubernetesPlatform.OPENSHIFT:
            out.append(
                SoftwareComponent(
                    name="Node Feature Discovery Operator (OperatorHub)",
                    layer="kubernetes",
                    version="",
                    needed_for="Labels GPU nodes; a prerequisite of the GPU Operator on OpenShift",
                    source=OPERATOR_OCP,
                )
            )
            out.append(
                SoftwareComponent(
                    name="NVIDIA GPU Operator (certified operator from OperatorHub)",
                    layer="kubernetes",
                    version=op,
                    needed_for=f"OpenShift GPU worker nodes {driver_note}".strip(),
                    source=f"{OPERATOR_OCP}; {OPERATOR_NVAIE}",
                )
            )
        else:
            out.append(
                SoftwareComponent(
                    name="NVIDIA GPU Operator (helm repository https://helm.ngc.nvidia.com/nvidia)",
                    layer="kubernetes",
                    version=op,
                    needed_for=f"Kubernetes GPU worker nodes {driver_note}".strip(),
                    source=f"{SEED_STACK}; {OPERATOR_NVAIE}",
                )
            )
        if SharingMode.MIG in self.modes or SharingMode.MIG_GUEST in self.modes:
            guest = SharingMode.MIG_GUEST in self.modes
            out.append(
                SoftwareComponent(
                    name="MIG Manager (part of the GPU Operator)",
                    layer="kubernetes",
                    version=op,
                    needed_for="Worker nodes that partition their passthrough GPUs with MIG: "
                    "it applies the design's MIG configuration (gpuwizard mig-config) from a "
                    "config map, chosen per node by its nvidia.com/mig.config label"
                    if guest
                    else "Nodes whose GPUs are partitioned with MIG",
                    source=f"{SEED_STACK}; {MIG_IN_GUEST}" if guest else SEED_STACK,
                )
            )
        if hw.rdma in (Rdma.ROCE, Rdma.INFINIBAND):
            where = "OperatorHub" if k8s is KubernetesPlatform.OPENSHIFT else "helm"
            out.append(
                SoftwareComponent(
                    name=f"NVIDIA Network Operator ({where})",
                    layer="kubernetes",
                    version=net,
                    needed_for="RDMA devices and drivers in pods; with the GPU Operator it "
                    "enables GPUDirect RDMA",
                    source=f"{OPERATOR_RDMA}; {SEED_STACK}",
                )
            )
        nim = self._nim_operator(r)
        if nim is not None:
            out.append(nim)
        run_ai = self._run_ai(r)
        if run_ai is not None:
            out.append(run_ai)
        return out

    def _used_groups(self) -> list[WorkloadGroup]:
        return [g for g, w in zip(self.f.groups, self.workloads, strict=True) if w.gpus_total]

    def _nim_operator(self, r: SoftwareRelease | None) -> SoftwareComponent | None:
        """The NIM Operator, on Kubernetes, for a design that serves models (its inference
        groups run as NIM microservices), unless the release's notes were read and do not list
        it (NVIDIA AI Enterprise 4: it joined with 5.2); a release whose notes were not read
        gets the line without a version."""
        served = [g.name for g in self._used_groups() if g.kind is WorkloadKind.INFERENCE]
        if not served or r is None or r.lists("nim-operator") is False:
            return None
        return SoftwareComponent(
            name="NVIDIA NIM Operator",
            layer="kubernetes",
            version=r.nim_operator,
            needed_for="Deploys, caches and scales the NIM microservices that serve the "
            f"inference groups ({some(served)}); it needs the GPU Operator on the cluster",
            source="; ".join(x for x in (NIM_OPERATOR, r.kubernetes_software_source) if x),
        )

    def _run_ai(self, r: SoftwareRelease | None) -> SoftwareComponent | None:
        """NVIDIA Run:ai as an optional scheduler, on Kubernetes, where the release's notes list
        it and the design shares a pool of GPUs among people (development or HPC groups sized
        from their users); never where the release does not say."""
        shared = [g.name for g in self._used_groups() if g.shared is not None]
        if not shared or r is None or r.lists("run-ai") is not True:
            return None
        return SoftwareComponent(
            name="NVIDIA Run:ai (optional GPU scheduler)",
            layer="kubernetes",
            version=r.run_ai,
            needed_for=f"Optional: shares the GPUs of {some(shared)} among their users with "
            "quotas and fair-share scheduling; it runs on the cluster beside the GPU Operator",
            source=f"{RUN_AI}; {r.kubernetes_software_source}",
        )

    # ------------------------------------------------------------------ certification

    def certification(self) -> ServerCertification:
        s, rec = self.server, self.rec
        where = s.certification_source or (
            "NVIDIA-Certified Systems list, "
            "https://www.nvidia.com/en-us/data-center/products/certified-systems/ (the catalog "
            "records no certification for this server)"
        )
        name = s.product_name
        if s.certification is Certification.CERTIFIED:
            rec.decide(
                f"The {name} is an NVIDIA-Certified System.",
                "NVIDIA tested it with GPUs and networking for performance, manageability and "
                f"security, the basis of NVIDIA AI Enterprise support (source: {where}).",
                implication="NVIDIA AI Enterprise support covers this server as configured; "
                "order it in the certified configuration (GPUs, NICs, firmware).",
            )
        elif s.certification is Certification.QUALIFIED:
            rec.warn(
                "server-qualified-not-certified",
                f"The {name} is qualified for its GPUs (thermal, mechanical, power) but not an "
                f"NVIDIA-Certified System ({where})",
                Severity.INFO,
            )
        elif s.certification is Certification.NONE:
            rec.warn(
                "server-not-certified",
                f"The {name} is neither NVIDIA-Certified nor qualified ({where}); NVIDIA AI "
                "Enterprise support assumes certified or qualified servers",
            )
        else:
            rec.warn(
                "server-certification-unknown",
                f"The {name} is not on the NVIDIA-Certified Systems list as far as the catalog "
                "knows; check https://www.nvidia.com/en-us/data-center/products/certified-systems/ "
                "before proposing it",
            )
        if not self.gpu.nvaie_supported:
            rec.warn(
                "gpu-not-nvaie-supported",
                f"The {self.gpu.name} is not listed as supported by NVIDIA AI Enterprise, so vGPU "
                "for Compute and NVIDIA support are not available for it",
            )
        return ServerCertification(
            server=s.id,
            status=s.certification.value,
            source=where,
            gpu_nvaie_supported=self.gpu.nvaie_supported,
        )

    # ------------------------------------------------------------------ settings

    def gpu_mmio_gb(self) -> tuple[float, str]:
        """MMIO a VM needs per GPU: NVIDIA's table, or for a GPU it does not list the rule that
        reproduces the table (and the log says which)."""
        gpu = self.gpu
        if gpu.vm_mmio_gb is not None:
            return gpu.vm_mmio_gb, gpu.vm_mmio_source
        derived = self.rec.expr(
            "software.gpu_mmio_gb",
            MMIO_PER_GPU,
            {"gpu_memory_gb": gpu.memory_gb},
            "GB",
            f"{MMIO_TABLE}; the {gpu.name} is not in the table, so its figure follows the rule "
            "that gives 21 of its 22 rows: twice the frame buffer rounded up to a power of two",
        )
        return derived, "derived from NVIDIA's table"

    def vm_mmio(self) -> list[VmMmio]:
        if not self.large_bar:
            return []
        gph, out = self.f.hardware.gpus_per_host, []
        per_gpu, per_gpu_source = self.gpu_mmio_gb()
        for i, (g, w) in enumerate(zip(self.f.groups, self.workloads, strict=True)):
            if not w.gpus_total:
                continue
            mode = g.sharing_mode
            if mode is SharingMode.REMOTE:
                per_vm = gph  # the pool server VM holds the host's GPUs
            elif mode is SharingMode.MIG:
                per_vm = 1
            elif mode is SharingMode.MIG_GUEST:
                per_vm = gph  # the VM holds the host's GPUs it partitions
            else:
                per_vm = vm_gpus(g, w, gph)
            size = int(
                self.rec.expr(
                    f"software.workloads[{i}].mmio_size_gb",
                    MMIO_VM,
                    {"gpus_per_vm": per_vm, "gpu_mmio_gb": per_gpu},
                    "GB",
                    f"{per_gpu_source}; {MMIO_PER_VM}",
                )
            )
            out.append(
                VmMmio(
                    workload=g.name,
                    mode=mode.value,
                    gpus_per_vm=per_vm,
                    gpu_memory_gb=self.gpu.memory_gb,
                    mmio_size_gb=size,
                )
            )
        if out:
            by_size: dict[int, list[str]] = {}
            for m in out:
                by_size.setdefault(m.mmio_size_gb, []).append(m.workload)
            values = "; ".join(
                f"{size} for {some(names)}" for size, names in sorted(by_size.items())
            )
            self.rec.warn(
                "mmio-setting-needed",
                f"The {self.gpu.name} maps {self.gpu.memory_gb:g} GB, more than 16 GB: enable "
                "above-4G decoding in the host BIOS, give the VMs EFI firmware and set "
                "pciPassthru.use64bitMMIO = TRUE and pciPassthru.64bitMMIOSizeGB per VM "
                f"({values})",
                Severity.INFO,
            )
        return out

    def _multicast_vms(self) -> bool:
        """Whether some VM holds several vGPUs of a Hopper or Blackwell NVSwitch board, where
        NVLink multicast (and so unified memory) is a choice to make."""
        if not nvswitch_board(self.gpu, self.server):
            return False
        if self.gpu.architecture not in ("Hopper", "Blackwell"):
            return False
        gph = self.f.hardware.gpus_per_host
        return any(
            g.sharing_mode is SharingMode.VGPU and w.gpus_total and vm_gpus(g, w, gph) > 1
            for g, w in zip(self.f.groups, self.workloads, strict=True)
        )

    def checklist(self, mmio: list[VmMmio]) -> list[ChecklistItem]:
        """The rules of ``wizard.engine.platform.checklist`` that apply to this design: a rule holds when
        its condition does and a sharing mode of the design needs it; its templates get the
        design's facts."""
        gpu, gph = self.gpu, self.f.hardware.gpus_per_host
        present = {m.value for m in self.modes}
        when = {
            "always": True,
            "sriov-gpu": gpu.architecture.lower() in SRIOV_ARCHITECTURES,
            "large-bar": self.large_bar,
            "vgpu-mode-setting": vsphere_at_least(self.f.platform.vsphere, VsphereRelease.V8_0_U3),
            "nvlink-multicast": self._multicast_vms(),
            "vsphere-kubernetes": self.f.platform.kubernetes is KubernetesPlatform.VKS,
        }
        facts = {
            "gpu_name": gpu.name,
            "gpu_architecture": gpu.architecture,
            "gpu_memory_gb": f"{gpu.memory_gb:g}",
            "gpus_per_host": str(gph),
            "host_bar_gb": "",
            "host_driver": self._release_text()[0] or "the release's vSphere package",
            "vgpu_mode": (
                "Mixed Size (vgpuMode mixedSize), so profiles of different sizes share a GPU"
                if self.f.hardware.vgpu_mixed_sizes
                else "Same Size (vgpuMode sameSize), one profile per GPU"
            ),
            "mig_enable": mig_enable_step(gpu),
            "vm_mmio": _mmio_value(mmio)
            or "GPUs per VM x the MMIO NVIDIA lists per GPU, rounded up to a power of two",
        }
        if self.large_bar:
            facts["host_bar_gb"] = str(gph * next_power_of_two_at_least(gpu.memory_gb))
            self.rec.expr(
                "software.host_mmio_gb",
                HOST_BARS,
                {"gpus_per_host": gph, "gpu_memory_gb": gpu.memory_gb},
                "GB",
                BAR_POWER_OF_TWO,
            )
        items = []
        for rule in RULES:
            hit = [m for m in MODE_GROUPS[rule.modes] if m in present]
            if hit and when[rule.when]:
                items.append(
                    ChecklistItem(
                        scope=rule.scope,
                        setting=rule.setting,
                        value=fill(rule.value, facts),
                        modes=hit,
                        reason=fill(rule.reason, facts),
                        source=rule.source,
                    )
                )
        return items

    # ------------------------------------------------------------------ the result

    def plan(self) -> SoftwareResult:
        r, k8s = self.release, self.f.platform.kubernetes
        components = self.components()
        cert = self.certification()
        mmio = self.vm_mmio()
        checklist = self.checklist(mmio)
        if r is not None:
            lifecycle(r, self.f.release, self.gpu, self.server, self.rec)
            how = self.release_reason
            self.rec.decide(
                f"The platform runs {r.name} (vGPU {r.vgpu_branch}, driver {r.driver_branch}, "
                f"{BRANCH_NAME[r.branch]}"
                + (f", supported to {r.end_of_support:%B %Y}" if r.end_of_support else "")
                + "); hosts and VMs take their drivers from the same release.",
                f"{r.name} is {how}; a host driver supports guest drivers of its own branch and "
                "the previous one only, so hosts are upgraded first and guests follow.",
                implication="Each upgrade is planned host first, guests after, within the "
                "branch's support"
                + (f", which ends {r.end_of_support:%B %Y}" if r.end_of_support else "")
                + "; VM images carry the matching guest driver.",
            )
        if k8s is not KubernetesPlatform.NONE:
            how = {
                KubernetesPlatform.VKS: "from NVIDIA's AI Enterprise helm repository",
                KubernetesPlatform.OPENSHIFT: "from OperatorHub, after the NFD Operator",
                KubernetesPlatform.UPSTREAM: "from NVIDIA's helm repository",
            }[k8s]
            self.rec.decide(
                f"Kubernetes ({_K8S_NAME[k8s]}) GPU nodes get their drivers and device plugins "
                f"from the NVIDIA GPU Operator, installed {how}.",
                "The operator keeps driver, container toolkit, device plugin, MIG manager and "
                "monitoring consistent on every GPU node.",
                implication="The operator's version follows the NVIDIA AI Enterprise release; "
                "GPU nodes need access to NVIDIA's registry or a mirror of it.",
            )
        return SoftwareResult(
            nvaie_release=r.id if r else None,
            release_name=r.name if r else None,
            vgpu_branch=r.vgpu_branch if r else None,
            driver_branch=r.driver_branch if r else None,
            kubernetes=k8s.value,
            components=components,
            certification=cert,
            checklist=checklist,
            vm_mmio=mmio,
            vsphere_steps=vsphere_steps(
                self.f.groups,
                self.f.hardware,
                self.f.platform.vsphere,
                self.gpu,
                self.server,
                self.workloads,
                self.release,
                mmio,
                self.f.nic,
                self.packing,
            ),
        )


def plan_software(
    facts: SoftwareFacts,
    gpu: Gpu,
    server: Server,
    workloads: list[WorkloadResult],
    storage: StorageResult | None,
    rec: Recorder,
    packing: Packing | None = None,
) -> SoftwareResult:
    """The software-stack and platform-readiness part of the Result (``packing``: where the
    GPUs partitioned in the guest sit, for their VMs)."""
    return SoftwarePlanner(facts, gpu, server, workloads, storage, rec, packing).plan()
