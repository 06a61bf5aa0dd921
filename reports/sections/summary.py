"""Executive summary: the design in five numbers, a paragraph and the logical architecture."""

from __future__ import annotations

from xml.sax.saxutils import escape

from reportlab.platypus import Flowable, Spacer, Table, TableStyle

from reports.data import ReportData
from reports.diagrams import architecture
from reports.fonts import SANS
from reports.story import Story, Text
from reports.styles import ACCENT_LIGHT, RULE
from wizard.model.design import HaLevel, SharingMode
from wizard.numbers import count, num, plural
from wizard.present import labels


def headline(data: ReportData) -> list[tuple[str, str]]:
    """The five numbers on the summary page, as (label, value)."""
    c = data.result.cluster
    failures = c.host_failures_tolerated
    return [
        ("GPUs in the cluster", num(c.gpus_total)),
        ("hosts", num(c.hosts_total)),
        ("GPUs the workloads need", num(c.gpus_demand)),
        (
            f"GPUs left after {count(failures, 'host failure')}",
            num(c.gpus_after_failures),
        ),
        fifth(data),
    ]


def fifth(data: ReportData) -> tuple[str, str]:
    """Power when the Result has it (what a facility asks first), else the workload groups."""
    power = getattr(data.result, "power", None)
    if power is not None:
        return ("kW for the whole cluster", num(power.total_kw, 1))
    return ("workload groups", num(len(data.result.workloads)))


def _cards(st: Story) -> Table:
    figures = headline(st.data)
    cells = [
        [Text(escape(v), st.s.figure) for _, v in figures],
        [Text(escape(label), st.s.figure_label) for label, _ in figures],
    ]
    width = st.width / len(figures)
    t = Table(cells, colWidths=[width] * len(figures))
    t.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), SANS),
                ("BACKGROUND", (0, 0), (-1, -1), ACCENT_LIGHT),
                ("LINEAFTER", (0, 0), (-2, -1), 2, "white"),
                ("TOPPADDING", (0, 0), (-1, 0), 8),
                ("BOTTOMPADDING", (0, -1), (-1, -1), 8),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("BOX", (0, 0), (-1, -1), 0.5, RULE),
            ]
        )
    )
    return t


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
        f"in {num(c.hosts_total)} {data.server.vendor} {data.server.model} "
        f"{plural(c.hosts_total, 'host')} with {count(c.gpus_per_host, 'GPU')} "
        f"each, for {count(groups, 'workload group')} that together need "
        f"{count(c.gpus_demand, 'GPU')}. {mode_text}. "
        f"{count(c.hosts_for_capacity, 'host')} "
        f"{'carries' if c.hosts_for_capacity == 1 else 'carry'} the demand; high availability ({ha}) adds "
        f"{num(c.hosts_for_ha)}"
    )
    if c.hosts_for_maintenance:
        text += f" and maintenance {num(c.hosts_for_maintenance)}"
    text += (
        f", so {count(c.gpus_after_failures, 'GPU')} remain after "
        f"{count(c.host_failures_tolerated, 'host failure')}. "
    )
    warn = [w for w in r.warnings if w.severity.value != "info"]
    if warn:
        text += (
            f"{len(warn)} warning{'s need' if len(warn) != 1 else ' needs'} attention (see "
            "Risks and warnings)."
        )
    else:
        text += "No warnings were raised; informational notes are listed under Risks and warnings."
    return text


def build(st: Story) -> list[Flowable] | None:
    flow: list[Flowable] = [_cards(st), Spacer(1, 10), st.p(paragraph(st.data))]
    if st.data.design.options:
        from reports.sections.options import proposal_sentence, rows_of

        sentence = proposal_sentence(rows_of(st))
        if sentence:
            flow.append(st.p(sentence))
    drawing = architecture.draw(st.data, st.width)
    flow.append(
        st.figure(
            drawing,
            "Logical architecture: workloads, the GPU cluster with its spare hosts, management "
            "and networks.",
        )
    )
    return flow
