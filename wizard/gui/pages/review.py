"""Page 6: the live result. It refreshes a moment after any edit on any page (see sizing.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from wizard.base.numbers import MISSING, count, plural
from wizard.gui.icons import icon
from wizard.gui.jobs import Job
from wizard.gui.pages import titles
from wizard.gui.pages.base import Page
from wizard.gui.pages.review_tables import (
    CALC_COLUMNS,
    PLACEMENT_COLUMNS,
    SERVING_COLUMNS,
    WORKLOAD_COLUMNS,
    decision_text,
    failures,
    fill_calculations,
    fill_placement,
    fill_serving,
    fill_workloads,
    memory_basis_text,
    risk_item,
    tab,
    table,
)
from wizard.gui.prompts import Prompt
from wizard.gui.proposal import in_step, make_proposal, remove_option, save_option
from wizard.gui.reporting import font_files, render_diagrams
from wizard.gui.widgets.cards import CardRow
from wizard.gui.widgets.diagrams import DiagramsView, register_fonts
from wizard.gui.widgets.memory_bars import MemoryBars
from wizard.gui.widgets.options_view import OptionsView
from wizard.gui.widgets.result_tables import BomView, PowerView, SoftwareView, StorageView
from wizard.model.design import Design
from wizard.model.result import WorkloadResult
from wizard.present.labels import CLUSTER_ROLE
from wizard.present.risk_register import Risk, plan_risks

if TYPE_CHECKING:
    from wizard.engine import ClusterPlan, FigureRange, Plan
    from wizard.model.prices import PriceList

__all__ = ["SERVING_COLUMNS", "WORKLOAD_COLUMNS", "ReviewPage"]


class ReviewPage(Page):
    scrolling = False

    def __init__(self, doc, catalog, live,
                 prompt: Callable[[Prompt], object] | None = None,
                 prices: Callable[[], PriceList | None] | None = None) -> None:  # fmt: skip
        super().__init__(doc, catalog, live, *titles.REVIEW)
        self.prompt = prompt
        self._prices = prices
        # an option proposed: the figures are the option's, the pages edit the design
        self.proposal_note = QLabel()
        self.proposal_note.setObjectName("note")
        self.proposal_note.setWordWrap(True)
        self.proposal_note.hide()
        self.body.addWidget(self.proposal_note)
        self.problem = QLabel()
        self.problem.setObjectName("problem")
        self.problem.setWordWrap(True)
        self.problem.hide()
        self.body.addWidget(self.problem)
        # plausibility cautions: the design sizes, but a figure is unlikely to be what was meant
        self.cautions_note = QLabel()
        self.cautions_note.setObjectName("reason")
        self.cautions_note.setWordWrap(True)
        self.cautions_note.hide()
        self.body.addWidget(self.cautions_note)
        self.clusters_note = QLabel()  # a design of several clusters: each one in a line
        self.clusters_note.setObjectName("note")
        self.clusters_note.setWordWrap(True)
        self.clusters_note.hide()
        self.body.addWidget(self.clusters_note)
        # a design of several clusters: the whole estate, or one GPU cluster as rich as one
        self.cluster_bar = QWidget()
        bar = QHBoxLayout(self.cluster_bar)
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addWidget(QLabel("Show:"))
        self.cluster_choice = QComboBox()
        self.cluster_choice.setAccessibleName("Show")
        self.cluster_choice.setToolTip(
            "Every cluster together, or one GPU cluster with its memory bars, ranges, placement, "
            "storage, software, power and calculations"
        )
        bar.addWidget(self.cluster_choice)
        bar.addStretch(1)
        self.cluster_bar.hide()
        self.body.addWidget(self.cluster_bar)
        self.cluster_choice.activated.connect(lambda _i: self._cluster_chosen())
        self.cards = CardRow(
            [
                ("hosts", "hosts", "Hosts for capacity, HA and maintenance"),
                ("gpus", "GPUs in total", "Hosts × GPUs per host"),
                ("demand", "GPUs the workloads need", "Sum over workload groups"),
                ("after", "GPUs after failures", "GPUs left after the HA policy's failures"),
                (
                    "utilization",
                    "allocated on the GPUs in use",
                    "Mean share of each GPU in use that the workloads' stated needs take, from "
                    "the placement of every workload (spare and HA GPUs are not counted)",
                ),
                ("power", "kW at full load", "Hosts and network at full load"),
                ("racks", "racks", "Racks for hosts and network, within the power limit"),
            ],
            columns=7,
        )
        self.body.addWidget(self.cards)
        self.tabs = QTabWidget()
        self.body.addWidget(self.tabs, 1)

        # Summary
        self.bars = MemoryBars()
        bars_title = self.bars_title = QLabel("GPU memory per workload (GB per GPU of a replica)")
        bars_title.setObjectName("sectionTitle")
        self.workloads = table(WORKLOAD_COLUMNS)
        h = self.workloads.horizontalHeader()
        # every column as wide as its contents and its heading (a stretched column was squeezed
        # below its heading once the row outgrew the page); a wide row scrolls
        for c in range(len(WORKLOAD_COLUMNS)):
            h.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        h.setStretchLastSection(False)
        self.serving_title = QLabel("LLM serving at the planned load")
        self.serving_title.setObjectName("sectionTitle")
        self.serving = table(SERVING_COLUMNS)
        sh = self.serving.horizontalHeader()
        targets = SERVING_COLUMNS.index("Targets")
        for c in range(len(SERVING_COLUMNS)):
            sh.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        sh.setSectionResizeMode(targets, QHeaderView.ResizeMode.Stretch)
        sh.setMinimumSectionSize(sh.fontMetrics().horizontalAdvance("Targets") + 24)
        # the software and attention kernel each training group's memory is counted as
        self.memory_basis = QLabel()
        self.memory_basis.setWordWrap(True)
        self.memory_basis.setTextFormat(Qt.TextFormat.PlainText)
        summary = tab(bars_title, self.bars, self.workloads, self.memory_basis,
                      self.serving_title, self.serving)  # fmt: skip
        column = summary.layout()
        assert isinstance(column, QVBoxLayout)
        column.setStretch(2, 2)
        column.setStretch(5, 1)
        # a small window scrolls the summary rather than squeezing its tables to one row
        summary_scroll = QScrollArea()
        summary_scroll.setWidgetResizable(True)
        summary_scroll.setFrameShape(QFrame.Shape.NoFrame)
        summary_scroll.setWidget(summary)
        self.tabs.addTab(summary_scroll, "Summary")

        # The design's options side by side, sized in the background while on screen
        self.options = OptionsView()
        self.options_tab = self.tabs.addTab(self.options, "Options")
        self.options.save_requested.connect(self.save_option)
        self.options.propose_requested.connect(self.propose)
        self.options.remove_requested.connect(self.remove_option)
        self.options_job = Job(self)
        self.options_job.finished.connect(self._options_ready)
        self.options_job.failed.connect(
            lambda msg: self.options.show_message(f"The options could not be compared: {msg}")
        )
        self._options_revision = -1
        self._filled_revision = -1
        self._ranges: dict[str, dict[str, FigureRange]] = {}
        self._ranges_revision = -1

        # Warnings and decisions
        self.warnings = QListWidget()
        self.warnings.setWordWrap(True)
        self.decisions = QListWidget()
        self.decisions.setWordWrap(True)
        self.decisions.setAlternatingRowColors(True)
        wt = QLabel("Warnings")
        wt.setObjectName("sectionTitle")
        dt = QLabel("Design decisions")
        dt.setObjectName("sectionTitle")
        w = QWidget()
        v = QVBoxLayout(w)
        v.addWidget(wt)
        v.addWidget(self.warnings, 2)
        v.addWidget(dt)
        v.addWidget(self.decisions, 3)
        self.tabs.addTab(w, "Warnings && decisions")

        # Placement: identical GPU layouts counted together (thousands of GPUs stay readable).
        self.placement = table(PLACEMENT_COLUMNS)
        ph = self.placement.horizontalHeader()
        ph.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for c in range(1, len(PLACEMENT_COLUMNS)):
            ph.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        self.placement_note = QLabel()
        self.placement_note.setObjectName("muted")
        self.placement_note.setWordWrap(True)
        self.tabs.addTab(tab(self.placement_note, self.placement), "Placement")

        self.storage = StorageView()
        self.tabs.addTab(self.storage, "Storage")
        self.software = SoftwareView()
        self.tabs.addTab(self.software, "Software")

        self.bom = BomView()
        self.tabs.addTab(self.bom, "BOM")
        self.power = PowerView()
        self.tabs.addTab(self.power, "Power && racks")

        # The PDF's own drawings, rendered in the background and only while they are on screen.
        self.diagrams = DiagramsView()
        self.diagrams_tab = self.tabs.addTab(self.diagrams, "Diagrams")
        self.diagram_job = Job(self)
        self.diagram_job.finished.connect(self._diagrams_ready)
        self.diagram_job.failed.connect(
            lambda msg: self.diagrams.show_message(f"The diagrams could not be drawn: {msg}")
        )
        self._diagrams_revision = -1
        self.tabs.currentChanged.connect(lambda _i: self._maybe_draw())
        self.tabs.currentChanged.connect(lambda _i: self._maybe_compare())

        # Calculation log
        self.calcs = table(CALC_COLUMNS)
        ch = self.calcs.horizontalHeader()
        for c in range(len(CALC_COLUMNS)):
            ch.setSectionResizeMode(c, QHeaderView.ResizeMode.Interactive)
        ch.setStretchLastSection(True)
        calc_note = QLabel("How every figure was reached: formula, inputs and source.")
        calc_note.setObjectName("muted")
        self.calcs_tab = self.tabs.addTab(tab(calc_note, self.calcs), "Calculations")
        self.tabs.currentChanged.connect(lambda _i: self._maybe_calculations())

        self.live.updated.connect(self.show_result)
        self.live.updated.connect(self._maybe_draw)
        self.live.updated.connect(self._maybe_compare)
        self.show_result()

    def initializePage(self) -> None:
        self.live.current()
        if self.live.why_no_figures():
            self.show_result()  # the reason in the wizard's words, now the page is in it
        self._show_cautions()  # in the wizard's words, now that the page is in the wizard
        super().initializePage()

    def _show_cautions(self) -> None:
        """The plausibility cautions of the sizing, each with its group and field."""
        cautions = self._said([str(p) for p in self.live.cautions]) if self.live.sized() else []
        self.cautions_note.setText(
            "Check before you propose it:\n" + "\n".join(f"• {c}" for c in cautions)
        )
        self.cautions_note.setVisible(bool(cautions))

    def showEvent(self, event) -> None:
        super().showEvent(event)
        chosen = self._selected()
        if chosen is not None and self._ranges_revision != self.live.revision:
            self._compute_ranges()  # only while on screen: they size serving groups again
            self._tables(chosen.result.workloads, chosen.design)
        self._maybe_draw()
        self._maybe_compare()

    def _plan(self) -> Plan | None:
        """The plan whose figures may be shown: none of a plan that failed, that the rule book
        refuses or that a page has moved away from."""
        return None if self.live.why_no_figures() else self.live.plan

    def _selected(self) -> ClusterPlan | None:
        """The GPU cluster shown under Show (the only one when the design has one); None for
        every cluster together, or while no figure may be shown."""
        p = self._plan()
        name = self.cluster_choice.currentData()
        return p.cluster(name) if p is not None and name is not None else None

    def _cluster_chosen(self) -> None:
        self._ranges_revision = -1
        self._diagrams_revision = -1
        self.show_result()
        self._maybe_draw()

    def _fill_cluster_choice(self, p: Plan | None) -> None:
        """Every cluster together, where the estate is more than one cluster's own figures (its
        clusters share networks, power and racks), then each GPU cluster; hidden when there is
        nothing to choose (a design of one cluster is an estate of one)."""
        current = self.cluster_choice.currentData()
        clusters = list(p.clusters) if p is not None else []
        self.cluster_choice.clear()
        if any(c.shared for c in clusters):
            self.cluster_choice.addItem("Every cluster together", None)
        for c in clusters:
            self.cluster_choice.addItem(f"GPU cluster {c.name}", c.name)
        at = self.cluster_choice.findData(current) if current is not None else -1
        self.cluster_choice.setCurrentIndex(max(at, 0))
        self.cluster_bar.setVisible(self.cluster_choice.count() > 1)

    def _maybe_draw(self) -> None:
        """Draw the diagrams when they are on screen and out of date (never on the edit path)."""
        if not self.isVisible() or self.tabs.currentIndex() != self.diagrams_tab:
            return
        chosen = self._selected()
        if chosen is None:
            self.diagrams.show_message(
                "Choose a GPU cluster under Show to see its drawings."
                if self._plan() is not None
                else "Shown once the design sizes."
            )
            return
        if self._diagrams_revision == self.live.revision:
            return
        self._diagrams_revision = self.live.revision
        self.diagrams.status.setText("Drawing…")
        catalog, design, r = self.catalog, chosen.design, chosen.result
        self.diagram_job.start(lambda: (font_files(), render_diagrams(design, catalog, r)))

    def _maybe_compare(self) -> None:
        """Compare the options when their tab is on screen and the design changed since."""
        if not self.isVisible() or self.tabs.currentIndex() != self.options_tab:
            return
        self.live.current()  # an edit still waiting for the debounce is part of the design
        design = self.live.design
        if design is None:
            self.options.set_options([], None, can_save=False)
            self.options.show_message("Shown once the design is complete.")
            return
        self.options.set_options([o.name for o in design.options], design.proposed, True)
        if not design.options:
            self.options.show_message(
                "This design holds no options. Save the design as an option, then change its "
                "hardware, HA, clusters or a group's sharing mode or precision on the pages: the "
                "two are compared here side by side, and either can be made the proposal."
            )
            return
        if self._options_revision == self.live.revision:
            return
        self._options_revision = self.live.revision
        self.options.status.setText("Comparing…")
        catalog = self.catalog
        prices = self._prices() if self._prices is not None else None
        plan = self.live.plan
        if plan is not None:  # the live plan's options: the rows the proposal and `compare` give
            priced = plan.priced_with(prices)
            self.options_job.start(lambda: priced.options)
            return
        from wizard.engine import compare  # the design does not size; its options may

        self.options_job.start(lambda: compare(design, catalog, prices))

    # ------------------------------------------------------------------ options

    def save_option(self) -> None:
        """Keep the design as it stands as a named option (one undoable step)."""
        if self.prompt is None:
            return
        design = self.doc.design()
        name = save_option(self.doc, self.catalog, self.prompt, self)
        if name is not None and design is not None:
            self.options.set_options([o.name for o in design.options] + [name], design.proposed,
                                     True)  # fmt: skip

    def propose(self, name: str | None) -> None:
        """Make option ``name`` (None: the design as it stands) the proposal; the pages then
        show its design."""
        make_proposal(self.doc, name, self)

    def remove_option(self, name: str) -> None:
        remove_option(self.doc, name, self)

    def _options_ready(self, value: object) -> None:
        assert isinstance(value, list), "the job returns the compared options"
        self.options.show_rows(value)

    def _diagrams_ready(self, value: object) -> None:
        assert isinstance(value, tuple), "the job returns (font files, diagrams)"
        fonts, diagrams = value
        register_fonts(fonts)
        self.diagrams.show_diagrams(diagrams)

    def _said(self, problems: list[str]) -> list[str]:
        wizard = self.wizard()
        return [wizard.said(p) for p in problems] if hasattr(wizard, "said") else problems

    def problems(self) -> list[str]:
        if not self.live.sized():
            return self._said(self.live.problems) or ["the design does not size yet"]
        # an error of the rule book: the design cannot be built as it stands
        return self._said([str(p) for p in self.live.errors])

    # ------------------------------------------------------------------ showing

    def show_result(self) -> None:
        if self._filled_revision != self.live.revision:
            self._filled_revision = self.live.revision
            self._fill_cluster_choice(self.live.plan)
        # no figure of a plan that failed, that the rule book refuses or that a page has moved
        # away from stays on screen: the reason takes its place
        why = self.live.why_no_figures()
        plan = self._plan()
        chosen = self._selected()
        design = self.live.design
        proposed = design.proposed if design is not None else None
        self.proposal_note.setVisible(proposed is not None)
        if proposed is not None and design is not None and in_step(design):
            self.proposal_note.setText(
                f"The pages show the proposed option, '{proposed}', which the proposal, the bill "
                "of materials and the vSphere steps specify. A change on the pages asks whether "
                "it updates the option or keeps it as saved."
            )
        elif proposed is not None:
            self.proposal_note.setText(
                f"These figures are for the proposed option, '{proposed}', which the proposal, "
                "the bill of materials and the vSphere steps specify. The pages edit the design "
                "as it stands; compare the two under Options, or make it the proposal there."
            )
        self._show_cautions()
        self.problem.setVisible(plan is None)
        self.clusters_note.setVisible(plan is not None and chosen is None)
        self.bars.setVisible(chosen is not None)
        self.bars_title.setVisible(chosen is not None)
        if plan is None:
            self.problem.setText(
                ("The design does not size yet:\n" if not self.live.sized()
                 else "No figures until this is resolved:\n")
                + "\n".join(self._said(why))
            )  # fmt: skip
            self._clear()
        elif chosen is None:
            self._show_estate(plan)
        else:
            self._show_cluster(plan, chosen)
        self.update_complete()

    def _clear(self) -> None:
        """No figure of an earlier sizing stays on screen beside "does not size"."""
        self.cards.clear()
        self.bars.set_data([], 0)
        for t in (self.workloads, self.calcs, self.placement, self.serving):
            t.setRowCount(0)
        self.serving_title.setVisible(False)
        self.serving.setVisible(False)
        self.placement_note.setText("")
        self.storage.show_result(None)
        self.bom.show_result(None)
        self.power.show_result(None, None)
        self.software.show_result(None)
        self.diagrams.show_diagrams([])
        self.warnings.clear()
        self.decisions.clear()

    def _show_cluster(self, plan: Plan, chosen: ClusterPlan) -> None:
        """One GPU cluster with every tab filled from its sizing: the design's only cluster,
        or one of several as if it stood alone (the whole design is under Every cluster
        together)."""
        r = chosen.result
        c = r.cluster
        self.cards.set("hosts", f"{c.hosts_total:,}",
                       f"{c.hosts_for_capacity} for capacity + {c.hosts_for_ha} for HA + "
                       f"{c.hosts_for_maintenance} for maintenance"
                       + (f" + {c.hosts_for_platform} for the VCF minimum"
                          if c.hosts_for_platform else ""))  # fmt: skip
        self.cards.set("gpus", f"{c.gpus_total:,}")
        self.cards.set("demand", f"{c.gpus_demand:,}")
        self.cards.set("after", f"{c.gpus_after_failures:,}",
                       f"after {failures(c.host_failures_tolerated)}")  # fmt: skip
        self.cards.set("power", f"{r.power.total_kw:,.1f}")
        racks = len(r.racks.racks)
        self.cards.set("racks", f"{racks}", label=plural(racks, "rack"))
        p = r.packing
        self.cards.set(
            "utilization",
            f"{p.mean_utilization:.0%}",
            f"{p.gpus_used:,} of {count(c.gpus_total, 'GPU')} carry workloads; on those, "
            f"{p.mean_utilization:.0%} of each is allocated on average",
            label=f"allocated on the {count(p.gpus_used, 'GPU')} in use",
        )
        gpu = self.catalog.gpus.get(r.gpu)
        self.bars.set_data(r.workloads, gpu.memory_gb if gpu else 0)
        self._compute_ranges()
        self._tables(r.workloads, chosen.design)
        fill_placement(self.placement, self.placement_note, r)
        self.storage.show_result(r.storage)
        self.bom.show_result(r.bom)
        self.power.show_result(r.power, r.racks)
        self.software.show_result(r.software)
        self._warnings(plan, chosen)
        self._calculations(chosen)

    def _tables(self, rows: list[WorkloadResult], design: Design) -> None:
        """The workload and serving tables of ``rows``, sized from ``design``."""
        fill_workloads(self.workloads, rows, design, self._spread)
        basis = memory_basis_text(rows)
        self.memory_basis.setText(basis)
        self.memory_basis.setVisible(bool(basis))
        served = any(w.serving is not None for w in rows)
        self.serving_title.setVisible(served)
        self.serving.setVisible(served)
        fill_serving(self.serving, rows, design, self._spread)

    def _show_estate(self, plan: Plan) -> None:
        """Every cluster together: totals in the cards, each cluster in a line, the groups,
        warnings, decisions and the bill of materials of the whole design. Placement, storage,
        software, power and the calculations are each GPU cluster's, under Show."""
        e = plan.estate
        t = e.totals
        self.clusters_note.setText(
            "\n".join(
                f"{c.name} ({CLUSTER_ROLE[c.role]}): {count(c.hosts, 'host')} × {c.server_name}"
                + (
                    f" ({c.existing_hosts:,} existing, kept; {c.hosts - c.existing_hosts:,} to add)"
                    if c.existing_hosts
                    else ""
                )
                + (f", {count(c.gpus, 'GPU')} ({c.gpus_demand:,} used)" if c.gpus else "")
                + f", {c.hosts_kw:,.1f} kW"
                for c in e.clusters
            )
            + "".join(
                f"\nTo change on {w.cluster}'s {count(len(w.hosts), 'host')}: {w.change} "
                f"({count(w.reboots, 'host reboot')})"
                for w in e.work
            )
        )
        self.cards.set("hosts", f"{t.hosts:,}", f"in {count(len(e.clusters), 'cluster')}")
        self.cards.set("gpus", f"{t.gpus:,}")
        self.cards.set("demand", f"{t.gpus_demand:,}")
        self.cards.set("after", f"{plan.gpus_after_failures:,}",
                       "each GPU cluster after its own HA policy's failures")  # fmt: skip
        self.cards.set("utilization", MISSING, "per GPU cluster, under Show",
                       label="allocated on the GPUs in use")  # fmt: skip
        self.cards.set("power", f"{t.total_kw:,.1f}")
        self.cards.set("racks", f"{plan.racks}", label=plural(plan.racks, "rack"))
        self._ranges = {}  # the spreads are each cluster's, under Show
        self._tables(plan.workloads, plan.design)
        self._risks(plan_risks(plan), named=True)
        self.decisions.clear()
        for d in e.decisions:
            self.decisions.addItem(decision_text(d))
        for c in plan.clusters:
            for d in c.result.decisions:
                self.decisions.addItem(f"{c.name}: {decision_text(d)}")
        self.bom.show_result(e.bom)
        for table_ in (self.placement, self.calcs):
            table_.setRowCount(0)
        self.placement_note.setText("Each GPU cluster's, under Show.")
        self.storage.show_result(None)
        self.software.show_result(None)
        self.power.show_result(None, None)

    def _spread(self, workload: str) -> dict[str, FigureRange]:
        return self._ranges.get(workload, {})

    def _compute_ranges(self) -> None:
        """Ranges of the times and rates, only while the page is on screen (they size the
        serving groups again over the spread of the assumptions)."""
        self._ranges = {}
        chosen, p = self._selected(), self._plan()
        if chosen is None or p is None or not self.isVisible():
            return
        self._ranges_revision = self.live.revision
        for x in p.cluster_ranges(chosen.name):
            self._ranges.setdefault(x.workload, {})[x.figure] = x

    def _warnings(self, plan: Plan, chosen: ClusterPlan) -> None:
        """The proposal's risk register, word for word, as `gpuwizard size` prints it: the
        cluster's own risks and those of the whole design (its networks, racks and platform),
        then the cluster's decisions."""
        self._risks([x for x in plan_risks(plan) if x.cluster in (None, chosen.name)])
        self.decisions.clear()
        for d in chosen.result.decisions:
            self.decisions.addItem(f"{d.id}. {decision_text(d)}")

    def _risks(self, risks: list[Risk], named: bool = False) -> None:
        self.warnings.clear()
        for x in risks:
            self.warnings.addItem(risk_item(x, named))
        if not risks:
            self.warnings.addItem(QListWidgetItem(icon("ok"), "No warnings."))

    def _calculations(self, chosen: ClusterPlan) -> None:
        """The calculation log of the cluster shown, filled only while its tab is on screen: a
        thousand rows take longer than the sizing, so an edit elsewhere leaves the table empty
        until shown."""
        self.calcs.setRowCount(0)
        if self.tabs.currentIndex() == self.calcs_tab:
            fill_calculations(self.calcs, chosen.result, chosen.design, self.catalog)

    def _maybe_calculations(self) -> None:
        """Fill the calculation log when its tab comes on screen, from the cluster shown now."""
        if self.tabs.currentIndex() != self.calcs_tab or self.calcs.rowCount():
            return
        chosen = self._selected()
        if chosen is not None:
            fill_calculations(self.calcs, chosen.result, chosen.design, self.catalog)
