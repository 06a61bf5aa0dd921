""" "Recommend for me" across clusters: the same demand on one cluster and on two (users who
share GPUs on one, multi-GPU jobs on another), each recommended and sized, with the difference
in hosts, GPUs and power, and which one to take and why.

Power decides while no price list is given: it is the figure the design can stand behind. With
a price list that prices the servers and GPUs of both, the lower total cost of ownership decides
(the same figure the comparison of options shows), and the power difference is still said.
"""

from __future__ import annotations

from dataclasses import dataclass

from wizard.app.recommend import recommend
from wizard.base.errors import UserError
from wizard.base.numbers import count, num
from wizard.engine import Plan, as_designed, plan
from wizard.model.catalog import Catalog
from wizard.model.cost import CostResult
from wizard.model.design import ClusterRole, ClusterSpec, Design, SharingMode, WorkloadGroup
from wizard.model.estate import Estate
from wizard.model.prices import PriceList

SHARED_NAME = "Shared-GPU cluster"
MULTI_NAME = "Multi-GPU cluster"
SHARED_MODES = (SharingMode.VGPU, SharingMode.MIG, SharingMode.REMOTE, SharingMode.MIG_GUEST)


@dataclass(frozen=True)
class Split:
    one: Estate
    two: Estate
    design_one: Design
    design_two: Design
    take_two: bool
    why: str
    cost_one: CostResult | None = None
    cost_two: CostResult | None = None


def _cost(p: Plan) -> CostResult | None:
    """The plan's cost of ownership, or None when the list leaves a server or GPU unpriced."""
    return p.cost if p.hardware_priced else None


def partition(design: Design, catalog: Catalog) -> tuple[list[WorkloadGroup], list[WorkloadGroup]]:
    """Groups that share GPUs (one GPU or less per member, under vGPU, MIG or a pool) and the
    rest (jobs of several GPUs, or whole GPUs), as the design sizes them today."""
    p = plan(as_designed(design), catalog)
    # a management domain or a pool's client cluster beside the one GPU cluster stays as it is
    if sum(c.role is ClusterRole.GPU for c in p.estate.clusters) > 1:
        raise UserError("clusters: the design already has several GPU clusters")
    sized = {w.name: w for w in p.workloads}
    shared, multi = [], []
    for g in design.workloads:
        w = sized[g.name]
        if w.gpus_per_replica <= 1 and g.sharing_mode in SHARED_MODES:
            shared.append(g)
        else:
            multi.append(g)
    return shared, multi


def recommend_split(design: Design, catalog: Catalog, prices: PriceList | None = None) -> Split:
    """One cluster against two for ``design``'s demand, by power, or by cost of ownership when
    ``prices`` prices both. Raises :class:`UserError` when the demand does not divide (every
    group shares GPUs, or none does)."""
    shared, multi = partition(design, catalog)
    if not shared or not multi:
        raise UserError(
            "workloads: every group "
            + ("shares GPUs" if shared else "uses whole or several GPUs")
            + ", so there is nothing to split between two clusters"
        )
    one = _recommended(design, catalog)
    a = _recommended(design.model_copy(update={"workloads": shared}), catalog)
    b = _recommended(design.model_copy(update={"workloads": multi}), catalog)
    two = design.model_copy(
        update={
            "hardware": a.hardware,
            "cluster_name": SHARED_NAME,
            "workloads": [g.model_copy(update={"cluster": SHARED_NAME}) for g in shared]
            + [g.model_copy(update={"cluster": MULTI_NAME}) for g in multi],
            "clusters": [
                *(c for c in design.clusters if c.role is not ClusterRole.GPU),
                ClusterSpec(
                    name=MULTI_NAME, role=ClusterRole.GPU, hardware=b.hardware, ha=design.ha
                ),
            ],
        }
    )
    p1, p2 = plan(as_designed(one), catalog, prices), plan(as_designed(two), catalog, prices)
    t1, t2 = p1.estate.totals, p2.estate.totals
    c1 = _cost(p1) if prices is not None else None
    c2 = _cost(p2) if prices is not None else None
    if c1 is not None and c2 is not None:
        take_two = c2.total < c1.total
    else:
        take_two = t2.total_kw < t1.total_kw
    gpu1 = catalog.gpus[one.hardware.gpu].name
    gpu_a, gpu_b = catalog.gpus[a.hardware.gpu].name, catalog.gpus[b.hardware.gpu].name
    why = (
        f"One cluster of {gpu1}: {count(t1.hosts, 'host')}, {count(t1.gpus, 'GPU')}, "
        f"{t1.total_kw:,.1f} kW. Two clusters ({', '.join(g.name for g in shared)} on {gpu_a}; "
        f"{', '.join(g.name for g in multi)} on {gpu_b}): {count(t2.hosts, 'host')}, "
        f"{count(t2.gpus, 'GPU')}, {t2.total_kw:,.1f} kW, each cluster keeping its own HA "
        "reserve. "
        + (
            _by_cost(c1, c2, t1.total_kw, t2.total_kw)
            if c1 is not None and c2 is not None
            else _by_power(t1.total_kw, t2.total_kw, prices is not None)
        )
    )
    return Split(p1.estate, p2.estate, one, two, take_two, why, c1, c2)


def _by_power(kw1: float, kw2: float, priced: bool) -> str:
    unpriced = (
        "The price list does not price the servers and GPUs of both, so power decides. "
        if priced
        else ""
    )
    if kw2 < kw1:
        return unpriced + f"Two clusters, since they draw {kw1 - kw2:,.1f} kW less."
    if f"{kw1:,.1f}" == f"{kw2:,.1f}":  # the same to the figure the reason prints
        return unpriced + (
            f"One cluster, since two would draw the same {kw1:,.1f} kW and one cluster is "
            "simpler to run; a price list can still favour two when their hosts cost less."
        )
    return unpriced + (
        f"One cluster, since two would draw {kw2 - kw1:,.1f} kW more; a price list can still "
        "favour two when their hosts cost enough less."
    )


def _by_cost(c1: CostResult, c2: CostResult, kw1: float, kw2: float) -> str:
    years = f"{c1.years}-year cost of ownership"
    one, two = f"{c1.currency} {num(c1.total)}", f"{c2.currency} {num(c2.total)}"
    power = f"{abs(kw1 - kw2):,.1f} kW {'less' if kw2 <= kw1 else 'more'}"
    if c2.total < c1.total:
        return (
            f"Two clusters, since their {years} is {two} against {one} for one cluster "
            f"({c2.currency} {num(c1.total - c2.total)} less), "
            f"{'though' if kw2 > kw1 else 'and'} they draw {power}."
        )
    if one == two:  # the same to the figure the reason prints
        return (
            f"One cluster, since two have the same {years} ({one}) and one cluster is simpler "
            f"to run; two would draw {power}."
        )
    return (
        f"One cluster, since its {years} is {one} against {two} for two "
        f"({c1.currency} {num(c2.total - c1.total)} less); two would draw {power}."
    )


def _recommended(design: Design, catalog: Catalog) -> Design:
    rec = recommend(design, catalog, keep_gpu=False)
    return design.model_copy(update={"hardware": rec.hardware})
