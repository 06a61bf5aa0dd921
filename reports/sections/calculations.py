"""The calculation log as tables: quantity, formula, substituted inputs, value and unit, and a
numbered source. Used by the sizing and cluster sections, so every figure shows its working."""

from __future__ import annotations

import re
from collections.abc import Sequence

from reportlab.platypus import Flowable, Table

from reports.story import Story
from wizard.model.design import Fabric
from wizard.model.result import Calculation
from wizard.numbers import with_unit
from wizard.present import labels
from wizard.present.formula_text import formula_words, inputs_words

_GROUP = re.compile(r"workloads\[(\d+)\]\.?")
_TIME_UNITS = {"s", "ms", "h"}
_FABRICS = {f.value for f in Fabric}  # a duration's id ends in its unit; the value column shows it


def quantity(calc: Calculation, prefix: str, groups: Sequence[str] = ()) -> str:
    """A logged figure's id as words: "workloads[0].serving.decode.comm_s" under the prefix
    "workloads[0]." reads "serving: decode comm time"; a group's index reads as its name."""
    name = calc.id.removeprefix(prefix)
    head = ""
    m = _GROUP.search(name)
    named = next((g for g in groups if f".{g}." in f".{name}."), None)
    if named is not None:  # an id that holds a group's name ("cost.Chat 3.1.per_million_tokens")
        head = f"{named}: "
        name = f".{name}.".replace(f".{named}.", ".", 1)
    elif m and int(m[1]) < len(groups):
        head = f"{groups[int(m[1])]}: "
        name = name[: m.start()] + name[m.end() :]
    # a shared network's fabric ("fabric.compute.200gbe.leaves") by its name, "200 GbE"
    name = ".".join(
        labels.FABRIC[Fabric(part)] if part in _FABRICS else part for part in name.split(".")
    )
    name = name.strip(".").replace("_", " ")
    name = name.replace(".", ": ", 1).replace(".", " ")
    parts = name.split(" ")
    if len(parts) > 1 and parts[-1] in _TIME_UNITS:
        # "ttft ms" is a time already; "prefill s" reads "prefill time"
        parts[-1:] = [] if parts[-2] in ("ttft", "itl") else ["time"]
    return head + labels.words(" ".join(parts))


def inputs(calc: Calculation) -> str:
    return inputs_words(calc.inputs)


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
