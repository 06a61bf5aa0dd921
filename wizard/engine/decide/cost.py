"""Total cost of ownership from a priced bill of materials: hardware once, licences per year,
power from the planning draw, support as a share of hardware; per GPU-hour and, for serving
groups, per million output tokens. Nothing is priced that the user's list does not price."""

from __future__ import annotations

from dataclasses import dataclass

from wizard.engine.basis.expr import Formula
from wizard.engine.basis.record import Recorder
from wizard.engine.fitout.bom import apply_prices
from wizard.model.buildout import Bom, BomCategory
from wizard.model.cost import CostResult, WorkloadCost
from wizard.model.design import CostInputs
from wizard.model.estate import Estate
from wizard.model.prices import PriceList
from wizard.model.result import WorkloadResult

HOURS_PER_YEAR = 8760
SECONDS_PER_YEAR = HOURS_PER_YEAR * 3600
COST_SOURCE = "Cost of ownership: the user's price list and cost inputs"
LICENCE_TERM = (
    "licence lines are subscriptions, priced per unit and year (give a yearly price for a "
    "multi-year quote)"
)
POWER = Formula("kw * average_load * pue * hours_per_year * energy_price")


@dataclass(frozen=True)
class Load:
    """What the cost is spread over: installed GPUs, and each group's GPUs and output tokens."""

    gpus: int
    kw: float
    workloads: list[WorkloadResult]


def cost_of_ownership(bom: Bom, load: Load, inputs: CostInputs) -> CostResult:
    """``bom`` must carry prices (see ``apply_prices``); unpriced lines stay out and are listed."""
    if bom.currency is None:
        raise ValueError("the bill of materials carries no prices")
    rec = Recorder()
    hardware = sum(
        ln.total_price or 0.0 for ln in bom.lines if ln.category is not BomCategory.LICENCE
    )
    subs = sum(ln.total_price or 0.0 for ln in bom.lines if ln.category is BomCategory.LICENCE)
    left_out = []
    power = None
    if inputs.energy_price is None:
        left_out.append("power: no energy price given")
    else:
        power = rec.expr(
            "cost.power_per_year", POWER,
            {"kw": load.kw, "average_load": inputs.average_load, "pue": inputs.pue,
             "hours_per_year": HOURS_PER_YEAR, "energy_price": inputs.energy_price},
            f"{bom.currency} per year",
            f"{COST_SOURCE}: the planning draw of hosts and switches times the facility's PUE",
        )  # fmt: skip
    support = None
    if inputs.support_share is None:
        left_out.append("hardware support: no yearly share given")
    else:
        support = rec.expr(
            "cost.support_per_year", Formula("hardware * support_share"),
            {"hardware": hardware, "support_share": inputs.support_share},
            f"{bom.currency} per year", COST_SOURCE,
        )  # fmt: skip
    per_year = rec.expr(
        "cost.per_year", Formula("subscriptions + power + support"),
        {"subscriptions": subs, "power": power or 0.0, "support": support or 0.0},
        f"{bom.currency} per year", f"{COST_SOURCE}; {LICENCE_TERM}",
    )  # fmt: skip
    total = rec.expr(
        "cost.total", Formula("hardware + years * per_year"),
        {"hardware": hardware, "years": inputs.years, "per_year": per_year},
        bom.currency, COST_SOURCE,
    )  # fmt: skip
    gpu_hours = rec.expr(
        "cost.gpu_hours", Formula("gpus * hours_per_year * years"),
        {"gpus": load.gpus, "hours_per_year": HOURS_PER_YEAR, "years": inputs.years},
        "GPU-hours", "Every installed GPU, around the clock",
    )  # fmt: skip
    per_gpu_hour = rec.expr(
        "cost.per_gpu_hour", Formula("total / gpu_hours"),
        {"total": total, "gpu_hours": gpu_hours}, f"{bom.currency} per GPU-hour", COST_SOURCE,
    ) if gpu_hours else 0.0  # fmt: skip
    return CostResult(
        currency=bom.currency,
        years=inputs.years,
        hardware=hardware,
        subscriptions_per_year=subs,
        power_per_year=power,
        support_per_year=support,
        per_year=per_year,
        total=total,
        gpu_hours=gpu_hours,
        cost_per_gpu_hour=per_gpu_hour,
        workloads=_per_workload(load, total, inputs.years, rec),
        unpriced_items=list(bom.unpriced_items),
        left_out=left_out,
        calculations=rec.calculations,
    )


def _per_workload(load: Load, total: float, years: int, rec: Recorder) -> list[WorkloadCost]:
    """Each group carries the cost in proportion to the GPUs it takes after packing, so the
    high-availability reserve is shared out like the rest."""
    taken = sum(w.sharing.gpus_allocated for w in load.workloads)
    out = []
    for w in load.workloads:
        share = w.sharing.gpus_allocated / taken if taken else 0.0
        cost = total * share
        per_m = None
        s = w.serving
        if s is not None and s.tokens_per_s_total > 0:
            per_m = rec.expr(
                f"cost.{w.name}.per_million_tokens",
                Formula("cost / (tokens_per_s * seconds_per_year * years) * 1e6"),
                {"cost": cost, "tokens_per_s": s.tokens_per_s_total,
                 "seconds_per_year": SECONDS_PER_YEAR, "years": years},
                "per million output tokens",
                f"{COST_SOURCE}: its share of the cost over the output tokens of its planned "
                "load, kept up around the clock",
            )  # fmt: skip
        out.append(WorkloadCost(workload=w.name, share=share, cost=cost,
                                cost_per_million_tokens=per_m))  # fmt: skip
    return out


def prices_the_hardware(priced: Bom) -> bool:
    """Whether a priced bill prices every server and GPU line: a total without them would look
    cheap for the wrong reason, so no choice is made on it."""
    return not any(
        ln.unit_price is None and ln.category in (BomCategory.SERVER, BomCategory.GPU)
        for ln in priced.lines
    )


def estate_cost(e: Estate, inputs: CostInputs, prices: PriceList) -> CostResult:
    """The cost of ownership of a sized design of one or several clusters, from a price list:
    the one cost every reader shows (a design of one cluster is an estate of one)."""
    t = e.totals
    # an expansion costs what it buys: the kept hosts' GPUs and power are the customer's already,
    # and a group on kept hosts that add nothing takes no share of the new cost
    kept_gpus = sum(c.gpus * c.existing_hosts // c.hosts for c in e.clusters if c.existing_hosts)
    kept_kw = t.existing_kw
    workloads = [
        w for c in e.clusters if c.result and c.hosts > c.existing_hosts for w in c.result.workloads
    ]
    return cost_of_ownership(
        apply_prices(e.bom, prices),
        Load(t.gpus - kept_gpus, t.total_kw - kept_kw, workloads),
        inputs,
    )
