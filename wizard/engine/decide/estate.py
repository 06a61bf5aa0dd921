"""Sizing a design of several clusters: where each workload group runs, each GPU cluster sized
on its own (vSphere HA works per cluster), the clusters without GPUs, the networks they share
sized once, and one bill of materials with the cluster named on every line."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from wizard.base.errors import DesignError
from wizard.base.numbers import count
from wizard.engine.basis.record import Recorder
from wizard.engine.decide import estate_power, kept_build
from wizard.engine.decide import existing as existing_
from wizard.engine.decide.cpu_clusters import (
    CPU_HOST_SERVICE_PORTS,
    MANAGEMENT_MIN_HOSTS,
    cpu_cluster,
    cpu_lines,
    hosts_per_rack,
)
from wizard.engine.decide.placing import GpuSpec, gpu_specs, in_cluster, kept_spec, place, view
from wizard.engine.decide.placing import cluster_design as cluster_design
from wizard.engine.decide.placing import new_hosts_design as new_hosts_design
from wizard.engine.fitout import bom as bom_
from wizard.engine.fitout import confirm, cooling, linkx, media, portmap
from wizard.engine.fitout.buildout import cabling_words
from wizard.engine.fitout.fabric import (
    FABRIC_LABEL,
    network_hosts,
    oob_plane,
    place_cables,
    size_plane,
)
from wizard.engine.fitout.racks import leaf_homes, reserve, top_of_rack, with_oob
from wizard.engine.fitout.racks import network_racks as _network_racks
from wizard.engine.platform.compat import check_design
from wizard.engine.size import counted, size
from wizard.model import buildout as bo
from wizard.model.catalog import Catalog, CduPlacement, SwitchKind
from wizard.model.design import (
    FABRIC_GBPS,
    Assumptions,
    ClusterRole,
    ClusterSpec,
    Design,
    Fabric,
    Licensing,
    WorkloadGroup,
    is_infiniband,
)
from wizard.model.estate import Estate, EstateCluster, EstateTotals, HostWork
from wizard.model.result import DecisionTopic, Result, Severity


@dataclass(frozen=True)
class SharedFacts:
    """What the estate's shared build (its network, racks, cooling and bill) reads of the
    design, and nothing more: the assumptions (rack height and power, oversubscription, CDU
    spares), the service network's fabric (the hosts without GPUs join it), the licensing, the
    clusters without GPUs as the design states them (their processors), and each GPU cluster's
    fabric NIC by name ("" for none)."""

    assumptions: Assumptions
    service_fabric: Fabric
    licensing: Licensing
    cpu_clusters: tuple[ClusterSpec, ...]
    nics: Mapping[str, str]

    @classmethod
    def of(cls, design: Design) -> SharedFacts:
        return cls(
            assumptions=design.assumptions,
            service_fabric=design.hardware.service_fabric,
            licensing=design.licensing,
            cpu_clusters=tuple(c for c in design.clusters if c.role is not ClusterRole.GPU),
            nics={s.name: s.hardware.nic or "" for s in gpu_specs(design)},
        )


def size_estate(design: Design, catalog: Catalog, sized: Result | None = None) -> Estate:
    """Size every cluster of ``design``. A design of one cluster sizes exactly as ``size()``;
    ``sized`` is that one cluster's Result when the caller already holds it."""
    rec = Recorder()
    _check(design, catalog)
    shared = SharedFacts.of(design)
    specs = gpu_specs(design)
    existing = existing_.ExistingFacts.of(design)
    kept = existing_.kept_clusters(existing, catalog, rec)
    as_is = kept_build.as_is(existing, catalog, rec)
    placements = place(design, catalog, specs, rec, kept)
    where = {p.workload: p.cluster for p in placements}
    clusters: list[EstateCluster] = []
    work: list[HostWork] = []
    for k in kept:
        groups = [(i, g) for i, g in enumerate(design.workloads) if where[g.name] == k.name]
        spec = kept_spec(design, k)
        r = _size_cluster(design, catalog, spec, groups, len(k.hosts), k.held_hosts)
        done, r = existing_.work([g for _, g in groups], k, r, catalog, rec)
        work += done
        clusters.append(
            existing_.kept_cluster(
                k, _gpu_cluster(spec, r, catalog, [g.name for _, g in groups]), rec
            )
        )
    for spec in specs:
        groups = [(i, g) for i, g in enumerate(design.workloads) if where[g.name] == spec.name]
        if not groups and kept:
            rec.decide(
                f"No new GPU hosts: every workload group runs on the existing clusters "
                f"({', '.join(k.name for k in kept)}).",
                existing_.PLACE_SOURCE + ".",
            )
            continue
        if not groups and len(specs) > 1:
            rec.warn(
                "cluster-without-workloads",
                f"No workload group runs on '{spec.name}', so it is not built; pin a group to "
                "it or remove it",
            )
            continue
        if sized is not None and design.is_single_cluster():
            result = sized
        else:
            result = _size_cluster(design, catalog, spec, groups)
        clusters.append(_gpu_cluster(spec, result, catalog, [g.name for _, g in groups]))
    for c in shared.cpu_clusters:
        clusters.append(cpu_cluster(shared.assumptions, catalog, c, rec))
    _management_check(design, rec)
    # the existing clusters' hosts are kept: their power and racks count, nothing of them is
    # bought, and they stay on the network they are on
    bought = [c for c in clusters if not c.existing_hosts]
    # the hosts added to existing clusters are racked and cabled like every host bought, where
    # the design buys networks anyway; else they take ports on their cluster's own switches
    wired = bought + kept_build.joined(clusters)
    alone = {c.name for c in clusters if c.existing_hosts} - {c.name for c in wired}
    storage_kw = sum(c.result.power.storage_w for c in clusters if c.result) / 1000
    # every host the estate runs draws power, the existing clusters kept as they are too
    existing_kw = sum(
        c.hosts_kw * c.existing_hosts / c.hosts for c in clusters if c.existing_hosts
    ) + sum(a.hosts_kw for a in as_is)
    hosts_kw = sum(c.hosts_kw for c in clusters) + sum(a.hosts_kw for a in as_is)
    kept_lines: list[bo.BomLine] = []
    if (
        design.is_single_cluster()
        and not design.existing.clusters
        and clusters
        and clusters[0].result is not None
    ):
        # One cluster: its own network, racks and bill, exactly as size() builds them (switches
        # in the host rack where they fit), so one price list gives one cost either way.
        r = clusters[0].result
        network = r.topology.fabric.planes
        bill = r.bom
        net_kw = r.power.network_w / 1000
        network_racks = r.racks.network_racks
        host_racks = r.racks.host_racks
        layout = r.racks.racks
        cooled = r.racks.cooling
        cooling_kw = r.power.cdu_w / 1000
        items = r.power.items
    else:
        every = specs + [kept_spec(design, k) for k in kept]
        # an expansion that only grows its existing clusters cables nothing to new switches
        network = _shared_network(shared, catalog, every, wired, rec) if wired else []
        beside = frozenset(k.name for k in kept)
        layout = _layout(shared.assumptions, catalog, wired, network, rec, beside)
        layout = counted(layout, rec)
        oob_w = sum(i.power_w for r in layout for i in r.items if i.kind == "oob")
        net_kw = (sum(t.power_w * t.count for p in network for t in p.tiers) + oob_w) / 1000
        # the runs' words and optics from the parts the bill counts, as the layout places them
        runs = _runs(shared.nics, catalog, wired, network, layout)
        for part in kept_build.joined(clusters):
            kept_build.joined_decision(part, layout, rec)
        network = media.describe(network, runs)
        network_racks = sum(1 for x in layout if x.role == "network")
        if any(c.between == "host-leaf" for p in network for c in p.cables):
            text, reason, implication = cabling_words(network, runs, network_racks)
            rec.decide(text, reason, DecisionTopic.NETWORK, implication=implication)
        host_racks = len(layout) - network_racks
        host_racks += sum(
            c.host_racks if c.name in alone else kept_build.existing_racks(c)
            for c in clusters
            if c.existing_hosts
        )
        host_racks += sum(a.host_racks for a in as_is)
        cooled = _cooling(shared.assumptions.cdu_spares, catalog, wired, layout, rec)
        # the figures behind the units the catalog marks unsettled, as one cluster's are marked
        ids = dict.fromkeys(c.server for c in bought if c.result is not None)
        cooled = confirm.mark_cooling(cooled, catalog, [catalog.servers[i] for i in ids])
        cooling_kw = _in_rack_kw(catalog, cooled, layout)
        units = sum(1 for r in layout for i in r.items if i.kind == "cdu")
        items = estate_power.power_items(catalog, clusters, as_is, network, layout,
                                         cooling_kw * 1000 / units if units else 0.0)  # fmt: skip
        bill = _bom(shared, catalog, bought, network, layout, rec, cooled, wired)
        added, kept_lines = kept_build.split_lines(clusters, _SHARED)
        added += [
            ln for c in clusters if c.name in alone for ln in kept_build.own_network_lines(c, rec)
        ]
        bill = bill.model_copy(update={"lines": added + bill.lines})
    totals = EstateTotals(
        hosts=sum(c.hosts for c in clusters),
        gpus=sum(c.gpus for c in clusters),
        gpus_demand=sum(c.gpus_demand for c in clusters),
        gpus_idle=sum(c.gpus_idle for c in clusters),
        hosts_kw=hosts_kw,
        existing_kw=existing_kw,
        network_kw=net_kw,
        storage_kw=storage_kw,
        cooling_kw=cooling_kw,
        total_kw=hosts_kw + net_kw + storage_kw + cooling_kw,
        host_racks=host_racks,
        network_racks=network_racks,
    )
    return Estate(
        clusters=clusters,
        placements=placements,
        network=joined(network, clusters),
        racks=layout,
        cooling=cooled,
        bom=bill,
        kept=kept_lines,
        work=work,
        as_is=as_is,
        totals=totals,
        power_items=items,
        calculations=rec.calculations,
        warnings=rec.warnings,
        decisions=rec.decisions,
    )


# ----------------------------------------------------------------------------------- checks


def _check(design: Design, catalog: Catalog) -> None:
    problems = []
    for i, c in enumerate(design.clusters):
        if c.server is not None and c.server not in catalog.servers:
            known = ", ".join(sorted(catalog.servers))
            problems.append(f"clusters[{i}].server: unknown server '{c.server}' (known: {known})")
        if c.hardware is not None:
            view = design.model_copy(update={"hardware": c.hardware, "ha": c.ha, "clusters": []})
            problems += [
                f"clusters[{i}].{p}" for p in map(str, check_design(view, catalog))
                if p.startswith("hardware.")
            ]  # fmt: skip
    if problems:
        raise DesignError(problems)


def _management_check(design: Design, rec: Recorder) -> None:
    vcf = design.licensing.platform == "vmware-vcf" or design.platform.private_ai_foundation
    if vcf and not any(c.role is ClusterRole.MANAGEMENT for c in design.clusters):
        rec.warn(
            "no-management-domain",
            "VMware Cloud Foundation runs its vCenter, NSX and operations appliances in a "
            f"management domain of at least {MANAGEMENT_MIN_HOSTS} hosts, which this design does "
            "not include; add a management cluster, or say that an existing one is used",
            Severity.INFO,
        )


# ---------------------------------------------------------------------------------- clusters


def _size_cluster(
    design: Design,
    catalog: Catalog,
    spec: GpuSpec,
    groups: list[tuple[int, WorkloadGroup]],
    existing_hosts: int = 0,
    held_hosts: int = 0,
) -> Result:
    try:
        return size(
            view(design, spec, [g for _, g in groups]), catalog,
            existing_hosts=existing_hosts, held_hosts=held_hosts,
        )  # fmt: skip
    except DesignError as exc:
        # field paths name the design's own groups and this cluster's hardware
        back = [i for i, _ in groups]
        problems = []
        for p in exc.problems:
            path, text = in_cluster(p, spec, back)
            problems.append(f"{path}: on '{spec.name}', {text}" if path else f"'{spec.name}': {p}")
        raise DesignError(problems) from exc


def _gpu_cluster(spec: GpuSpec, r: Result, catalog: Catalog, workloads: list[str]) -> EstateCluster:
    server = catalog.servers[r.server]
    c = r.cluster
    return EstateCluster(
        name=spec.name,
        role=ClusterRole.GPU,
        server=server.id,
        server_name=server.product_name,
        hosts=c.hosts_total,
        gpus=c.gpus_total,
        gpus_demand=c.gpus_demand,
        gpus_idle=c.gpus_total - c.gpus_demand,
        host_w=r.power.host_w,
        hosts_kw=r.power.hosts_w / 1000,
        host_racks=r.racks.host_racks,
        workloads=workloads,
        reason=f"{count(c.hosts_for_capacity, 'host')} for the demand, "
        f"{c.hosts_for_ha} for HA and {c.hosts_for_maintenance} for maintenance"
        + (
            f" and {c.hosts_for_platform} for the VCF minimum cluster"
            if c.hosts_for_platform
            else ""
        ),
        result=r,
    )


# ----------------------------------------------------------------------------------- network


def _shared_network(
    shared: SharedFacts,
    catalog: Catalog,
    specs: list[GpuSpec],
    clusters: list[EstateCluster],
    rec: Recorder,
) -> list[bo.Plane]:
    """Each network once for all the clusters on it: the GPU fabric per fabric kind, the service
    network and the out-of-band ports, from the host ports every cluster brings. A network is
    a redundant pair where any cluster on it needs one (two ports a host); hosts with one port
    then take one switch of the pair each, rather than a second network of the same name."""
    by_name = {s.name: s for s in specs}
    ports: dict[tuple[str, str], int] = {}
    hosts: dict[tuple[str, str], dict[str, int]] = {}
    pair: dict[tuple[str, str], bool] = {}
    each: dict[tuple[str, str], list[int]] = {}  # every host's ports, in the hosts' order
    oob: dict[str, int] = {}

    def bring(k: tuple[str, str], name: str, n_hosts: int, n_ports: int, redundant: bool) -> None:
        ports[k] = ports.get(k, 0) + n_ports
        on = hosts.setdefault(k, {})
        on[name] = on.get(name, 0) + n_hosts
        pair[k] = pair.get(k, False) or redundant
        each.setdefault(k, []).extend([n_ports // n_hosts if n_hosts else 0] * n_hosts)

    for c in clusters:
        oob[c.name] = oob.get(c.name, 0) + c.hosts
        if c.result is None:
            k = ("service", shared.service_fabric.value)
            bring(k, c.name, c.hosts, c.hosts * CPU_HOST_SERVICE_PORTS,
                  CPU_HOST_SERVICE_PORTS >= 2)  # fmt: skip
            continue
        for p in c.result.topology.fabric.planes:
            if p.name == "oob":
                continue
            hw = by_name[c.name].hardware
            fab = hw.fabric if p.name == "compute" else hw.service_fabric
            bring((p.name, fab.value), c.name, c.hosts, p.host_ports, p.redundant)
    planes = []
    oversub = shared.assumptions.fabric_oversubscription
    for (name, fab_value), n in sorted(ports.items()):
        redundant = pair[(name, fab_value)]
        counts = each[(name, fab_value)]
        mixed = counts if len(set(counts)) > 1 else []
        fab = next(f for f in FABRIC_GBPS if f.value == fab_value)
        planes.append(
            size_plane(
                f"{name}.{fab_value}", n, FABRIC_GBPS[fab],
                SwitchKind.INFINIBAND if is_infiniband(fab) else SwitchKind.ETHERNET,
                redundant, oversub, catalog, rec, FABRIC_LABEL[fab],
                "infiniband" if is_infiniband(fab) else "none",
            ).model_copy(update={"hosts": network_hosts(
                rec, f"fabric.{name}.{fab_value}", hosts[(name, fab_value)]),
                "ports_per_host": mixed})
        )  # fmt: skip
    every = network_hosts(rec, "fabric.oob", oob)
    planes.append(oob_plane(every).model_copy(update={"hosts": every}))
    # before the layout places them, a run that crosses racks is counted as fibre; the placed
    # parts replace these words once the racks are known (``media.describe``)
    return place_cables(planes, None)


# ------------------------------------------------------------------------------------- racks


def _layout(
    a: Assumptions,
    catalog: Catalog,
    clusters: list[EstateCluster],
    network: list[bo.Plane],
    rec: Recorder,
    beside: frozenset[str] = frozenset(),
) -> list[bo.Rack]:
    """Every rack of the design, for its elevations and its power: each GPU cluster's host racks
    as the cluster's sizing placed them (its storage too) without the switches, which the
    clusters share; the hosts of the clusters without GPUs; then the shared switches in network
    racks of their own, packed by space and power."""
    oob = bom_.oob_switch(catalog)
    res_u, res_w = reserve(oob)
    # placed within each rack's height and power less its out-of-band switch, which
    # ``with_oob`` puts at the top of every rack at the end
    height, limit = a.rack_units - res_u, a.max_rack_power_kw * 1000 - res_w
    out: list[bo.Rack] = []
    for c in clusters:
        if c.result is not None:
            for r in c.result.racks.racks:
                items = [i for i in r.items if i.kind not in ("switch", "oob")]
                if c.name in beside:  # hosts added to an existing cluster
                    items = _beside(out, items, c.name)
                if not items:
                    continue
                r = r.model_copy(update={"height_u": height, "power_limit_w": limit})
                out.append(_named(r, items, f"R{len(out) + 1:02d} {c.name}", c.name))
            continue
        server = catalog.servers[c.server]
        per_rack = hosts_per_rack(a, catalog, server, c.host_w)
        for first in range(0, c.hosts, per_rack):
            hosts = range(first, min(first + per_rack, c.hosts))
            items = [
                bo.RackItem(name=f"host-{h + 1:02d}", kind="server",
                            model=server.product_name,
                            u_position=1 + (h - first) * server.rack_units,
                            height_u=server.rack_units, power_w=c.host_w, host=h,
                            liquid_w=c.host_w * cooling.liquid_share(server))
                for h in hosts
            ]  # fmt: skip
            rack = bo.Rack(name="", role="hosts", height_u=height, power_limit_w=limit, used_u=0,
                           power_w=0, hosts=list(hosts), items=items)  # fmt: skip
            out.append(_named(rack, items, f"R{len(out) + 1:02d} {c.name}", c.name))
    # numbered on across the fabrics of one kind (two GPU fabrics: compute-leaf-01, -02, …)
    names = linkx.switch_names(network, numbered_by_kind=True)
    switches = [
        (name, t.model, t.rack_units, t.power_w)
        for p, named in zip(network, names, strict=True)
        for t in sorted(p.tiers, key=lambda t: t.role != "spine")
        for name in named[t.role]
    ]
    # a leaf whose host ports all sit in one rack goes to its top where copper then reaches
    on = [
        [h.place.rack for c in clusters if joins(c, p) for h in portmap.rack_hosts(out, c.name)]
        for p in network
    ]
    out, rest = top_of_rack(out, switches, leaf_homes(network, names, on), strict=True)
    return with_oob(out + _network_racks(rest, height, limit, len(out), rec), oob)


def _beside(out: list[bo.Rack], items: list[bo.RackItem], cluster: str) -> list[bo.RackItem]:
    """Hosts added to an existing cluster racked above the new hosts of a rack already laid out
    that has the units and the power left (leaving the rack's own switches their room to
    follow), so one added host takes no rack of its own; returns those that found no room,
    moved down by the units those placed elsewhere held below them (no gap at a rack's foot)."""
    left, moved = [], []
    for item in items:
        for n, rack in enumerate(out):
            top = max((i.u_position + i.height_u for i in rack.items), default=1)
            if (
                rack.role != "hosts"
                or top - 1 + item.height_u > rack.height_u
                or rack.power_w + item.power_w > rack.power_limit_w
            ):
                continue
            placed = item.model_copy(
                update={"name": f"{item.name} ({cluster})", "u_position": top, "cluster": cluster}
            )
            out[n] = rack.model_copy(
                update={
                    "items": [*rack.items, placed],
                    "used_u": rack.used_u + item.height_u,
                    "power_w": rack.power_w + item.power_w,
                }
            )
            moved.append(item)
            break
        else:
            left.append(item)
    return [
        i.model_copy(update={"u_position": i.u_position - sum(
            m.height_u for m in moved if m.u_position < i.u_position)})
        for i in left
    ]  # fmt: skip


def _named(rack: bo.Rack, items: list[bo.RackItem], name: str, cluster: str) -> bo.Rack:
    return rack.model_copy(
        update={
            "name": name,
            "cluster": cluster,
            "role": "hosts",
            "items": items,
            "used_u": sum(i.height_u for i in items),
            "power_w": sum(i.power_w for i in items),
        }
    )


# --------------------------------------------------------------------------------------- BOM

# Billed once for the whole design: the shared network, and the racks the clusters and the
# network racks fill together
_SHARED = {
    bo.BomCategory.SWITCH,
    bo.BomCategory.CABLE,
    bo.BomCategory.TRANSCEIVER,
    bo.BomCategory.RACK,
    bo.BomCategory.COOLING,
}


def _cooling(
    spares: int,
    catalog: Catalog,
    clusters: list[EstateCluster],
    layout: list[bo.Rack],
    rec: Recorder,
) -> bo.Cooling | None:
    """The distribution units for every rack of the design: the in-rack unit the clusters'
    racks already hold, else in-row units for them all (``spares`` more of the in-row ones)."""
    units = [
        catalog.cooling[c.result.racks.cooling.cdu]
        for c in clusters
        if c.result is not None
        and c.result.racks.cooling is not None
        and c.result.racks.cooling.cdu in catalog.cooling
    ]
    in_rack = next((u for u in units if u.placement is CduPlacement.IN_RACK), None)
    return cooling.cooling(layout, catalog, in_rack, spares, rec)


def _in_rack_kw(catalog: Catalog, cooled: bo.Cooling | None, layout: list[bo.Rack]) -> float:
    """The in-rack distribution units' own power: the racks' PDUs feed them, as they feed the
    hosts (in-row units have their own feed)."""
    unit = catalog.cooling.get(cooled.cdu) if cooled is not None else None
    if unit is None or unit.placement is not CduPlacement.IN_RACK:
        return 0.0
    units = sum(1 for r in layout for i in r.items if i.kind == "cdu")
    return units * (unit.power_w or 0.0) / 1000


def _bom(
    shared: SharedFacts,
    catalog: Catalog,
    clusters: list[EstateCluster],
    network: list[bo.Plane],
    layout: list[bo.Rack],
    rec: Recorder,
    cooled: bo.Cooling | None = None,
    wired: list[EstateCluster] | None = None,
) -> bo.Bom:
    """The bill: each cluster's own lines, then the shared network, racks and cooling, whose
    runs reach the hosts of ``wired`` (the clusters and the hosts added to existing ones)."""
    lines: list[bo.BomLine] = []
    for c in clusters:
        if c.result is not None:
            lines += [
                ln.model_copy(update={"cluster": c.name})
                for ln in c.result.bom.lines
                if ln.category not in _SHARED
            ]
        else:
            spec = next(s for s in shared.cpu_clusters if s.name == c.name)
            lines += cpu_lines(shared.service_fabric, shared.licensing, spec, catalog, c, rec)
    paired, done = _linkx(shared.nics, catalog, wired or clusters, network, layout)
    lines += _network_lines(catalog, network, done) + paired
    lines.append(bom_.oob_switch_line(layout, catalog))
    a = shared.assumptions
    lines += bom_.rack_lines(len(layout), a.rack_units, a.max_rack_power_kw)
    lines += cooling.cooling_lines(cooled, catalog)
    kept = bo.Bom(lines=[ln for ln in lines if ln.quantity > 0 or ln.included > 0])
    return confirm.mark(kept, catalog)


def _linkx(
    nics: Mapping[str, str],
    catalog: Catalog,
    clusters: list[EstateCluster],
    network: list[bo.Plane],
    layout: list[bo.Rack],
) -> tuple[list[bo.BomLine], set[str]]:
    """NVIDIA's paired parts for the shared InfiniBand NDR planes, the hosts of every cluster on
    them placed as the layout has them; and the cable keys they replace."""
    runs = _runs(nics, catalog, clusters, network, layout)
    return bom_.merged(media.flat(runs)), media.replaced(network, runs)


def _runs(
    nics: Mapping[str, str],
    catalog: Catalog,
    clusters: list[EstateCluster],
    network: list[bo.Plane],
    layout: list[bo.Rack],
) -> media.Runs:
    """The parts of each run of the shared networks, the hosts of every cluster on them placed
    as the layout has them: what the bill counts and the network's words describe."""
    hosts_on, osfp = [], []
    for p in network:
        on = [c for c in clusters if joins(c, p)]
        hosts_on.append([h for c in on for h in portmap.rack_hosts(layout, c.name)])
        osfp.append(linkx.is_ndr(p) and _osfp_hosts(nics, catalog, on))
    links = _port_map(nics, catalog, clusters, network, layout)
    managed = [bom_.managed(catalog, p) for p in network]
    return media.plane_runs(network, layout, hosts_on, osfp, managed, links, True)


def estate_port_map(design: Design, catalog: Catalog, e: Estate) -> list[portmap.PortLink]:
    """The port map of a design of several clusters, as its bill counts the cables."""
    bought = [c for c in e.clusters if not c.existing_hosts] + kept_build.joined(e.clusters)
    return _port_map(SharedFacts.of(design).nics, catalog, bought, e.network, e.racks)


def _port_map(
    nics: Mapping[str, str],
    catalog: Catalog,
    clusters: list[EstateCluster],
    network: list[bo.Plane],
    layout: list[bo.Rack],
) -> list[portmap.PortLink]:
    """Each shared network with the hosts of every cluster on it, in the clusters' order."""
    hosts_on, osfp = [], []
    for p in network:
        on = [c for c in clusters if joins(c, p)]
        hosts_on.append([h for c in on for h in portmap.rack_hosts(layout, c.name)])
        osfp.append(linkx.is_ndr(p) and _osfp_hosts(nics, catalog, on))
    return portmap.port_map(network, layout, hosts_on, [p.name for p in network], osfp,
                            numbered_by_kind=True)  # fmt: skip


def _osfp_hosts(nics: Mapping[str, str], catalog: Catalog, on: list[EstateCluster]) -> bool:
    """Whether every GPU cluster in ``on`` has single-port (OSFP) ConnectX-7 cards, which take
    the OSFP parts of an NDR fabric (the dual-port QSFP112 cards take the QSFP112 ones);
    ``nics``: each GPU cluster's fabric NIC by name."""
    held = {nics[c.name] for c in on}
    return bool(held) and all(catalog.nics[n].ports == 1 for n in held if n in catalog.nics)


def joined(network: list[bo.Plane], clusters: list[EstateCluster]) -> list[bo.Plane]:
    """Each shared network with the clusters that join it, by name, and its hosts: those it
    counts (an expansion's kept hosts are not among them), else every joining cluster's."""
    out = []
    for p in network:
        on = [c for c in clusters if joins(c, p)]
        hosts = p.hosts if p.hosts is not None else sum(c.hosts for c in on)
        out.append(p.model_copy(update={"clusters": [c.name for c in on], "hosts": hosts}))
    return out


def joins(c: EstateCluster, p: bo.Plane) -> bool:
    """Whether cluster ``c`` has host ports on the shared network ``p``."""
    kind = p.name.split(".", 1)[0]
    if kind == "oob":
        return True
    if c.result is None:  # hosts without GPUs join the service network only
        return kind == "service"
    return any(
        q.name == kind and q.technology == p.technology for q in c.result.topology.fabric.planes
    )


def _network_lines(
    catalog: Catalog, network: list[bo.Plane], done: set[str] | None = None
) -> list[bo.BomLine]:
    switches: dict[str, int] = {}
    cables: dict[str, tuple[int, bo.CableRun]] = {}
    optics: dict[str, tuple[int, bo.CableRun]] = {}
    for p in network:
        for t in p.tiers:
            switches[t.switch] = switches.get(t.switch, 0) + t.count
        for cr in p.cables:
            if cr.key in (done or set()):
                continue
            n, _ = cables.get(cr.key, (0, cr))
            cables[cr.key] = (n + cr.count, cr)
            if cr.transceivers:
                m, _ = optics.get(cr.key, (0, cr))
                optics[cr.key] = (m + cr.transceivers, cr)
    out = []
    for sw_id, qty in sorted(switches.items()):
        sw = catalog.switches[sw_id]
        out.append(
            bo.BomLine(
                category=bo.BomCategory.SWITCH, item=f"switch:{sw.id}", part_number=sw.part_number,
                description=f"{sw.product_name}, {sw.ports} x {sw.port_speed_gbps:g} Gb/s, "
                f"{sw.rack_units}U", quantity=qty, unit="each",
                source=f"catalog switches/{sw.id}; one network for all clusters",
            )
        )  # fmt: skip
    for key, (qty, cr) in sorted(cables.items()):
        out.append(
            bo.BomLine(
                category=bo.BomCategory.CABLE, item=f"cable:{key}", part_number="",
                description=cr.description, quantity=qty, unit="each",
                source="fabric sizing over all clusters",
            )
        )  # fmt: skip
    for key, (qty, cr) in sorted(optics.items()):
        speed = cr.speed_gbps
        out.append(
            bo.BomLine(
                category=bo.BomCategory.TRANSCEIVER, item=f"transceiver:{key}", part_number="",
                description=f"{speed:g} Gb/s optical transceiver ({bom_.RUN[cr.between]})",
                quantity=qty, unit="each",
                source="fabric sizing: one module at each end of a link between racks",
            )
        )  # fmt: skip
    return out
