"""What the estate counts of the customer's existing clusters besides planning on them: the
clusters kept as they are (their power and racks), the hosts added to a kept cluster (racked and
cabled with the design's new hosts, or on the cluster's own switches where the design buys
none), the racks the kept hosts stand in, and a kept cluster's bill split between what is
bought and what is kept."""

from __future__ import annotations

from wizard.engine.basis.expr import Formula
from wizard.engine.basis.record import Recorder
from wizard.engine.decide.cpu_clusters import RACK_SOURCE, rack_inputs
from wizard.engine.decide.existing import ExistingFacts, not_plannable, outside_support
from wizard.engine.fitout.power import host_watts
from wizard.engine.fitout.racks import HOSTS_PER_RACK
from wizard.model import buildout as bo
from wizard.model.catalog import Catalog
from wizard.model.estate import EstateCluster, KeptAsIs
from wizard.model.existing import ExistingHost
from wizard.model.result import DecisionTopic


def as_is(facts: ExistingFacts, catalog: Catalog, rec: Recorder) -> list[KeptAsIs]:
    """The existing clusters kept as they are (hosts that differ, a product the catalog does not
    hold, an HGX board outside NVIDIA's support): nothing is planned on them, but their hosts
    draw power and fill racks, which the estate counts; a host the catalog cannot power is named
    as not counted, never guessed."""
    out = []
    a = facts.assumptions
    for c in facts.clusters:
        why = not_plannable(c, catalog)
        if not why:
            outside = outside_support(c, catalog)
            if not outside:
                continue
            why = f"it runs {outside} on an HGX board outside NVIDIA's support under vSphere"
        watts: list[float] = []
        kinds: dict[tuple[str, str | None, int], int] = {}
        missing: list[str] = []
        for h in c.hosts:
            w = _host_w(h, catalog)
            if w is None:
                missing.append(h.name)
                continue
            assert h.server is not None
            watts.append(w)
            key = (h.server, h.gpu, h.gpus)
            kinds[key] = kinds.get(key, 0) + 1
        racks = 0
        for (server_id, gpu_id, gpus), n in kinds.items():
            server = catalog.servers[server_id]
            host_w = _host_w_of(server_id, gpu_id, gpus, catalog)
            # racked as the clusters without GPUs are, by the same rule
            calc = f"existing.{c.name}.{server_id}"
            per_rack = int(
                rec.expr(
                    f"{calc}.hosts_per_rack", HOSTS_PER_RACK,
                    rack_inputs(a, catalog, server, host_w), "hosts", RACK_SOURCE,
                )
            )  # fmt: skip
            racks += int(
                rec.expr(
                    f"{calc}.racks", Formula("ceil(hosts / hosts_per_rack)"),
                    {"hosts": n, "hosts_per_rack": per_rack}, "racks", RACK_SOURCE,
                )
            )  # fmt: skip
        out.append(
            KeptAsIs(
                name=c.name,
                hosts=len(c.hosts),
                gpus=sum(h.gpus for h in c.hosts),
                reason=why,
                hosts_counted=len(watts),
                host_w=watts,
                hosts_kw=sum(watts) / 1000,
                host_racks=racks,
                not_counted=(
                    f"{', '.join(missing)}: the catalog holds no server or GPU to give "
                    f"{'its' if len(missing) == 1 else 'their'} power and rack units"
                    if missing
                    else ""
                ),
            )
        )
    return out


def _host_w(h: ExistingHost, catalog: Catalog) -> float | None:
    """An existing host's planning power as a new host's is worked out (its GPUs at TDP and the
    server's platform baseline); None where the catalog lacks its server, or its GPUs."""
    if h.server not in catalog.servers:
        return None
    if h.gpus and h.gpu not in catalog.gpus:
        return None
    assert h.server is not None
    return _host_w_of(h.server, h.gpu, h.gpus, catalog)


def _host_w_of(server: str, gpu: str | None, gpus: int, catalog: Catalog) -> float:
    s = catalog.servers[server]
    if not gpus or gpu is None:
        return s.baseline_power_w
    return host_watts(catalog.gpus[gpu], s, gpus)


def added_part(c: EstateCluster) -> EstateCluster | None:
    """The hosts added to an existing cluster, as a cluster of their own for the estate's
    network and racks: their share of the cluster's host ports on each network (ports count per
    host) and their rack items stacked from the bottom (the estate's layout racks them beside
    the new hosts where a rack has room), cabled to the design's new switches like every host
    bought; None where nothing is added. Their servers and parts are the
    cluster's bought lines (``split_lines``)."""
    added = c.hosts - c.existing_hosts
    if not c.existing_hosts or added <= 0 or c.result is None:
        return None
    r = c.result
    fabric = r.topology.fabric
    planes = [p.model_copy(update={"host_ports": p.host_ports * added // c.hosts})
              for p in fabric.planes]  # fmt: skip
    racks = []
    for rack in r.racks.racks:
        hosts = [h for h in rack.hosts if h >= c.existing_hosts]
        if not hosts:
            continue
        items, u = [], 1
        for i in rack.items:
            if i.host is None or i.host < c.existing_hosts:
                continue
            items.append(i.model_copy(update={"u_position": u}))
            u += i.height_u
        racks.append(rack.model_copy(update={"hosts": hosts, "items": items}))
    topology = r.topology.model_copy(
        update={"fabric": fabric.model_copy(update={"planes": planes})}
    )
    result = r.model_copy(
        update={"topology": topology, "racks": r.racks.model_copy(update={"racks": racks})}
    )
    return c.model_copy(
        update={
            "hosts": added,
            "gpus": c.gpus * added // c.hosts,
            "hosts_kw": c.host_w * added / 1000,
            "host_racks": len(racks),
            "existing_hosts": 0,
            "result": result,
        }
    )


def joined(clusters: list[EstateCluster]) -> list[EstateCluster]:
    """The hosts added to existing clusters that join the design's new switches: all of them
    where the design buys a cluster (and so its networks) anyway; none where it only grows
    existing clusters, whose added hosts then take ports on the cluster's own switches
    (``own_network_lines``) rather than a pair of new switches and a rack for a few hosts."""
    if not any(not c.existing_hosts for c in clusters):
        return []
    return [a for c in clusters if (a := added_part(c)) is not None]


OWN_NETWORK_SOURCE = (
    "The hosts added to an existing cluster, where the design buys no switches of its own, are "
    "cabled to the cluster's switches as its hosts are today: each added host's ports on each "
    "network as the cluster's sizing counts them (ports per host), one cable a port; the "
    "switches are the customer's, so the cable's type and length are to match them"
)


JOINED_SOURCE = (
    "The design buys networks for its new hosts, so the hosts added to an existing cluster join "
    "them like every host bought, racked above the new hosts of a rack that has the units and "
    "the power left, else in a rack of their own; the new switches are to be uplinked to the "
    "network the kept hosts are on, for vMotion between the cluster's hosts"
)


def joined_decision(part: EstateCluster, racks: list[bo.Rack], rec: Recorder) -> None:
    """Says where the hosts added to an existing cluster stand and which switches they take."""
    where = [
        r.name for r in racks if any(i.host is not None and (i.cluster or r.cluster) == part.name
                                     for i in r.items)
    ]  # fmt: skip
    one = part.hosts == 1
    rec.decide(
        f"{_the_added(part.hosts)} to the existing cluster '{part.name}' "
        f"{'stands' if one else 'stand'} in {', '.join(where)} and {'is' if one else 'are'} "
        "cabled to the design's new switches.",
        f"{JOINED_SOURCE}.",
        DecisionTopic.NETWORK,
        implication=f"{'Its' if one else 'Their'} switch ports and cables are on the bill; "
        f"where the kept hosts' racks and switches have room, {'it' if one else 'they'} may go "
        "there instead, and that rack room and those ports come off the order",
    )


def _the_added(n: int) -> str:
    return "The host added" if n == 1 else f"The {n:,} hosts added"


def own_network_lines(c: EstateCluster, rec: Recorder) -> list[bo.BomLine]:
    """The cables of the hosts added to an existing cluster that take ports on the cluster's
    own switches, and a decision naming the free ports to confirm; [] when nothing is added."""
    added = c.hosts - c.existing_hosts
    if not c.existing_hosts or added <= 0 or c.result is None:
        return []
    out, ports = [], []
    for p in c.result.topology.fabric.planes:
        each = p.host_ports // c.hosts if p.name != "oob" else 1
        if not each:
            continue
        label = "out-of-band" if p.name == "oob" else p.name
        ports.append(f"{added * each} on its {label} switches ({each} a host)")
        cable = (
            "Cat 6 RJ45 patch cord, a host's BMC port to the cluster's out-of-band switch"
            if p.name == "oob"
            else f"{p.speed_gbps:g} Gb/s cable, a host's {p.technology} port to the cluster's "
            f"{label} switch"
        )
        out.append(
            bo.BomLine(
                category=bo.BomCategory.CABLE,
                item=f"cable:{p.name}-to-existing-switch",
                part_number="",
                description=f"{cable} (type and length to match the switch and the rack)",
                quantity=added * each,
                unit="each",
                source=OWN_NETWORK_SOURCE,
                cluster=c.name,
                to_confirm=["part number", "length"],
            )
        )
    rec.decide(
        f"{_the_added(added)} to the existing cluster '{c.name}' "
        f"{'takes' if added == 1 else 'take'} ports on its own switches: {', '.join(ports)}.",
        f"The design buys no switches of its own. {OWN_NETWORK_SOURCE}.",
        DecisionTopic.NETWORK,
        implication=f"No switch is bought for {'it' if added == 1 else 'them'}; confirm the "
        "free ports, and room and power in the racks beside the kept hosts, with the estate's "
        "owner",
    )
    return out


def existing_racks(c: EstateCluster) -> int:
    """The racks an existing cluster's kept hosts stand in, as its sizing racks them."""
    if c.result is None:
        return c.host_racks
    return sum(1 for r in c.result.racks.racks if any(h < c.existing_hosts for h in r.hosts))


def split_lines(
    clusters: list[EstateCluster], shared: set[bo.BomCategory]
) -> tuple[list[bo.BomLine], list[bo.BomLine]]:
    """An existing cluster's own bill lines split between what is bought (the hosts added, with
    their GPUs and parts) and what is kept: each line counts per host, so the kept share is the
    kept hosts' share of the cluster. The shared network's lines are not the cluster's."""
    bought: list[bo.BomLine] = []
    kept: list[bo.BomLine] = []
    for c in clusters:
        if not c.existing_hosts or c.result is None:
            continue
        for ln in c.result.bom.lines:
            if ln.category in shared:
                continue
            held = ln.quantity * c.existing_hosts // c.hosts
            if held:
                kept.append(
                    ln.model_copy(update={"cluster": c.name, "quantity": held, "included": 0})
                )
            if ln.quantity - held or ln.included:
                bought.append(
                    ln.model_copy(update={"cluster": c.name, "quantity": ln.quantity - held})
                )
    return bought, kept
