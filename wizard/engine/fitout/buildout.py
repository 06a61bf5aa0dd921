"""From a sized cluster to a buildable design: host topology, fabric, power, racks, BOM.

One call from ``size()`` after the cluster is known; host counts come from the Cluster.
"""

from __future__ import annotations

from dataclasses import dataclass

from wizard.base.numbers import count, plural
from wizard.engine.basis import topology
from wizard.engine.basis.expr import Formula
from wizard.engine.basis.record import Recorder
from wizard.engine.fitout import bom, confirm, cooling, fabric, media, power, racks
from wizard.model import buildout as bo
from wizard.model.catalog import Catalog, Gpu, Nic, Parts, Server
from wizard.model.design import Assumptions, Design, HaPolicy, Hardware, Licensing
from wizard.model.platform import StorageResult
from wizard.model.result import Cluster, DecisionTopic, WorkloadResult


@dataclass(frozen=True)
class BuildFacts:
    """What the build-out reads of the design, and nothing more: the cluster's name, its
    hardware answers (and the NIC they name, None for none), the assumptions (rack height and
    power, oversubscription, CDU spares), the HA policy (its failure domain spreads the racks),
    the licensing and whether Private AI Foundation is licensed. It reads the catalog's hardware
    kinds whole besides: every line of the bill is checked against its entry."""

    cluster_name: str
    hardware: Hardware
    nic: Nic | None
    assumptions: Assumptions
    ha: HaPolicy
    licensing: Licensing
    private_ai_foundation: bool

    @classmethod
    def of(cls, design: Design, catalog: Catalog) -> BuildFacts:
        hw = design.hardware
        return cls(
            cluster_name=design.cluster_name,
            hardware=hw,
            nic=catalog.nic_of(hw.nic),
            assumptions=design.assumptions,
            ha=design.ha,
            licensing=design.licensing,
            private_ai_foundation=design.platform.private_ai_foundation,
        )


@dataclass(frozen=True)
class BuildOut:
    topology: bo.Topology
    power: bo.Power
    racks: bo.Racks
    bom: bo.Bom


def build_out(
    facts: BuildFacts,
    catalog: Parts,
    gpu: Gpu,
    server: Server,
    cluster: Cluster,
    workloads: list[WorkloadResult],
    rec: Recorder,
    storage: StorageResult | None = None,
) -> BuildOut:
    hw, nic = facts.hardware, facts.nic
    hosts = cluster.hosts_total
    lay = topology.layout(gpu, server, hw)
    host = topology.host_topology(lay, nic, hw, hosts)
    multi_host = any(
        w.training is not None
        and w.training.allreduce_link
        and w.layout is not None
        and w.gpus_per_replica * w.layout.data_parallel > hw.gpus_per_host
        for w in workloads
    )
    topology.check(lay, nic, hw, multi_host, rec)
    if lay.bridge_groups:
        rec.expr(
            "topology.nvlink_bridges_per_host",
            Formula("groups * bridges_per_group"),
            {"groups": len(lay.bridge_groups), "bridges_per_group": gpu.nvlink.bridges_per_group},
            "bridges",
            confirm.flag(
                f"{gpu.name} in the GPU catalog (bridges per bridged group; see its source note); "
                + topology.SEED_NVLINK_BRIDGE,
                gpu,
                "nvlink.bridges_per_group",
            ),
        )
    _decide_host(host, nic.model if nic else None, hw.gpudirect_rdma, rec, gpu)
    ring_list = topology.rings(lay, hw, catalog, workloads, rec)
    net = fabric.fabric(facts, catalog, hosts, multi_host, rec, server)
    topo = bo.Topology(
        hosts=[host],
        bandwidth=topology.bandwidth_landscape(lay, hw),
        rings=ring_list,
        fabric=net,
        totals=totals([host], net),
    )
    system = _storage(catalog, storage)
    host_w = power.host_watts(gpu, server, hw.gpus_per_host)
    stored = _storage_units(system, rec)
    a = facts.assumptions
    cdu = cooling.pick_in_rack(catalog, server, host_w, a.rack_units,
                               a.max_rack_power_kw * 1000)  # fmt: skip
    oob = bom.oob_switch(catalog)
    rk = racks.racks(a, facts.ha, server, host_w, net.planes, hosts, cluster.host_failures_tolerated,
                     rec, stored, cdu, oob)  # fmt: skip
    cooled = cooling.cooling(rk.racks, catalog, cdu, a.cdu_spares, rec)
    rk = rk.model_copy(update={"cooling": confirm.mark_cooling(cooled, catalog, [server])})
    in_rack = sum(1 for r in rk.racks for i in r.items if i.kind == "cdu")
    cdus = (cdu.product_name, in_rack, cdu.power_w or 0.0) if cdu and in_rack else None
    pw = power.power(gpu, server, hw.gpus_per_host, hosts, net.planes, rec, system, cdus,
                     power.oob_units(rk.racks))  # fmt: skip
    pw = confirm.mark_power(pw, catalog)
    # The cables as the racks place their ends: copper in a rack, optics between racks
    # and the placed parts, the same the bill counts, where the cabling pairs them
    placed = fabric.place_cables(net.planes, rk.racks)
    runs = bom.cluster_runs(nic, catalog, placed, rk.racks)
    net = net.model_copy(update={"planes": media.describe(placed, runs)})
    topo = topo.model_copy(update={"fabric": net, "totals": totals([host], net)})
    _decide_cabling(net, rk, runs, rec)
    bill = bom.bill_of_materials(facts, catalog, gpu, server, topo, rec, storage, rk)
    return BuildOut(topo, pw, rk, bill)


# Storage nodes are drawn into the racks up to this many; a larger system is planned in rows of
# its own (the design says so), which keeps a hostile data size from listing millions of items
RACKED_STORAGE_MAX = 500


def _storage(catalog: Parts, storage: StorageResult | None) -> tuple[str, int, int, float] | None:
    """The storage system as (model, nodes, units per node, watts per node), or None."""
    if storage is None or storage.system is None or not storage.nodes:
        return None
    s = catalog.storage[storage.system]
    return s.product_name, storage.nodes, s.rack_units_per_node, s.power_w_per_node or 0.0


def _storage_units(
    system: tuple[str, int, int, float] | None, rec: Recorder
) -> list[tuple[str, str, int, float]]:
    """The storage nodes as rack items (name, model, units, watts), placed with the network."""
    if system is None:
        return []
    model, nodes, units, watts = system
    if nodes > RACKED_STORAGE_MAX:
        rec.warn(
            "storage-not-racked",
            f"The {count(nodes, 'storage node')} of {model} are more than the racks here show "
            f"({RACKED_STORAGE_MAX}); plan their rows with the storage vendor",
        )
        return []
    return [(f"storage-{n + 1:02d}", model, units, watts) for n in range(nodes)]


def totals(hosts: list[bo.HostTopology], net: bo.NetworkFabric) -> bo.TopologyTotals:
    """Cluster-wide counts: per-layout counts times the hosts built like it, plus the fabric."""
    nics: dict[str, int] = {}
    for h in hosts:
        for d in h.devices:
            if d.kind is bo.DeviceKind.NIC:
                nics[d.model] = nics.get(d.model, 0) + h.hosts
    switches: dict[str, int] = {}
    cables: dict[str, int] = {}
    optics: dict[str, int] = {}
    for p in net.planes:
        for t in p.tiers:
            switches[t.switch] = switches.get(t.switch, 0) + t.count
        for c in p.cables:
            cables[c.key] = cables.get(c.key, 0) + c.count
            if c.transceivers:
                optics[c.key] = optics.get(c.key, 0) + c.transceivers
    return bo.TopologyTotals(
        hosts=sum(h.hosts for h in hosts),
        sockets=sum(h.hosts * h.sockets for h in hosts),
        gpus=sum(h.hosts * h.gpus for h in hosts),
        gpu_boards=sum(h.hosts * h.gpu_boards for h in hosts),
        nics={k: v for k, v in nics.items() if v},
        nvlink_bridges=sum(h.hosts * h.nvlink_bridges for h in hosts),
        pcie_switches=sum(h.hosts * h.pcie_switches for h in hosts),
        switches=switches,
        cables=cables,
        transceivers=optics,
    )


def _decide_cabling(net: bo.NetworkFabric, rk: bo.Racks, runs: media.Runs, rec: Recorder) -> None:
    """Say which links are copper and which optical, from the parts the bill counts."""
    host_runs = [c for p in net.planes for c in p.cables if c.between == "host-leaf"]
    if not host_runs or not rk.racks:
        return
    text, reason, implication = cabling_words(net.planes, runs, rk.network_racks)
    rec.decide(text, reason, DecisionTopic.NETWORK, implication=implication)


def cabling_words(
    planes: list[bo.Plane], runs: media.Runs, network_racks: int
) -> tuple[str, str, str]:
    """(decision, reason, implication) on copper and fibre, from the placed parts where the
    cabling pairs them, else from the runs' own counts."""
    copper, fibre, modules = media.host_links(runs)
    for i, p in enumerate(planes):
        if i in runs:
            continue
        for c in p.cables:  # a run not placed: its generic count
            modules += c.transceivers
            if c.between == "host-leaf":
                fibre += c.count if c.transceivers else 0
                copper += 0 if c.transceivers else c.count
    reason = "Copper reaches within a rack, not between racks. " + fabric.DAC_REACH
    if not fibre:
        text = "Host-to-leaf links are direct-attach copper cables: the hosts and their leaf "
        text += "switches share the rack."
        implication = (
            "No optical modules; keep each leaf in the rack of its hosts."
            if not modules
            else f"{count(modules, 'optical module')} only for the links between switches."
        )
        return text, reason, implication
    where = (
        f"the switches stand in {count(network_racks, 'network rack')}"
        if network_racks
        else "another rack, or farther than the longest copper cable listed for the port"
    )
    text = (
        f"Host-to-leaf links are fibre with an optical module at each end where copper does not "
        f"reach ({where}): {count(fibre, 'fibre')}"
        + (f", and {count(copper, 'direct-attach copper cable')} in the rack." if copper else ".")
    )
    implication = f"The bill counts {count(modules, 'optical module')} and their fibres."
    return text, reason, implication


def _decide_host(
    host: bo.HostTopology, nic: str | None, gdr: bool, rec: Recorder, entry: Gpu
) -> None:
    gpu = host.gpu_name
    if host.nvlink == "baseboard":
        boards = (bo.DeviceKind.NVSWITCH, bo.DeviceKind.NVLINK_MESH)
        board = next(d for d in host.devices if d.kind in boards)
        rec.decide(
            f"The {host.gpus} {gpu} GPUs of each host are joined by the {board.name}.",
            "Gradient rings inside a host stay on NVLink, off PCIe and the CPU interconnect.",
            implication=f"The GPUs come mounted on the {board.name} with the server, "
            f"{host.gpus} per host; they cannot be moved to other servers.",
        )
    elif host.nvlink == "bridge":
        groups = [g for g in host.device_groups if g.kind == "nvlink"]
        rec.decide(
            f"Each host's {gpu} GPUs are joined in {len(groups)} NVLink-bridged {plural(len(groups), 'group')} of "
            f"{len(groups[0].devices) if groups else 0}, "
            + confirm.flag(
                f"{count(host.nvlink_bridges, 'bridge')} per host",
                entry,
                "nvlink.bridges_per_group",
            )
            + ".",
            "Bridged GPUs exchange gradients over NVLink; between groups traffic crosses PCIe, "
            "so replicas needing more GPUs than a group run at PCIe speed.",
            implication="The bridges are ordered with the GPUs and fitted in pairs of adjacent "
            "slots; a VM needs the bridged GPUs together to use NVLink.",
        )
    if nic and host.nics:
        ok = sum(1 for p in host.gpu_nic_paths if p.gpudirect_ok)
        where = (
            "under the GPUs' PCIe switches or root complexes"
            if ok
            else "on root ports of their own (the server has no NIC slot beside its GPUs)"
        )
        rec.decide(
            f"Each host has {host.nics} x {nic} for GPU traffic, placed {where}; "
            f"{ok} of {host.gpus} GPUs have a NIC on their own switch or root complex.",
            "GPUDirect RDMA needs the NIC and the GPU under the same PCIe switch or root complex"
            + (" and the design uses it." if gdr else "."),
            implication="The NICs go in the slots named in the host topology; a different slot "
            "order loses GPUDirect RDMA for the GPUs it separates.",
        )
