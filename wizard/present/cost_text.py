"""The cost of ownership in words, one sentence for every proposal (one cluster or several), so
a figure reads the same wherever it is printed."""

from __future__ import annotations

from wizard.base.numbers import count, num
from wizard.model.buildout import Bom
from wizard.model.cost import CostResult
from wizard.present import labels

NO_PRICES = (
    "Cost: no price list was given, so the proposal states quantities only; with your prices "
    "it adds the cost of ownership."
)


def unpriced_words(bom: Bom) -> list[str]:
    """The lines the price list has no price for, by what they are (not by their keys):
    "power cord (Power cord, C19 to C20)" rather than "server-cord:c19-to-c20"."""
    named = {ln.item: ln for ln in bom.lines}
    return [
        f"{labels.BOM_CATEGORY[named[k].category].lower()} ({named[k].description.split(',')[0]})"
        if k in named
        else k
        for k in bom.unpriced_items
    ]


def cost_sentence(cost: CostResult, bom: Bom) -> str:
    """The total over the term, its one-off and yearly parts, per GPU-hour and what is left out;
    ``bom`` is the priced bill the cost was made from, which names the unpriced lines."""
    cur = cost.currency
    text = (
        f"Cost of ownership over {count(cost.years, 'year')}: {cur} {num(round(cost.total))} "
        f"({cur} {num(round(cost.hardware))} of hardware once, {cur} "
        f"{num(round(cost.per_year))} a year), {cur} {cost.cost_per_gpu_hour:,.2f} per GPU-hour."
    )
    missing = [*cost.left_out, *unpriced_words(bom)]
    if missing:
        shown = "; ".join(missing[:4])
        more = f" and {count(len(missing) - 4, 'more item')}" if len(missing) > 4 else ""
        text += f" Not included: {shown}{more}."
    return text
