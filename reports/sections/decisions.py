"""Design decisions, numbered, each with its justification and what it implies for the customer."""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

from reports.doctree import Block
from reports.story import Story
from wizard.base.numbers import MISSING
from wizard.model.result import Decision


def build(st: Story) -> list[Block] | None:
    decisions = st.data.result.decisions
    if not decisions:
        return None
    return [table(st, decisions, "D")]


def table(st: Story, decisions: Sequence[Decision], prefix: str) -> Block:
    """Decision, justification and implication, as VMware's reference architectures write
    them, numbered with ``prefix`` (a cluster's D1…, the whole design's W1…)."""
    rows: list[list] = [["No.", "Decision", "Justification", "Implication"]]
    for dec in decisions:
        rows.append(
            [f"{prefix}{dec.id}", st.markup(f"<b>{escape(dec.text)}</b>", "cell"), dec.reason,
             dec.implication or MISSING]
        )  # fmt: skip
    return st.table(rows, [0.6, 3.2, 2.85, 2.85])
