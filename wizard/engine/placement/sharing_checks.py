"""Decisions and warnings that follow from how the design shares its GPUs."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from wizard.base.numbers import count, some
from wizard.engine.basis.expr import Formula
from wizard.engine.basis.record import Recorder
from wizard.engine.basis.sources_platform import MIG_IN_GUEST, MIG_PLACEMENT
from wizard.engine.placement import mig, vgpu
from wizard.engine.placement.sharing import (
    PACKING_SOURCE,
    REMOTE_SOURCE,
    ModePacking,
    PackRules,
)
from wizard.model.catalog import Gpu
from wizard.model.design import FABRIC_GBPS, Design, Fabric, Rdma, SharingMode, WorkloadGroup
from wizard.model.names import FABRIC_LABEL
from wizard.model.result import ModeOption, Severity, WorkloadResult

REMOTE_GBPS_PER_GPU = 10.0  # reference architecture, section 8, design decision 6


@dataclass(frozen=True)
class SharingFacts:
    """What the sharing checks read of the design, and nothing more: the groups (their modes,
    sharing and concurrency), the packing's rules, whether passthrough VMs have restart spares,
    and the GPU fabric a network-attached pool serves its clients over."""

    groups: tuple[WorkloadGroup, ...]
    rules: PackRules
    passthrough_spares: bool
    fabric: Fabric
    nics_per_host: int
    rdma: Rdma

    @classmethod
    def of(cls, design: Design) -> SharingFacts:
        hw = design.hardware
        return cls(
            tuple(design.workloads),
            PackRules.of(hw),
            design.ha.passthrough_spares,
            hw.fabric,
            hw.nics_per_host,
            hw.rdma,
        )


def sharing_checks(
    facts: SharingFacts,
    gpu: Gpu,
    workloads: list[WorkloadResult],
    chosen: ModePacking,
    comparison: list[ModeOption],
    rec: Recorder,
) -> None:
    p = chosen.packing
    busy = sum(g.utilization for h in p.hosts for g in h.gpus)
    rec.expr(
        "sharing.mean_utilization",
        Formula("busy_gpu_equivalents / max(gpus_used, 1)"),
        {"busy_gpu_equivalents": busy, "gpus_used": p.gpus_used},
        "share of GPU",
        PACKING_SOURCE + "; busy GPU-equivalents: the shares the slots' stated needs take",
    )
    _profile_decisions(facts, gpu, workloads, rec)
    in_guest = {g.name for g in facts.groups if g.sharing_mode is SharingMode.MIG_GUEST}
    _layout_decisions(chosen, rec, bool(in_guest))
    _mig_power_on_order(gpu, chosen, rec, in_guest)
    _remote_network(facts, chosen, rec)
    _passthrough(facts, rec)
    _idle_vms(facts.groups, workloads, rec)
    if facts.rules.vgpu_mixed_sizes and not vgpu.mixed_supported(gpu):
        rec.warn(
            "vgpu-mixed-sizes-unsupported",
            f"hardware.vgpu_mixed_sizes is set but the {gpu.name} has no mixed-size vGPU "
            "maxima in the catalog; every physical GPU holds one vGPU size",
        )
    _compare_decision(comparison, rec)


def _mig_power_on_order(
    gpu: Gpu, chosen: ModePacking, rec: Recorder, in_guest: set[str] | None = None
) -> None:
    """vSphere, not the administrator, places each MIG instance when its VM powers on and never
    moves one afterwards, so a GPU's planned instances fit only if every power-on order finds
    room for them: the plan says which GPUs keep that margin and which need an order. GPUs
    partitioned in the guest (``in_guest`` groups) take their whole layout at once."""
    guest = in_guest or set()
    layouts: Counter[tuple[str, ...]] = Counter(
        tuple(sorted(s.profile for s in g.slots if s.kind == "mig" and s.profile))
        for h in chosen.packing.hosts
        for g in h.gpus
        if g.mode == "mig" and not any(s.workload in guest for s in g.slots)  # vSphere places
    )
    if not layouts:
        return
    risky = {k: order for k in layouts if (order := mig.order_dependent(gpu, k))}
    gpus = sum(layouts.values())
    if not risky:
        rec.decide(
            f"Every MIG GPU's planned instances fit whatever order their VMs power on in "
            f"({count(gpus, 'GPU')}).",
            "vSphere creates each MIG instance when its VM powers on, at the valid placement "
            "that keeps the most room for later instances, and never moves one afterwards; the "
            "plan was checked against every power-on order (F. Denneman, VMware, 'MIG "
            "Partitioning, Placement Geometry, and Stranded Capacity', 2026)",
            implication="VMs may start in any order; a GPU freed by powering its VMs off takes "
            "any of the planned layouts again.",
        )
        return
    at_risk = sum(layouts[k] for k in risky)
    example = next(iter(risky.values()))
    rec.warn(
        "mig-power-on-order",
        f"{count(at_risk, 'MIG GPU')} of {gpus} hold instances that vSphere fits only in some "
        f"power-on orders (e.g. {' then '.join(example)} leaves no room for the last); vSphere "
        "places each instance when its VM powers on and never moves it, so power on the VMs "
        f"with the larger instances first, or plan one more GPU as margin ({MIG_PLACEMENT})",
    )


def _idle_vms(
    groups: tuple[WorkloadGroup, ...], workloads: list[WorkloadResult], rec: Recorder
) -> None:
    """A vGPU or MIG-backed vGPU keeps its frame buffer while its VM is powered on, idle or not
    (NVIDIA vGPU allocates a vGPU's frame buffer when its VM starts): planning for only the users
    active at once holds only if idle users' VMs are powered off."""
    for g, w in zip(groups, workloads, strict=True):
        s = g.shared
        if s is None or s.concurrency >= 1 or not w.gpus_total:
            continue
        if g.sharing_mode not in (SharingMode.VGPU, SharingMode.MIG):
            continue
        rec.warn(
            "idle-vms-hold-their-vgpu",
            f"{g.name}: planned for {s.concurrency * 100:g} % of {g.count} "
            f"{'user' if g.count == 1 else 'users'} active at once; a "
            "VM keeps its vGPU frame buffer while it is powered on, even idle, so this holds "
            "only if idle users' VMs are powered off (or suspended); otherwise plan for all of "
            "them",
            Severity.INFO,
        )


def _profile_decisions(
    facts: SharingFacts, gpu: Gpu, workloads: list[WorkloadResult], rec: Recorder
) -> None:
    for g, w in zip(facts.groups, workloads, strict=True):
        if not w.gpus_total or g.sharing_mode is SharingMode.PASSTHROUGH:
            continue
        need = w.memory_gb.total
        one = w.gpus_per_replica == 1
        if g.sharing_mode is SharingMode.MIG and w.sharing.slot_profile:
            given = (
                f", given to its VM as the MIG-backed vGPU type {w.sharing.vgpu_type}"
                if w.sharing.vgpu_type
                else ""
            )
            shared = _time_sliced_users(gpu, w.sharing.vgpu_type)
            if shared and one:
                rec.decide(
                    f"{g.name}: up to {shared} members share each {w.sharing.slot_profile} MIG "
                    f"instance by time slices, each VM given the vGPU type {w.sharing.vgpu_type}.",
                    f"Time-sliced, MIG-backed vGPU: the instance keeps its compute, memory and "
                    f"bandwidth apart from other instances while the members inside it take "
                    f"turns; each needs {need:,.1f} GB, and {shared} of them cost less of the "
                    "GPU than an instance each",
                    implication="Members in one instance share its compute: a busy neighbour "
                    "slows the others; the administrator enables MIG mode on each GPU and vSphere "
                    "creates the instances when the VMs power on.",
                )
                continue
            rec.decide(
                f"{g.name}: each member runs in a {w.sharing.slot_profile} MIG instance{given}."
                if one
                else f"{g.name}: each member's {w.gpus_per_replica} GPUs are full-GPU "
                f"{w.sharing.slot_profile} MIG instances{given}.",
                f"The smallest instance holding {need:,.1f} GB and the group's compute share on "
                f"the {gpu.name}; vSphere places it at one of NVIDIA's valid placements when "
                "the VM powers on"
                if one
                else "A member needing several whole GPUs gets full-GPU instances",
                implication="The administrator enables MIG mode on each GPU; vSphere creates "
                "each GPU instance itself when its VM powers on, filling one GPU before the next "
                "and never moving instances, so the order VMs start in decides the fit (see the "
                "placement's margin).",
            )
        elif g.sharing_mode is SharingMode.MIG_GUEST and w.sharing.slot_profile:
            rec.decide(
                f"{g.name}: each member runs in a {w.sharing.slot_profile} MIG instance, "
                "partitioned inside the VM that holds the GPUs."
                if one
                else f"{g.name}: each member's {w.gpus_per_replica} GPUs are full-GPU "
                f"{w.sharing.slot_profile} MIG instances inside the VM that holds them.",
                f"The smallest instance holding {need:,.1f} GB and the group's compute share on "
                f"the {gpu.name}; the GPUs go whole to the VM by passthrough, and the VM "
                f"partitions them as bare metal would ({MIG_IN_GUEST})",
                implication="The design's MIG configuration is applied in the VM (the GPU "
                "Operator's MIG Manager on a Kubernetes worker, or nvidia-mig-parted); the VM "
                "cannot live-migrate, so maintenance powers it off.",
            )
        elif g.sharing_mode is SharingMode.VGPU and w.sharing.slot_profile:
            gph = facts.rules.gpus_per_host
            vms = -(-w.gpus_per_replica // gph)  # a VM lives on one host
            if one:
                what = "."
            elif vms == 1:
                what = f" on each of its {w.gpus_per_replica} GPUs."
            else:
                what = (
                    f" on each GPU; a member's {w.gpus_per_replica} GPUs are {vms} VMs of "
                    f"{gph} GPUs, one per host, since a VM runs on one host."
                )
            rec.decide(
                f"{g.name}: each VM gets the {w.sharing.slot_profile} vGPU profile" + what,
                f"The smallest C-series profile with at least {need:,.1f} GB of framebuffer"
                if one
                else "Multi-vGPU VMs use full-framebuffer profiles, which every vGPU-capable GPU "
                "supports in multi-vGPU configurations (NVIDIA Virtual GPU Software User Guide)",
                implication="Each VM is fixed to this framebuffer; a user needing more memory "
                "gets a larger profile, which takes a VM restart and may move it to another GPU.",
            )


def _layout_decisions(chosen: ModePacking, rec: Recorder, in_guest: bool = False) -> None:
    gpus = [g for h in chosen.packing.hosts for g in h.gpus]
    layouts = Counter(
        g.layout
        for g in gpus
        if g.mode in ("mig", "mig-guest") or (g.mode == "vgpu" and len(g.slots) > 1)
    )
    if not layouts:
        return
    text = "; ".join(f"{count(n, 'GPU')} as {layout}" for layout, n in layouts.most_common(8))
    more = len(layouts) - 8
    by_vsphere = any(g.mode in ("mig", "vgpu") for g in gpus)
    said = []
    if by_vsphere:
        said.append(
            "Nothing is partitioned in advance: vSphere gives each VM its vGPU or MIG instance "
            "when it powers on; a GPU takes one vGPU size at a time unless mixed sizes are "
            "enabled"
        )
    if in_guest:
        said.append(
            "the VMs that hold GPUs whole partition them with the design's MIG configuration "
            "when they start"
        )
    implication = "; ".join(said)
    rec.decide(
        f"Shared GPUs are planned as: {text}"
        + (f"; and {more} other layouts." if more > 0 else "."),
        "Slots are packed largest first onto the fullest GPU that still takes them, within "
        "NVIDIA's per-GPU maxima and MIG placements (" + mig.SOURCE.split(":")[0] + ")",
        implication=implication[:1].upper() + implication[1:] + ".",
    )


def _remote_network(facts: SharingFacts, chosen: ModePacking, rec: Recorder) -> None:
    remote_hosts = [
        sum(s.demand_share for g in h.gpus for s in g.slots if s.kind == "remote")
        for h in chosen.packing.hosts
    ]
    worst = max(remote_hosts, default=0.0)
    if not worst:
        return
    have = FABRIC_GBPS[facts.fabric] * max(1, facts.nics_per_host)
    need = rec.expr(
        "sharing.remote_gbps_per_host",
        Formula("gpu_equivalents * gbps_per_gpu"),
        {"gpu_equivalents": worst, "gbps_per_gpu": REMOTE_GBPS_PER_GPU},
        "Gb/s",
        REMOTE_SOURCE + "; the busiest pool host's remote GPU-equivalents",
    )
    if need > have + 1e-9:
        rec.warn(
            "remote-network-bandwidth",
            f"A GPU pool host serves {worst:g} GPU-equivalents to remote clients, about {need:g} "
            f"Gb/s at {REMOTE_GBPS_PER_GPU:g} Gb/s each, more than its {have:g} Gb/s "
            f"({max(1, facts.nics_per_host)} x {FABRIC_LABEL[facts.fabric]}); add NICs or a faster "
            "fabric",
        )
    if facts.rdma is Rdma.NONE:
        rec.warn(
            "remote-without-rdma",
            "Remote GPU access over TCP adds latency; Bitfusion guidance is 50 microseconds or "
            "less, with PVRDMA over RDMA-capable adapters (hardware.rdma)",
            Severity.INFO,
        )


def _passthrough(facts: SharingFacts, rec: Recorder) -> None:
    groups = [g.name for g in facts.groups if g.sharing_mode is SharingMode.PASSTHROUGH]
    if groups and not facts.passthrough_spares:
        rec.warn(
            "passthrough-no-restart-spares",
            f"{some(groups)}: passthrough VMs cannot live-migrate and ha.passthrough_spares "
            "is off, so after a host failure they wait for the host to return",
        )


def _compare_decision(rows: list[ModeOption], rec: Recorder) -> None:
    designed = rows[0]
    usable = [r for r in rows[1:] if r.available and r.gpus]
    if not usable or not designed.gpus:
        return
    best = min(usable, key=lambda r: (r.gpus, -r.mean_utilization))
    whole = next((r for r in rows if r.mode == SharingMode.PASSTHROUGH.value), None)
    line = (
        f"As designed the workloads take {count(designed.gpus, 'GPU')}, "
        f"{designed.mean_utilization:.0%} of them allocated on average; {best.label} would take "
        f"{best.gpus}"
    )
    if whole is not None and whole.gpus and whole.mode != best.mode:
        line += f" and whole GPUs (passthrough) {whole.gpus}"
    rec.decide(
        line + ".",
        "Sharing modes compared on the same demand; whole GPUs siloed per user are used only "
        "25-30 % of the time (VMware reference architecture 'Sharing GPUs in Machine Learning "
        "Environments', section 3)",
        implication="Changing a group's sharing mode changes the GPUs to buy; the comparison "
        "table shows what each mode needs.",
    )


def _time_sliced_users(gpu: Gpu, vgpu_type: str | None) -> int:
    """Members sharing one MIG instance under a time-sliced MIG-backed type; 0 otherwise."""
    if gpu.vgpu is None or vgpu_type is None:
        return 0
    return next((t.max_per_instance for t in gpu.vgpu.mig_time_sliced if t.name == vgpu_type), 0)
