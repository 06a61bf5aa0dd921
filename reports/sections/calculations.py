"""The calculation log as tables: quantity, formula, substituted inputs, value and unit, and a
numbered source. Used by the sizing and cluster sections, so every figure shows its working."""

from __future__ import annotations

from collections.abc import Sequence

from reports.doctree import Block, Table
from reports.story import Story
from wizard.base.numbers import with_unit
from wizard.model.result import Calculation
from wizard.model.unsettled import said_in, tagged
from wizard.present.formula_text import formula_words, inputs_words, quantity


def inputs(calc: Calculation) -> str:
    """The substituted inputs, marked where the calculation reads a catalog figure left
    unsettled (its source says which)."""
    return tagged(inputs_words(calc.inputs), said_in(calc.source))


def table(st: Story, calcs: Sequence[Calculation], prefix: str) -> Table:
    rows: list[list] = [["Quantity", "Formula", "Inputs", "Value", "Src."]]
    for c in calcs:
        st.shown_calculations.add(c.id)
        rows.append(
            [
                quantity(c, prefix, [g.name for g in st.data.design.workloads]),
                formula_words(c.formula),
                inputs(c),
                with_unit(c.value, c.unit),
                st.cite(c.source),
            ]
        )
    return st.table(rows, [1.5, 2.5, 2.6, 1.6, 0.6], right=(3,))


def block(st: Story, *prefixes: str) -> list[Block]:
    """A "Calculations" heading and table for every calculation under ``prefixes`` not shown yet,
    or nothing when there are none."""
    calcs = [
        c for p in prefixes for c in st.data.calculations(p) if c.id not in st.shown_calculations
    ]
    if not calcs:
        return []
    prefix = prefixes[0] if len(prefixes) == 1 else ""
    return [*st.h3("Calculations"), table(st, calcs, prefix)]
