"""The risk register: every risk the sizing raised, every target at risk and every assumption
to confirm, most severe first, with its severity and the mitigation that removes or contains it."""

from __future__ import annotations

from xml.sax.saxutils import escape

from reports.doctree import Block
from reports.story import Story
from wizard.present.risk_register import Risk, plan_risks
from wizard.present.severity import SEVERITY


def build(st: Story) -> list[Block] | None:
    return table(st, plan_risks(st.data.plan))


def table(st: Story, risks: list[Risk]) -> list[Block]:
    """The register as a table, most severe first; in a design of several clusters each risk
    names its cluster."""
    if not risks:
        return [st.p("The sizing raised no risk, caution or note for this design.")]
    rows: list[list] = [["Severity", "Risk", "Mitigation"]]
    for r in risks:
        where = f"{r.cluster}: " if r.cluster else ""
        risk = st.markup(f"<b>{escape(where + r.topic)}</b><br/>{escape(r.text)}", "cell")
        rows.append([SEVERITY[r.severity], risk, r.mitigation])
    return [st.table(rows, [0.9, 5.2, 3.1])]
