"""What every section, diagram and export reads: the design, the catalog entries it names and the
sized Result, bundled so each part is a function of one value."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from wizard.engine.ranges import FigureRange
from wizard.model.catalog import Catalog, Gpu, Nic, Server, Storage
from wizard.model.design import Design
from wizard.model.prices import PriceList
from wizard.model.result import Calculation, Result


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
        ref = self.design.hardware.nic
        return self.catalog.nics.get(ref) if ref else None

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
        from wizard.engine.ranges import figure_ranges

        out: dict[str, dict[str, FigureRange]] = {}
        for x in figure_ranges(self.design, self.catalog, self.result):
            out.setdefault(x.workload, {})[x.figure] = x
        return out

    def title(self) -> str:
        p = self.design.project
        return p.project_name or "GPU infrastructure design"


def build_data(
    design: Design, catalog: Catalog, prices: PriceList | None = None, result: Result | None = None
) -> ReportData:
    """The proposal's data: the design's proposed option (the design itself without one), sized
    unless its ``result`` is given, bundled with its catalog; the one call a caller needs."""
    from wizard.engine.size import size

    shown = design.proposal()
    sized = result if result is not None else size(shown, catalog)
    considered = design if shown is not design else None
    return ReportData(shown, catalog, sized, prices, considered)
