"""The cost of ownership in words, one sentence for every proposal (one cluster or several), so
a figure reads the same wherever it is printed."""

from __future__ import annotations

from wizard.model.cost import CostResult
from wizard.numbers import count, num

NO_PRICES = (
    "Cost: no price list was given, so the proposal states quantities only; with your prices "
    "it adds the cost of ownership."
)


def cost_sentence(cost: CostResult) -> str:
    """The total over the term, its one-off and yearly parts, per GPU-hour and what is left out."""
    cur = cost.currency
    text = (
        f"Cost of ownership over {count(cost.years, 'year')}: {cur} {num(round(cost.total))} "
        f"({cur} {num(round(cost.hardware))} of hardware once, {cur} "
        f"{num(round(cost.per_year))} a year), {cur} {cost.cost_per_gpu_hour:,.2f} per GPU-hour."
    )
    missing = [*cost.left_out, *cost.unpriced_items]
    if missing:
        shown = "; ".join(missing[:4])
        more = f" and {count(len(missing) - 4, 'more item')}" if len(missing) > 4 else ""
        text += f" Not included: {shown}{more}."
    return text
