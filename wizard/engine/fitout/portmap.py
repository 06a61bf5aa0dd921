"""Where every cable lands: each host port to its leaf port, each leaf uplink to its spine
port, the peer links of a leaf pair and every device's management port to its rack's
out-of-band switch, rack by rack, with the cable that joins them. The same assignment as the
bill of materials counts (``linkx.fill``, ``linkx.host_leaf_cages``), so the map and the order
agree port for port."""

from __future__ import annotations

from dataclasses import dataclass

from wizard.engine.basis.expr import Formula
from wizard.engine.basis.record import Recorder
from wizard.engine.fitout import linkx
from wizard.engine.fitout.ib_parts import Pairing
from wizard.engine.fitout.linkx import Place
from wizard.model import buildout as bo
from wizard.model.buildout import BomCategory as Cat
from wizard.model.catalog import Catalog, Nic
from wizard.model.design import Design
from wizard.model.result import Result

OOB_PORTS = 48  # 1 GbE ports of an SN2201 (the bill's out-of-band switch)
PATCH_M = (1.0, 2.0, 3.0, 5.0)  # RJ45 patch cords
PATCH_SOURCE = (
    "Out-of-band network: each device's management port to the SN2201 of its rack by a Cat 6 "
    "RJ45 patch cord (NVIDIA BasePOD reference architecture: 'OOB management fabric | NVIDIA "
    "SN2201 switches'), length from the rack placement"
)


@dataclass(frozen=True)
class Host:
    """A host as the rack elevation names it, and where it stands."""

    name: str
    rack: str
    place: Place


@dataclass(frozen=True)
class PortLink:
    network: str
    rack: str
    device: str
    port: str
    to_rack: str
    to_device: str
    to_port: str
    cable: str  # what joins the two ports, as the installer orders it
    between: str = "host-leaf"  # 'host-leaf', 'leaf-spine', 'peer-link' or 'host-oob'
    parts: tuple[linkx.Part, ...] = ()  # what this link needs that no other link shares
    shared: tuple[linkx.Part, ...] = ()  # parts of its switch port, shared by its breakout


def plane_links(
    plane: bo.Plane,
    network: str,
    hosts: list[Host],
    names: dict[str, list[str]],
    where: dict[str, Place],
    rack_names: list[str],
    osfp_hosts: bool,
) -> list[PortLink]:
    """Every link of one switched plane: hosts to leaves, leaves to spines, peer links."""
    leaves = names.get("leaf", [])
    spines = names.get("spine", [])
    if not leaves or any(n not in where for n in leaves + spines) or not hosts:
        return []
    tier = next(t for t in plane.tiers if t.role == "leaf")
    pair = linkx.pairing(plane)
    ndr = pair is not None
    out: list[PortLink] = []
    per_leaf_used: dict[str, int] = {}

    def rack(p: Place) -> str:
        return rack_names[p.rack]

    if pair is not None:
        cages = linkx.host_leaf_cages(plane, [h.place for h in hosts], [where[n] for n in leaves],
                                      pair)  # fmt: skip
        for c in cages:
            leaf = leaves[c.leaf]
            per_leaf_used[leaf] = max(per_leaf_used.get(leaf, 0), c.cage)
            for leg, (h, j) in enumerate(c.ends):
                host = hosts[h]
                if c.dac_m is not None:
                    cable = (
                        f"{pair.splitter_number(osfp_hosts, c.dac_m)} splitter "
                        f"{pair.copper}, {c.dac_m:g} m (leg {leg + 1} of 2)"
                    )
                else:
                    cable = (
                        f"{pair.fibre_number(c.fibres_m[leg])} fibre, {c.fibres_m[leg]} m "
                        f"({pair.switch_module} at the switch, {pair.host_module(osfp_hosts)} "
                        "at the host)"
                    )
                out.append(
                    PortLink(network, host.rack, host.name, f"port {j + 1}", rack(where[leaf]),
                             leaf, f"cage {c.cage}, port {leg + 1}", cable)
                )  # fmt: skip
    else:
        by_leaf = linkx.fill(plane, len(hosts), len(leaves))
        b = max(1, tier.breakout)
        for leaf, ends in zip(leaves, by_leaf, strict=True):
            at = where[leaf]
            per_leaf_used[leaf] = -(-len(ends) // b)
            for n, (h, j) in enumerate(ends):
                host = hosts[h]
                port = f"port {n // b + 1}" + (f", breakout {n % b + 1} of {b}" if b > 1 else "")
                cable, parts, shared = _ethernet(host.place, at, plane.speed_gbps, b, ends, n,
                                                 host_end=True, hosts=hosts)  # fmt: skip
                out.append(
                    PortLink(network, host.rack, host.name, f"port {j + 1}", rack(at), leaf,
                             port, cable, "host-leaf", parts, shared)
                )  # fmt: skip
    # leaf uplinks on the ports after the host ports, spine ports in the leaves' order, at the
    # speed the plane sized them (a leaf's uplinks may be faster than its host ports)
    up_speed = next((c.speed_gbps for c in plane.cables if c.between == "leaf-spine"),
                    tier.port_speed_gbps)  # fmt: skip
    spine_next = dict.fromkeys(spines, 0)
    for leaf in leaves:
        first = per_leaf_used.get(leaf, 0)
        for u in range(tier.uplinks if spines else 0):
            spine = spines[u % len(spines)]
            spine_next[spine] += 1
            a, s = where[leaf], where[spine]
            if pair is not None:
                lp = f"cage {first + u // 2 + 1}, port {u % 2 + 1}"
                sp = f"cage {(spine_next[spine] + 1) // 2}, port {(spine_next[spine] - 1) % 2 + 1}"
                cable, parts, shared = _ib_uplink(a, s, pair), (), ()
            else:
                lp, sp = f"port {first + u + 1}", f"port {spine_next[spine]}"
                cable, parts, shared = _switch_link(a, s, up_speed)
            out.append(
                PortLink(network, rack(a), leaf, lp, rack(s), spine, sp, cable, "leaf-spine",
                         parts if not ndr else (), shared if not ndr else ())
            )  # fmt: skip
    # a redundant pair's peer links on the pair's last ports after the uplinks
    peer = next((c for c in plane.cables if c.between == "peer-link"), None)
    if peer is not None and plane.redundant:
        per_pair = max(1, peer.count // max(1, len(leaves) // 2))
        for k in range(0, len(leaves) - 1, 2):
            a_name, b_name = leaves[k], leaves[k + 1]
            a, b_ = where[a_name], where[b_name]
            first = max(per_leaf_used.get(a_name, 0), per_leaf_used.get(b_name, 0))
            first += tier.uplinks if spines else 0
            for i in range(per_pair):
                port = f"port {first + i + 1}"
                cable, parts, shared = _switch_link(a, b_, peer.speed_gbps)
                out.append(
                    PortLink(network, rack(a), a_name, port, rack(b_), b_name, port, cable,
                             "peer-link", parts, shared)
                )  # fmt: skip
    return out


def _ib_uplink(a: Place, b: Place, pair: Pairing) -> str:
    m = linkx._dac_m(a, b, pair.switch_cable_lengths_m) if a.rack == b.rack else None
    if m is not None:
        return f"{pair.switch_cable_number(m)} twin-port {pair.copper}, {m:g} m"
    f = linkx._fibre_m(a, b, pair.fibre_lengths_m)
    return f"{pair.fibre_number(f)} fibre, {f} m ({pair.switch_module} at both ends)"


def _ethernet(
    host_at: Place,
    switch_at: Place,
    speed: float,
    b: int,
    ends: list[tuple[int, int]],
    n: int,
    host_end: bool,
    hosts: list[Host],
) -> tuple[str, tuple[linkx.Part, ...], tuple[linkx.Part, ...]]:
    """A host link's cable: the switch port's copper (a splitter serves its ``b`` legs) where
    the longest leg reaches in the rack, else a module at the switch port and one per host
    port with a fibre (a breakout fibre for a split port)."""
    legs = ends[(n // b) * b : (n // b + 1) * b]
    at = [hosts[h].place for h, _ in legs]
    copper = [linkx.eth_copper_m(p, switch_at, speed, b) for p in at]
    leg = f" (leg {n % b + 1} of {b})" if b > 1 else ""
    if all(m is not None for m in copper):
        part = linkx.eth_copper(speed, b, max(m for m in copper if m is not None))
        return part.text.removeprefix("NVIDIA ") + leg, (), (part,)
    metres = max(linkx._fibre_m(p, switch_at) for p in at)
    switch_module, host_module, fibre = linkx.eth_optics(speed, b, metres)
    text = f"{fibre.text}{leg}; {switch_module.text.split(' (')[0]} at the switch"
    fibres = (fibre,) * linkx.fibres_per_port(speed)
    return text, (host_module,), (switch_module, *fibres)


def _switch_link(
    a: Place, b: Place, speed: float
) -> tuple[str, tuple[linkx.Part, ...], tuple[linkx.Part, ...]]:
    """A switch-to-switch Ethernet link: copper in one rack, else a module at each end."""
    m = linkx.eth_copper_m(a, b, speed, 1)
    if m is not None:
        part = linkx.eth_copper(speed, 1, m)
        return part.text.removeprefix("NVIDIA "), (part,), ()
    module, _, fibre = linkx.eth_optics(speed, 1, linkx._fibre_m(a, b))
    fibres = (fibre,) * linkx.fibres_per_port(speed)
    return f"{fibre.text}; a module at each end", (module, module, *fibres), ()


def managed(rack: bo.Rack) -> list[bo.RackItem]:
    """The devices of ``rack`` with a management port on the out-of-band network."""
    return [i for i in rack.items if i.kind in ("server", "switch", "storage", "cdu")]


def oob_switches(rack: bo.Rack) -> int:
    """The out-of-band switches ``rack`` holds (one for every 48 management ports in it)."""
    placed = sum(1 for i in rack.items if i.kind == "oob")
    return placed or -(-len(managed(rack)) // OOB_PORTS)


OOB_COUNT = Formula("ceil(management_ports / ports_per_switch)")
OOB_COUNT_SOURCE = (
    "catalog switches/nvidia-sn2201: 48 x 1GBASE-T RJ45 ports a switch (the SN2000 series "
    "brief), so a rack takes one for every 48 management ports it holds (servers' BMCs, "
    "switches, storage, distribution units)"
)


def logged_oob_switches(rack: bo.Rack, rec: Recorder) -> int:
    """The out-of-band switches of ``rack`` as the bill counts them, logged as
    ``racks.<rack>.oob_switches`` from its management ports."""
    n = int(
        rec.expr(
            f"racks.{rack.name}.oob_switches", OOB_COUNT,
            {"management_ports": len(managed(rack)), "ports_per_switch": OOB_PORTS},
            "switches", OOB_COUNT_SOURCE,
        )
    )  # fmt: skip
    return n


UPLINK_SOURCE = (
    "Out-of-band uplink: one 100 GbE QSFP28 port of each SN2201 (48 x 1 GbE and 4 x 100 GbE) to "
    "the site's management network, by a 100GBASE-SR4 module and an MPO-12 fibre; the far end "
    "(its port and module) is the site's. NVIDIA MMA1B00-C100D is the 100GbE QSFP28 SR4 "
    "module as third-party lists and inventories name it: to confirm with the vendor"
)


def oob_links(racks: list[bo.Rack]) -> list[PortLink]:
    """Every server's BMC and every switch's and storage node's management port to the
    out-of-band switch at the top of its rack (one per 48 ports, as the bill counts them), and
    each out-of-band switch's uplink to the site's management network."""
    out = []
    for rack in racks:
        tops = sorted((i for i in rack.items if i.kind == "oob"), key=lambda i: -i.u_position)
        for n, item in enumerate(sorted(managed(rack), key=lambda i: -i.u_position)):
            top = tops[n // OOB_PORTS] if n // OOB_PORTS < len(tops) else None
            switch = top.name if top else f"oob-{rack.name.split()[0]}-{n // OOB_PORTS + 1:02d}"
            at = top.u_position if top else rack.height_u
            need = abs(at - item.u_position) * linkx.U_M + linkx.ROUTING_M
            m = next((x for x in PATCH_M if x >= need), PATCH_M[-1])
            port = "BMC" if item.kind == "server" else "management"
            cord = linkx.Part("", f"Cat 6 RJ45 patch cord, {m:g} m", PATCH_SOURCE, Cat.CABLE)
            out.append(
                PortLink("oob", rack.name, item.name, port, rack.name, switch,
                         f"port {n % OOB_PORTS + 1}", cord.text, "host-oob", (cord,))
            )  # fmt: skip
        for top in tops:
            module = linkx.Part("MMA1B00-C100D", "NVIDIA MMA1B00-C100D 100GbE QSFP28 SR4 "
                                "transceiver (out-of-band switch uplink)", UPLINK_SOURCE,
                                Cat.TRANSCEIVER)  # fmt: skip
            fibre = linkx.Part("", f"{linkx.SR4_FIBRE}, {UPLINK_M} m (out-of-band uplink)",
                               f"{UPLINK_SOURCE}; {linkx.CABLE_FAQ}", Cat.CABLE)  # fmt: skip
            out.append(
                PortLink("oob", rack.name, top.name, "uplink 1", "site", SITE, f"for {top.name}",
                         fibre.text, "oob-uplink", (module, fibre))
            )  # fmt: skip
    return out


SITE = "site management network"
UPLINK_M = 30  # from the top of a rack to the row's network room: a length to confirm on site


def rack_hosts(racks: list[bo.Rack], cluster: str | None = None) -> list[Host]:
    """The hosts of the racks (of one cluster, or all), in host order."""
    out = [
        (i.host or 0, Host(i.name, rack.name, Place(r, i.u_position)))
        for r, rack in enumerate(racks)
        for i in rack.items
        if i.host is not None and (cluster is None or (i.cluster or rack.cluster) == cluster)
    ]
    return [h for _, h in sorted(out, key=lambda x: x[0])]


def port_map(
    planes: list[bo.Plane],
    racks: list[bo.Rack],
    hosts_on: list[list[Host]],
    labels: list[str],
    osfp_hosts: list[bool],
    numbered_by_kind: bool,
) -> list[PortLink]:
    """The links of every plane (``hosts_on``, ``labels`` and ``osfp_hosts`` per plane) and
    the out-of-band links, ordered by rack, device and port."""
    names = linkx.switch_names(planes, numbered_by_kind)
    where = linkx.places(racks)
    rack_names = [r.name for r in racks]
    out: list[PortLink] = []
    for p, named, hosts, label, osfp in zip(
        planes, names, hosts_on, labels, osfp_hosts, strict=True
    ):
        if p.tiers:
            out += plane_links(p, label, hosts, named, where, rack_names, osfp)
    out += oob_links(racks)
    order = {n: i for i, n in enumerate(rack_names)}
    return sorted(out, key=lambda x: (order.get(x.rack, 0), x.device, x.network, _num(x.port)))


def _num(port: str) -> tuple[int, ...]:
    return tuple(int(t) for t in port.replace(",", " ").split() if t.isdigit())


def result_port_map(design: Design, catalog: Catalog, r: Result) -> list[PortLink]:
    """The port map of a sized design of one cluster."""
    nic = catalog.nic_of(design.hardware.nic)
    return cluster_port_map(nic, r.topology.fabric.planes, r.racks.racks)


def cluster_port_map(
    nic: Nic | None, planes: list[bo.Plane], racks: list[bo.Rack]
) -> list[PortLink]:
    """The port map of one cluster's planes placed in its racks, its hosts holding ``nic``."""
    hosts = rack_hosts(racks)
    osfp = nic is not None and nic.ports == 1
    return port_map(planes, racks, [hosts] * len(planes), [p.name for p in planes],
                    [osfp] * len(planes), numbered_by_kind=False)  # fmt: skip


def bom_lines(links: list[PortLink], cluster: str | None = None) -> list[bo.BomLine]:
    """The parts the links need, counted: a link's own parts once per link, its switch port's
    shared parts once per port (a splitter or a breakout module serves all its legs)."""
    counts: dict[linkx.Part, int] = {}
    seen_ports: set[tuple[str, str, str]] = set()
    for ln in links:
        for part in ln.parts:
            counts[part] = counts.get(part, 0) + 1
        key = (ln.to_rack, ln.to_device, ln.to_port.split(",")[0])
        if ln.shared and key not in seen_ports:
            seen_ports.add(key)
            for part in ln.shared:
                counts[part] = counts.get(part, 0) + 1
    return [
        bo.BomLine(category=part.category, item=_item(part), part_number=part.number,
                   description=part.text, quantity=n, unit="each", source=part.source,
                   cluster=cluster)
        for part, n in counts.items()
    ]  # fmt: skip


def _item(part: linkx.Part) -> str:
    """A stable key for the price list: the part number, else the words of the part."""
    what = part.number or "-".join(part.text.lower().replace(",", " ").replace("(", " ")
                                   .replace(")", " ").replace("/", " ").split())  # fmt: skip
    return f"{part.category.value}:{what.lower()}"


def plane_bom(
    planes: list[bo.Plane], links: list[PortLink], cluster: str | None = None
) -> tuple[list[bo.BomLine], set[str]]:
    """The parts of the Ethernet and out-of-band planes counted from the port map, and the
    generic cable keys they replace (InfiniBand NDR is counted by ``linkx.plane_lines``)."""
    out: list[bo.BomLine] = []
    done: set[str] = set()
    for p in planes:
        if linkx.pairing(p) is not None:
            continue
        mine = [ln for ln in links if ln.network == p.name]
        if not mine or (p.tiers and not any(ln.between == "host-leaf" for ln in mine)):
            continue  # not placed: the generic lines stay
        out += bom_lines(mine, cluster)
        done |= {c.key for c in p.cables}
    return out, done
