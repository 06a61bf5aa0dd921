"""Sizing every option of a design the same way (as an estate, so one cluster or several), with
its targets and, given a price list, its cost of ownership."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from pydantic import ValidationError

from wizard.engine.cost import estate_cost
from wizard.engine.estate import cluster_design, size_estate
from wizard.engine.ranges import figure_ranges
from wizard.engine.targets import target_statuses
from wizard.errors import UserError, describe_validation_error
from wizard.model.catalog import Catalog
from wizard.model.design import AS_DESIGNED, Design
from wizard.model.estate import Estate
from wizard.model.options import OptionRow, TargetStatus
from wizard.model.prices import PriceList
from wizard.model.result import WorkloadResult


def compare(design: Design, catalog: Catalog, prices: PriceList | None = None) -> list[OptionRow]:
    """The design as it stands, then each option, in the design's order."""
    rows = [_row(AS_DESIGNED, "", design.proposed is None, lambda: design, catalog, prices)]
    for o in design.options:
        rows.append(
            _row(
                o.name,
                o.note,
                design.proposed == o.name,
                partial(design.option, o.name),
                catalog,
                prices,
            )
        )
    return rows


def _row(
    name: str,
    note: str,
    proposed: bool,
    build: Callable[[], Design],
    catalog: Catalog,
    prices: PriceList | None,
) -> OptionRow:
    base = OptionRow(name=name, note=note, proposed=proposed)
    try:
        d = build()
        e = size_estate(d.model_copy(update={"options": [], "proposed": None}), catalog)
    except UserError as exc:
        return base.model_copy(update={"error": "; ".join(exc.problems)})
    except ValidationError as exc:  # an option that is not a valid design
        problems = describe_validation_error(exc, prefix=f"option '{name}': ")
        return base.model_copy(update={"error": "; ".join(problems)})
    t = e.totals
    workloads = [w for c in e.clusters if c.result for w in c.result.workloads]
    cost = estate_cost(e, d.costs, prices) if prices is not None else None
    return OptionRow(
        name=name,
        note=note,
        proposed=proposed,
        clusters=len(e.clusters),
        hosts=t.hosts,
        gpus=t.gpus,
        gpus_demand=t.gpus_demand,
        gpus_idle=t.gpus_idle,
        total_kw=t.total_kw,
        racks=t.host_racks + t.network_racks,
        targets=_targets(d, e, workloads, catalog),
        cost=cost,
    )


def _targets(
    design: Design, e: Estate, workloads: list[WorkloadResult], catalog: Catalog
) -> list[TargetStatus]:
    """Every target of every group, met or missed as estimated and at risk over the spread."""
    spread: dict[tuple[str, str], float] = {}
    for c in e.clusters:
        if c.result is not None:
            view = cluster_design(design, e, c.name)
            for x in figure_ranges(view, catalog, c.result):
                spread[(x.workload, x.figure)] = x.pessimistic
    return target_statuses(design, workloads, spread)
