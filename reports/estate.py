"""The proposal for a design of several clusters: an executive summary over every cluster and
the clusters at a glance, then each GPU
cluster's own sections under its name, then what the clusters share (networks, power and space,
one bill of materials), the placement decisions and the sources."""

from __future__ import annotations

from reportlab.platypus import Flowable, PageBreak

from reports.data import ReportData
from reports.diagrams import charts, fabric
from reports.diagrams import estate as estate_diagram
from reports.diagrams import racks as racks_diagram
from reports.document import ReportOptions, render
from reports.sections import (
    Section,
    appendix,
    build_sections,
    cabling,
    calculations,
    decisions,
    delta,
    ha,
    operations,
    options,
    requirements,
    risks,
    sharing,
    sizing,
    software,
    storage,
    summary,
    topology,
)
from reports.sections import bom as bom_section
from reports.sections import cooling as cooling_section
from reports.sections import cost as cost_section
from reports.story import Story
from wizard.base.numbers import count, num
from wizard.engine import Plan, joins
from wizard.model.estate import Estate
from wizard.model.result import SHARED_TOPICS, Result
from wizard.present import labels
from wizard.present.cost_text import NO_PRICES, cost_sentence
from wizard.present.labels import CLUSTER_ROLE
from wizard.present.mitigations import mitigation
from wizard.present.risk_register import Risk, network_risks, rack_power_risks, ranked, serious
from wizard.present.severity import SEVERITY

# A GPU cluster's own sections; networks, power, the bill of materials and the appendix are
# the estate's, since the clusters share them
CLUSTER_SECTIONS = [
    Section("requirements", requirements.build),
    Section("sizing per workload", sizing.build),
    Section("sharing modes and GPU layouts", sharing.build),
    Section("cluster size and high availability", ha.build),
    Section("host topology", topology.build),
    Section("storage and data path", storage.build),
    Section("software stack and platform checklist", software.build),
    Section("design decisions", decisions.build),
]


def build_estate_pdf(p: Plan, report: ReportOptions | None = None) -> bytes:
    """The proposal of a design of several clusters: the plan of its proposed option."""
    estate, shown, catalog = p.estate, p.design, p.catalog
    gpu_clusters = [c for c in estate.clusters if c.result is not None]
    datas = {
        c.name: ReportData(c.design, catalog, _own(c.result), shared_network=True, planned=p)
        for c in p.clusters
    }
    first = datas[gpu_clusters[0].name]
    # the cover, header and metadata speak of the whole design
    considered = p.given if shown is not p.given else None
    cover = ReportData(shown, catalog, first.result, p.prices, considered, planned=p)
    t = estate.totals
    line = (
        f"{count(len(estate.clusters), 'cluster')}: {count(t.hosts, 'host')}, "
        f"{count(t.gpus, 'GPU')}, {_kw(t.total_kw)} kW"
    )

    def body(st: Story) -> list[Flowable]:
        flow: list[Flowable] = []
        flow += st.h1("Executive summary") + _overview(st, estate)
        flow += _summary(st, estate, datas, cover)
        if delta.is_expansion(estate):
            flow += st.h2("Existing, to add and to change") + delta.section(st, estate)
        flow += [PageBreak(), *st.h2("The clusters at a glance")]
        rows = [["Workload group", "Cluster", "Why"]]
        rows += [[p.workload, p.cluster, p.reason] for p in estate.placements]
        flow.append(st.table(rows, [2, 1.6, 5]))
        names = {g: catalog.gpus[g].name for g in catalog.gpus}
        parts = estate_diagram.draw_pages(estate, names, st.width)
        for n, drawing in enumerate(parts, start=1):
            of = f" (part {n} of {len(parts)})" if len(parts) > 1 else ""
            flow.append(
                st.figure(
                    drawing,
                    "Logical architecture: each cluster with what runs on it, above the "
                    f"networks the clusters share (a dot marks a cluster's hosts on a network){of}",
                )
            )
        flow += build_sections(st, [Section("Options considered", options.build)])
        for c in gpu_clusters:
            st.data = datas[c.name]
            st.shown_calculations = set()  # each cluster logs its own figures
            flow += build_sections(st, CLUSTER_SECTIONS, prefix=f"{c.name}: ")
        st.data = cover
        flow += st.h1("Networks shared by the clusters") + _network(st, estate)
        flow += st.h1("Power and space") + _power(st, estate)
        links = p.port_map
        if links:
            flow += st.h1("Cabling and port map") + cabling.tables(st, links)
        flow += st.h1("Bill of materials") + _bom(st, estate, links, cover)
        if cover.prices is not None:
            flow += st.h1("Cost of ownership") + _cost(st, estate, cover)
        flow += st.h1("Security and operations")
        hosts = {c.name: c.hosts for c in estate.clusters}
        flow += operations.section(st, shown, operations.management_of(shown, hosts))
        if estate.decisions:
            flow += st.h1("Where each workload group runs") + _notes(st, estate)
        if estate.calculations:
            flow += st.h1("Calculations for the whole design")
            flow.append(calculations.table(st, estate.calculations, ""))
        flow += st.h1("Risks and warnings") + risks.table(st, estate_risks(estate, datas))
        st.data = first
        flow += build_sections(st, [Section("Appendix", appendix.build)])
        return flow

    return render(cover, report or ReportOptions(), body, line)


def _own(r: Result) -> Result:
    """A cluster's result with only the decisions that are its own: the network, power and
    racks are decided for all clusters together in the proposal's shared sections."""
    own = [d for d in r.decisions if d.topic not in SHARED_TOPICS]
    # and only its own calculations: the cluster's switches, power and racks as if it stood
    # alone are not the design's (the shared sections log the design's)
    calcs = [c for c in r.calculations if not c.id.startswith(SHARED_CALCULATIONS)]
    return r.model_copy(
        update={
            "decisions": [d.model_copy(update={"id": i}) for i, d in enumerate(own, 1)],
            "calculations": calcs,
        }
    )


SHARED_CALCULATIONS = ("fabric.", "power.", "racks.", "bom.", "cooling.")


def _overview(st: Story, e: Estate) -> list[Flowable]:
    t = e.totals
    flow: list[Flowable] = [
        st.p(
            f"The design has {count(len(e.clusters), 'cluster')} with {count(t.hosts, 'host')} "
            f"and {count(t.gpus, 'GPU')}, of which the workloads take {num(t.gpus_demand)}; "
            f"the rest is the high-availability reserve of each GPU cluster and the unused part "
            f"of partly filled hosts. It draws up to {_kw(t.total_kw)} kW "
            f"({_kw(t.network_kw)} kW of it the shared network) in "
            f"{count(t.host_racks + t.network_racks, 'rack')}. vSphere HA works per cluster, so "
            "each GPU cluster keeps its own reserve."
        )
    ]
    rows: list[list] = [["Cluster", "Role", "Hosts", "GPUs", "GPUs used", "kW", "Runs"]]
    for c in e.clusters:
        rows.append(
            [c.name, CLUSTER_ROLE[c.role], f"{num(c.hosts)} × {c.server_name}"
             + (f" ({num(c.existing_hosts)} existing)" if c.existing_hosts else ""), num(c.gpus),
             num(c.gpus_demand), _kw(c.hosts_kw), ", ".join(c.workloads) or c.reason]
        )  # fmt: skip
    rows.append(["Shared networks", "", "", "", "", _kw(t.network_kw),
                 "switches of the networks the clusters share"])  # fmt: skip
    rows.append(["Total", "", num(t.hosts), num(t.gpus), num(t.gpus_demand), _kw(t.total_kw), ""])
    flow.append(st.table(rows, [1.5, 1.5, 2.1, 0.7, 0.8, 0.8, 2.2], right=(3, 4, 5)))
    return flow


def _summary(
    st: Story, e: Estate, datas: dict[str, ReportData], cover: ReportData
) -> list[Flowable]:
    """The rest of the one-page summary, over every cluster: each target against its estimate,
    the cost when prices are given, the most severe risks (named by cluster) and the decisions
    the customer must take."""
    rows: list[list] = []
    notes: list[str] = []
    for data in datas.values():
        more, said = summary.performance_rows(data)
        rows += more
        notes += said
    flow = st.h3("Performance against the targets") + summary.performance_table(st, rows, notes)
    flow.append(st.p(_cost_text(cover)))
    top = serious(estate_risks(e, datas))[:3]
    said = [f"{SEVERITY[r.severity]}: " + (f"{r.cluster}: " if r.cluster else "") + r.text
            for r in top]  # fmt: skip
    flow += st.h3("Top risks")
    flow += st.bullets(said) if said else [st.p(summary.no_risk_sentence(estate_risks(e, datas)))]
    asks: list[str] = []
    for data in datas.values():
        asks += [a for a in summary.decisions_to_take(data) if a not in asks]
    return flow + st.h3("Decisions for you to take") + st.bullets(asks)


def estate_risks(e: Estate, datas: dict[str, ReportData]) -> list[Risk]:
    """The register of the whole design: the estate's own warnings and shared networks, then
    each cluster's, most severe first."""
    own = [
        Risk(w.severity, labels.topic(w.code), w.message, mitigation(w.code)) for w in e.warnings
    ]
    own += network_risks(e.network, e.totals.hosts) + rack_power_risks(e.racks)
    return ranked(own + [r for d in datas.values() for r in summary.risk_list(d)])


def _cost_text(cover: ReportData) -> str:
    cost, priced = cover.plan.cost, cover.plan.priced
    if cost is None or priced is None:
        return NO_PRICES
    return cost_sentence(cost, priced)


def _network(st: Story, e: Estate) -> list[Flowable]:
    flow: list[Flowable] = [
        st.p(
            "Each network is sized once for the host ports of every cluster on it, so the "
            "switches below serve all clusters together; the clusters' own decisions leave the "
            "networks, power and racks to this section and the next."
        )
    ]
    rows: list[list] = [["Network", "Host ports", "Switches", "Cables"]]
    for p in e.network:
        kit = ", ".join(f"{x.count} × {x.model} ({x.role})" for x in p.tiers) or p.note
        # a run placed in the racks says its own counts (the bill's); say a count once
        cables = ", ".join(
            c.description if f"{c.count:,} " in c.description else f"{c.count} × {c.description}"
            for c in p.cables
            if c.count
        )
        rows.append([p.technology, num(p.host_ports), kit, cables])
    flow.append(st.table(rows, [1.4, 0.8, 3, 3.4], right=(1,)))
    hosts = {p.name: sum(c.hosts for c in e.clusters if joins(c, p)) for p in e.network}
    drawing = fabric.draw_planes([(p, hosts[p.name]) for p in e.network], _storage(e), st.width)
    if drawing is not None:
        flow.append(
            st.figure(
                drawing,
                "Physical networks: the hosts of every cluster on each network, its leaf and "
                "spine switches and how the hosts are cabled to them.",
            )
        )
    return flow


def _storage(e: Estate) -> str | None:
    """The storage systems the clusters bring to the service network, in words."""
    said = [
        f"{count(c.result.storage.nodes, 'node')} of {c.result.storage.system_name}"
        for c in e.clusters
        if c.result is not None and c.result.storage.system is not None and c.result.storage.nodes
    ]
    return "; ".join(said) or None


def _power(st: Story, e: Estate) -> list[Flowable]:
    rows: list[list] = [["Cluster", "Hosts", "Per host (W)", "kW", "Host racks"]]
    for c in e.clusters:
        rows.append([c.name, num(c.hosts), num(c.host_w), _kw(c.hosts_kw), num(c.host_racks)])
    t = e.totals
    if t.storage_kw:
        rows.append(["Storage", "", "", _kw(t.storage_kw), ""])
    rows.append(["Shared network", "", "", _kw(t.network_kw), num(t.network_racks)])
    rows.append(["Total", num(t.hosts), "", _kw(t.total_kw), num(t.host_racks + t.network_racks)])
    flow: list[Flowable] = [st.table(rows, [2.6, 1, 1.2, 1, 1.2], right=(1, 2, 3, 4))]
    elevation = racks_diagram.draw_racks(e.racks, st.width)
    if elevation is not None:
        flow.append(
            st.figure(
                elevation,
                "Rack elevations: each cluster's hosts (and storage) in racks named for the "
                "cluster, then the shared network racks; the PDUs of the A and B feeds at the "
                "sides.",
            )
        )
    chart = charts.power_chart(e.racks, st.width)
    if chart is not None:
        flow.append(st.figure(chart, "Power per rack against the rack's limit."))
    return flow + cooling_section.block(st, e.cooling, e.racks)


def _kw(value: float) -> str:
    return f"{value:,.1f}"


def _bom(st: Story, e: Estate, links: list, cover: ReportData | None = None) -> list[Flowable]:
    """The bill priced where the proposal has a price list, as its cost section and the
    workbook are."""
    priced = cover.plan.priced if cover is not None else None
    return (
        bom_section.table(st, priced or e.bom, cluster_column=True)
        + delta.kept_table(st, e)
        + bom_section.per_rack(st, e.racks, links)
    )


def _cost(st: Story, e: Estate, cover: ReportData) -> list[Flowable]:
    cost, priced = cover.plan.cost, cover.plan.priced
    assert cost is not None and priced is not None  # the plan has the price list
    gpus = {w.name: w.sharing.gpus_allocated for w in cover.plan.workloads}
    return cost_section.tables(st, cost, cover.design.costs, priced, e.totals.total_kw, gpus)


def _notes(st: Story, e: Estate) -> list[Flowable]:
    flow: list[Flowable] = []
    flow += st.bullets([f"{d.text} {d.reason}" for d in e.decisions])
    return flow
