"""GPU sharing modes: turn every workload group's demand into slots under its mode, pack them onto
physical GPUs and hosts, and compare the modes side by side.

A *need* is what a group asks of the hardware: ``count`` members, each needing ``gpus`` GPUs with
``memory_gb`` and a ``compute`` share per GPU. A mode turns a need into slots:

- passthrough: whole GPUs (DirectPath I/O), several per VM up to the host's GPUs;
- vgpu: the smallest time-sliced C-series profile holding the memory, or a full-framebuffer
  profile per GPU for multi-GPU members;
- mig: the smallest MIG instance holding the memory (and a compute share where one is stated:
  NVIDIA sizes MIG by memory), placed at NVIDIA's
  valid start positions; multi-GPU members take full-GPU instances;
- remote: an arbitrary share of a pooled GPU reached over the network (Bitfusion-style), or whole
  GPUs for multi-GPU members.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, replace

from wizard.base.numbers import count, some
from wizard.engine.basis.slices import mig_share, vgpu_share
from wizard.engine.demand.vms import vm_gpus, vm_sizes
from wizard.engine.demand.workload import TRAINING_KINDS
from wizard.engine.placement import mig, vgpu
from wizard.engine.placement.cluster import (
    Demand,
    PlatformFloor,
    ha_hosts,
    hosts_needed,
    platform_hosts,
)
from wizard.engine.placement.packing import Bin, Item, Unit, pack_fractional, place_on_hosts
from wizard.engine.platform.compat import sharing_mode_reason
from wizard.model.catalog import Gpu, Server
from wizard.model.design import MIG_MODES, Design, HaPolicy, Hardware, SharingMode, WorkloadGroup
from wizard.model.names import MODE_LABELS
from wizard.model.result import (
    GpuAssignment,
    HostAssignment,
    ModeOption,
    Packing,
    Slot,
    WorkloadSizing,
)

PASSTHROUGH_SOURCE = (
    "VMware KB 309986 'Configuring VMDirectPath I/O passthrough devices': up to 16 passthrough "
    "devices per VM on ESXi 7.x, 32 on 8.0 (more on later updates); VMware vSphere Networking, "
    "'DirectPath I/O': no vMotion, snapshots or suspend for such VMs"
)
REMOTE_SOURCE = (
    "VMware vSphere Bitfusion 4.0 User Guide, 'PVRDMA': network latency of 50 microseconds or less "
    "recommended, PVRDMA over RDMA-capable adapters rather than VMXNET3; reference architecture "
    "(2020) section 8: 10 Gb/s between compute and GPU clusters for Bitfusion access"
)
PACKING_SOURCE = (
    "Best-fit decreasing bin packing (Johnson et al., 'Worst-case performance bounds for simple "
    "one-dimensional packing algorithms', SIAM J. Comput. 3(4), 1974) under the sharing mode's "
    "rules: NVIDIA MIG placements, vGPU maximum counts per GPU, whole GPUs for passthrough"
)
BITFUSION_EOA = (
    "VMware ended the availability of vSphere Bitfusion; plan network-attached GPU pools only for "
    "an existing Bitfusion estate or an equivalent product"
)

# The sharing modes' names as the Result writes them (ModeOption.label and the comparison's
# per-mode text); the wizard and the report read them through wizard.present.
LABELS = MODE_LABELS


@dataclass(frozen=True)
class PackRules:
    """What packing reads of the design, and nothing more: the GPUs of a host (a replica stays
    inside one host where it fits), whether one GPU may hold vGPUs of several sizes, and whether
    MIG instances may be time-sliced between VMs."""

    gpus_per_host: int
    vgpu_mixed_sizes: bool = False
    mig_time_slicing: bool = False

    @classmethod
    def of(cls, hardware: Hardware) -> PackRules:
        return cls(hardware.gpus_per_host, hardware.vgpu_mixed_sizes, hardware.mig_time_slicing)


@dataclass(frozen=True)
class ModeFacts:
    """What the sharing-mode comparison reads, and nothing more: the packing's rules, the HA
    policy and the platform's floor (for each mode's host total), and the groups (their modes
    and the constraints that rule a mode out)."""

    rules: PackRules
    ha: HaPolicy
    floor: PlatformFloor
    groups: tuple[WorkloadGroup, ...]

    @classmethod
    def of(cls, design: Design) -> ModeFacts:
        return cls(
            PackRules.of(design.hardware),
            design.ha,
            PlatformFloor.of(design),
            tuple(design.workloads),
        )


@dataclass(frozen=True)
class Need:
    workload: str
    count: int  # members (replicas, active users) needing the same thing
    gpus: int  # GPUs per member
    memory_gb: float  # per GPU
    compute: float  # share of one GPU's compute, per GPU
    demand: float  # share of one GPU the stated need takes
    profile: tuple[SharingMode, str] | None = None  # the slice a serving plan was sized on
    # whether ``compute`` was asked for (a GPU fraction, a target the job was timed against)
    # rather than assumed in proportion to memory: MIG is sized by memory unless it was
    compute_stated: bool = True

    @property
    def mig_compute(self) -> float:
        """The compute a MIG instance must give: NVIDIA sizes MIG by memory, the smallest
        profile whose memory holds the member, unless a compute need is stated."""
        return self.compute if self.compute_stated else 0.0


@dataclass(frozen=True)
class SlotSpec:
    """One slot to place; ``whole`` slots take a GPU alone."""

    workload: str
    kind: str
    profile: str | None
    memory_gb: float
    compute: float
    share: float
    demand: float
    whole: bool
    users: int = 1  # members sharing the slot: several on a time-sliced MIG instance
    vgpu_type: str | None = None  # the time-sliced MIG-backed vGPU type, when time-sliced


def needs(
    groups: Sequence[WorkloadGroup], gph: int, gpu: Gpu, workloads: list[WorkloadSizing]
) -> list[Need]:
    """What each group asks of the GPUs, read from its sized result; a training member's
    data-parallel replicas as the VMs that hold them (see :func:`vm_gpus`), on hosts of
    ``gph`` GPUs."""
    out = []
    for group, w in zip(groups, workloads, strict=True):
        if not w.gpus_total or not w.gpus_per_replica:
            continue
        if vm_gpus(group, w, gph) > w.gpus_per_replica:
            mem = min(w.memory_gb.total, gpu.memory_gb)
            out += [
                Need(w.name, n, size, mem, 1.0, 1.0)  # whole GPUs (see vm_gpus)
                for n, size in vm_sizes(group, w, gph)
            ]
            continue
        members = w.gpus_total // w.gpus_per_replica
        mem = min(w.memory_gb.total, gpu.memory_gb)
        if w.gpus_per_replica > 1 or w.sized_from == "gpus_per_member":
            compute = 1.0
            mem = gpu.memory_gb if w.sized_from != "model" else mem
        elif w.sized_from == "shared":
            compute = _shared_compute(group, gpu)
        elif group.kind in TRAINING_KINDS:
            compute = _training_load(group, w)
        else:
            compute = _inference_load(group, w)
        demand = min(1.0, max(mem / gpu.memory_gb, compute))
        profile = None
        if w.planned_slice is not None:
            profile = (group.sharing_mode, w.planned_slice)
        stated = not (
            w.sized_from == "shared"
            and group.shared is not None
            and group.shared.gpu_fraction is None
        )
        out.append(Need(w.name, members, w.gpus_per_replica, mem, compute, demand, profile, stated))
    return out


def _shared_compute(group: WorkloadGroup, gpu: Gpu) -> float:
    s = group.shared
    assert s is not None
    if s.gpu_fraction is not None:
        return s.gpu_fraction
    if s.gpu_memory_gb is not None:
        return min(1.0, s.gpu_memory_gb / gpu.memory_gb)  # compute in proportion to memory
    return 1.0


def _training_load(group: WorkloadGroup, w: WorkloadSizing) -> float:
    """The compute share a one-GPU job was planned on: its slice's when the sizing timed it on a
    MIG instance or a vGPU (the slice that still meets the target time), else a whole GPU; a
    network-attached pool shares a GPU by time on a whole GPU over the target time."""
    tr = group.training
    if group.sharing_mode is not SharingMode.REMOTE:
        return w.planned_compute_share
    hours = w.training.time_to_train_hours if w.training else None
    if tr is None or not tr.target_hours or not hours or w.replicas_per_member != 1:
        return 1.0
    return min(1.0, hours / tr.target_hours)


def _inference_load(group: WorkloadGroup, w: WorkloadSizing) -> float:
    """The compute share a serving replica was planned on: a slice's share, a whole GPU
    otherwise. A network-attached pool shares a GPU by the throughput the target needs."""
    s = w.serving
    if s is None or not w.replicas:
        return 1.0
    if group.sharing_mode is not SharingMode.REMOTE:
        return w.planned_compute_share
    met = [t for t in s.targets if t.metric == "throughput"]
    if not met:
        return 1.0
    return min(1.0, met[0].target / (s.tokens_per_s_per_replica * w.replicas_per_member))


def _time_sliced_mig(need: Need, gpu: Gpu) -> SlotSpec | None:
    """The MIG instance several members share by time slices (time-sliced, MIG-backed vGPU),
    when that costs a member less of the GPU than an instance of its own: the type must hold
    the member's memory and the instance's compute must cover the members' summed compute.
    NVIDIA AI Enterprise, 'Choosing a vGPU Mode for Inference': hard boundaries between tenant
    groups and more than one light workload per MIG slice."""
    if gpu.vgpu is None or gpu.mig is None or need.gpus > 1:
        return None
    instances = {p.name: p for p in gpu.mig.profiles}
    best: tuple[float, SlotSpec] | None = None
    for t in gpu.vgpu.mig_time_sliced:
        inst = instances[t.mig_profile]
        sh = mig_share(gpu, inst)
        k = t.max_per_instance
        if t.framebuffer_gb + 1e-9 < need.memory_gb or k * need.mig_compute > sh + 1e-9:
            continue
        spec = SlotSpec(
            need.workload, "mig", inst.name, inst.memory_gb, sh, sh,
            min(1.0, k * need.demand), False, users=k, vgpu_type=t.name,
        )  # fmt: skip
        if best is None or sh / k < best[0] - 1e-12:
            best = (sh / k, spec)
    return best[1] if best else None


def slot_for(mode: SharingMode, need: Need, gpu: Gpu, mig_time_slicing: bool = False) -> SlotSpec:
    """The slot one GPU of a member takes under ``mode``; with ``mig_time_slicing`` a MIG slot
    may be an instance several members share by time slices."""
    whole = SlotSpec(need.workload, "whole", None, gpu.memory_gb, 1.0, 1.0, need.demand, True)
    multi = need.gpus > 1
    if mode is SharingMode.PASSTHROUGH:
        return whole
    planned = need.profile[1] if need.profile and need.profile[0] is mode else None
    if mode is SharingMode.VGPU:
        vp = vgpu.full_profile(gpu) if multi else vgpu.choose_profile(gpu, need.memory_gb)
        if planned and gpu.vgpu is not None:
            vp = next((v for v in gpu.vgpu.profiles if v.name == planned), vp)
        if vp is None:
            vp = vgpu.full_profile(gpu)
        assert vp is not None, "vGPU mode is offered only on vGPU-capable GPUs"
        sh = vgpu_share(gpu, vp)
        return SlotSpec(
            need.workload, "vgpu", vp.name, vp.framebuffer_gb, need.compute, sh, need.demand,
            sh >= 1 or multi,
        )  # fmt: skip
    if mode in MIG_MODES:
        mp = None if multi else mig.choose_profile(gpu, need.memory_gb, need.mig_compute)
        if planned and gpu.mig is not None:
            mp = next((x for x in gpu.mig.profiles if x.name == planned), mp)
        mp = mp or mig.full_profile(gpu)
        assert mp is not None, "MIG mode is offered only on MIG-capable GPUs"
        sh = mig_share(gpu, mp)
        own = SlotSpec(need.workload, "mig", mp.name, mp.memory_gb, sh, sh, need.demand, multi)
        # time slices inside an instance are a vGPU feature: not for MIG in the guest
        vsphere = mode is SharingMode.MIG
        shared = (
            _time_sliced_mig(need, gpu) if vsphere and mig_time_slicing and not planned else None
        )
        if shared is not None and shared.share / shared.users < sh - 1e-12:
            return shared
        return own
    if multi or need.demand >= 1:
        return SlotSpec(need.workload, "remote", None, gpu.memory_gb, 1.0, 1.0, need.demand, True)
    return SlotSpec(
        need.workload, "remote", None, need.memory_gb, need.compute, need.demand, need.demand,
        False,
    )  # fmt: skip


# ----------------------------------------------------------------------------- GPU states


@dataclass(frozen=True)
class RemoteState:
    memory_gb: float = 0.0
    compute: float = 0.0
    shares: int = 0


class _Packer:
    """Per-mode rules for putting fractional slots on one GPU."""

    def __init__(self, gpu: Gpu, mixed: bool) -> None:
        self.gpu = gpu
        self.mixed = mixed
        self.mig_profiles = {p.name: p for p in gpu.mig.profiles} if gpu.mig else {}
        self.vgpu_profiles = {p.name: p for p in gpu.vgpu.profiles} if gpu.vgpu else {}

    def empty(self, kind: str) -> Hashable:
        return {"mig": mig.MigState(), "vgpu": vgpu.VgpuState(), "remote": RemoteState()}[kind]

    def place(self, state: Hashable, s: SlotSpec) -> Hashable | None:
        if isinstance(state, mig.MigState):
            return state.place(self.gpu, self.mig_profiles[s.profile or ""])
        if isinstance(state, vgpu.VgpuState):
            return state.place(self.gpu, self.vgpu_profiles[s.profile or ""], s.compute, self.mixed)
        assert isinstance(state, RemoteState)
        mem = state.memory_gb + s.memory_gb
        comp = state.compute + s.compute
        if mem > self.gpu.memory_gb + 1e-6 or comp > 1 + 1e-9:
            return None
        return RemoteState(round(mem, 6), round(comp, 9), state.shares + 1)

    def fullness(self, state: Hashable) -> float:
        g = self.gpu
        if isinstance(state, mig.MigState):
            assert g.mig is not None
            return max(
                state.compute / g.mig.compute_slices,
                (g.mig.memory_slices - state.free_slices(g)) / g.mig.memory_slices,
            )
        if isinstance(state, vgpu.VgpuState):
            return max(state.framebuffer_gb / g.memory_gb, state.compute)
        assert isinstance(state, RemoteState)
        return max(state.memory_gb / g.memory_gb, state.compute)


def layout_of(state: Hashable | None, slots: list[SlotSpec]) -> str:
    if isinstance(state, mig.MigState):
        return mig.counts_text(state.instances)
    if isinstance(state, vgpu.VgpuState):
        return state.text()
    if isinstance(state, RemoteState):
        return f"remote pool: {count(state.shares, 'share')}, {state.memory_gb:g} GB"
    s = slots[0]
    if s.kind == "mig":
        return f"{s.profile}@0"
    if s.kind == "vgpu":
        return f"{s.profile} x1"
    return "remote pool: whole GPU" if s.kind == "remote" else "whole GPU (passthrough)"


@dataclass
class ModePacking:
    packing: Packing
    gpus: int
    hosts: int
    share_by_workload: dict[str, float]
    profile_by_workload: dict[str, str]
    type_by_workload: dict[str, str] = field(default_factory=dict)  # time-sliced MIG types


def vgpu_type(gpu: Gpu, mode: SharingMode, profile: str | None) -> str | None:
    """The vGPU type a VM is given: a time-sliced profile by its own name; a MIG instance as
    NVIDIA's MIG-backed vGPU type (NVIDIA AI Enterprise, 'Virtual GPU Types for Supported
    GPUs'); None for passthrough and remote GPUs."""
    if profile is None:
        return None
    if mode is SharingMode.VGPU:
        return profile
    if mode is SharingMode.MIG and gpu.mig is not None:
        p = next((x for x in gpu.mig.profiles if x.name == profile), None)
        return gpu.mig_vgpu_type(p) if p is not None else None
    return None


def pack(
    rules: PackRules,
    gpu: Gpu,
    need_list: list[Need],
    mode_of: dict[str, SharingMode],
    detail: bool = True,
) -> ModePacking:
    """Pack every need under its mode (``mode_of`` by workload name) onto GPUs and hosts;
    ``detail`` builds the per-host, per-GPU listing."""
    packer = _Packer(gpu, rules.vgpu_mixed_sizes and vgpu.mixed_supported(gpu))
    whole: list[tuple[Need, SlotSpec]] = []
    fractional: dict[str, list[Item[SlotSpec]]] = {}
    share_by: dict[str, float] = {}
    profile_by: dict[str, str] = {}
    types: dict[str, str] = {}
    for n in need_list:
        s = slot_for(mode_of[n.workload], n, gpu, rules.mig_time_slicing)
        taken = math.ceil(n.count / s.users)  # members sharing an instance take one slot
        share_by[n.workload] = share_by.get(n.workload, 0.0) + taken * n.gpus * s.share
        profile_by[n.workload] = s.profile or ("whole GPU" if s.whole else "GPU share")
        if s.vgpu_type:
            types[n.workload] = s.vgpu_type
        if s.whole:
            whole.append((n, s))
        else:
            fractional.setdefault(s.kind, []).append(Item(s, s.share, taken))
    bins = [
        b
        for kind in sorted(fractional)
        for b in pack_fractional(
            fractional[kind], packer.empty(kind), packer.place, packer.fullness
        )
    ]
    if not detail:
        counted = _counted(rules.gpus_per_host, whole, bins, share_by, profile_by)
        return replace(counted, type_by_workload=types)
    units: list[Unit[tuple[Hashable | None, list[SlotSpec]]]] = []
    for n, s in whole:
        placed: Hashable | None = None
        if s.kind == "mig":
            placed = mig.MigState().place(gpu, packer.mig_profiles[s.profile or ""])
        units.extend(Unit([(placed, [s]) for _ in range(n.gpus)]) for _ in range(n.count))
    units.extend(Unit([(b.state, b.payloads)]) for b in bins)
    hosts = place_on_hosts(units, rules.gpus_per_host)
    out_hosts: list[HostAssignment] = []
    used = 0
    busy = 0.0
    for h, positions in enumerate(hosts):
        gpus = []
        for g, cell in enumerate(positions):
            if cell is None:
                free = GpuAssignment(
                    host=h, gpu=g, mode="free", layout="free", slots=[],
                    memory_used_gb=0, compute_used=0, utilization=0,
                )  # fmt: skip
                gpus.append(free)
                continue
            state, slots = cell
            used += 1
            util = min(1.0, sum(s.demand for s in slots))
            busy += util
            gpus.append(
                GpuAssignment(
                    host=h,
                    gpu=g,
                    mode=_gpu_mode(slots[0], mode_of),
                    layout=layout_of(state, slots),
                    slots=_slots(slots, state),
                    memory_used_gb=min(gpu.memory_gb, sum(s.memory_gb for s in slots)),
                    compute_used=min(1.0, sum(s.compute for s in slots)),
                    utilization=util,
                )
            )
        out_hosts.append(HostAssignment(host=h, gpus=gpus))
    packing = Packing(
        hosts=out_hosts,
        gpus_used=used,
        hosts_used=len(hosts),
        mean_utilization=busy / used if used else 0.0,
    )
    return ModePacking(packing, used, len(hosts), share_by, profile_by, types)


def _gpu_mode(first: SlotSpec, mode_of: dict[str, SharingMode]) -> str:
    """A GPU's mode from its slots: whole GPUs are passthrough; MIG instances are partitioned
    in the guest when their group's mode says so."""
    if first.kind == "whole":
        return "passthrough"
    if first.kind == "mig" and mode_of.get(first.workload) is SharingMode.MIG_GUEST:
        return SharingMode.MIG_GUEST.value
    return first.kind


def _counted(
    gph: int,
    whole: list[tuple[Need, SlotSpec]],
    bins: list[Bin[Hashable, SlotSpec]],
    share_by: dict[str, float],
    profile_by: dict[str, str],
) -> ModePacking:
    """GPUs, hosts and utilization without the per-GPU listing, for the comparison rows: hosts
    by the same best-fit decreasing as the placement, on counts per size (time independent of
    the number of members)."""
    used = sum(n.count * n.gpus for n, _ in whole) + len(bins)
    busy = math.fsum(
        [n.count * n.gpus * min(1.0, s.demand) for n, s in whole]
        + [min(1.0, sum(s.demand for s in b.payloads)) for b in bins]
    )
    demands = [Demand(n.gpus, n.count) for n, _ in whole] + [Demand(1, len(bins))]
    hosts = hosts_needed(demands, gph)
    packing = Packing(
        hosts=[], gpus_used=used, hosts_used=hosts, mean_utilization=busy / used if used else 0.0
    )
    return ModePacking(packing, used, hosts, share_by, profile_by)


def _slots(specs: list[SlotSpec], state: Hashable | None) -> list[Slot]:
    """Slots in placement order; MIG slots carry the start of the instance they occupy."""
    starts: dict[str, list[int]] = {}
    if isinstance(state, mig.MigState):
        for inst in state.instances:
            starts.setdefault(inst.profile, []).append(inst.start)
    out = []
    for s in specs:
        start = None
        if s.kind == "mig":
            free = starts.get(s.profile or "", [])
            start = free.pop(0) if free else 0
        out.append(
            Slot(
                workload=s.workload,
                kind=s.kind,
                profile=s.profile,
                start=start,
                memory_gb=s.memory_gb,
                compute_share=s.compute,
                demand_share=s.demand,
                users=s.users,
            )
        )
    return out


# ----------------------------------------------------------------------------- comparison


def mode_problems(
    mode: SharingMode, groups: Sequence[WorkloadGroup], gpu: Gpu, server: Server | None = None
) -> list[str]:
    """Why ``mode`` cannot serve every one of ``groups`` on this hardware: the hardware's
    reasons, then the groups'."""
    return gpu_mode_problems(mode, gpu, server) + group_mode_problems(mode, groups)


def gpu_mode_problems(mode: SharingMode, gpu: Gpu, server: Server | None = None) -> list[str]:
    """Why the hardware cannot run ``mode`` at all (no MIG, no vGPU, an NVSwitch board), in the
    rule book's words."""
    why = sharing_mode_reason(mode, gpu, server)
    return [why] if why else []


def group_mode_problems(mode: SharingMode, groups: Sequence[WorkloadGroup]) -> list[str]:
    """Which groups' constraints rule ``mode`` out, and why."""
    out = []
    for g in groups:
        c = g.constraints
        why = []
        if c.isolation_required and mode in (SharingMode.VGPU, SharingMode.REMOTE):
            why.append("performance isolation required")
        if c.live_migration_required and mode is SharingMode.PASSTHROUGH:
            why.append("live migration required")
        if mode is SharingMode.REMOTE and not c.remote_ok:
            why.append("remote GPUs not accepted")
        if why:
            out.append(f"{g.name}: {' and '.join(why)}")
    return out


def _properties(mode: str, modes: set[SharingMode]) -> tuple[str, str, str, str, list[str]]:
    """Isolation, live migration, HA behaviour, licences, caveats for one row."""
    if mode == "as-designed":
        parts = [_properties(m.value, {m}) for m in sorted(modes)]
        join = "; ".join
        return (
            join(f"{LABELS[m.value]}: {p[0]}" for m, p in zip(sorted(modes), parts, strict=True)),
            join(f"{LABELS[m.value]}: {p[1]}" for m, p in zip(sorted(modes), parts, strict=True)),
            join(f"{LABELS[m.value]}: {p[2]}" for m, p in zip(sorted(modes), parts, strict=True)),
            join(sorted({p[3] for p in parts})),
            [c for p in parts for c in p[4]],
        )
    if mode == SharingMode.PASSTHROUGH.value:
        return (
            "Full: a whole GPU per VM",
            "No (DirectPath I/O VMs cannot vMotion)",
            "VMs restart on another host with a free GPU; maintenance needs them powered off",
            "vSphere; NVIDIA AI Enterprise per GPU if its software stack is used",
            ["Whole GPUs sit idle when their user does (25-30 % utilization in enterprises)"],
        )
    if mode == SharingMode.VGPU.value:
        return (
            "Memory and faults: isolated (each VM has its own framebuffer). Performance: not "
            "isolated (compute is time-sliced, so a busy neighbour adds latency)",
            "Yes (vGPU vMotion)",
            "VMs move away for maintenance; after a failure they restart where a matching "
            "vGPU profile is free",
            "vSphere; NVIDIA AI Enterprise per GPU",
            ["Time-sliced vGPUs contend for the GPU's engines: a busy neighbour slows the rest"],
        )
    if mode == SharingMode.MIG.value:
        return (
            "Memory, faults and performance: isolated in hardware (dedicated compute slices, "
            "memory, cache and memory bandwidth per instance: guaranteed quality of service)",
            "Yes with MIG-backed vGPU on releases that support its migration (check the release)",
            "VMs restart where a matching MIG instance can be placed; placements can fragment",
            "vSphere; NVIDIA AI Enterprise per GPU",
            ["Instance sizes are fixed steps (1/7 of compute, 1/8 of memory); re-partitioning a "
             "GPU needs its instances idle"],
        )  # fmt: skip
    if mode == SharingMode.MIG_GUEST.value:
        return (
            "Memory, faults and performance: isolated in hardware between the instances; the "
            "VM that holds the GPUs runs every instance on them",
            "No (the GPUs are passed through to the VM, which cannot vMotion)",
            "The VM restarts on a host with the same GPUs free and partitions them again; "
            "maintenance needs it powered off",
            "vSphere; NVIDIA AI Enterprise per GPU",
            ["Instance sizes are fixed steps (1/7 of compute, 1/8 of memory); the guest, not "
             "vSphere, partitions the GPUs and places the work on the instances"],
        )  # fmt: skip
    return (
        "Memory partitioned between users of a pooled GPU; performance not isolated",
        "Client VMs: yes (no local GPU); GPU server VMs use passthrough",
        "Clients reconnect to surviving pool servers; pool capacity drops with the failed host",
        "vSphere Bitfusion (end of availability) or an equivalent product",
        [BITFUSION_EOA, "Needs a low-latency network (50 us or less; RDMA/PVRDMA recommended)"],
    )


def compare(
    facts: ModeFacts,
    gpu: Gpu,
    need_list: list[Need],
    as_designed: ModePacking,
    server: Server | None = None,
) -> list[ModeOption]:
    """One row for the design as chosen, then one per mode the GPU allows, all groups in it."""
    rows = [_row("as-designed", facts, as_designed, [])]
    # MIG in the guest packs as MIG-backed vGPU does (a deployment choice, not a capacity one)
    for mode in (m for m in SharingMode if m is not SharingMode.MIG_GUEST):
        hw = gpu_mode_problems(mode, gpu, server)
        if hw:
            row = ModeOption(
                mode=mode.value, label=LABELS[mode.value], available=False,
                reason="; ".join(hw), gpus=0, hosts_for_capacity=0, hosts_total=0,
                mean_utilization=0, isolation="", live_migration="", ha_behaviour="",
                licences="", caveats=[],
            )  # fmt: skip
            rows.append(row)
            continue
        mp = pack(facts.rules, gpu, need_list, {n.workload: mode for n in need_list}, detail=False)
        why = mode_problems(mode, facts.groups, gpu, server)
        rows.append(_row(mode.value, facts, mp, why))
    return rows


def _row(mode: str, facts: ModeFacts, mp: ModePacking, problems: list[str]) -> ModeOption:
    modes = {g.sharing_mode for g in facts.groups} or {SharingMode.PASSTHROUGH}
    iso, live, ha, lic, caveats = _properties(mode, modes)
    ha_extra = ha_hosts(facts.ha, mp.hosts)
    return ModeOption(
        mode=mode,
        label=LABELS[mode],
        available=not problems,
        reason=some(problems, sep="; "),
        gpus=mp.gpus,
        hosts_for_capacity=mp.hosts,
        hosts_total=mp.hosts
        + ha_extra.ha_hosts
        + ha_extra.maintenance_hosts
        + platform_hosts(facts.floor, mp.hosts, ha_extra),
        mean_utilization=mp.packing.mean_utilization,
        isolation=iso,
        live_migration=live,
        ha_behaviour=ha,
        licences=lic,
        caveats=list(dict.fromkeys(caveats)),
    )
