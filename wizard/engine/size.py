"""The engine's one entry point: ``size(design, catalog) -> Result``. Pure and deterministic."""

from __future__ import annotations

import gc
from dataclasses import dataclass

from wizard.base.errors import DesignError
from wizard.base.numbers import count, plural
from wizard.engine.basis import sources
from wizard.engine.basis.expr import Formula
from wizard.engine.basis.record import Recorder
from wizard.engine.demand.sizer import DemandFacts
from wizard.engine.demand.workload import TRAINING_KINDS, WorkloadSizer
from wizard.engine.fitout.bom import PDUS_PER_RACK
from wizard.engine.fitout.buildout import BuildFacts, build_out
from wizard.engine.fitout.portmap import logged_oob_switches
from wizard.engine.fitout.storage import StorageFacts, plan_storage
from wizard.engine.placement import sharing
from wizard.engine.placement.cluster import (
    PLATFORM_HOSTS,
    PlatformFloor,
    ha_hosts,
    platform_minimum_hosts,
)
from wizard.engine.placement.sharing_checks import SharingFacts, sharing_checks
from wizard.engine.platform.compat import check_design
from wizard.engine.platform.platform_rules import PlatformFacts, platform_rules
from wizard.engine.platform.releases import ReleaseFacts, release_choice
from wizard.engine.platform.software import SoftwareFacts, plan_software
from wizard.model.buildout import Rack
from wizard.model.catalog import Catalog, Gpu
from wizard.model.design import Assumptions, Design, HaLevel, HaPolicy, SharingMode, WorkloadGroup
from wizard.model.result import (
    Cluster,
    Result,
    Severity,
    SizedFrom,
    WorkloadResult,
    WorkloadSharing,
    WorkloadSizing,
)

# The most GPU allocations (whole GPUs, vGPUs, MIG instances, pool shares: one per GPU of each
# member) one design may ask for. One vCenter manages at most 2,500 hosts and 40,000 powered-on
# VMs (VMware configuration maximums, vSphere 8), so a larger estate is several designs; the
# bound also keeps sizing within seconds and the Result within a readable size.
MAX_GPU_ALLOCATIONS = 65_536


def counted(racks: list[Rack], rec: Recorder) -> list[Rack]:
    """Each rack with the out-of-band switches (logged) and PDUs the bill counts for it, so the
    per-rack tables read them rather than count them again."""
    return [
        r.model_copy(update={"oob_switches": logged_oob_switches(r, rec), "pdus": PDUS_PER_RACK})
        for r in racks
    ]


def size(
    design: Design, catalog: Catalog, *, existing_hosts: int = 0, held_hosts: int = 0
) -> Result:
    """Size ``design`` against ``catalog``. Raises :class:`DesignError` naming each field the
    catalog cannot satisfy; everything else that is risky becomes a warning in the Result.
    ``existing_hosts``: hosts the cluster already has (an existing cluster of the estate): it
    keeps them all, and HA counts them with any hosts added; ``held_hosts`` of them hold vGPUs
    that run none of the design's groups.

    A large design builds tens of thousands of small result objects, none of them in reference
    cycles; Python's cyclic collector would rescan the growing heap again and again while they
    are built, so it is paused for the call (reference counting still frees everything)."""
    paused = gc.isenabled()
    gc.disable()
    try:
        return _size(design, catalog, existing_hosts, held_hosts)
    finally:
        if paused:
            gc.enable()


def _size(design: Design, catalog: Catalog, existing_hosts: int = 0, held_hosts: int = 0) -> Result:
    if not design.is_single_cluster():
        raise DesignError(
            f"clusters: this design has {len(design.clusters) + 1} clusters; the command line "
            "sizes it, writes its proposal and its bill of materials (gpuwizard size, report, "
            "bom), while the wizard and the MIG configuration export handle designs of one "
            "cluster"
        )
    problems = check_design(design, catalog)
    if problems:
        raise DesignError([str(p) for p in problems])
    gpu = catalog.gpus[design.hardware.gpu]
    server = catalog.servers[design.hardware.server]
    groups = tuple(design.workloads)
    rec = Recorder()
    # Each stage takes its slice of the design and catalog (its facts) and what the stages
    # before it produced, and writes its figures to the one log; nothing else passes between.
    # 1. demand: what each group needs, from the group, the hardware, assumptions and presets
    demand = DemandFacts.of(design, catalog)
    sized = [WorkloadSizer(i, g, demand, gpu, server, rec).size() for i, g in enumerate(groups)]
    _check_scale(groups, sized)
    _check_peer_to_peer(groups, design.hardware.nvlink, sized, gpu, rec)
    # 2. placement: the needs packed onto GPUs and hosts under each group's sharing mode
    rules = sharing.PackRules.of(design.hardware)
    need_list = sharing.needs(groups, rules.gpus_per_host, gpu, sized)
    chosen = sharing.pack(rules, gpu, need_list, {g.name: g.sharing_mode for g in groups})
    workloads = [
        WorkloadResult.placed(w, _placement(gpu, g, w.name, chosen))
        for g, w in zip(groups, sized, strict=True)
    ]
    # 3. the cluster: hosts for capacity, HA, maintenance and the platform's floor
    floor = PlatformFloor.of(design)
    count_in = HostCount(rules.gpus_per_host, design.ha, floor, chosen.gpus, chosen.hosts,
                         existing_hosts, held_hosts)  # fmt: skip
    cluster = _cluster(count_in, workloads, rec)
    comparison = sharing.compare(sharing.ModeFacts.of(design), gpu, need_list, chosen, server)
    _decisions(DecisionFacts.of(design, gpu.name), workloads, cluster, rec)
    sharing_checks(SharingFacts.of(design), gpu, workloads, chosen, comparison, rec)
    # 4. the platform: the release, the vSphere and NVIDIA AI Enterprise rules
    release_facts = ReleaseFacts.of(design, catalog)
    release = release_choice(release_facts)[0]
    platform_rules(PlatformFacts.of(design, catalog), gpu, server, workloads, release, rec)
    # 5. the data path and the software stack
    storage = plan_storage(StorageFacts.of(design, catalog), gpu, workloads, rec)
    software_facts = SoftwareFacts.of(design, catalog, release_facts)
    software = plan_software(software_facts, gpu, server, workloads, storage, rec, chosen.packing)
    # 6. the build-out: topology, fabric, racks, power, cooling and the bill
    build = BuildFacts.of(design, catalog)
    built = build_out(build, catalog, gpu, server, cluster, workloads, rec, storage)
    return Result(
        gpu=gpu.id,
        server=server.id,
        cluster=cluster,
        workloads=workloads,
        calculations=rec.calculations,
        warnings=rec.warnings,
        decisions=rec.decisions,
        packing=chosen.packing,
        sharing_comparison=comparison,
        storage=storage,
        software=software,
        topology=built.topology,
        power=built.power,
        racks=built.racks.model_copy(update={"racks": counted(built.racks.racks, rec)}),
        bom=built.bom,
        assumptions=stated_assumptions(design.assumptions),
    )


def stated_assumptions(a: Assumptions) -> dict[str, float | int | str | bool]:
    """The assumptions the Result states beside its figures, each by its field's name, with
    the method assumptions (overlap, placement, concurrency) in words."""
    assumptions: dict[str, float | int | str | bool] = {
        "achievable_utilization": a.achievable_utilization,
        "link_efficiency": a.link_efficiency
        if a.link_efficiency is not None
        else "measured per link kind (NVLink/NVSwitch 0.8, PCIe 0.8, network 0.92)",
        "utilization_includes_communication": a.utilization_includes_communication,
        "serving_memory_utilization": a.serving_memory_utilization,
        "decode_bandwidth_efficiency": a.decode_bandwidth_efficiency,
        "prefill_compute_efficiency": a.prefill_compute_efficiency,
        "collective_latency_us": a.collective_latency_us,
        "serving_host_us_per_sequence": a.serving_host_us_per_sequence,
        "serving_reserves_whole_request": a.serving_reserves_whole_request,
        "serving_chunked_prefill": a.serving_chunked_prefill,
        "serving_first_token_host_ms": a.serving_first_token_host_ms,
        "serving_allreduce_peer_latency_us": a.serving_allreduce_peer_latency_us,
        "gradient_bytes": a.gradient_bytes
        if a.gradient_bytes is not None
        else "what each group's training software keeps",
        "framework_overhead_gb": a.framework_overhead_gb,
        "allocator_reserve": a.allocator_reserve,
        "overlap_slowdown": a.overlap_slowdown,
        "sharp": a.sharp,
        "fabric_oversubscription": a.fabric_oversubscription,
        "max_rack_power_kw": a.max_rack_power_kw,
        "rack_units": a.rack_units,
        "communication_overlap": "gradient all-reduce overlapped with the backward pass "
        "(ZeRO stage 3 and FSDP gather the parameters and reduce the gradients in every "
        "micro-batch), the compute under it slowed by the overlap slowdown; tensor-parallel "
        "all-reduces and the pipeline bubble not hidden",
        "placement": "best-fit decreasing: fractional slots onto GPUs, then GPUs and whole "
        "replicas onto hosts, a replica kept inside one host where it fits",
        "development_concurrency": "a slot is held only by users active at once",
    }
    return assumptions


def _placement(
    gpu: Gpu, group: WorkloadGroup, name: str, chosen: sharing.ModePacking
) -> WorkloadSharing:
    profile = chosen.profile_by_workload.get(name)
    return WorkloadSharing(
        mode=group.sharing_mode,
        slot_profile=profile,
        vgpu_type=chosen.type_by_workload.get(name)
        or sharing.vgpu_type(gpu, group.sharing_mode, profile),
        gpus_allocated=chosen.share_by_workload.get(name, 0.0),
    )


def _check_peer_to_peer(
    groups: tuple[WorkloadGroup, ...],
    nvlink: bool,
    workloads: list[WorkloadSizing],
    gpu: Gpu,
    rec: Recorder,
) -> None:
    """A replica on several GPUs exchanges data GPU to GPU: MIG-backed vGPUs cannot do that at
    all, and time-sliced vGPUs only over NVLink (``nvlink``: the hardware answer that the GPUs
    are linked, where the GPU has NVLink)."""
    refused = []
    for i, (g, w) in enumerate(zip(groups, workloads, strict=True)):
        if w.gpus_per_replica <= 1 or not w.gpus_total:
            continue
        if g.sharing_mode is SharingMode.MIG:
            refused.append(
                f"workloads[{i}].sharing_mode: '{g.name}' needs {w.gpus_per_replica} GPUs per "
                "replica, and MIG-backed vGPUs have no peer-to-peer transfers between GPUs "
                "(NVIDIA AI Enterprise: 'NVLink P2P supports only NVIDIA vGPU for Compute "
                "time-sliced vGPUs'); use passthrough or full-framebuffer time-sliced vGPU for it"
            )
        elif g.sharing_mode is SharingMode.MIG_GUEST:
            refused.append(
                f"workloads[{i}].sharing_mode: '{g.name}' needs {w.gpus_per_replica} GPUs per "
                "replica, and MIG instances have no peer-to-peer transfers between GPUs "
                "(NVIDIA Multi-Instance GPU User Guide, application considerations: no GPU to "
                "GPU P2P, over PCIe or NVLink, in MIG mode); use passthrough for it"
            )
        elif g.sharing_mode is SharingMode.VGPU and not (
            nvlink and gpu.nvlink.kind.value != "none"
        ):
            rec.warn(
                "vgpu-no-peer-to-peer",
                f"{g.name}: its {w.gpus_per_replica}-GPU replicas run on time-sliced vGPUs "
                "without NVLink, and vGPUs have peer-to-peer transfers only over NVLink with "
                "full-framebuffer profiles (NVIDIA AI Enterprise: 'P2P transfers over PCIe are "
                "not supported'); the GPUs exchange data through system memory, more slowly than "
                "the figures assume",
            )
    if refused:
        raise DesignError(refused)


def _check_scale(groups: tuple[WorkloadGroup, ...], workloads: list[WorkloadSizing]) -> None:
    """Refuse, naming the groups that ask most, a design beyond what one design can hold;
    checked on the sized counts, before anything is placed GPU by GPU."""
    total = sum(w.gpus_total for w in workloads)
    if total <= MAX_GPU_ALLOCATIONS:
        return
    biggest = sorted(
        (i for i, w in enumerate(workloads) if w.gpus_total),
        key=lambda i: -workloads[i].gpus_total,
    )[:5]
    raise DesignError(
        f"workloads[{i}].{_scale_field(groups[i], workloads[i])}: "
        f"'{w.name}' asks for {count(w.gpus_total, 'GPU allocation')} "
        f"({count(w.gpus_total // max(w.gpus_per_replica, 1), 'member')} x "
        f"{count(w.gpus_per_replica, 'GPU')}); "
        f"the design asks for {total:,} in all, more than the {MAX_GPU_ALLOCATIONS:,} one design "
        "holds (one vCenter manages at most 2,500 hosts and 40,000 powered-on VMs): split the "
        "estate into several designs"
        for i, w in ((i, workloads[i]) for i in biggest)
    )


def _scale_field(group: WorkloadGroup, w: WorkloadSizing) -> str:
    """The answer that made a group large: its data parallelism, its target time or its count."""
    if w.sized_from is SizedFrom.MODEL and group.kind in TRAINING_KINDS:
        if group.parallelism.data_parallel is not None:
            return "parallelism.data_parallel"
        if (
            w.training
            and w.training.gpus_for_target_time
            and group.training
            and group.training.target_hours
        ):
            return "training.target_hours"
    return "count"


@dataclass(frozen=True)
class HostCount:
    """What the host count reads, and nothing more: GPUs per host, the HA policy, the
    platform's floor, the GPUs and hosts the packing took, and for an existing cluster its
    hosts (all kept) and those held by vGPUs of no group of the design."""

    gpus_per_host: int
    ha: HaPolicy
    floor: PlatformFloor
    packed_gpus: int
    packed_hosts: int
    existing_hosts: int = 0
    held_hosts: int = 0


def _cluster(need: HostCount, workloads: list[WorkloadResult], rec: Recorder) -> Cluster:
    gph, existing_hosts, held_hosts = need.gpus_per_host, need.existing_hosts, need.held_hosts
    demand = int(
        rec.expr(
            "cluster.gpus_demand", Formula("packed_gpus"),
            {"packed_gpus": need.packed_gpus}, "GPUs",
            sharing.PACKING_SOURCE + ": physical GPUs after packing every group's slots under "
            "its sharing mode (see the placement)",
        )
    )  # fmt: skip
    for w in workloads:
        if w.gpus_per_replica > gph and w.gpus_total:
            rec.warn(
                "replica-spans-hosts",
                f"{w.name}: a replica needs {w.gpus_per_replica} GPUs, more than the {gph} per "
                "host, so it spans hosts and its traffic crosses the network",
            )
    cap = int(
        rec.expr(
            "cluster.hosts_for_capacity", Formula("packed_hosts"),
            {"packed_hosts": need.packed_hosts, "gpus_demand": demand,
             "gpus_per_host": gph}, "hosts",
            sources.SEED_WHITE_PAPER + ": the fewest hosts holding every packed GPU and every "
            "replica whole (best-fit decreasing); ceil(GPUs / GPUs per host) when every replica "
            "needs one GPU",
        )
    )  # fmt: skip
    ha = ha_hosts(need.ha, cap)
    hosts_ha = int(
        rec.expr("cluster.hosts_for_ha", ha.formula, ha.inputs, "hosts",
                 f"{sources.SEED_WHITE_PAPER}; {ha.rule}")
    )  # fmt: skip
    minimum, why_minimum = platform_minimum_hosts(need.floor, cap)
    platform_hosts = int(
        rec.expr(
            "cluster.hosts_for_platform_minimum", PLATFORM_HOSTS,
            {"platform_minimum": minimum, "capacity": cap, "ha": hosts_ha,
             "maintenance": ha.maintenance_hosts}, "hosts", why_minimum,
        )
    )  # fmt: skip
    total = int(
        rec.expr(
            "cluster.hosts_total", Formula("capacity + ha + maintenance + platform"),
            {"capacity": cap, "ha": hosts_ha, "maintenance": ha.maintenance_hosts,
             "platform": platform_hosts}, "hosts",
            sources.SEED_WHITE_PAPER,
        )
    )  # fmt: skip
    if existing_hosts:
        # an existing cluster keeps every host it has; hosts are added only where the demand,
        # HA and maintenance need more than it has, so HA counts existing and added together
        total = int(
            rec.expr(
                "cluster.hosts_with_existing", Formula("max(needed + held, existing)"),
                {"needed": total, "held": held_hosts, "existing": existing_hosts}, "hosts",
                "Existing cluster: its hosts are kept, those holding vGPUs in use for no group "
                "of the design stay held; hosts are added beyond them only where capacity, HA "
                "and maintenance need more",
            )
        )  # fmt: skip
    gpus_total = int(
        rec.expr(
            "cluster.gpus_total", Formula("hosts * gpus_per_host"),
            {"hosts": total, "gpus_per_host": gph}, "GPUs", sources.SEED_WHITE_PAPER,
        )
    )  # fmt: skip
    after = int(
        rec.expr(
            "cluster.gpus_after_failures", Formula("(hosts - failed_hosts) * gpus_per_host"),
            {"hosts": total, "failed_hosts": ha.failures_tolerated, "gpus_per_host": gph},
            "GPUs", sources.SEED_WHITE_PAPER,
        )
    )  # fmt: skip
    # Hosts are maintained one at a time at least, so "during maintenance" means the tolerated
    # failures while the maintenance hosts, or one host, are out: the same figure the warning
    # about having no maintenance host quotes
    after_maint = int(
        rec.expr(
            "cluster.gpus_after_failures_and_maintenance",
            Formula("max(hosts - failed_hosts - hosts_in_maintenance, 0) * gpus_per_host"),
            {"hosts": total, "failed_hosts": ha.failures_tolerated,
             "hosts_in_maintenance": max(1, ha.maintenance_hosts), "gpus_per_host": gph},
            "GPUs", sources.SEED_WHITE_PAPER + ": one host in maintenance at a time, at least",
        )
    )  # fmt: skip
    ok = total - ha.failures_tolerated >= cap
    if need.ha.level is HaLevel.N0 and total and demand:
        left = (total - 1) * gph
        if left < demand or total - 1 < cap:
            rec.warn(
                "capacity-below-demand-after-failure",
                f"N+0: one host failure leaves {left} GPUs ({total - 1} hosts) for a demand of "
                f"{demand} GPUs on {cap} hosts; workloads on the failed host cannot restart",
            )
    elif (
        ha.maintenance_hosts == 0
        and ha.failures_tolerated
        and total > ha.failures_tolerated
        and after_maint < demand  # a shortfall only: enough GPUs left is no risk
    ):
        during = after_maint
        rec.warn(
            "failure-during-maintenance",
            f"No maintenance host: a host failure while another is in maintenance leaves {during} "
            f"GPUs for a demand of {demand} (the reference architecture accepts this risk)",
            Severity.INFO,
        )
    if not ok:  # pragma: no cover - hosts are added per failure, so this holds by construction
        rec.warn("capacity-below-demand-after-failure", "capacity after failures is below demand")
    return Cluster(
        gpus_demand=demand,
        gpus_per_host=gph,
        hosts_for_capacity=cap,
        hosts_for_ha=hosts_ha,
        hosts_for_maintenance=ha.maintenance_hosts,
        hosts_for_platform=platform_hosts,
        hosts_total=total,
        hosts_existing=existing_hosts,
        gpus_total=gpus_total,
        host_failures_tolerated=ha.failures_tolerated,
        gpus_after_failures=after,
        gpus_after_failures_and_maintenance=after_maint,
        capacity_after_failures_ok=ok,
    )


@dataclass(frozen=True)
class DecisionFacts:
    """What the cluster's decisions read besides the counts: the GPU's name, the HA policy, each
    group's sharing mode by name, and the platform's floor."""

    gpu_name: str
    ha: HaPolicy
    modes: tuple[tuple[str, SharingMode], ...]
    floor: PlatformFloor

    @classmethod
    def of(cls, design: Design, gpu_name: str) -> DecisionFacts:
        modes = tuple((g.name, g.sharing_mode) for g in design.workloads)
        return cls(gpu_name, design.ha, modes, PlatformFloor.of(design))


def _decisions(
    facts: DecisionFacts, workloads: list[WorkloadResult], c: Cluster, rec: Recorder
) -> None:
    gph = c.gpus_per_host
    biggest = max(
        (w for w in workloads if w.gpus_total), key=lambda w: w.gpus_per_replica, default=None
    )
    if biggest is not None and biggest.gpus_per_replica == gph and gph > 1:
        reason = f"to meet the need of {biggest.name} for {gph} GPUs in one node"
    elif biggest is not None and biggest.gpus_per_replica > gph:
        reason = f"{biggest.name} needs {biggest.gpus_per_replica} GPUs per replica and spans hosts"
    else:
        reason = (
            f"the chosen server holds {gph} {facts.gpu_name} {plural(gph, 'GPU')} in this "
            "configuration"
        )
    rec.decide(
        f"Each host has {gph} {facts.gpu_name} {plural(gph, 'GPU')}.",
        reason,
        implication="Every host is ordered in this configuration; a different GPU count per host "
        "later means a different host build.",
    )
    rec.decide(
        f"To provide a capacity of {count(c.gpus_demand, 'GPU')}, a minimum of "
        f"{count(c.hosts_for_capacity, 'host')} with {count(gph, 'GPU')} each "
        f"{'is' if c.hosts_for_capacity == 1 else 'are'} required.",
        "Every replica stays whole inside one host where it fits, so hosts are counted by "
        "packing replicas, not by dividing GPUs.",
        implication="Growth is bought in whole hosts of this build; a replica that outgrows a "
        "host needs a faster host-to-host network.",
    )
    if c.hosts_for_ha or c.hosts_for_maintenance:
        extra = []
        if c.hosts_for_ha:
            level = (
                f"{facts.ha.reserve_percent:g} % reserve"
                if facts.ha.level is HaLevel.PERCENT
                else facts.ha.level.value.upper()
            )
            extra.append(f"{c.hosts_for_ha} for high availability ({level})")
        if c.hosts_for_maintenance:
            extra.append(f"{c.hosts_for_maintenance} for maintenance")
        rec.decide(
            f"Additional hosts: {' and '.join(extra)}.",
            "So the demand still fits when "
            + (
                f"{count(c.host_failures_tolerated, 'host')} "
                f"{'fails' if c.host_failures_tolerated == 1 else 'fail'}"
                if c.host_failures_tolerated
                else "a host is in maintenance"
            )
            + (
                ""
                if c.hosts_for_maintenance
                else "; a failure during maintenance is an accepted risk"
            ),
            implication=f"{count(c.hosts_for_ha + c.hosts_for_maintenance, 'host')} and "
            f"{count((c.hosts_for_ha + c.hosts_for_maintenance) * gph, 'GPU')} are bought, "
            "powered and licensed to stand by in normal operation; vSphere HA admission control "
            "must be set to match.",
        )
    rec.decide(
        f"The cluster uses {c.hosts_total} hosts with {gph} GPUs each, a total capacity of "
        f"{c.gpus_total} GPUs; "
        + (
            f"{c.gpus_after_failures} GPUs remain available after "
            f"{count(c.host_failures_tolerated, 'host failure')}."
            if c.host_failures_tolerated
            else "no spare host covers a host failure."
        ),
        "Hosts for capacity plus the HA and maintenance hosts above.",
        implication="The bill of materials, the power, the racks and the per-GPU licences all "
        "follow from this host count.",
    )
    modes = {mode for _name, mode in facts.modes}
    if SharingMode.VGPU in modes:
        rec.decide(
            "GPU allocations for vGPU groups go through NVIDIA vGPU (NVIDIA AI Enterprise).",
            "VMs with vGPUs can be live-migrated (vMotion), which makes host maintenance "
            "possible without stopping them.",
            implication="Every GPU needs an NVIDIA AI Enterprise licence, the hosts the vGPU "
            "Manager and each VM the guest driver of the same release branch.",
        )
    if SharingMode.PASSTHROUGH in modes:
        rec.decide(
            "Passthrough groups get whole GPUs through (Dynamic) DirectPath I/O.",
            "Full-GPU performance and isolation; such VMs cannot be live-migrated and restart "
            "elsewhere after a host failure.",
            implication="Host maintenance stops these VMs unless a spare GPU elsewhere takes "
            "them: plan maintenance windows with their users.",
        )
    if SharingMode.REMOTE in modes:
        rec.decide(
            "Remote-access groups reach GPUs over the network from a GPU pool.",
            "Users anywhere in the data centre share full or partial GPUs. VMware ended "
            "Bitfusion's availability: this suits existing estates or an equivalent product.",
            implication="Needs an existing Bitfusion estate or another GPU-over-network product, "
            "its licences and a low-latency network between clients and the pool.",
        )
        pooled = {name for name, mode in facts.modes if mode is SharingMode.REMOTE}
        # a pool member takes whole GPUs (gpus_per_member), so its GPUs are physical ones
        on_pool = min(sum(w.gpus_total for w in workloads if w.name in pooled), c.gpus_demand)
        demand = c.gpus_demand
        rec.warn(
            "bitfusion-end-of-availability",
            f"{on_pool:,} of the {count(demand, 'GPU')} the workloads need are reached through a "
            "network-attached GPU pool, which was built on VMware vSphere Bitfusion, whose "
            "availability VMware ended; plan this mode only for an existing Bitfusion estate or "
            "an equivalent product",
        )
    for w in workloads:
        if w.layout and w.gpus_per_replica > 1:
            rec.decide(
                f"{w.name}: each replica uses {w.gpus_per_replica} GPUs "
                f"(tensor parallel {w.layout.tensor_parallel} x pipeline parallel "
                f"{w.layout.pipeline_parallel}).",
                w.layout.reason,
                implication="The replica's GPUs are scheduled together; a VM holding them must "
                "fit one host's GPUs unless the replica spans hosts over the GPU fabric.",
            )
    if c.hosts_for_platform:
        rec.decide(
            f"The GPU cluster has {count(c.hosts_total, 'host')}, the least a VMware Cloud "
            f"Foundation workload domain cluster holds ({count(c.hosts_for_platform, 'host')} "
            "beyond what capacity, HA and maintenance need).",
            platform_minimum_hosts(facts.floor, c.hosts_for_capacity)[1],
            implication="The extra host's GPUs add capacity and HA headroom; with principal "
            "storage other than vSAN the minimum is 2 hosts (Sharing page).",
        )
