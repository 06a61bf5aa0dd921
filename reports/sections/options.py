"""Options considered: the design as it stands and each alternative it holds, side by side,
with the one proposed, and its cost when a price list is given."""

from __future__ import annotations

from reportlab.platypus import Flowable

from reports.story import Story
from wizard.engine.options import compare
from wizard.model.options import OptionRow
from wizard.numbers import MISSING, count, num


def rows_of(st: Story) -> list[OptionRow]:
    return compare(st.data.design, st.data.catalog, st.data.prices)


def proposal_sentence(rows: list[OptionRow]) -> str | None:
    """What the proposed option needs and delivers against the others, in one sentence."""
    chosen = next((r for r in rows if r.proposed), None)
    if chosen is None or chosen.error or len(rows) < 2:
        return None

    def brief(r: OptionRow) -> str:
        if r.error:
            return f"{r.name} (cannot be built as stated)"
        missed = sum(not t.met for t in r.targets)
        risky = sum(t.at_risk for t in r.targets)
        parts = [count(r.hosts, "host"), count(r.gpus, "GPU"), f"{r.total_kw:,.1f} kW"]
        if r.cost:
            parts.append(
                f"{r.cost.total:,.0f} {r.cost.currency} over {count(r.cost.years, 'year')}"
            )
        if missed:
            parts.append(f"{count(missed, 'target')} missed")
        elif risky:
            parts.append(f"{count(risky, 'target')} at risk")
        else:
            parts.append("every target met")
        return f"{r.name}: {', '.join(parts)}"

    others = "; ".join(brief(r) for r in rows if r is not chosen)
    return (
        f"Proposed: {brief(chosen)}. "
        + (f"{chosen.note}. " if chosen.note else "")
        + f"Also considered: {others}."
    )


def build(st: Story) -> list[Flowable] | None:
    if not st.data.design.options:
        return None
    rows = rows_of(st)
    flow: list[Flowable] = []
    sentence = proposal_sentence(rows)
    if sentence:
        flow.append(st.p(sentence))
    header = ["", *[r.name + (" (proposed)" if r.proposed else "") for r in rows]]

    def line(label: str, cells: list[str]) -> list[str]:
        return [label, *cells]

    table = [header]
    table.append(line("What it is", [r.note or MISSING for r in rows]))
    table.append(line("Clusters", [MISSING if r.error else num(r.clusters) for r in rows]))
    table.append(line("Hosts", [MISSING if r.error else num(r.hosts) for r in rows]))
    table.append(line("GPUs", [MISSING if r.error else num(r.gpus) for r in rows]))
    table.append(
        line("GPUs the workloads take", [MISSING if r.error else num(r.gpus_demand) for r in rows])
    )
    table.append(line("Power (kW)", [MISSING if r.error else f"{r.total_kw:,.1f}" for r in rows]))
    table.append(line("Racks", [MISSING if r.error else num(r.racks) for r in rows]))
    keys = list(dict.fromkeys((t.workload, t.metric, t.unit) for r in rows for t in r.targets))
    for workload, metric, unit in keys:
        cells = []
        for r in rows:
            t = next((x for x in r.targets if (x.workload, x.metric) == (workload, metric)), None)
            cells.append(
                MISSING if t is None
                else f"{num(t.value)} {unit}, "
                + ("missed" if not t.met else "at risk" if t.at_risk else "met")
            )  # fmt: skip
        table.append(line(f"{workload}: {metric} (target {num(_target(rows, workload, metric))} "
                          f"{unit})", cells))  # fmt: skip
    if any(r.cost for r in rows):
        cur = next(r.cost.currency for r in rows if r.cost)
        table.append(line(f"Cost of ownership ({cur})",
                          [f"{r.cost.total:,.0f}" if r.cost else MISSING for r in rows]))  # fmt: skip
    widths = [2.2] + [1.6] * len(rows)
    flow.append(st.table(table, widths))
    notes = [f"{r.name}: cannot be built as stated: {r.error}" for r in rows if r.error]
    notes += [
        f"{r.name}: the cost leaves out {count(len(r.cost.unpriced_items), 'unpriced line')}"
        + (f" and {'; '.join(r.cost.left_out)}" if r.cost.left_out else "")
        for r in rows
        if r.cost and (r.cost.unpriced_items or r.cost.left_out)
    ]
    flow += st.bullets(notes)
    return flow


def _target(rows: list[OptionRow], workload: str, metric: str) -> float:
    return next(
        t.target for r in rows for t in r.targets if (t.workload, t.metric) == (workload, metric)
    )
