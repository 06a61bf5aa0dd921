"""Page 6: the live result. It refreshes a moment after any edit on any page (see sizing.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from wizard.app.serving_text import at_risk, spread_text, target_short
from wizard.base.numbers import MISSING, count, fixed, num, plural
from wizard.gui.icons import icon
from wizard.gui.jobs import Job
from wizard.gui.pages import titles
from wizard.gui.pages.base import Page
from wizard.gui.prompts import Prompt
from wizard.gui.proposal import in_step, make_proposal, remove_option, save_option
from wizard.gui.reporting import font_files, render_diagrams
from wizard.gui.widgets.cards import CardRow
from wizard.gui.widgets.diagrams import DiagramsView, register_fonts
from wizard.gui.widgets.memory_bars import MemoryBars
from wizard.gui.widgets.options_view import OptionsView
from wizard.gui.widgets.result_tables import BomView, PowerView, SoftwareView, StorageView
from wizard.model.design import Design
from wizard.model.estate import Estate
from wizard.model.result import Decision, Result, Severity, Warning_, WorkloadResult
from wizard.present import labels
from wizard.present.basis import (
    CALIBRATED,
    basis_short,
    basis_summary,
    group_gpu,
    serving_basis,
    training_basis,
)
from wizard.present.fields import in_words
from wizard.present.figures import gpus_text, layout_text
from wizard.present.formula_text import formula_words, inputs_words, quantity
from wizard.present.labels import CLUSTER_ROLE
from wizard.present.labels import mode as mode_label
from wizard.present.mitigations import mitigation
from wizard.present.references import customer_source
from wizard.present.risk_register import Risk, register
from wizard.present.severity import MEANS as SEVERITY_MEANS
from wizard.present.severity import ORDER, SEVERITY

if TYPE_CHECKING:
    from wizard.engine import FigureRange
    from wizard.model.prices import PriceList

WORKLOAD_COLUMNS = (
    "Workload",
    "GPUs",
    "Sharing",
    "Layout",
    "Memory / GPU",
    "Time to train",
    "Allreduce / iteration",
)
SERVING_COLUMNS = (
    "Serving group",
    "Time to first token",
    "Time between tokens",
    "Throughput",
    "In flight",
    "Targets",
    "Figures are",
)
PLACEMENT_COLUMNS = ("GPU layout", "Mode", "GPUs", "Allocated", "Memory used / GPU")
CALC_COLUMNS = ("Figure", "Value", "Unit", "Formula", "Inputs", "Source")


def _table(columns: tuple[str, ...]) -> QTableWidget:
    t = QTableWidget(0, len(columns))
    t.setHorizontalHeaderLabels(columns)
    t.verticalHeader().hide()
    t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    t.setAlternatingRowColors(True)
    t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    return t


SHOWN_ROWS = 5  # rows a summary table shows before it scrolls on its own


def _rows_tall(t: QTableWidget) -> None:
    """At least the table's first few rows on screen, whatever the window's height."""
    rows = min(max(t.rowCount(), 1), SHOWN_ROWS)
    body = sum(t.rowHeight(r) for r in range(min(rows, t.rowCount()))) or 30 * rows
    bar = t.horizontalScrollBar().sizeHint().height()
    t.setMinimumHeight(t.horizontalHeader().sizeHint().height() + body + bar + 2 * t.frameWidth())


def _tab(*widgets: QWidget, stretch_last: bool = True) -> QWidget:
    w = QWidget()
    v = QVBoxLayout(w)
    for i, child in enumerate(widgets):
        v.addWidget(child, 1 if stretch_last and i == len(widgets) - 1 else 0)
    if not stretch_last:
        v.addStretch(1)
    return w


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
        self.workloads = _table(WORKLOAD_COLUMNS)
        h = self.workloads.horizontalHeader()
        # every column as wide as its contents and its heading (a stretched column was squeezed
        # below its heading once the row outgrew the page); a wide row scrolls
        for c in range(len(WORKLOAD_COLUMNS)):
            h.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        h.setStretchLastSection(False)
        self.serving_title = QLabel("LLM serving at the planned load")
        self.serving_title.setObjectName("sectionTitle")
        self.serving = _table(SERVING_COLUMNS)
        sh = self.serving.horizontalHeader()
        targets = SERVING_COLUMNS.index("Targets")
        for c in range(len(SERVING_COLUMNS)):
            sh.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        sh.setSectionResizeMode(targets, QHeaderView.ResizeMode.Stretch)
        sh.setMinimumSectionSize(sh.fontMetrics().horizontalAdvance("Targets") + 24)
        summary = _tab(bars_title, self.bars, self.workloads, self.serving_title, self.serving)
        column = summary.layout()
        assert isinstance(column, QVBoxLayout)
        column.setStretch(2, 2)
        column.setStretch(4, 1)
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
        self.placement = _table(PLACEMENT_COLUMNS)
        ph = self.placement.horizontalHeader()
        ph.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for c in range(1, len(PLACEMENT_COLUMNS)):
            ph.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        self.placement_note = QLabel()
        self.placement_note.setObjectName("muted")
        self.placement_note.setWordWrap(True)
        self.tabs.addTab(_tab(self.placement_note, self.placement), "Placement")

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
        self.calcs = _table(CALC_COLUMNS)
        ch = self.calcs.horizontalHeader()
        for c in range(len(CALC_COLUMNS)):
            ch.setSectionResizeMode(c, QHeaderView.ResizeMode.Interactive)
        ch.setStretchLastSection(True)
        calc_note = QLabel("How every figure was reached: formula, inputs and source.")
        calc_note.setObjectName("muted")
        self.calcs_tab = self.tabs.addTab(_tab(calc_note, self.calcs), "Calculations")
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
        r, _ = self._selected()
        if r is not None and self._ranges_revision != self.live.revision:
            self._compute_ranges()  # only while on screen: they size serving groups again
            self._workloads(r.workloads)
            self._serving(r.workloads)
        self._maybe_draw()
        self._maybe_compare()

    def _selected(self) -> tuple[Result | None, Design | None]:
        """The result shown and the design it was sized from: the one cluster's, or the GPU
        cluster chosen under Show (None for every cluster together)."""
        if self.live.why_no_figures():
            return None, None
        if self.live.result is not None:
            return self.live.result, self.live.shown
        p = self.live.plan
        name = self.cluster_choice.currentData()
        if p is None or name is None:
            return None, None
        c = next((c for c in p.clusters if c.name == name), None)
        return (c.result, c.design) if c is not None else (None, None)

    def _cluster_chosen(self) -> None:
        self._ranges_revision = -1
        self._diagrams_revision = -1
        self.show_result()
        self._maybe_draw()

    def _fill_cluster_choice(self, e: Estate | None) -> None:
        self.cluster_bar.setVisible(e is not None)
        if e is None:
            return
        current = self.cluster_choice.currentData()
        names = [c.name for c in e.clusters if c.result is not None]
        self.cluster_choice.clear()
        self.cluster_choice.addItem("Every cluster together", None)
        for name in names:
            self.cluster_choice.addItem(f"GPU cluster {name}", name)
        at = self.cluster_choice.findData(current) if current in names else 0
        self.cluster_choice.setCurrentIndex(max(at, 0))

    def _maybe_draw(self) -> None:
        """Draw the diagrams when they are on screen and out of date (never on the edit path)."""
        if not self.isVisible() or self.tabs.currentIndex() != self.diagrams_tab:
            return
        r, design = self._selected()
        if r is None or design is None:
            self.diagrams.show_message(
                "Choose a GPU cluster under Show to see its drawings."
                if self.live.estate is not None
                else "Shown once the design sizes."
            )
            return
        if self._diagrams_revision == self.live.revision:
            return
        self._diagrams_revision = self.live.revision
        self.diagrams.status.setText("Drawing…")
        catalog = self.catalog
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
            self._fill_cluster_choice(self.live.estate)
        r, _ = self._selected()
        # no figure of a plan that failed, that the rule book refuses or that a page has moved
        # away from stays on screen: the reason takes its place
        why = self.live.why_no_figures()
        if why:
            r = None
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
        self.clusters_note.setVisible(self.live.estate is not None and r is None and not why)
        if r is None and self.live.estate is not None and not why:
            self.problem.hide()
            self._show_estate(self.live.estate)
            return
        self.problem.setVisible(r is None)
        self.bars.setVisible(True)
        self.bars_title.setVisible(True)
        if r is None:
            lines = self._said(why)
            self.problem.setText(
                ("The design does not size yet:\n" if not self.live.sized()
                 else "No figures until this is resolved:\n")
                + "\n".join(lines)
            )  # fmt: skip
            # no figure of an earlier sizing stays on screen beside "does not size"
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
            self.update_complete()
            return
        c = r.cluster
        self.cards.set("hosts", f"{c.hosts_total:,}",
                       f"{c.hosts_for_capacity} for capacity + {c.hosts_for_ha} for HA + "
                       f"{c.hosts_for_maintenance} for maintenance"
                       + (f" + {c.hosts_for_platform} for the VCF minimum"
                          if c.hosts_for_platform else ""))  # fmt: skip
        self.cards.set("gpus", f"{c.gpus_total:,}")
        self.cards.set("demand", f"{c.gpus_demand:,}")
        self.cards.set("after", f"{c.gpus_after_failures:,}",
                       f"after {_failures(c.host_failures_tolerated)}")  # fmt: skip
        plan = self.live.plan
        # the design's own figures when it is one cluster; a cluster's of several as if alone
        whole = plan if plan is not None and plan.one is not None and plan.one.result is r else None
        kw = whole.estate.totals.total_kw if whole else r.power.total_kw
        self.cards.set("power", f"{kw:,.1f}")
        racks = whole.racks if whole else len(r.racks.racks)
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
        self._workloads(r.workloads)
        self._serving(r.workloads)
        self._placement(r)
        self.storage.show_result(r.storage)
        self.bom.show_result(r.bom)
        self.power.show_result(r.power, r.racks)
        self.software.show_result(r.software)
        self._warnings(r)
        self._calculations(r)
        self.update_complete()

    def _workloads(self, rows: list[WorkloadResult]) -> None:
        t = self.workloads
        _, design = self._selected()
        groups = {g.name: g for g in design.workloads} if design is not None else {}
        t.setRowCount(len(rows))
        for i, w in enumerate(rows):
            layout = layout_text(w)
            profile = w.sharing.slot_profile
            if w.sharing.vgpu_type and w.sharing.vgpu_type != profile:
                profile = f"{w.sharing.vgpu_type} ({profile})"
            mode = mode_label(w.sharing.mode)
            shown = None if profile in ("whole GPU", "GPU share") else profile
            sharing = ": ".join(x for x in (mode, shown) if x) or MISSING
            tr = w.training
            cells = [
                w.name,
                gpus_text(w),
                sharing,
                layout,
                fixed(w.memory_gb.total, "GB"),
                spread_text(
                    tr.time_to_train_hours, self._spread(w.name).get("time_to_train_hours"), "h"
                )
                + (
                    " calibrated"
                    if training_basis(groups.get(w.name)).startswith(CALIBRATED)
                    else ""
                )
                if tr and tr.time_to_train_hours is not None
                else MISSING,
                fixed(tr.allreduce_seconds_per_iteration if tr else None, "s", 3)
                + (f" over {tr.allreduce_link}" if tr and tr.allreduce_link else ""),
            ]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                # the layout's tooltip says why the sizing chose it
                item.setToolTip(f"{text}: {w.layout.reason}" if c == 3 and w.layout else text)
                if c in (1, 4, 5):
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                t.setItem(i, c, item)
        _rows_tall(t)

    def _serving(self, rows: list[WorkloadResult]) -> None:
        """TTFT, time between tokens and throughput of every serving group, against targets."""
        served = [w for w in rows if w.serving is not None]
        self.serving_title.setVisible(bool(served))
        self.serving.setVisible(bool(served))
        t = self.serving
        targets = SERVING_COLUMNS.index("Targets")
        _, design = self._selected()
        groups = {g.name: g for g in design.workloads} if design is not None else {}
        t.setRowCount(len(served))
        for i, w in enumerate(served):
            s = w.serving
            assert s is not None
            missed = [x for x in s.targets if not x.met]
            sp = self._spread(w.name)
            basis = serving_basis(groups.get(w.name), w, group_gpu(design, groups.get(w.name)))
            cells = [
                w.name,
                spread_text(s.ttft_ms, sp.get("ttft_ms"), "ms"),
                spread_text(s.itl_ms, sp.get("itl_ms"), "ms"),
                spread_text(s.tokens_per_s_total, sp.get("tokens_per_s_total"), "tokens/s"),
                f"{s.sequences_planned:,}",
                "; ".join(target_short(x, sp or None) for x in s.targets) or "none given",
                basis_short(basis),
            ]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(basis_summary(basis) if c == len(cells) - 1 else text)
                if 1 <= c <= 4:
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                if c == targets and missed:
                    item.setForeground(Qt.GlobalColor.darkRed)
                elif c == targets and any(at_risk(x, sp or None) is not None for x in s.targets):
                    item.setForeground(QColor("#8a5a00"))
                t.setItem(i, c, item)
        _rows_tall(t)

    def _placement(self, r: Result) -> None:
        t = self.placement
        groups: dict[tuple[str, str], list] = {}
        for host in r.packing.hosts:
            for g in host.gpus:
                groups.setdefault((g.layout, g.mode), []).append(g)
        rows = sorted(groups.items(), key=lambda kv: -len(kv[1]))
        t.setRowCount(len(rows))
        for i, ((layout, mode), gpus) in enumerate(rows):
            util = sum(g.utilization for g in gpus) / len(gpus)
            mem = sum(g.memory_used_gb for g in gpus) / len(gpus)
            for c, text in enumerate(
                [
                    layout,
                    labels.name(labels.MODE_SHORT, mode),
                    f"{len(gpus):,}",
                    f"{util:.0%}",
                    f"{mem:,.1f} GB",
                ]
            ):
                item = QTableWidgetItem(text)
                if c >= 2:
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                t.setItem(i, c, item)
        p = r.packing
        self.placement_note.setText(
            f"{count(p.gpus_used, 'GPU')} on {count(p.hosts_used, 'host')} carry the workloads, at "
            f"{p.mean_utilization:.0%} of them allocated on average; GPUs with the same layout are "
            "counted "
            "together."
        )

    def _show_estate(self, e: Estate) -> None:
        """A design of several clusters: totals in the cards, each cluster in a line, the groups,
        warnings, decisions and the bill of materials of the whole design. Placement, storage,
        software, power and the calculations are per cluster, in the proposal."""
        t = e.totals
        gpu_clusters = [c for c in e.clusters if c.result is not None]
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
        after = sum(c.result.cluster.gpus_after_failures for c in gpu_clusters if c.result)
        self.cards.set("after", f"{after:,}", "each GPU cluster after its own HA policy's failures")
        self.cards.set("utilization", MISSING, "per cluster, in the proposal")
        self.cards.set("power", f"{t.total_kw:,.1f}")
        racks = t.host_racks + t.network_racks
        self.cards.set("racks", f"{racks}", label=plural(racks, "rack"))
        workloads = [w for c in gpu_clusters if c.result for w in c.result.workloads]
        self.bars.setVisible(False)  # GPUs differ between clusters: the proposal draws each
        self.bars_title.setVisible(False)
        self._workloads(workloads)
        self._serving(workloads)
        self.warnings.clear()
        self.decisions.clear()
        found = [(None, w) for w in e.warnings] + [
            (c.name, w) for c in gpu_clusters if c.result for w in c.result.warnings
        ]
        for where, w in sorted(found, key=lambda f: ORDER[f[1].severity]):
            self.warnings.addItem(_warning_item(w, where))
        if not found:
            self.warnings.addItem(QListWidgetItem(icon("ok"), "No warnings."))
        for d in e.decisions:
            self.decisions.addItem(_decision_text(d))
        for c in gpu_clusters:
            assert c.result is not None
            for d in c.result.decisions:
                self.decisions.addItem(f"{c.name}: {_decision_text(d)}")
        self.bom.show_result(e.bom)
        for table in (self.placement, self.calcs):
            table.setRowCount(0)
        self.placement_note.setText("Per cluster, in the proposal.")
        self.storage.show_result(None)
        self.software.show_result(None)
        self.power.show_result(None, None)
        self.update_complete()

    def _spread(self, workload: str) -> dict[str, FigureRange]:
        return self._ranges.get(workload, {})

    def _compute_ranges(self) -> None:
        """Ranges of the times and rates, only while the page is on screen (they size the
        serving groups again over the spread of the assumptions)."""
        self._ranges = {}
        r, design = self._selected()
        p = self.live.plan
        if r is None or design is None or p is None or not self.isVisible():
            return
        self._ranges_revision = self.live.revision
        name = design.cluster_name
        for x in p.cluster_ranges(name):
            self._ranges.setdefault(x.workload, {})[x.figure] = x

    def _warnings(self, r: Result) -> None:
        """The proposal's risk register, word for word (warnings, targets at risk, storage,
        network and rack power), as `gpuwizard size` prints it."""
        self.warnings.clear()
        plan = self.live.plan
        mine = {w.name for w in r.workloads}
        targets = [t for t in plan.targets if t.workload in mine] if plan is not None else []
        risks = register(r, targets)
        for x in risks:
            self.warnings.addItem(_risk_item(x))
        if not risks:
            self.warnings.addItem(QListWidgetItem(icon("ok"), "No warnings."))
        self.decisions.clear()
        for d in r.decisions:
            self.decisions.addItem(f"{d.id}. {_decision_text(d)}")

    def _calculations(self, r: Result) -> None:
        """The calculation log of ``r``, filled only while its tab is on screen: a thousand rows
        take longer than the sizing, so an edit elsewhere leaves the table empty until shown."""
        self.calcs.setRowCount(0)
        if self.tabs.currentIndex() == self.calcs_tab:
            self._fill_calculations(r)

    def _maybe_calculations(self) -> None:
        """Fill the calculation log when its tab comes on screen, from the result shown now."""
        if self.tabs.currentIndex() != self.calcs_tab or self.calcs.rowCount():
            return
        r, _ = self._selected()
        if r is not None:
            self._fill_calculations(r)

    def _fill_calculations(self, r: Result) -> None:
        t = self.calcs
        t.setRowCount(len(r.calculations))
        _, design = self._selected()
        groups = [g.name for g in design.workloads] if design is not None else []
        for i, c in enumerate(r.calculations):
            # in words, as the proposal prints them (the file and --json keep the formula)
            inputs = inputs_words(c.inputs)
            for col, text in enumerate(
                [quantity(c, "", groups), num(c.value), c.unit,
                 formula_words(c.formula), inputs, in_words(customer_source(c.source, self.catalog))]
            ):  # fmt: skip
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                t.setItem(i, col, item)
        t.resizeColumnsToContents()
        for col, most in ((3, 320), (4, 320), (0, 300)):
            t.setColumnWidth(col, min(t.columnWidth(col), most))


_ICONS = {Severity.INFO: "info", Severity.WARNING: "warning", Severity.ERROR: "error"}


def _failures(n: int) -> str:
    return count(n, "host failure") if n else "no host failure"


def _risk_item(x: Risk) -> QListWidgetItem:
    """A risk of the register in the wizard's words: its severity word first; the tooltip says
    what the word means and the mitigation, as the proposal's risk register does."""
    item = QListWidgetItem(icon(_ICONS[x.severity]), f"{SEVERITY[x.severity]}: {in_words(x.text)}")
    item.setToolTip(f"{SEVERITY_MEANS[x.severity]}\nMitigation: {x.mitigation}")
    return item


def _warning_item(w: Warning_, where: str | None = None) -> QListWidgetItem:
    """A warning in the wizard's words, its cluster first when there are several; the tooltip
    says what the severity means and the mitigation, as the proposal's risk register does."""
    message = in_words(w.message)
    text = f"{SEVERITY[w.severity]}: " + (f"{where}: {message}" if where else message)
    item = QListWidgetItem(icon(_ICONS[w.severity]), text)
    item.setToolTip(f"{SEVERITY_MEANS[w.severity]}\nMitigation: {mitigation(w.code)}")
    return item


def _decision_text(d: Decision) -> str:
    return f"{d.text}\n    Justification: {d.reason}" + (
        f"\n    Implication: {d.implication}" if d.implication else ""
    )
