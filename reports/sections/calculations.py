"""The calculation log as tables: quantity, formula, substituted inputs, value and unit, and a
numbered source. Used by the sizing and cluster sections, so every figure shows its working."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.platypus import Flowable, Table

from reports.story import Story
from wizard.model.result import Calculation
from wizard.numbers import value, with_unit
from wizard.present import labels


def quantity(calc: Calculation, prefix: str) -> str:
    name = calc.id.removeprefix(prefix).replace("_", " ")
    name = name.replace(".", ": ", 1) if "." in name else name
    return labels.words(name)


def inputs(calc: Calculation) -> str:
    return "; ".join(f"{k} = {value(v)}" for k, v in calc.inputs.items())


def table(st: Story, calcs: Sequence[Calculation], prefix: str) -> Table:
    rows: list[list] = [["Quantity", "Formula", "Inputs", "Value", "Src."]]
    for c in calcs:
        st.shown_calculations.add(c.id)
        rows.append(
            [
                quantity(c, prefix),
                c.formula,
                inputs(c),
                with_unit(c.value, c.unit),
                st.cite(c.source),
            ]
        )
    return st.table(rows, [1.6, 2.6, 2.8, 1.3, 0.5], right=(3,))


def block(st: Story, *prefixes: str) -> list[Flowable]:
    """A "Calculations" heading and table for every calculation under ``prefixes`` not shown yet,
    or nothing when there are none."""
    calcs = [
        c for p in prefixes for c in st.data.calculations(p) if c.id not in st.shown_calculations
    ]
    if not calcs:
        return []
    prefix = prefixes[0] if len(prefixes) == 1 else ""
    return [*st.h3("Calculations"), table(st, calcs, prefix)]
