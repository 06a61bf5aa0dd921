"""What every section, diagram and export reads: the design, the catalog entries it names, the
sized Result and the Plan it belongs to, bundled so each part is a function of one value. Every
figure the engine works out beyond the Result (spreads, targets, cost, port map) is read from
the Plan, so the proposal states what the wizard and the command line state."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from wizard.engine import ClusterPlan, FigureRange, Plan, plan
from wizard.model.catalog import Catalog, Gpu, Nic, Server, Storage
from wizard.model.design import Design
from wizard.model.prices import PriceList
from wizard.model.result import SHARED_TOPICS, Calculation, Result


@dataclass(frozen=True)
class ReportData:
    design: Design
    catalog: Catalog
    result: Result
    prices: PriceList | None = None  # the user's price list, for the cost of the options
    # the design with its options, when ``design`` is the proposed option: what "Options
    # considered" compares; None when ``design`` is that design itself
    considered: Design | None = None
    # a cluster of several whose networks are shared and judged once, in the shared sections
    shared_network: bool = False
    # the whole design's plan, whose figures the sections quote; None for a reader that draws
    # the Result's diagrams only (the wizard's previews)
    planned: Plan | None = None

    @property
    def plan(self) -> Plan:
        if self.planned is None:
            raise ValueError("the proposal's sections read the design's plan; none was given")
        return self.planned

    @property
    def compared(self) -> Design:
        """The design whose options the proposal compares."""
        return self.considered or self.design

    @property
    def gpu(self) -> Gpu:
        return self.catalog.gpus[self.result.gpu]

    @property
    def server(self) -> Server:
        return self.catalog.servers[self.result.server]

    @property
    def nic(self) -> Nic | None:
        return self.catalog.nic_of(self.design.hardware.nic)

    @property
    def storage(self) -> Storage | None:
        ref = self.design.hardware.storage
        return self.catalog.storage.get(ref) if ref else None

    def calculations(self, prefix: str) -> list[Calculation]:
        return [c for c in self.result.calculations if c.id.startswith(prefix)]

    def calculation(self, id: str) -> Calculation | None:
        return next((c for c in self.result.calculations if c.id == id), None)

    @cached_property
    def ranges(self) -> dict[str, dict[str, FigureRange]]:
        """Each group's times and rates over the stated spread of the assumptions, by figure."""
        out: dict[str, dict[str, FigureRange]] = {}
        for x in self.plan.cluster_ranges(self.cluster):
            out.setdefault(x.workload, {})[x.figure] = x
        return out

    @property
    def cluster(self) -> str:
        """The name of the cluster this data shows: the design's only one, or one of several."""
        return self.design.cluster_name

    def title(self) -> str:
        p = self.design.project
        return p.project_name or "GPU infrastructure design"


def build_data(
    design: Design, catalog: Catalog, prices: PriceList | None = None, result: Result | None = None
) -> ReportData:
    """The proposal's data for a design: the design's proposed option (the design itself
    without one), planned (with ``result`` as its sizing when given, a design of one cluster),
    bundled with its catalog; the one call a caller needs."""
    return data_of(plan(design, catalog, prices, result=result))


def data_of(p: Plan) -> ReportData:
    """The proposal's data of a plan, one cluster or several: what the cover, the summary and
    the sections of the whole design read. Its Result is the first GPU cluster's own (what the
    clusters share is read from the plan's estate)."""
    if not p.clusters:
        raise ValueError("the plan has no GPU cluster to propose")
    first = p.clusters[0]
    considered = p.given if p.design is not p.given else None
    return ReportData(p.design, p.catalog, _view_result(first), p.prices, considered, planned=p)


def cluster_views(data: ReportData) -> list[ReportData]:
    """Each GPU cluster's data, in the estate's order: what its own sections read. A cluster
    whose networks, power and racks are built with others' keeps only its own decisions and
    calculations (the shared ones are the whole design's); one that is the whole design is
    read through ``data`` itself."""
    p = data.plan
    return [
        data if not c.shared and c.result is data.result
        else ReportData(c.design, p.catalog, _view_result(c), p.prices, data.considered,
                        shared_network=c.shared, planned=p)
        for c in p.clusters
    ]  # fmt: skip


def _view_result(c: ClusterPlan) -> Result:
    return _own(c.result) if c.shared else c.result


# what a cluster's own Result holds of the build-out as if it stood alone: in a design of
# several clusters the networks, power, racks, cooling and bill are decided for all together
SHARED_CALCULATIONS = ("fabric.", "power.", "racks.", "bom.", "cooling.")


def _own(r: Result) -> Result:
    """A cluster's result with only the decisions and calculations that are its own."""
    own = [d for d in r.decisions if d.topic not in SHARED_TOPICS]
    calcs = [c for c in r.calculations if not c.id.startswith(SHARED_CALCULATIONS)]
    return r.model_copy(
        update={
            "decisions": [d.model_copy(update={"id": i}) for i, d in enumerate(own, 1)],
            "calculations": calcs,
        }
    )
