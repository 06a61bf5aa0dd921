"""Risks and warnings raised by the sizing, most severe first."""

from __future__ import annotations

from reportlab.platypus import Flowable

from reports.story import Story
from wizard.present import labels
from wizard.present.severity import SEVERITY

ORDER = {"error": 0, "warning": 1, "info": 2}


def build(st: Story) -> list[Flowable] | None:
    warnings = sorted(st.data.result.warnings, key=lambda w: ORDER[w.severity.value])
    if not warnings:
        return [st.p("The sizing raised no warnings for this design.")]
    rows: list[list] = [["Severity", "Topic", "What it means"]]
    rows += [[SEVERITY[w.severity], labels.topic(w.code), w.message] for w in warnings]
    return [st.table(rows, [0.9, 1.8, 6])]
