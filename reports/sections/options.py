"""Options considered: the design as it stands and each alternative it holds, side by side,
with the one proposed, and its cost when a price list is given."""

from __future__ import annotations

from reports.doctree import Block
from reports.story import Story
from wizard.model.options import OptionRow
from wizard.present import options_table


def rows_of(st: Story) -> list[OptionRow]:
    return st.data.plan.options


def proposal_sentence(rows: list[OptionRow]) -> str | None:
    return options_table.proposal_sentence(rows)


def build(st: Story) -> list[Block] | None:
    if not st.data.compared.options:
        return None
    rows = rows_of(st)
    flow: list[Block] = []
    sentence = proposal_sentence(rows)
    if sentence:
        flow.append(st.p(sentence))
    table = [["", *options_table.header(rows)]]
    table += [[row.label, *row.cells] for row in options_table.table(rows)]
    flow.append(st.table(table, [2.2] + [1.6] * len(rows)))
    flow += st.bullets(options_table.notes(rows))
    why = options_table.reasons(rows)
    if why:
        flow += st.h2("Why this option") + st.bullets(why)
    return flow
