"""The estate the customer already runs, as the plan uses it. One rule, here: an existing
cluster whose hosts are alike (one catalog server, one catalog GPU, one GPU count, one sharing
mode) is a cluster of the plan whose hosts are kept; a group goes to its free capacity first
when it runs there in the same sharing mode on the same vGPU release and still meets its
targets with HA counted over the cluster's hosts; what the plan needs changed on kept hosts
(driver branch, vGPU or MIG mode, firmware) is work, with its reboots. Everything else of the
estate is kept as it is and said so."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from wizard.base.errors import DesignError
from wizard.base.numbers import count
from wizard.engine.basis.boards import nvswitch_board
from wizard.engine.basis.record import Recorder
from wizard.engine.basis.sources_platform import MIG_REBOOT, NVSWITCH_PAGE, VLCM_IMAGE
from wizard.engine.basis.sources_software import MMIO_TABLE
from wizard.model.catalog import Catalog, SoftwareRelease
from wizard.model.design import Assumptions, Design, Fabric, Hardware, SharingMode, WorkloadGroup
from wizard.model.estate import EstateCluster, HostWork, Placement
from wizard.model.existing import ExistingCluster
from wizard.model.platform import ChecklistItem, HostStep, VmMmio
from wizard.model.result import Result, Severity

# NVIDIA's compatibility of host and guest drivers, as the software catalog states it: "The host
# driver of a branch supports guest drivers of the same branch and of the previous one".
BRANCH_SOURCE = (
    "NVIDIA vGPU software: a host driver (Virtual GPU Manager) supports guest drivers of its "
    "own branch and of the previous one, with the features both support (catalogs/software.toml, "
    "vgpu_branch; seed: NVIDIA AI Enterprise deep dive, host 15.0-15.2 with 14.x guests)"
)
PLACE_SOURCE = (
    "Existing capacity first: a group runs on an existing cluster's hosts when they run its "
    "sharing mode and a vGPU release whose host driver supports the design's guest drivers, and "
    "the group still meets its targets there with the cluster's HA reserve held; else on new "
    "hosts of the design's hardware"
)
REBOOT_SOURCE = (
    f"{VLCM_IMAGE}; a remediation that changes a host's components puts it into maintenance "
    "mode and reboots it, one host after another"
)
MMIO_SOURCE = (
    f"{MMIO_TABLE}; NVIDIA AI Enterprise 5, 'Requirements for Using NVIDIA vGPU (C-Series)': "
    "'64-bit MMIO and EFI boot must be enabled for the VM'; Broadcom KB 323402 ('Failed to "
    "Power On' Virtual Machines with PCI Passthrough and Insufficient MMIO Allocation): 'If it "
    "is set too low the VM won't boot' (the window is set up when the VM powers on, so a VM "
    "whose setting changes is powered off and on again)"
)
_VERSION = re.compile(r"^(\d{3})\.")
_FRAMEBUFFER = re.compile(r"-(\d+)[A-Z]$")


@dataclass(frozen=True)
class KeptVm:
    """A VM in use on a kept host, with its 64-bit MMIO settings as read (None: not read)."""

    host: str
    vm: str
    workload: str | None
    mmio_64bit: bool | None
    mmio_size_gb: int | None


@dataclass(frozen=True)
class Kept:
    """An existing cluster the plan uses: its hosts kept, its hardware as imported."""

    name: str
    hardware: Hardware
    mode: SharingMode
    hosts: tuple[str, ...]
    driver: str  # the NVIDIA host driver version read; '' where not read
    runs: tuple[str, ...]  # the design's groups the import names as running there
    held_hosts: int  # hosts the vGPUs in use that run none of the design's groups hold
    vms: tuple[KeptVm, ...] = ()  # the VMs in use on its hosts
    drivers: tuple[str, ...] = ()  # the host drivers read where the hosts differ ('': not read)


@dataclass(frozen=True)
class ExistingFacts:
    """What planning on the customer's existing clusters reads of the design, and nothing more:
    the clusters as imported, the names of the design's groups (vGPUs in use that name none of
    them are capacity already taken), the service fabric (the kept hosts stay on it) and the
    assumptions (the racks of the hosts kept as they are)."""

    clusters: tuple[ExistingCluster, ...]
    groups: frozenset[str]
    service_fabric: Fabric
    assumptions: Assumptions

    @classmethod
    def of(cls, design: Design) -> ExistingFacts:
        return cls(
            clusters=tuple(design.existing.clusters),
            groups=frozenset(g.name for g in design.workloads),
            service_fabric=design.hardware.service_fabric,
            assumptions=design.assumptions,
        )


def kept_clusters(facts: ExistingFacts, catalog: Catalog, rec: Recorder) -> list[Kept]:
    """The existing clusters the plan can use; each other one is kept as it is, with a note."""
    out = []
    groups = facts.groups
    for c in facts.clusters:
        why = not_plannable(c, catalog)
        outside = "" if why else outside_support(c, catalog)
        if outside:
            rec.warn(
                "existing-outside-support",
                f"Existing cluster '{c.name}' runs {outside} on an HGX board whose GPUs meet "
                f"through NVSwitch, which NVIDIA does not support under vSphere, so no workload "
                f"is planned on it: {NVSWITCH_PAGE}",
            )
            continue
        if why:
            rec.warn(
                "existing-cluster-kept-as-is",
                f"Existing cluster '{c.name}' is kept as it is and no new workload is placed "
                f"on it: {why}",
                Severity.INFO,
            )
            continue
        h = c.hosts[0]
        assert h.gpu is not None and h.server is not None and h.sharing_mode is not None
        named = [u.workload for x in c.hosts for u in x.in_use if u.workload]
        unknown = sorted({w for w in named if w not in groups})
        if unknown:
            rec.warn(
                "existing-workload-unknown",
                f"Existing cluster '{c.name}': the vGPUs in use name "
                f"{', '.join(repr(w) for w in unknown)}, which is not a workload group of the "
                "design; they are counted as capacity already taken",
            )
        gpu = catalog.gpus[h.gpu]
        taken = sum(
            _share(u.vgpu_type, gpu.memory_gb)
            for x in c.hosts
            for u in x.in_use
            if u.workload not in groups
        )
        drivers = sorted({x.driver for x in c.hosts})
        out.append(
            Kept(
                name=c.name,
                hardware=kept_hardware(facts.service_fabric, c),
                mode=SharingMode(h.sharing_mode),
                hosts=tuple(x.name for x in c.hosts),
                driver=drivers[0] if len(drivers) == 1 else "",
                drivers=tuple(drivers) if len(drivers) > 1 else (),
                runs=tuple(dict.fromkeys(w for w in named if w in groups)),
                held_hosts=math.ceil(taken / h.gpus - 1e-9),
                vms=tuple(
                    KeptVm(x.name, u.vm, u.workload, u.mmio_64bit, u.mmio_size_gb)
                    for x in c.hosts
                    for u in x.in_use
                ),
            )
        )
    return out


def kept_hardware(service_fabric: Fabric, c: ExistingCluster) -> Hardware:
    """The hardware of an existing cluster as imported: its hosts' server, GPU and GPU count,
    on the design's service fabric; their fabric adapters are theirs and stay out of the
    plan."""
    h = c.hosts[0]
    assert h.gpu is not None and h.server is not None
    return Hardware(
        gpu=h.gpu,
        server=h.server,
        gpus_per_host=h.gpus,
        nic=None,
        nics_per_host=0,
        service_fabric=service_fabric,
    )


def outside_support(c: ExistingCluster, catalog: Catalog) -> str:
    """What a plannable existing cluster runs outside NVIDIA's support under vSphere, in words;
    '' when nothing: the rule book's board test (wizard.engine.basis.boards), as the import's."""
    h = c.hosts[0]
    assert h.gpu is not None and h.server is not None
    if not nvswitch_board(catalog.gpus[h.gpu], catalog.servers[h.server]):
        return ""
    return {"mig": "MIG-backed vGPU", "passthrough": "GPUs given whole (passthrough)"}.get(
        h.sharing_mode or "", ""
    )


def not_plannable(c: ExistingCluster, catalog: Catalog) -> str:
    alike = {(h.server, h.gpu, h.gpus, h.sharing_mode) for h in c.hosts}
    if len(alike) > 1:
        return "its hosts differ in server, GPU, GPU count or sharing mode"
    server, gpu, gpus, mode = alike.pop()
    if server is None or server not in catalog.servers:
        return f"its server ({c.hosts[0].server_as_read or 'not read'}) is not in the catalog"
    if gpu is None or gpu not in catalog.gpus or not gpus:
        return f"its GPUs ({c.hosts[0].gpu_as_read or 'none read'}) are not in the catalog"
    if mode is None:
        return "no sharing mode was read (no vGPU or passthrough GPU in use)"
    return ""


def _share(vgpu_type: str, gpu_memory_gb: float) -> float:
    """The share of a GPU one vGPU in use holds: its frame buffer over the GPU's memory (NVIDIA's
    type names end in the frame buffer in GB: A100D-3-40C, A100-20C); a GPU given whole, 1."""
    m = _FRAMEBUFFER.search(vgpu_type.upper())
    if not vgpu_type or m is None:
        return 1.0
    return min(int(m.group(1)) / gpu_memory_gb, 1.0)


def branch(driver: str, catalog: Catalog) -> SoftwareRelease | None:
    """The release whose driver branch the host driver version read belongs to (535.230.02 is
    R535: NVIDIA AI Enterprise 4)."""
    m = _VERSION.match(driver)
    if m is None:
        return None
    return next((r for r in catalog.software.values() if r.driver_branch == f"R{m.group(1)}"), None)


def release_refusal(k: Kept, catalog: Catalog, release: SoftwareRelease | None) -> str:
    """Why the design's guest drivers cannot run on the kept hosts' release; '' when they can or
    either release is unknown (then the driver step says to confirm it). Hosts that run
    different drivers are each held to it."""
    if release is None:
        return ""
    for driver in k.drivers or (k.driver,):
        host = branch(driver, catalog) if driver else None
        if host is None or host.vgpu_branch in (release.vgpu_branch, release.vgpu_branch + 1):
            continue
        return (
            f"{'some of its hosts run' if k.drivers else 'its hosts run'} driver {driver} (vGPU "
            f"{host.vgpu_branch}, {host.name}), whose host driver does not support the guest "
            f"drivers of {release.name} (vGPU {release.vgpu_branch})"
        )
    return ""


def placement_refusal(
    k: Kept, g: WorkloadGroup, catalog: Catalog, release: SoftwareRelease | None
) -> str:
    """Why a new group does not go to the kept cluster's free capacity before sizing there; ''
    when the rule lets it try."""
    if g.sharing_mode is not k.mode:
        return f"its hosts run {_MODE[k.mode]}, the group {_MODE[g.sharing_mode]}"
    return release_refusal(k, catalog, release)


def fits(k: Kept, r: Result) -> bool:
    """Whether the groups sized on the kept hardware fit its hosts, HA reserve held."""
    return r.cluster.hosts_total + k.held_hosts <= len(k.hosts)


_MODE = {
    SharingMode.PASSTHROUGH: "whole GPUs (passthrough)",
    SharingMode.VGPU: "time-sliced vGPU",
    SharingMode.MIG: "MIG-backed vGPU",
}


def work(
    groups: Sequence[WorkloadGroup], k: Kept, r: Result, catalog: Catalog, rec: Recorder
) -> tuple[list[HostWork], Result]:
    """What the plan changes on the kept hosts: the host steps the sizing plans for the cluster
    (``groups``: those placed on it) whose state differs from what was read, each with its
    reboots. The cluster's vSphere steps keep only these, so the steps touch only what
    changes."""
    sw = r.software
    steps = sw.vsphere_steps if sw is not None else None
    if steps is None:
        return [], r
    planned = {g.sharing_mode for g in groups if g.name in set(r_names(r))}
    release = catalog.software.get(sw.nvaie_release or "") if sw is not None else None
    changed: list[HostStep] = []
    out: list[HostWork] = []
    hosts = list(k.hosts)
    for s in steps.hosts:
        why = _why_change(s, k, planned, release, catalog)
        if not why:
            continue
        changed.append(s)
        reboots = len(hosts) if s.reboot else 0
        source = f"{s.source}; {BRANCH_SOURCE}" if s.action == "driver" else s.source
        out.append(
            HostWork(
                cluster=k.name, hosts=hosts, change=_change(s, release),
                what=f"{s.step}: {s.value}", why=why,
                reboots=reboots,
                source=f"{source}; {REBOOT_SOURCE}" if s.reboot else source,
            )
        )  # fmt: skip
        rec.decide(
            f"Existing cluster '{k.name}': {s.step[0].lower()}{s.step[1:]} changes on its "
            f"{count(len(hosts), 'host')}.",
            why,
            implication=(
                f"{count(reboots, 'host reboot')}, one host at a time in maintenance mode"
                if reboots
                else "No host reboot"
            ),
        )
    if k.mode is SharingMode.MIG and SharingMode.MIG not in planned and planned:
        # MIG mode stays on until it is turned off; the planned steps never say so
        reboots = len(hosts) if _ampere(k, catalog) else 0
        why = f"the plan runs {_modes(planned)} on GPUs that are in MIG mode today"
        out.append(
            HostWork(
                cluster=k.name, hosts=hosts, change="MIG mode off",
                what="MIG mode of each GPU: Disabled "
                "(nvidia-smi -i <gpu> -mig 0, host in maintenance mode)", why=why,
                reboots=reboots, source=MIG_REBOOT,
            )
        )  # fmt: skip
        rec.decide(
            f"Existing cluster '{k.name}': MIG mode is turned off on its "
            f"{count(len(hosts), 'host')}.",
            why,
            implication=f"{count(reboots, 'host reboot')}, one host at a time in maintenance mode"
            if reboots
            else "No host reboot",
        )
    out += mmio_work(k, sw.vm_mmio, rec)
    kept_steps = steps.model_copy(update={"hosts": changed})
    assert sw is not None
    acts: set[str] = {s.action for s in changed}
    checklist = [c for c in sw.checklist if _still_to_do(c, acts, k)]
    return out, r.model_copy(
        update={
            "software": sw.model_copy(update={"vsphere_steps": kept_steps, "checklist": checklist})
        }
    )


def mmio_work(k: Kept, needed: list[VmMmio], rec: Recorder) -> list[HostWork]:
    """The kept VMs whose 64-bit MMIO settings fall short of what the plan gives the VMs of
    their group (NVIDIA's figure for the GPU; MMIO_SOURCE): each a VM setting to change, one
    power cycle per VM and no host reboot. VMs whose settings were not read are said in a
    decision, not guessed either way."""
    size_of = {m.workload: m.mmio_size_gb for m in needed}
    short: dict[tuple[str, int], list[KeptVm]] = {}
    unread: dict[tuple[str, int], list[KeptVm]] = {}
    for v in k.vms:
        size = size_of.get(v.workload or "")
        if size is None or v.workload is None:
            continue
        if v.mmio_64bit is None and v.mmio_size_gb is None:
            unread.setdefault((v.workload, size), []).append(v)
        elif v.mmio_64bit is not True or (v.mmio_size_gb or 0) < size:
            short.setdefault((v.workload, size), []).append(v)
    out = []
    for (group, size), vms in short.items():
        read = "; ".join(
            f"{v.vm}: "
            + ("64-bit MMIO on" if v.mmio_64bit else "64-bit MMIO not on")
            + (f", {v.mmio_size_gb} GB" if v.mmio_size_gb is not None else ", no size set")
            for v in vms
        )
        out.append(
            HostWork(
                cluster=k.name,
                hosts=list(dict.fromkeys(v.host for v in vms)),
                change=f"VM MMIO window: {size} GB",
                what=f"pciPassthru.use64bitMMIO = TRUE and pciPassthru.64bitMMIOSizeGB = {size} "
                f"on {count(len(vms), 'VM')} ({', '.join(v.vm for v in vms)}), each powered "
                "off to change it and on again",
                why=f"they run '{group}', whose VMs need a 64-bit MMIO window of {size} GB; "
                f"read: {read}",
                reboots=0,
                source=MMIO_SOURCE,
                vms=[v.vm for v in vms],
                vm_restarts=len(vms),
            )
        )
        rec.decide(
            f"Existing cluster '{k.name}': the 64-bit MMIO window of "
            f"{count(len(vms), 'VM')} running '{group}' changes to {size} GB.",
            f"Read: {read}. {MMIO_SOURCE}.",
            implication=f"{count(len(vms), 'VM power cycle')}, no host reboot",
        )
    for (group, size), vms in unread.items():
        rec.decide(
            f"Existing cluster '{k.name}': the 64-bit MMIO settings of "
            f"{count(len(vms), 'VM')} running '{group}' were not read; each needs "
            f"pciPassthru.use64bitMMIO = TRUE and pciPassthru.64bitMMIOSizeGB of at least "
            f"{size}.",
            "The inventory script's CSV reads them (an RVTools export and nvidia-smi do not). "
            f"{MMIO_SOURCE}.",
            implication="To confirm on the VMs; a VM whose window is smaller is powered off "
            "to change it",
        )
    return out


# The host settings of the platform checklist by the host step that makes them
_CHECK_ACTION = {
    "Graphics device": "graphics",
    "NVIDIA AI Enterprise host driver": "driver",
    "vGPU mode": "vgpu-mode",
    "MIG mode": "mig-mode",
}


def _still_to_do(c: ChecklistItem, acts: set[str], k: Kept) -> bool:
    """Whether a checklist setting is still to be made on the kept hosts: a host setting only
    where the plan changes it; the vCenter, VM and guest settings are the new VMs'."""
    if c.scope == "host-bios":
        return "firmware" in acts
    if c.scope != "esxi-host":
        return True
    if c.setting.startswith("PCI device passthrough"):
        return k.mode is not SharingMode.PASSTHROUGH
    action = next((a for p, a in _CHECK_ACTION.items() if c.setting.startswith(p)), None)
    return action is None or action in acts


def _ampere(k: Kept, catalog: Catalog) -> bool:
    return catalog.gpus[k.hardware.gpu].architecture == "Ampere"


def r_names(r: Result) -> list[str]:
    return [w.name for w in r.workloads if w.gpus_total]


def _why_change(
    s: HostStep,
    k: Kept,
    planned: set[SharingMode],
    release: SoftwareRelease | None,
    catalog: Catalog,
) -> str:
    """Why a planned host step changes a kept host; '' when the host already has it."""
    was_virtual = k.mode is not SharingMode.PASSTHROUGH
    if s.action in ("firmware", "graphics"):
        if was_virtual:
            return ""
        return f"the hosts give GPUs whole today; the plan runs {_modes(planned)} there"
    if s.action == "driver":
        if not k.driver and k.drivers:
            return (
                f"the hosts run different NVIDIA drivers ({', '.join(x for x in k.drivers if x)}"
                + ("; on some it was not read" if "" in k.drivers else "")
                + ")"
                + (f"; the plan runs {release.name} there, branch {release.driver_branch}"
                   if release is not None else "")
            )  # fmt: skip
        if not k.driver:
            return (
                "the NVIDIA host driver of the existing hosts was not read (no nvidia-smi "
                "report); confirm it is of the design's release, or update it"
            )
        host = branch(k.driver, catalog)
        if release is not None and (host is None or host.driver_branch != release.driver_branch):
            return (
                f"the hosts run NVIDIA driver {k.driver}"
                + (f" ({host.name}, branch {host.driver_branch})" if host else "")
                + (
                    f", supported until {host.end_of_support:%-d %B %Y}"
                    if host is not None and host.end_of_support is not None
                    else ""
                )
                + f"; the plan runs {release.name} there, branch {release.driver_branch}"
            )
        return ""
    if s.action == "mig-mode":
        if k.mode is SharingMode.MIG:
            return ""
        return f"MIG mode is off on these GPUs today (they run {_MODE[k.mode]})"
    if s.action == "vgpu-mode":
        return "" if k.mode is SharingMode.VGPU else f"the GPUs run {_MODE[k.mode]} today"
    return f"the existing hosts were not read with {s.step[0].lower()}{s.step[1:]}"


_CHANGE = {
    "firmware": "Firmware",
    "graphics": "Graphics type",
    "vgpu-mode": "vGPU mode",
    "fabric-manager": "NVIDIA Fabric Manager",
    "fabric-nics": "Fabric adapters",
}


def _change(s: HostStep, release: SoftwareRelease | None) -> str:
    """A host step's change in a few words, for a table."""
    if s.action == "driver":
        if release is None:
            return "NVIDIA host driver of the design's release"
        return f"NVIDIA host driver of {release.name} (branch {release.driver_branch})"
    if s.action == "mig-mode":
        return "MIG mode on"
    return f"{_CHANGE[s.action]}: {s.value}"


def _modes(planned: set[SharingMode]) -> str:
    return " and ".join(_MODE[m] for m in sorted(planned)) or "vGPUs"


def on_kept(
    kept: list[Kept],
    on_kept: dict[str, list[WorkloadGroup]],
    g: WorkloadGroup,
    catalog: Catalog,
    release: SoftwareRelease | None,
    rec: Recorder,
    trial: Callable[[Kept, list[WorkloadGroup]], Result],
) -> Placement | str:
    """The first existing cluster whose free capacity takes ``g`` (PLACE_SOURCE), or why none
    does, in words (also recorded as a decision); ``trial`` sizes groups alone on an existing
    cluster's hardware."""
    refused = []
    for k in kept:
        why = placement_refusal(k, g, catalog, release)
        if not why:
            try:
                r = trial(k, on_kept[k.name] + [g])
            except DesignError as exc:
                why = "; ".join(exc.problems)
            else:
                if not targets_met(r):
                    why = "it misses its targets on those GPUs"
                elif not fits(k, r):
                    why = (
                        f"with the groups already there it needs "
                        f"{count(r.cluster.hosts_total, 'host')}"
                        + (f" besides {k.held_hosts} held by vGPUs in use" if k.held_hosts else "")
                        + f", HA reserve included, and the cluster has {len(k.hosts)}"
                    )
        if why:
            refused.append(f"not on the existing cluster '{k.name}': {why}")
            continue
        on_kept[k.name].append(g)
        reason = (
            f"the free capacity of the existing cluster '{k.name}' takes it: "
            f"{_MODE[g.sharing_mode]} on its {len(k.hosts)} hosts, HA reserve held"
        )
        rec.decide(
            f"'{g.name}' runs on the existing cluster '{k.name}'.",
            f"{reason[0].upper()}{reason[1:]}. {PLACE_SOURCE}.",
            implication="No host is bought for it.",
        )
        return Placement(workload=g.name, cluster=k.name, chosen_by_engine=True, reason=reason)
    said = "; ".join(refused)
    rec.decide(f"'{g.name}' runs on new hosts.", f"{said[0].upper()}{said[1:]}. {PLACE_SOURCE}.")
    return said


def targets_met(r: Result) -> bool:
    for w in r.workloads:
        if w.serving is not None and not all(t.met for t in w.serving.targets):
            return False
    return not any(x.code == "target-time-missed" for x in r.warnings)


def kept_cluster(k: Kept, c: EstateCluster, rec: Recorder) -> EstateCluster:
    """The existing cluster as the estate shows it: its hosts kept, the reason in words."""
    held = (
        f" ({k.held_hosts} holding vGPUs in use for no group of the design)" if k.held_hosts else ""
    )
    if c.hosts > len(k.hosts):
        rec.warn(
            "existing-cluster-grows",
            f"Existing cluster '{k.name}' needs {count(c.hosts - len(k.hosts), 'more host')} "
            "of its own model for the groups it runs; they are bought with their cables, and "
            "the switch ports and rack room they take are said in the network decisions",
        )
    return c.model_copy(
        update={
            "existing_hosts": len(k.hosts),
            "reason": f"{count(len(k.hosts), 'existing host')} kept{held}; the groups on it "
            f"need {c.reason}",
        }
    )
