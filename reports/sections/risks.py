"""The risk register: every risk the sizing raised, most severe first, with its severity and
the mitigation that removes or contains it."""

from __future__ import annotations

from xml.sax.saxutils import escape

from reportlab.platypus import Flowable

from reports.story import Story
from wizard.present import labels
from wizard.present.mitigations import mitigation
from wizard.present.severity import SEVERITY

ORDER = {"error": 0, "warning": 1, "info": 2}


def build(st: Story) -> list[Flowable] | None:
    warnings = sorted(st.data.result.warnings, key=lambda w: ORDER[w.severity.value])
    if not warnings:
        return [st.p("The sizing raised no warnings for this design.")]
    rows: list[list] = [["Severity", "Risk", "Mitigation"]]
    for w in warnings:
        risk = st.markup(f"<b>{escape(labels.topic(w.code))}</b><br/>{escape(w.message)}",
                         st.s.cell)  # fmt: skip
        rows.append([SEVERITY[w.severity], risk, mitigation(w.code)])
    return [st.table(rows, [0.9, 5.2, 3.1])]
