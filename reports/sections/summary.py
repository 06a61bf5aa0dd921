"""Executive summary, one page for a CIO: the design in six numbers and a paragraph (size,
storage), performance against every target, the cost when prices are given, the top risks in
words and the decisions the customer must take; then the logical architecture."""

from __future__ import annotations

from xml.sax.saxutils import escape

from reports.data import ReportData
from reports.diagrams import architecture
from reports.diagrams import estate as estate_diagram
from reports.doctree import Block, Cards, PageBreak, Space
from reports.sections import delta
from reports.story import Story
from wizard.base.numbers import MISSING, count, figure, fixed, num, plural, some
from wizard.model.design import HaLevel, SharingMode
from wizard.model.options import TargetStatus
from wizard.model.unsettled import flag
from wizard.present import labels
from wizard.present.cost_text import NO_PRICES, cost_sentence
from wizard.present.labels import CLUSTER_ROLE
from wizard.present.options_table import METRIC_NAMES, verdict
from wizard.present.risk_register import Risk, plan_risks, register, serious
from wizard.present.severity import SEVERITY


def headline(data: ReportData) -> list[tuple[str, str]]:
    """The six numbers on the summary page, as (label, value), of the whole design."""
    p = data.plan
    t = p.estate.totals
    cs = [c.result.cluster for c in p.clusters]
    if len(cs) == 1:
        c = cs[0]
        failures = c.host_failures_tolerated
        after = (
            (f"GPUs left after {count(failures, 'host failure')}", num(c.gpus_after_failures))
            if failures
            # no host held for HA: say what one failure leaves, not "after 0 host failures"
            else ("GPUs left if a host fails", num(max(0, c.gpus_total - c.gpus_per_host)))
        )
    else:  # each cluster keeps its own reserve
        after = (
            "GPUs left after the host failures each cluster tolerates",
            num(p.gpus_after_failures),
        )
    where = "cluster" if len(p.estate.clusters) == 1 else "design"
    return [
        (f"GPUs in the {where}", num(t.gpus)),
        (plural(t.hosts, "host"), num(t.hosts)),
        ("GPUs the workloads need", num(t.gpus_demand)),
        after,
        (f"kW for the whole {where}", num(t.total_kw, 1)),
        (plural(p.racks, "rack"), num(p.racks)),
    ]


def _cards(st: Story) -> Cards:
    figures = headline(st.data)
    return Cards(tuple(escape(v) for _, v in figures), tuple(escape(k) for k, _ in figures))


def paragraph(data: ReportData) -> str:
    d, r, c = data.design, data.result, data.result.cluster
    modes = sorted({g.sharing_mode for g in d.workloads}, key=list(SharingMode).index)
    names = [labels.MODE[m] for m in modes]
    mode_text = (
        f"{plural(len(names), 'Sharing mode')}: "
        + " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
        if names
        else "No sharing mode is chosen yet"
    )
    groups = len(r.workloads)
    ha = (
        f"{num(d.ha.reserve_percent)} % reserve"
        if d.ha.level is HaLevel.PERCENT
        else labels.HA_LEVEL_SHORT[d.ha.level]
    )
    text = (
        f"The design provides {num(c.gpus_total)} {data.gpu.name} {plural(c.gpus_total, 'GPU')} "
        f"in {num(c.hosts_total)} {data.server.product_name} "
        f"{plural(c.hosts_total, 'host')} with {count(c.gpus_per_host, 'GPU')} "
        f"each, for {count(groups, 'workload group')} that "
        f"{'needs' if groups == 1 else 'together need'} "
        f"{count(c.gpus_demand, 'GPU')}. {mode_text}. "
        f"{count(c.hosts_for_capacity, 'host')} "
        f"{'carries' if c.hosts_for_capacity == 1 else 'carry'} the demand"
    )
    spare = [f"high availability ({ha}) adds {count(c.hosts_for_ha, 'host')}"]
    if c.hosts_for_maintenance:
        spare.append(f"maintenance {num(c.hosts_for_maintenance)}")
    if c.hosts_for_platform:
        spare.append(
            f"the VMware Cloud Foundation minimum cluster {num(c.hosts_for_platform)} more"
        )
    if c.host_failures_tolerated:
        text += (
            f"; {' and '.join(spare)}, so {count(c.gpus_after_failures, 'GPU')} remain "
            f"after {count(c.host_failures_tolerated, 'host failure')}."
        )
    else:
        left = max(0, c.gpus_total - c.gpus_per_host)
        text += (
            (f"; maintenance adds {num(c.hosts_for_maintenance)}" if c.hosts_for_maintenance
             else "")
            + (f"; the VMware Cloud Foundation minimum cluster adds {num(c.hosts_for_platform)}"
               if c.hosts_for_platform else "")
            + f"; no host is held for failures ({ha}), so a host failure leaves "
            f"{count(left, 'GPU')} for a demand of {num(c.gpus_demand)}."
        )  # fmt: skip
    text += _storage_text(data)
    return text


def _storage_text(data: ReportData) -> str:
    st = data.result.storage
    stated = st.capacity_needed_tb > 0 or st.read_gbs_needed > 0
    need = (
        f"{_small(st.capacity_needed_tb, 'TB')} and {_small(st.read_gbs_needed, 'GB/s')} of reads"
    )
    unknown = _not_known(st.dataset_not_known, st.read_not_known, st.kept_not_known)
    # a need that leaves out what is not known says so, so the figure never reads as complete
    at_least = (
        f" {unknown[0].upper()}{unknown[1:]}, so the need is at least that." if unknown else ""
    )
    if st.system_name and st.nodes:
        usable = f", {num(st.usable_tb, 1)} TB usable" if st.usable_tb is not None else ""
        usable = flag(usable, data.storage, "usable_capacity_tb_per_node") if usable else ""
        return f" Shared storage: {count(st.nodes, 'node')} of {st.system_name}{usable}" + (
            f", for the {need} the workloads need.{at_least}"
            if stated
            else "." + (f" {unknown[0].upper()}{unknown[1:]}." if unknown else "")
        )
    if not stated:
        if unknown:
            return f" No shared storage is chosen, and {unknown}."
        return " No shared storage is chosen, and the workloads state no data to keep."
    return f" No shared storage is chosen; the workloads need {need}.{at_least}"


def _not_known(no_dataset: list[str], no_read: list[str], no_kept: list[str]) -> str:
    """ "the dataset size and read throughput of A are not known", or of different groups;
    "the checkpoints or model files of B" where those are what is not known. The verb follows
    the figures named, never the words of a group's name."""
    parts: list[tuple[str, bool]] = []  # (words, whether they name more than one figure)
    if no_dataset and no_dataset == no_read:
        parts.append((f"the dataset size and read throughput of {some(no_dataset)}", True))
    else:
        parts += [(f"the dataset size of {some(no_dataset)}", False)] if no_dataset else []
        parts += [(f"the read throughput of {some(no_read)}", False)] if no_read else []
    parts += [(f"the checkpoints or model files of {some(no_kept)}", True)] if no_kept else []
    if not parts:
        return ""
    several = len(parts) > 1 or parts[0][1]
    return " and ".join(w for w, _ in parts) + (" are" if several else " is") + " not known"


def _small(value: float, unit: str) -> str:
    return f"less than 0.1 {unit}" if value < 0.05 else f"{num(value, 1)} {unit}"


def performance(data: ReportData) -> list[TargetStatus]:
    """Every target of this cluster's groups against the estimate and its pessimistic end."""
    mine = {w.name for w in data.result.workloads}
    return [t for t in data.plan.targets if t.workload in mine]


def performance_rows(data: ReportData) -> tuple[list[list], list[str]]:
    """Each target against its estimate; groups without a target show their estimate, so a
    reader sees every time to train (in days when it runs for days). Returns the table rows
    (no header) and the sentences on groups the network holds back."""
    targets = performance(data)
    rows: list[list] = []
    for t in targets:
        worse = ""
        if t.pessimistic is not None:
            edge = "down to" if t.metric == "throughput" else "up to"
            worse = f" ({edge} {_fig(t.pessimistic, t.unit)})"
        bound = "at least" if t.metric == "throughput" else "at most"
        rows.append(
            [t.workload, f"{METRIC_NAMES[t.metric]} {bound} {_fig(t.target, t.unit)}",
             _fig(t.value, t.unit) + worse, verdict(t)]
        )  # fmt: skip
    with_target = {t.workload for t in targets}
    for w in data.result.workloads:
        tr = w.training
        if w.name in with_target or tr is None or tr.time_to_train_hours is None:
            continue
        rows.append([w.name, "none stated", f"time to train {_fig(tr.time_to_train_hours, 'h')}",
                     MISSING])  # fmt: skip
    notes = []
    for w in data.result.workloads:
        tr = w.training
        if tr and tr.communication_share is not None and tr.communication_share >= 0.5:
            notes.append(
                f"{w.name}: exchanging gradients takes {tr.communication_share:.0%} of each "
                f"training step over {tr.allreduce_link or 'the network'}, so the network, "
                "not the GPUs, sets the time to train."
            )
    return rows, notes


def performance_table(st: Story, rows: list[list], notes: list[str]) -> list[Block]:
    flow: list[Block] = []
    if rows:
        header = ["Workload group", "Target", "Estimate", "Verdict"]
        flow.append(st.table([header, *rows], [2.6, 2.8, 2.2, 0.9]))
    else:
        flow.append(
            st.p(
                "No workload group states a time-to-train or latency target, so the sizing "
                "follows the stated demand; the figures per group are in Sizing per workload."
            )
        )
    return flow + [st.p(n) for n in notes]


def _fig(value: float, unit: str) -> str:
    """A time or rate as the sizing sections write it (one figure, one rounding, everywhere)."""
    text = figure(value, unit)
    if unit == "h" and value >= 72:
        text += f" ({num(round(value / 24))} days)"
    return text


def _cost(st: Story) -> list[Block]:
    data = st.data
    if data.prices is None:
        return [st.p(NO_PRICES)]
    cost, priced = data.plan.cost, data.plan.priced
    assert cost is not None and priced is not None  # the plan has the price list
    return [st.p(cost_sentence(cost, priced))]


def risk_list(data: ReportData) -> list[Risk]:
    """The design's risk register (one source for the summary and the Risks section)."""
    cluster = data.design.cluster_name if data.shared_network else None
    return register(data.result, performance(data), cluster, not data.shared_network)


def risks(data: ReportData, limit: int = 3) -> list[str]:
    """The most severe risks and cautions of the whole design, in words, as the summary lists
    them (a cluster's named when there are several)."""
    return [
        f"{SEVERITY[r.severity]}: " + (f"{r.cluster}: " if r.cluster else "") + r.text
        for r in serious(plan_risks(data.plan))[:limit]
    ]


def no_risk_sentence(register: list[Risk]) -> str:
    """What the summary says when no risk or caution is left to name."""
    notes = len(register)
    if notes:
        return (
            f"The sizing raised no risk or caution; {count(notes, 'note')} for information "
            f"{'is' if notes == 1 else 'are'} in Risks and warnings."
        )
    return "The sizing raised no risk, caution or note."


def decisions_to_take(data: ReportData, gpus: list[str] | None = None) -> list[str]:
    """What the customer must decide or confirm before ordering, from what the design leaves
    open or assumes; ``gpus``: the GPUs of every cluster, which one release must support."""
    d = data.design
    out = []
    if data.compared.options:
        out.append(
            "Which option to build: the proposal specifies the proposed one; "
            "Options considered compares it with the others."
        )
    if data.result.storage.system is None:
        out.append(
            "Where the datasets, checkpoints and models live: no shared storage is chosen, so "
            "none is quoted."
        )
    if d.platform.nvaie_release is None:
        out.append(
            "The NVIDIA AI Enterprise release: the newest that supports the "
            f"{' and the '.join(gpus or [data.gpu.name])} is assumed."
        )
    if d.ha.level is not HaLevel.N0 and d.ha.maintenance_hosts == 0:
        out.append(
            "Whether to keep a host for maintenance: without one, a host failure during an "
            "upgrade leaves less than the high-availability reserve."
        )
    out.append(
        f"The rack power limit of {num(d.assumptions.max_rack_power_kw)} kW and the "
        "subscription term of the licences (1, 3 or 5 years), which set the racks and the cost."
    )
    return out


def build(st: Story) -> list[Block] | None:
    data = st.data
    views = st.clusters or [data]
    e = data.plan.estate
    flow: list[Block] = [_cards(st), Space(10), *overview(st, views)]
    if data.compared.options:
        from reports.sections.options import proposal_sentence, rows_of

        sentence = proposal_sentence(rows_of(st))
        if sentence:
            flow.append(st.p(sentence))
    rows: list[list] = []
    notes: list[str] = []
    for view in views:
        more, said = performance_rows(view)
        rows += more
        notes += said
    flow += st.h3("Performance against the targets") + performance_table(st, rows, notes)
    flow += _cost(st)
    top = risks(data)
    flow += st.h3("Top risks")
    flow += st.bullets(top) if top else [st.p(no_risk_sentence(plan_risks(data.plan)))]
    asks: list[str] = []
    gpus = list(dict.fromkeys(view.gpu.name for view in views))
    for view in views:
        asks += [a for a in decisions_to_take(view, gpus) if a not in asks]
    flow += st.h3("Decisions for you to take") + st.bullets(asks)
    if delta.is_expansion(e):
        flow += st.h2("Existing, to add and to change") + delta.section(st, e)
    flow += [PageBreak(), *st.h2("Logical architecture")]  # the summary is one page
    return flow + _architecture(st)


def overview(st: Story, views: list[ReportData]) -> list[Block]:
    """The design in words: its cluster's hosts, GPUs, reserve and storage; for several
    clusters, the whole design's, then each cluster in a row."""
    e = st.data.plan.estate
    if len(e.clusters) == 1:
        return [st.p(paragraph(views[0]))]
    t = e.totals
    # the totals are the cards above; what they do not say is where the reserve sits
    flow: list[Block] = [
        st.p(
            f"{count(len(e.clusters), 'cluster')}; vSphere HA works per cluster, so each GPU "
            "cluster keeps its own reserve."
        )
    ]
    rows: list[list] = [["Cluster", "Role", "Hosts", "GPUs", "GPUs used", "kW", "Runs"]]
    for c in e.clusters:
        rows.append(
            [c.name, CLUSTER_ROLE[c.role], f"{num(c.hosts)} × {c.server_name}"
             + (f" ({num(c.existing_hosts)} existing)" if c.existing_hosts else ""), num(c.gpus),
             num(c.gpus_demand), fixed(c.hosts_kw), ", ".join(c.workloads) or c.reason]
        )  # fmt: skip
    rows.append(["Total", "", num(t.hosts), num(t.gpus), num(t.gpus_demand), fixed(t.total_kw),
                 f"with the shared network's {fixed(t.network_kw)} kW"
                 + (f" and the storage's {fixed(t.storage_kw)} kW" if t.storage_kw else "")])  # fmt: skip
    flow.append(st.table(rows, [1.5, 1.5, 2.1, 0.7, 0.8, 0.8, 2.2], right=(3, 4, 5)))
    return flow


def _architecture(st: Story) -> list[Block]:
    """The logical architecture: the cluster with its workloads, spare hosts, management and
    networks; for several clusters, where each group runs, then each cluster above the
    networks they share."""
    e = st.data.plan.estate
    if len(e.clusters) == 1:
        return [
            st.figure(
                architecture.draw(st.data, st.width),
                "Logical architecture: workloads, the GPU cluster with its spare hosts, "
                "management and networks.",
            )
        ]
    rows = [["Workload group", "Cluster", "Why"]]
    rows += [[x.workload, x.cluster, x.reason] for x in e.placements]
    flow: list[Block] = [st.table(rows, [2, 1.6, 5])]
    names = {g: st.data.catalog.gpus[g].name for g in st.data.catalog.gpus}
    parts = estate_diagram.draw_pages(e, names, st.width)
    for n, drawing in enumerate(parts, start=1):
        of = f" (part {n} of {len(parts)})" if len(parts) > 1 else ""
        flow.append(
            st.figure(
                drawing,
                "Logical architecture: each cluster with what runs on it, above the "
                f"networks the clusters share (a dot marks a cluster's hosts on a network){of}",
            )
        )
    return flow
