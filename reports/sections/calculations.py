"""The calculation log as tables: quantity, formula, substituted inputs, value and unit, and a
numbered source. Used by the sizing and cluster sections, so every figure shows its working."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.platypus import Table

from reports.numbers import num, value
from reports.story import Story
from wizard.model.result import Calculation


def quantity(calc: Calculation, prefix: str) -> str:
    name = calc.id.removeprefix(prefix).replace("_", " ")
    return name.replace(".", ": ", 1) if "." in name else name


def inputs(calc: Calculation) -> str:
    return "; ".join(f"{k} = {value(v)}" for k, v in calc.inputs.items())


def table(st: Story, calcs: Sequence[Calculation], prefix: str) -> Table:
    rows: list[list] = [["Quantity", "Formula", "Inputs", "Value", "Src."]]
    for c in calcs:
        rows.append(
            [
                quantity(c, prefix),
                c.formula,
                inputs(c),
                f"{num(c.value)} {c.unit}",
                st.cite(c.source),
            ]
        )
    return st.table(rows, [1.6, 2.6, 2.8, 1.3, 0.5], right=(3,))
