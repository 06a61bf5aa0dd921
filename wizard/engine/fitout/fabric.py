"""The network fabric: NICs per host by role, and leaf/spine switches for each network.

Three networks, as NVIDIA's Enterprise Reference Architecture builds GPU clusters (see
``NVIDIA_ERA``): the GPU (compute) fabric for
gradient and remote-GPU traffic, over RDMA where chosen; the service network for management,
vMotion and storage on the server's own ports; out-of-band management for the BMCs. Each
switched network is a two-tier leaf/spine (folded Clos) sized from its host ports, the leaf
switch's radix and the stated oversubscription.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, TypedDict

from wizard.engine.basis import sources
from wizard.engine.basis.expr import Formula
from wizard.engine.basis.record import Recorder
from wizard.engine.basis.switch_choice import Pick as _Pick
from wizard.engine.basis.switch_choice import pick_switch
from wizard.engine.fitout.linkx import fill, switch_names
from wizard.model import buildout as bo
from wizard.model.catalog import Nic, NicKind, Parts, Server, Switch, SwitchKind
from wizard.model.design import FABRIC_GBPS, Hardware, Rdma, is_infiniband
from wizard.model.names import FABRIC_LABEL as NAMED_FABRICS
from wizard.model.names import RDMA_SHORT
from wizard.model.result import DecisionTopic

if TYPE_CHECKING:  # the build-out's input; the build-out imports this module
    from wizard.engine.fitout.buildout import BuildFacts

CLOS = (
    "Two-tier leaf/spine (folded Clos): leaves = ceil(host ports / downlinks per leaf), "
    "oversubscription = downlink / uplink bandwidth per leaf (Al-Fares et al., A Scalable, "
    "Commodity Data Center Network Architecture, SIGCOMM 2008, section 2.1)"
)
NVIDIA_ERA = (
    "NVIDIA Enterprise Reference Architecture, HGX AI Factory (H100/H200/B200), Networking "
    "Physical Topologies, https://docs.nvidia.com/enterprise-reference-architectures/"
    "hgx-ai-factory-h100-h200-b200/latest/networking-physical-topologies.html: three fabrics "
    "(compute east/west, converged north/south, out-of-band management); the compute fabric "
    "is a full non-blocking fat tree in a leaf-spine manner; converged ports go to two "
    "separate switches for redundancy"
)
SEED_RDMA = (
    "VMware, Sharing GPUs in Machine Learning Environments (2020), sections 4.2-4.3.1: RDMA, "
    "RoCE v2 (routable), PVRDMA in vSphere (vMotion supported)"
)

# The fabric's name as the Result, the wizard and the report write it
FABRIC_LABEL = NAMED_FABRICS

# RDMA as a sentence names it (the Result keeps the design's value)
RDMA_NAME = {"roce-v2": "RoCE v2", "infiniband": "InfiniBand RDMA", "pvrdma": "PVRDMA"}

RDMA_TEXT = {
    Rdma.NONE: "none (TCP/IP)",
    Rdma.ROCE: "RoCE v2: RDMA over routable UDP/IP on Ethernet; the fabric needs congestion "
    "control (PFC / ECN) configured end to end",
    Rdma.INFINIBAND: "InfiniBand: native RDMA; VMs reach the HCA by passthrough or SR-IOV",
    Rdma.PVRDMA: "PVRDMA: vSphere's paravirtual RDMA adapter over RoCE; VMs keep vMotion, "
    "GPUDirect RDMA is not available through it",
}


def _leaf_downlinks(leaf: _Pick, speed: float, oversub: float) -> tuple[int, int, float]:
    """Most host ports one leaf takes while its uplinks keep the oversubscription: returns
    (downlinks, uplinks, uplink speed)."""
    sw, r = leaf.switch, leaf.breakout
    up_speed = sw.uplink_speed_gbps or sw.port_speed_gbps
    for down in range(sw.ports * r, 0, -1):
        up = math.ceil(down * speed / (oversub * up_speed) - 1e-9)
        phys = math.ceil(down / r)
        fits = (
            up <= sw.uplink_ports and phys <= sw.ports if sw.uplink_ports else phys + up <= sw.ports
        )
        if fits:
            return down, up, up_speed
    return 0, 0, up_speed


class _PlaneHead(TypedDict):
    """The fields of a Plane known before its switches are sized."""

    name: str
    technology: str
    rdma: str
    speed_gbps: float
    host_ports: int
    redundant: bool
    oversubscription_target: float


def size_plane(
    name: str,
    host_ports: int,
    speed: float,
    kind: SwitchKind,
    redundant: bool,
    oversub: float,
    catalog: Parts,
    rec: Recorder,
    technology: str,
    rdma: str,
    cable_key: str | None = None,
) -> bo.Plane:
    """One network's switches and cables. ``cable_key`` heads its cable keys (the network and
    its fabric, 'compute.ib-ndr'), the same for a design of one cluster or several, so one
    price list prices one cable the same way; it defaults to ``name``."""
    key = f"fabric.{name}"
    ck = cable_key or name
    rec.expr(
        f"{key}.host_ports",
        Formula("host_ports"),
        {"host_ports": host_ports},
        "ports",
        f"{sources.DERIVED}: hosts x ports per host on this network",
    )
    plane: _PlaneHead = {
        "name": name,
        "technology": technology,
        "rdma": rdma,
        "speed_gbps": speed,
        "host_ports": host_ports,
        "redundant": redundant,
        "oversubscription_target": oversub,
    }
    leaf = pick_switch(catalog, kind, speed)
    if leaf is None:
        rec.warn(
            "no-switch-for-speed",
            f"The switch catalog has no {kind.value} switch with {speed:g} Gb/s ports for the "
            f"{name} network; its {host_ports} host ports are counted but no switch is chosen",
        )
        cable = _host_cables(ck, host_ports, speed, 1, [host_ports], None)
        return bo.Plane(**plane, oversubscription=None, tiers=[], cables=[cable])
    sw, r = leaf.switch, leaf.breakout
    single_cap = sw.ports * r
    pair = 2 if redundant else 1
    tiers: list[bo.SwitchTier] = []
    cables: list[bo.CableRun] = []
    if math.ceil(host_ports / pair) <= single_cap:
        leaves = pair
        built = None
        per_leaf = _even(host_ports, leaves)
        note = "one switch tier: every host port fits the leaf switch" + (
            "es of a redundant pair" if redundant else ""
        )
        tiers.append(_tier("leaf", leaf, leaves, max(per_leaf), 0, speed))
        rec.expr(
            f"{key}.leaves",
            Formula("switches_per_pair"),
            {"switches_per_pair": pair},
            "switches",
            f"{CLOS}: one {sw.product_name} "
            + ("pair holds" if redundant else "switch holds")
            + f" all {host_ports} host ports",
        )
        if redundant:
            cables.append(
                bo.CableRun(
                    key=f"{ck}.peer-link.{sw.port_speed_gbps:g}g",
                    between="peer-link",
                    speed_gbps=sw.port_speed_gbps,
                    count=2,
                    description=f"{sw.port_speed_gbps:g} Gb/s peer-link cable between the leaf pair",
                )
            )
    else:
        down, up, up_speed = _leaf_downlinks(leaf, speed, oversub)
        first_down = down
        leaves = math.ceil(host_ports / down)
        if redundant and leaves % 2:
            leaves += 1
        per_leaf = _even(host_ports, leaves)
        down = max(per_leaf)
        up = math.ceil(down * speed / (oversub * up_speed) - 1e-9)
        spine = pick_switch(catalog, kind, up_speed)
        spines, up = _spines(leaves, up, leaf, spine, up_speed, rec, name)
        built = down * speed / (up * up_speed)
        note = f"two tiers: {leaves} leaves, {spines} spines"
        tiers.append(_tier("leaf", leaf, leaves, down, up, speed))
        if spine is not None:
            tiers.append(
                _tier("spine", _Pick(spine.switch, 1), spines, leaves * up // spines, 0, up_speed)
            )
        links = leaves * up
        cables.append(
            bo.CableRun(
                key=f"{ck}.leaf-spine.{up_speed:g}g",
                between="leaf-spine",
                speed_gbps=up_speed,
                count=links,
                description=f"{up_speed:g} Gb/s leaf-to-spine fibre, one optical module at each end",
                transceivers=2 * links,
            )
        )
        rec.expr(
            f"{key}.spines",
            Formula("spines_searched"),
            {"spines_searched": spines},
            "switches",
            f"{CLOS}: the fewest spines, at least two and at least ceil({leaves} leaves x "
            f"{up} uplinks / {spine.switch.ports if spine else 0} spine ports), that every leaf "
            "reaches with the same number of links",
        )
        rec.expr(
            f"{key}.oversubscription",
            Formula("downlinks * speed_gbps / (uplinks * uplink_gbps)"),
            {"downlinks": down, "speed_gbps": speed, "uplinks": up, "uplink_gbps": up_speed},
            ":1",
            CLOS + "; target: " + (NVIDIA_ERA if oversub == 1 else sources.ASSUMPTION),
        )
        rec.expr(
            f"{key}.leaves",
            Formula(
                "ceil(ceil(host_ports / downlinks_per_leaf) / switches_per_pair) * switches_per_pair"
            ),
            {"host_ports": host_ports, "downlinks_per_leaf": first_down, "switches_per_pair": pair},
            "switches",
            f"{CLOS}; {sw.product_name} leaves"
            + (", an even count for redundant pairs" if redundant else ""),
        )
    cables.insert(0, _host_cables(ck, host_ports, speed, r, per_leaf, sw))
    return bo.Plane(**plane, oversubscription=built, tiers=tiers, cables=cables, note=note)


def _even(total: int, parts: int) -> list[int]:
    base, extra = divmod(total, parts)
    return [base + 1] * extra + [base] * (parts - extra)


def _tier(role: str, pick: _Pick, count: int, down: int, up: int, speed: float) -> bo.SwitchTier:
    sw = pick.switch
    return bo.SwitchTier(
        role=role,
        switch=sw.id,
        model=sw.product_name,
        count=count,
        downlinks=down,
        uplinks=up,
        port_speed_gbps=speed,
        breakout=pick.breakout,
        rack_units=sw.rack_units,
        power_w=sw.power_w,
    )


def _spines(
    leaves: int,
    up: int,
    leaf: _Pick,
    spine: _Pick | None,
    up_speed: float,
    rec: Recorder,
    name: str,
) -> tuple[int, int]:
    """Spines so that every leaf reaches every spine with the same number of links."""
    if spine is None:
        rec.warn(
            "no-switch-for-speed",
            f"The switch catalog has no spine switch with {up_speed:g} Gb/s ports for the {name} "
            "network; spines are counted by port but no model is chosen",
        )
        return 1, up
    ports = spine.switch.ports
    sw = leaf.switch
    room = sw.uplink_ports or sw.ports  # upper bound on uplinks a leaf can give
    up = max(up, 2)  # two spines at least, so one failing leaves every leaf connected
    for count in range(max(math.ceil(leaves * up / ports), 2), up + 1):
        per = math.ceil(up / count)
        if leaves * per <= ports and per * count <= room:
            return count, per * count
    rec.warn(
        "fabric-exceeds-two-tiers",
        f"The {name} network needs {leaves} leaves, more than a {spine.switch.model} spine has "
        f"ports ({ports}); a third switch tier or larger spines are needed - the counts shown "
        "are a lower bound",
    )
    return max(math.ceil(leaves * up / ports), 1), up


def _host_cables(
    name: str, ports: int, speed: float, breakout: int, per_leaf: list[int], sw: Switch | None
) -> bo.CableRun:
    if breakout > 1 and sw is not None:
        count = sum(math.ceil(n / breakout) for n in per_leaf)
        text = (
            f"breakout cable, 1 x {sw.port_speed_gbps:g} Gb/s to {breakout} x {speed:g} Gb/s "
            "(switch to hosts)"
        )
    else:
        count = ports
        text = f"{speed:g} Gb/s host-to-leaf cable (DAC in the rack, AOC across racks)"
    return bo.CableRun(
        key=f"{name}.host-leaf.{speed:g}g",
        between="host-leaf",
        speed_gbps=speed,
        count=count,
        description=text,
    )


SERVICE_NIC_SOURCE = (
    "The server's catalog entry states no onboard data ports of this speed, so the service "
    "ports are an adapter chosen at order time (an OCP 3.0 or PCIe card): the NIC catalog's "
    "Ethernet card of the service network's speed, NVIDIA ConnectX first (the switches' "
    "vendor), enough cards for the host's service ports"
)


def service_adapter(
    catalog: Parts, server: Server | None, speed: float, ports: int
) -> tuple[Nic | None, int]:
    """The adapter carrying a host's service ports and how many per host: none (0) where the
    server's catalog entry states onboard ports of that speed and number, else the catalog's
    Ethernet card of that speed, NVIDIA ConnectX before others, fewest cards first."""
    if _onboard(server, speed, ports):
        return None, 0
    cards = [
        n
        for n in catalog.nics.values()
        if n.kind is NicKind.NIC and "ethernet" in n.protocols and n.port_speed_gbps == speed
    ]
    if not cards or ports <= 0:
        return None, 0
    best = min(cards, key=lambda n: (math.ceil(ports / n.ports), n.vendor != "NVIDIA",
                                     -n.pcie_gen, n.id))  # fmt: skip
    return best, math.ceil(ports / best.ports)


def fabric(
    facts: BuildFacts,
    catalog: Parts,
    hosts: int,
    multi_host: bool,
    rec: Recorder,
    server: Server | None = None,
) -> bo.NetworkFabric:
    hw, nic = facts.hardware, facts.nic
    oversub = facts.assumptions.fabric_oversubscription
    speed = FABRIC_GBPS[hw.fabric]
    ib = is_infiniband(hw.fabric)
    roles: list[bo.NicRole] = []
    planes: list[bo.Plane] = []
    compute = nic is not None and hw.nics_per_host > 0
    if compute and nic is not None:
        if nic.port_speed_gbps < speed:
            rec.error(
                "nic-slower-than-fabric",
                "hardware.nic",
                f"The {nic.model} ports run at {nic.port_speed_gbps:g} Gb/s, below the "
                f"{speed:g} Gb/s fabric",
            )
        roles.append(
            bo.NicRole(
                role="gpu-rdma",
                network="compute",
                adapter=nic.id,
                ports_per_host=hw.nics_per_host,
                speed_gbps=speed,
                note=f"{hw.nics_per_host} x {nic.model}, one port each on the GPU fabric; "
                + (
                    f"RDMA: {RDMA_SHORT[hw.rdma]}"
                    if hw.rdma is not Rdma.NONE
                    else "no RDMA (TCP/IP)"
                )
                + ("; GPUDirect RDMA" if hw.gpudirect_rdma else ""),
            )
        )
    if compute and hosts:
        planes.append(
            size_plane(
                "compute",
                hosts * hw.nics_per_host,
                speed,
                SwitchKind.INFINIBAND if ib else SwitchKind.ETHERNET,
                False,
                oversub,
                catalog,
                rec,
                FABRIC_LABEL[hw.fabric],
                hw.rdma.value,
                f"compute.{hw.fabric.value}",
            )
        )
    service = hw.service_ports_per_host > 0
    s_speed = FABRIC_GBPS[hw.service_fabric]
    s_nic, _ = service_adapter(catalog, server, s_speed, hw.service_ports_per_host)
    if service and s_nic is None and not _onboard(server, s_speed, hw.service_ports_per_host):
        rec.warn(
            "no-service-adapter",
            f"The NIC catalog has no Ethernet adapter with {s_speed:g} Gb/s ports for the "
            "service network, and the server states no onboard ports of that speed: its "
            "adapter is not on the bill",
        )
    for role, what in (("management", "ESXi management"), ("vmotion", "vMotion")) + (
        (("storage", "storage (NFS / iSCSI / vSAN)"),) if hw.storage else ()
    ):
        roles.append(
            bo.NicRole(
                role=role,
                network="service" if service else "compute",
                adapter=(s_nic.id if s_nic else "onboard")
                if service
                else (nic.id if nic else "onboard"),
                ports_per_host=hw.service_ports_per_host if service else hw.nics_per_host,
                speed_gbps=s_speed if service else speed,
                note=f"{what} on its own VLAN, sharing the "
                + ("service ports" if service else "GPU fabric NICs"),
            )
        )
    if service and hosts:
        planes.append(
            size_plane(
                "service",
                hosts * hw.service_ports_per_host,
                s_speed,
                SwitchKind.ETHERNET,
                hw.service_ports_per_host >= 2,
                oversub,
                catalog,
                rec,
                FABRIC_LABEL[hw.service_fabric],
                "none",
                f"service.{hw.service_fabric.value}",
            )
        )
    roles.append(
        bo.NicRole(
            role="oob",
            network="oob",
            adapter="onboard",
            ports_per_host=1,
            speed_gbps=1,
            note="BMC (iDRAC / iLO / XCC) port",
        )
    )
    if hosts:
        planes.append(oob_plane(hosts))
    if oversub > 1 and multi_host and compute:
        rec.warn(
            "fabric-oversubscribed-training",
            f"Training spans hosts over a {oversub:g}:1 oversubscribed GPU fabric: when every "
            "host sends at once the rings slow down by up to that factor; training fabrics are "
            "normally non-blocking (1:1)",
        )
    for p in planes:
        network_hosts(rec, f"fabric.{p.name}", {facts.cluster_name: hosts})
    _decide(hw, oversub, planes, rec)
    return bo.NetworkFabric(
        rdma_technology=hw.rdma.value,
        rdma_note=RDMA_TEXT[hw.rdma] + f" ({SEED_RDMA.split(':')[0]})",
        nic_roles=roles,
        planes=planes,
    )


def _onboard(server: Server | None, speed: float, ports: int) -> bool:
    return server is not None and any(
        o.speed_gbps == speed and o.ports >= ports for o in server.onboard_ports
    )


NETWORK_HOSTS_SOURCE = (
    f"{sources.DERIVED}: the hosts cabled to a network are the hosts of every cluster with "
    "ports on it (each host takes its ports on each network its cluster joins: the GPU "
    "fabric's NICs, the service ports, the BMC)"
)


def network_hosts(rec: Recorder, key: str, by_cluster: dict[str, int]) -> int:
    """Log the hosts on one network, ``key``.hosts: the sum of the hosts of the clusters that
    join it, each cluster an input named for it (``by_cluster``: cluster name to hosts)."""
    inputs: dict[str, float] = {}
    for name, n in by_cluster.items():
        slug = re.sub(r"[^0-9a-z]+", "_", name.lower()).strip("_") or "cluster"
        slug = f"{slug}_hosts" if slug[0].isalpha() else f"cluster_{slug}_hosts"
        while slug in inputs:
            slug += "_"
        inputs[slug] = n
    formula = Formula(" + ".join(inputs) if inputs else "0")
    return int(rec.expr(f"{key}.hosts", formula, inputs, "hosts", NETWORK_HOSTS_SOURCE))


def oob_plane(hosts: int) -> bo.Plane:
    """The BMC ports: one per host into the site's out-of-band network (not sized here)."""
    return bo.Plane(
        name="oob",
        technology="Ethernet 1 GbE",
        rdma="none",
        speed_gbps=1,
        host_ports=hosts,
        redundant=False,
        oversubscription_target=1,
        oversubscription=None,
        tiers=[],
        cables=[
            bo.CableRun(
                key="oob.host-oob.1g",
                between="host-oob",
                speed_gbps=1,
                count=hosts,
                description="1 GbE RJ45 patch cable, BMC to the out-of-band switch of its rack",
            ),
            bo.CableRun(
                key="oob.oob-uplink.100g",
                between="oob-uplink",
                speed_gbps=100,
                count=0,
                description="Out-of-band switch uplink to the site's management network",
            ),
        ],
        note="An NVIDIA SN2201 at the top of every rack takes the BMC and management ports "
        "of its devices and uplinks to the site's management network",
    )


def _decide(hw: Hardware, o: float, planes: list[bo.Plane], rec: Recorder) -> None:
    for p in planes:
        if p.name == "oob":
            rec.decide(
                "Each host's BMC, and each switch's and storage node's management port, connects "
                "over 1 GbE to an NVIDIA SN2201 out-of-band switch at the top of its rack.",
                "Hardware management stays reachable when the host or its data networks fail "
                "(NVIDIA DGX BasePOD: 'OOB management fabric | NVIDIA SN2201 switches').",
                DecisionTopic.NETWORK,
                implication="The out-of-band switches are quoted: on the bill, in every rack's "
                "elevation, units and power, each uplinked to the site's management network by "
                "one 100 GbE fibre (the site's end is the site's).",
            )
            continue
        kit = " and ".join(f"{t.count} {t.role} {t.model}" for t in p.tiers) or "no catalog switch"
        if p.name == "compute":
            reason = (
                "Synchronous training waits for the slowest link, so the GPU fabric is a "
                "non-blocking leaf/spine, as in NVIDIA's Enterprise Reference Architecture for "
                "HGX clusters."
                if o == 1
                else f"A stated design assumption of {o:g}:1, editable in the design's assumptions."
            )
            rec.decide(
                f"The GPU fabric is {p.technology} with "
                f"{'no RDMA' if p.rdma == 'none' else RDMA_NAME.get(p.rdma, p.rdma)}: {kit} for {p.host_ports} "
                f"host ports ({hw.nics_per_host} per host) at {o:g}:1 oversubscription.",
                reason,
                DecisionTopic.NETWORK,
                implication="The switches, cables and optics are in the bill of materials"
                + (
                    "; RoCE needs lossless Ethernet (PFC and ECN) configured on every switch "
                    "and NIC."
                    if hw.rdma in (Rdma.ROCE, Rdma.PVRDMA)
                    else "."
                    if not is_infiniband(hw.fabric)
                    else "; InfiniBand needs a subnet manager (on a switch or a host)."
                ),
            )
        else:
            rec.decide(
                f"Management{', vMotion and storage' if hw.storage else ' and vMotion'} share "
                f"{hw.service_ports_per_host} x {p.speed_gbps:g} GbE ports per host on a separate "
                f"service network: {kit}.",
                "Keeps vMotion and storage traffic off the GPU fabric"
                + (
                    "; a port pair on two leaves survives a switch failure." if p.redundant else "."
                ),
                DecisionTopic.NETWORK,
                implication="Its leaf switches and cables are in the bill of materials; each "
                "host's service ports connect to both leaves of the pair.",
            )


# A rack is about 2 m tall, within the reach of a direct-attach copper cable; a link between
# racks is fibre with an optical module at each end (or an active optical cable).
DAC_REACH = (
    "NVIDIA LinkX cable reach (direct-attach copper up to a few metres, within a rack; "
    "longer runs optical): https://www.nvidia.com/en-us/networking/interconnect/"
)


def place_cables(planes: list[bo.Plane], racks: list[bo.Rack] | None) -> list[bo.Plane]:
    """The cable runs by where their ends stand: a run whose hosts and switches share one rack
    is direct-attach copper; one that crosses racks is fibre with an optical module at each end,
    counted as transceivers. ``racks`` None means the switches stand in network racks of their
    own (as a design of several clusters builds them), so every host link crosses racks."""
    where: dict[str, str] = {}
    host_racks: set[str] = set()
    rack_of_host: dict[int, str] = {}
    for r in racks or []:
        for item in r.items:
            where[item.name] = r.name
        if r.hosts:
            host_racks.add(r.name)
        rack_of_host |= dict.fromkeys(r.hosts, r.name)
    out = []
    for p in planes:
        racks_of = {
            t.role: {where.get(f"{p.name}-{t.role}-{n + 1:02d}", "?") for n in range(t.count)}
            for t in p.tiers
        }
        leaves = racks_of.get("leaf", set())
        hosts_local = racks is not None and len(host_racks) == 1 and leaves == host_racks
        spines_local = racks is not None and len(leaves | racks_of.get("spine", set())) == 1
        runs = []
        for c in p.cables:
            # a plane with no switch for its speed keeps its counted run (nothing to place)
            if (
                c.between == "host-leaf"
                and "leaf" in racks_of
                and (racks is None or "?" not in leaves)
            ):
                far = _links_across(p, where, rack_of_host) if racks is not None else None
                if (
                    far
                    and far < c.count * next(t for t in p.tiers if t.role == "leaf").breakout
                    and not hosts_local
                ):
                    c = _mixed_run(c, p, far)
                else:
                    c = _host_run(c, p, hosts_local)
            elif c.between == "leaf-spine" and spines_local:
                c = c.model_copy(update={
                    "description": f"{c.speed_gbps:g} Gb/s leaf-to-spine direct-attach copper "
                    "cable, leaves and spines in the same rack",
                    "transceivers": 0,
                })  # fmt: skip
            runs.append(c)
        out.append(p.model_copy(update={"cables": runs}))
    return out


def _links_across(p: bo.Plane, where: dict[str, str], rack_of_host: dict[int, str]) -> int:
    """How many host links of ``p`` leave their leaf's rack, host ports assigned to the leaves
    as the cabling assigns them (``linkx.fill``)."""
    leaf = next((t for t in p.tiers if t.role == "leaf"), None)
    hosts = len(rack_of_host)
    if leaf is None or not hosts:
        return 0
    names = switch_names([p], numbered_by_kind=False)[0]["leaf"]
    by_leaf = fill(p, hosts, len(names))
    return sum(
        1
        for name, ends in zip(names, by_leaf, strict=True)
        for h, _ in ends
        if rack_of_host.get(h) != where.get(name)
    )


def _mixed_run(c: bo.CableRun, p: bo.Plane, far: int) -> bo.CableRun:
    """Hosts partly in their leaf's rack: copper there, fibre from the other racks."""
    fan = next(t for t in p.tiers if t.role == "leaf").breakout
    far = -(-far // fan)  # cables: a breakout carries ``fan`` host links
    near = c.count - far
    optics = far * (1 + fan) if fan > 1 else 2 * far
    what = "breakout cables" if fan > 1 else "links"
    text = (
        f"{c.speed_gbps:g} Gb/s host-to-leaf: direct-attach copper for the {near} {what} in their "
        f"leaf's rack, fibre with an optical module at each end for the {far} from other racks"
    )
    return c.model_copy(update={"description": text, "transceivers": optics})


def _host_run(c: bo.CableRun, p: bo.Plane, local: bool) -> bo.CableRun:
    leaf = next(t for t in p.tiers if t.role == "leaf")
    fan = leaf.breakout
    if fan > 1:
        head = f"breakout cable, 1 x {leaf.port_speed_gbps * fan:g} Gb/s to {fan} x {c.speed_gbps:g} Gb/s"
        if local:
            text, optics = f"{head} (switch to hosts), direct-attach copper in the rack", 0
        else:
            text = f"{head} (switch to hosts) across racks: fibre, one optical module at the switch and one per host port"
            optics = c.count * (1 + fan)
    elif local:
        text, optics = (
            f"{c.speed_gbps:g} Gb/s host-to-leaf direct-attach copper cable, in the rack",
            0,
        )
    else:
        text = (
            f"{c.speed_gbps:g} Gb/s host-to-leaf fibre across racks, one optical module at each end"
        )
        optics = 2 * c.count
    return c.model_copy(update={"description": text, "transceivers": optics})
