"""The engine's one entry: ``plan(design, catalog, prices)`` returns a Plan, the whole answer a
reader shows. A design of one cluster is an estate of one, so there is one cost, one rack count
and one set of targets whichever window, command or document reads it; what costs time to
work out (the spreads, the options, the port map) is worked out on the first request, inside
the engine, and kept."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, partial

from pydantic import ValidationError

from wizard.base.errors import UserError, describe_validation_error
from wizard.engine.decide.cautions import field_cautions
from wizard.engine.decide.cost import estate_cost, prices_the_hardware
from wizard.engine.decide.estate import cluster_design, estate_port_map, size_estate
from wizard.engine.decide.ranges import FigureRange, figure_ranges
from wizard.engine.decide.targets import target_statuses
from wizard.engine.fitout import portmap
from wizard.engine.fitout.bom import apply_prices
from wizard.engine.platform.compat import Problem, sizing_errors
from wizard.engine.size import size
from wizard.model.buildout import Bom
from wizard.model.catalog import Catalog
from wizard.model.cost import CostResult
from wizard.model.design import AS_DESIGNED, Design
from wizard.model.estate import Estate
from wizard.model.options import OptionRow, TargetStatus
from wizard.model.prices import PriceList
from wizard.model.result import Result, WorkloadResult


@dataclass(frozen=True)
class ClusterPlan:
    """One GPU cluster of the plan: the design as the cluster sees it, and its sizing."""

    name: str
    design: Design
    result: Result
    # whether its networks, power and racks are built with other clusters' (a design of several,
    # or an expansion of an existing estate): its own Result then holds them as if it stood alone
    shared: bool = False


class Plan:
    """A sized design: its estate (one cluster or several) and every figure read from it.
    ``design`` is what was sized (the proposed option when the design names one), ``given``
    the design with its options."""

    def __init__(
        self,
        given: Design,
        design: Design,
        catalog: Catalog,
        estate: Estate,
        prices: PriceList | None = None,
    ) -> None:
        self.given = given
        self.design = design
        self.catalog = catalog
        self.estate = estate
        self.prices = prices
        single = design.is_single_cluster() and not design.existing.clusters
        self.clusters: tuple[ClusterPlan, ...] = tuple(
            ClusterPlan(c.name, design if single else cluster_design(design, estate, c.name),
                        c.result, shared=not single)
            for c in estate.clusters
            if c.result is not None
        )  # fmt: skip

    def priced_with(self, prices: PriceList | None) -> Plan:
        """The same sizing read with a price list (nothing is sized again)."""
        return Plan(self.given, self.design, self.catalog, self.estate, prices)

    @property
    def _alone(self) -> ClusterPlan | None:
        """The one cluster that is the whole design (nothing shared with another): its own
        rule checks and port map are the design's."""
        return self.clusters[0] if len(self.clusters) == 1 and not self.clusters[0].shared else None

    @property
    def workloads(self) -> list[WorkloadResult]:
        return [w for c in self.clusters for w in c.result.workloads]

    @property
    def gpus_after_failures(self) -> int:
        """The GPUs left when each GPU cluster loses the hosts its HA policy tolerates (each
        keeps its own reserve, so the design's is the sum)."""
        return sum(c.result.cluster.gpus_after_failures for c in self.clusters)

    @property
    def racks(self) -> int:
        t = self.estate.totals
        return t.host_racks + t.network_racks

    @cached_property
    def ranges(self) -> dict[str, list[FigureRange]]:
        """Each cluster's times and rates over the stated spread of the assumptions."""
        return {c.name: figure_ranges(c.design, self.catalog, c.result) for c in self.clusters}

    @cached_property
    def targets(self) -> list[TargetStatus]:
        """Every target of every group: met or missed as estimated, at risk over the spread."""
        spread = {(x.workload, x.figure): x.pessimistic for xs in self.ranges.values() for x in xs}
        return target_statuses(self.design, self.workloads, spread)

    @cached_property
    def priced(self) -> Bom | None:
        """The bill with the price list's prices, None without a price list."""
        return apply_prices(self.estate.bom, self.prices) if self.prices is not None else None

    @cached_property
    def cost(self) -> CostResult | None:
        """The cost of ownership from the price list and the design's cost inputs."""
        if self.prices is None:
            return None
        return estate_cost(self.estate, self.design.costs, self.prices)

    @property
    def hardware_priced(self) -> bool:
        """Whether the price list prices every server and GPU line: a total without them would
        look cheap for the wrong reason, so no choice is made on it."""
        return self.priced is not None and prices_the_hardware(self.priced)

    @cached_property
    def errors(self) -> list[Problem]:
        """The error-level problems the sizing found, under the design's fields."""
        one = self._alone
        if one is not None:
            return sizing_errors(self.design, one.result, None)
        return sizing_errors(self.design, None, self.estate)

    @cached_property
    def cautions(self) -> list[Problem]:
        """The plausibility cautions under the design's fields: the plan sizes, but a figure
        it follows from is unlikely to be what was meant."""
        return field_cautions(self.design, (c.result for c in self.clusters))

    @cached_property
    def port_map(self) -> list[portmap.PortLink]:
        """Every cable end to end, as the bill counts them."""
        one = self._alone
        if one is not None:
            return portmap.result_port_map(one.design, self.catalog, one.result)
        return estate_port_map(self.design, self.catalog, self.estate)

    @cached_property
    def options(self) -> list[OptionRow]:
        """The design as it stands, then each option, sized the same way."""
        return compare(self.given, self.catalog, self.prices)

    def cluster(self, name: str) -> ClusterPlan | None:
        """The GPU cluster ``name``, None when it is not built (no group runs on it)."""
        return next((c for c in self.clusters if c.name == name), None)

    def cluster_of(self, workload: str) -> ClusterPlan:
        """The GPU cluster the group ``workload`` runs on, as the sizing placed it."""
        return next(c for c in self.clusters if any(w.name == workload for w in c.result.workloads))

    def cluster_ranges(self, name: str) -> list[FigureRange]:
        return self.ranges.get(name, [])

    def row(self, name: str, note: str = "", proposed: bool = False) -> OptionRow:
        """The plan as one row of the options comparison."""
        t = self.estate.totals
        return OptionRow(
            name=name,
            note=note,
            proposed=proposed,
            clusters=len(self.estate.clusters),
            hosts=t.hosts,
            gpus=t.gpus,
            gpus_demand=t.gpus_demand,
            gpus_idle=t.gpus_idle,
            total_kw=t.total_kw,
            racks=self.racks,
            targets=self.targets,
            cost=self.cost,
        )


def as_designed(design: Design) -> Design:
    """``design`` as it stands, whatever option it proposes: what a trial of one change sizes."""
    return design.model_copy(update={"proposed": None})


def plan(
    design: Design,
    catalog: Catalog,
    prices: PriceList | None = None,
    *,
    result: Result | None = None,
) -> Plan:
    """Size what ``design`` proposes: its proposed option when it names one, else the design
    itself. ``result`` is that sizing when the caller already holds it (a design of one
    cluster)."""
    shown = design.proposal()
    if result is None and shown.is_single_cluster() and not shown.existing.clusters:
        result = size(shown, catalog)
    return Plan(design, shown, catalog, size_estate(shown, catalog, result), prices)


def compare(design: Design, catalog: Catalog, prices: PriceList | None = None) -> list[OptionRow]:
    """The design as it stands, then each option, in the design's order; an option that cannot
    be sized says why in its row."""
    rows = [_row(AS_DESIGNED, "", design.proposed is None, lambda: design, catalog, prices)]
    for o in design.options:
        rows.append(
            _row(o.name, o.note, design.proposed == o.name, partial(design.option, o.name),
                 catalog, prices)
        )  # fmt: skip
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
        d = build().model_copy(update={"options": [], "proposed": None})
        p = Plan(d, d, catalog, size_estate(d, catalog), prices)
        return p.row(name, note, proposed)
    except UserError as exc:
        return base.model_copy(update={"error": "; ".join(exc.problems)})
    except ValidationError as exc:  # an option that is not a valid design
        problems = describe_validation_error(exc, prefix=f"option '{name}': ")
        return base.model_copy(update={"error": "; ".join(problems)})
