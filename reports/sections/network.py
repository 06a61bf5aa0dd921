"""Network fabric: the NIC roles on each host, the leaf/spine switches of every network and the
cables between them."""

from __future__ import annotations

from reports.diagrams import fabric
from reports.doctree import Block
from reports.sections import cabling, calculations
from reports.story import Story
from wizard.base.numbers import count, num, ratio
from wizard.model.estate import Estate
from wizard.model.unsettled import flag
from wizard.present import labels


def build(st: Story) -> list[Block] | None:
    p = st.data.plan
    e = p.estate
    views = st.clusters or [st.data]
    if not e.network:
        return None
    several = len(e.clusters) > 1
    flow: list[Block] = []
    if several:
        flow.append(
            st.p(
                "Each network is sized once for the host ports of every cluster on it, so the "
                "switches below serve all clusters together; the clusters' own decisions leave "
                "the networks, power and racks to this section and the next."
            )
        )
    for c, view in zip(p.clusters, views, strict=True):
        f = view.result.topology.fabric
        if f.rdma_note.strip():
            flow.append(st.p(f"RDMA{f' ({c.name})' if several else ''}: {f.rdma_note}".strip()))
    # the hosts cabled to each network, as the plan counts them for every shared network
    hosts = {x.name: x.hosts or 0 for x in e.network}
    drawing = fabric.draw_planes([(x, hosts[x.name]) for x in e.network], _storage(e), st.width)
    if drawing is not None:
        flow.append(
            st.figure(
                drawing,
                "Physical networks: each network's switch tiers and the hosts below them"
                + (", every cluster's hosts on a network it joins." if several else "."),
            )
        )
    for c, view in zip(p.clusters, views, strict=True):
        roles = view.result.topology.fabric.nic_roles
        if not roles:
            continue
        flow += st.h2("NIC ports per host" + (f": {c.name}" if several else ""))
        rows: list[list] = [["Role", "Network", "Adapter", "Ports", "Gb/s", "Note"]]
        rows += [
            [
                labels.name(labels.NIC_ROLE, n.role),
                labels.name(labels.NETWORK_SHORT, n.network),
                _adapter(st, n.adapter),
                num(n.ports_per_host),
                num(n.speed_gbps),
                n.note,
            ]
            for n in roles
        ]
        flow.append(st.table(rows, [1.3, 1, 1.6, 0.6, 0.6, 3.4], right=(3, 4)))
    for plane in e.network:
        flow += st.h2(labels.NETWORK.get(plane.name) or cabling.network(plane.name))
        over = (
            f"{ratio(plane.oversubscription)}:1 (target {ratio(plane.oversubscription_target)}:1)"
            if plane.oversubscription is not None
            else "one switch tier"
        )
        flow.append(
            st.pairs(
                [
                    ("Technology", f"{plane.technology}, {num(plane.speed_gbps)} Gb/s"),
                    ("RDMA", _rdma(plane.rdma)),
                    ("Host ports", num(plane.host_ports)),
                    ("Redundant leaf pair", "yes" if plane.redundant else "no"),
                    ("Oversubscription", over),
                    *([("Note", plane.note)] if plane.note else []),
                ]
            )
        )
        if plane.tiers:
            flow.append(_tiers(st, plane))
        if plane.cables:
            rows = [["Cables", "Between", "Gb/s", "Count", "Optics"]]
            rows += [
                [
                    c.description,
                    labels.name(labels.CABLE_RUN, c.between),
                    num(c.speed_gbps),
                    num(c.count),
                    num(c.transceivers),
                ]
                for c in plane.cables
            ]
            flow.append(st.table(rows, [4, 1.2, 0.7, 0.7, 0.7], right=(2, 3, 4)))
        flow += calculations.block(st, f"fabric.{plane.name}.")
    flow += calculations.block(st, "fabric.")  # any not tied to one network
    return flow


def _storage(e: Estate) -> str | None:
    """The storage systems the clusters bring to the service network, in words."""
    said = [
        f"{count(c.result.storage.nodes, 'node')} of {c.result.storage.system_name}"
        for c in e.clusters
        if c.result is not None and c.result.storage.system is not None and c.result.storage.nodes
    ]
    return "; ".join(said) or None


def _rdma(value: str) -> str:
    """'none (TCP/IP)' rather than a bare 'None'."""
    return "none (TCP/IP)" if value == "none" else labels.name(labels.RDMA_SHORT, value)


def _adapter(st: Story, adapter: str) -> str:
    """A NIC by its product name; the server's onboard ports (the BMC's, or those its catalog
    entry states)."""
    nic = st.data.catalog.nics.get(adapter)
    if nic is None:
        return "the server's onboard port" if adapter == "onboard" else adapter
    return nic.model


def _tiers(st: Story, plane) -> Block:
    rows: list[list] = [["Tier", "Switch", "Count", "Down", "Up", "Gb/s", "U", "W each"]]
    switches = st.data.catalog.switches
    rows += [
        # the row names the figures of it the catalog leaves unsettled (a switch's power, its
        # height), so the table never states them as fact
        [t.role, flag(t.model, switches.get(t.switch), "port_speed_gbps", "rack_units", "power_w"),
         num(t.count), num(t.downlinks), num(t.uplinks), num(t.port_speed_gbps),
         num(t.rack_units), num(t.power_w)]
        for t in plane.tiers
    ]  # fmt: skip
    return st.table(rows, [0.8, 2.6, 0.7, 0.7, 0.6, 0.7, 0.5, 0.8], right=(2, 3, 4, 5, 6, 7))
