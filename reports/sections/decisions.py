"""Design decisions, numbered, each with its reason."""

from __future__ import annotations

from xml.sax.saxutils import escape

from reportlab.platypus import Flowable

from reports.story import Story


def build(st: Story) -> list[Flowable] | None:
    decisions = st.data.result.decisions
    if not decisions:
        return None
    rows: list[list] = [["No.", "Decision", "Reason"]]
    for dec in decisions:
        rows.append([f"D{dec.id}", st.markup(f"<b>{escape(dec.text)}</b>", st.s.cell), dec.reason])
    return [st.table(rows, [0.5, 4, 4])]
