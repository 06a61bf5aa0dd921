"""Power and space: watts per host and for the cluster, racks and what limits them, the rack
elevations and power per rack."""

from __future__ import annotations

from reports.diagrams import charts
from reports.diagrams import racks as racks_diagram
from reports.doctree import Block
from reports.sections import calculations, cooling
from reports.story import Story
from wizard.base.numbers import MISSING, count, fixed, num
from wizard.model.buildout import Power, PowerItem
from wizard.model.platform import StorageResult
from wizard.model.unsettled import flag, tagged, unsettled
from wizard.present import labels
from wizard.present.racks_text import rack_fit


def _storage_pair(p: Power, storage: StorageResult | None) -> list[tuple[str, str]]:
    """The storage's line of the power summary: its watts, or that no figure was published."""
    if storage is None or not storage.system or not storage.nodes:
        return []
    if p.storage_w:
        return [("Storage", f"{num(p.storage_w)} W")]
    return [("Storage", "not counted: no published figure for its nodes (see the risks)")]


def _racks_phrase(host_racks: int, network_racks: int) -> str:
    """'2 racks of hosts and 1 for the network', or '1 rack, hosts and network together'."""
    if network_racks:
        return f"{count(host_racks, 'rack')} of hosts and {num(network_racks)} for the network"
    return f"{count(host_racks, 'rack')}, hosts and network gear together"


def build(st: Story) -> list[Block] | None:
    plan = st.data.plan
    e = plan.estate
    t = e.totals
    views = st.clusters or [st.data]
    several = len(e.clusters) > 1
    # a cluster whose Result is the whole design's (no other cluster, nothing kept) says its
    # network, storage and total itself; otherwise they are the estate's, in the table
    whole = len(views) == 1 and not views[0].shared_network and not e.as_is
    flow: list[Block] = [*st.h2("Power")]
    if not whole:
        flow.append(_clusters_table(st))
        flow.append(_items_table(st, e.power_items))
        if t.existing_kw:
            flow.append(
                st.p(
                    f"Of the {fixed(t.total_kw)} kW, the existing hosts draw {fixed(t.existing_kw)} "
                    "kW: the customer's already, so it counts in the racks' power and cooling "
                    "and not in the cost of ownership."
                )
            )
    for c, view in zip(plan.clusters, views, strict=True):
        p = view.result.power
        pairs = [
            (
                "Per host",
                tagged(
                    f"{num(p.host_w)} W (GPUs {num(p.gpu_w_per_host)} W, platform "
                    f"{num(p.baseline_w_per_host)} W)",
                    [
                        *unsettled(view.gpu, ["tdp_w"]),
                        *unsettled(view.server, ["baseline_power_w"]),
                    ],
                ),
            ),
            (
                "Power supplies per host",
                flag(
                    f"{num(p.psu_installed_w)} W installed, "
                    f"{num(p.psu_redundant_w)} W with half failed",
                    view.server,
                    "psu_w",
                    "psu_count",
                ),
            ),
            ("Hosts", f"{num(p.hosts)} × {num(p.host_w)} W = {num(p.hosts_w)} W"),
        ]
        if not whole:
            flow += [*st.h3(c.name), st.pairs(pairs)]
            continue
        # the whole design is this cluster: its network, storage, coolant units and total
        cdu = st.data.catalog.cooling.get(e.cooling.cdu) if e.cooling is not None else None
        pairs += [
            ("Network", f"{num(p.network_w)} W"),
            *_storage_pair(p, view.result.storage),
            *(
                [
                    (
                        "Coolant distribution units",
                        flag(f"{num(p.cdu_w)} W, in the racks", cdu, "power_w"),
                    )
                ]
                if p.cdu_w
                else []
            ),
            ("Total", f"{num(p.total_kw)} kW ({num(p.btu_per_hour)} BTU/h)"),
        ]
        flow.append(st.pairs(pairs))
        if p.items:
            flow.append(_items_table(st, p.items))
    flow += st.h2("Racks")
    rk0 = views[0].result.racks
    fits = [
        (f"{c.name}: " if several else "")
        + f"{rack_fit(v.result.racks)} (failure domain: "
        + f"{labels.name(labels.FAILURE_DOMAIN, v.result.racks.failure_domain).lower()})"
        for c, v in zip(plan.clusters, views, strict=True)
    ]
    flow.append(
        st.p(
            f"{_racks_phrase(t.host_racks, t.network_racks)}, "
            f"{rk0.rack_units} U and {num(rk0.power_limit_kw)} kW"
            f"{' each' if t.host_racks + t.network_racks > 1 else ''}; {'; '.join(fits)}."
        )
    )
    elevation = racks_diagram.draw_racks(e.racks, st.width)
    if elevation is not None:
        flow.append(
            st.figure(
                elevation,
                "Rack elevations: units, contents and power"
                + ("; each cluster's hosts in racks named for it, then the shared network racks."
                   if several else "."),
            )
        )  # fmt: skip
    chart = charts.power_chart(e.racks, st.width)
    if chart is not None:
        flow.append(st.figure(chart, "Power per rack against the rack's limit."))
    flow += cooling.block(st, e.cooling, e.racks)
    flow += calculations.block(st, "power.", "racks.", "cooling.")
    return flow


def _items_table(st: Story, items: list[PowerItem]) -> Block:
    """What draws power, line by line, each with its source; a line the catalog leaves
    unsettled says so in its name."""
    rows: list[list] = [["Item", "Count", "W each", "W total", "Src."]]
    rows += [
        [
            i.item,
            num(i.count),
            num(i.watts_each) if i.watts_each else MISSING,
            num(i.watts_total) if i.watts_each else "not counted",
            st.cite(i.source),
        ]
        for i in items
    ]
    return st.table(rows, [4, 0.8, 1, 1, 0.5], right=(1, 2, 3))


def _clusters_table(st: Story) -> Block:
    """Each cluster's hosts and power, the storage, the shared network and the total."""
    e = st.data.plan.estate
    t = e.totals
    rows: list[list] = [["Cluster", "Hosts", "Per host (W)", "kW", "Host racks"]]
    servers = st.data.catalog.servers
    for c in e.clusters:
        # its power per host rests on the server's platform power: marked where that is unsettled
        name = c.name + (f" ({num(c.existing_hosts)} existing hosts)" if c.existing_hosts else "")
        rows.append([flag(name, servers.get(c.server), "baseline_power_w"),
                     num(c.hosts), num(c.host_w), fixed(c.hosts_kw), num(c.host_racks)])  # fmt: skip
    for a in e.as_is:  # kept as it is: its power and racks count, nothing of it is bought
        rows.append([f"{a.name} (existing, kept as it is)", num(a.hosts), "", fixed(a.hosts_kw),
                     num(a.host_racks)])  # fmt: skip
    if t.storage_kw:
        rows.append(["Storage", "", "", fixed(t.storage_kw), ""])
    rows.append(["Shared network", "", "", fixed(t.network_kw), num(t.network_racks)])
    rows.append(["Total", num(t.hosts), "", fixed(t.total_kw), num(st.data.plan.racks)])
    return st.table(rows, [2.6, 1, 1.2, 1, 1.2], right=(1, 2, 3, 4))
