"""Design decisions, numbered, each with its justification and what it implies for the customer."""

from __future__ import annotations

from xml.sax.saxutils import escape

from reports.doctree import Block
from reports.story import Story
from wizard.base.numbers import MISSING


def build(st: Story) -> list[Block] | None:
    decisions = st.data.result.decisions
    if not decisions:
        return None
    # decision, justification and implication, as VMware's reference architectures write them
    rows: list[list] = [["No.", "Decision", "Justification", "Implication"]]
    for dec in decisions:
        rows.append(
            [f"D{dec.id}", st.markup(f"<b>{escape(dec.text)}</b>", "cell"), dec.reason,
             dec.implication or MISSING]
        )  # fmt: skip
    return [st.table(rows, [0.6, 3.2, 2.85, 2.85])]
