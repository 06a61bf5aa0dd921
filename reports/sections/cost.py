"""Cost of ownership: what is bought once, what is paid every year (subscriptions, power,
support), the total over the term, per GPU-hour and per workload group, with the assumptions it
rests on and what it leaves out. Only when the proposal has a price list."""

from __future__ import annotations

from reports.doctree import Block
from reports.sections import calculations
from reports.story import Story
from wizard.base.numbers import MISSING, count, num, pct
from wizard.engine import HOURS_PER_YEAR
from wizard.model.buildout import Bom
from wizard.model.cost import CostResult
from wizard.model.design import CostInputs
from wizard.present.cost_text import unpriced_words


def build(st: Story) -> list[Block] | None:
    data = st.data
    if data.prices is None:
        return None
    cost, priced = data.plan.cost, data.plan.priced
    assert cost is not None and priced is not None  # the plan has the price list
    gpus = {w.name: w.sharing.gpus_allocated for w in data.plan.workloads}
    kw = data.plan.estate.totals.total_kw
    return tables(st, cost, data.design.costs, priced, kw, gpus)


def tables(
    st: Story,
    cost: CostResult,
    inputs: CostInputs,
    priced: Bom,
    kw: float,
    gpus: dict[str, float],
) -> list[Block]:
    """The cost table, the share of each workload group, the assumptions and the working.
    ``gpus`` is the GPUs each group takes, which is how the cost is shared out."""
    cur = cost.currency
    years = count(cost.years, "year")

    def money(v: float | None) -> str:
        return MISSING if v is None else f"{v:,.0f}"

    def over_term(v: float | None) -> str:
        return MISSING if v is None else f"{v * cost.years:,.0f}"

    power_note = (
        f"{num(kw)} kW planning draw × {pct(inputs.average_load)} average load × PUE "
        f"{num(inputs.pue)} × {HOURS_PER_YEAR:,} hours × {num(inputs.energy_price)} {cur} per kWh"
        if cost.power_per_year is not None
        else "not counted: no energy price given"
    )
    support_note = (
        f"{pct(inputs.support_share)} of the hardware a year"
        if cost.support_per_year is not None
        else "not counted: no yearly support share given"
    )
    rows: list[list] = [
        ["Cost", f"Once ({cur})", f"Per year ({cur})", f"Over {years} ({cur})", "How it is counted"],
        ["Hardware", money(cost.hardware), "", money(cost.hardware),
         "the priced lines of the bill of materials other than subscriptions, bought once"],
        ["Subscriptions", "", money(cost.subscriptions_per_year),
         over_term(cost.subscriptions_per_year),
         "the priced subscription lines of the bill of materials, per year"],
        ["Power", "", money(cost.power_per_year), over_term(cost.power_per_year), power_note],
        ["Hardware support", "", money(cost.support_per_year), over_term(cost.support_per_year),
         support_note],
        ["Total", money(cost.hardware), money(cost.per_year), money(cost.total),
         f"hardware once and {years} of the yearly costs"],
    ]  # fmt: skip
    flow: list[Block] = [
        st.p(
            f"The cost of owning the design for {years}, from your price list: "
            f"{cur} {money(cost.total)}, or {cur} {cost.cost_per_gpu_hour:,.2f} per GPU-hour over "
            f"{num(round(cost.gpu_hours))} GPU-hours (every installed GPU, around the clock)."
        ),
        st.table(rows, [1.2, 1, 1, 1.1, 3.4], right=(1, 2, 3)),
    ]
    if cost.workloads:
        head = ["Workload group", "GPUs it takes", "Share", f"Cost over {years} ({cur})",
                f"Per million output tokens ({cur})"]  # fmt: skip
        per = [head]
        for w in cost.workloads:
            per.append(
                [w.workload, num(gpus.get(w.workload)), pct(w.share), money(w.cost),
                 MISSING if w.cost_per_million_tokens is None
                 else f"{w.cost_per_million_tokens:,.2f}"]
            )  # fmt: skip
        flow += st.h3("Per workload group")
        flow.append(st.table(per, [2.4, 1, 0.8, 1.4, 1.6], right=(1, 2, 3, 4)))
        flow.append(
            st.p(
                "Each group carries the cost in proportion to the GPUs it takes, so the "
                "high-availability reserve is shared out like the rest. The cost per million "
                "output tokens assumes the planned load around the clock for the whole term; a "
                "service busy part of the day costs more per token."
            )
        )
    missing = [*cost.left_out, *unpriced_words(priced)]
    if missing:
        flow.append(st.p("Not in the cost: " + "; ".join(missing) + "."))
    flow += [*st.h3("Calculations"), calculations.table(st, cost.calculations, "cost.")]
    return flow
