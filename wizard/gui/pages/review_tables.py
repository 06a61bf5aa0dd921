"""The Review page's tables and lists, filled from one GPU cluster's or the whole plan's
figures: the workload and serving tables, the placement, the calculation log, and the
warnings and decisions in the wizard's words. Kept apart from the page so the page holds only
what it shows when, and each fill reads the figures it is given (nothing computed again)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QListWidgetItem,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from wizard.app.serving_text import at_risk, spread_text, target_short
from wizard.base.numbers import MISSING, count, fixed, num, unit
from wizard.gui.icons import icon
from wizard.model.design import Design
from wizard.model.result import Decision, Result, Severity, WorkloadResult
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
from wizard.present.labels import mode as mode_label
from wizard.present.references import customer_source
from wizard.present.risk_register import Risk
from wizard.present.severity import MEANS as SEVERITY_MEANS
from wizard.present.severity import SEVERITY

if TYPE_CHECKING:
    from wizard.engine import FigureRange
    from wizard.model.catalog import Catalog

# a group's spreads by figure (empty when none were worked out)
Spread = Callable[[str], dict[str, "FigureRange"]]

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
SHOWN_ROWS = 5  # rows a summary table shows before it scrolls on its own
_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter


def table(columns: tuple[str, ...]) -> QTableWidget:
    t = QTableWidget(0, len(columns))
    t.setHorizontalHeaderLabels(columns)
    t.verticalHeader().hide()
    t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    t.setAlternatingRowColors(True)
    t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    return t


def rows_tall(t: QTableWidget) -> None:
    """At least the table's first few rows on screen, whatever the window's height."""
    rows = min(max(t.rowCount(), 1), SHOWN_ROWS)
    body = sum(t.rowHeight(r) for r in range(min(rows, t.rowCount()))) or 30 * rows
    bar = t.horizontalScrollBar().sizeHint().height()
    t.setMinimumHeight(t.horizontalHeader().sizeHint().height() + body + bar + 2 * t.frameWidth())


def tab(*widgets: QWidget, stretch_last: bool = True) -> QWidget:
    w = QWidget()
    v = QVBoxLayout(w)
    for i, child in enumerate(widgets):
        v.addWidget(child, 1 if stretch_last and i == len(widgets) - 1 else 0)
    if not stretch_last:
        v.addStretch(1)
    return w


def memory_basis_text(rows: list[WorkloadResult]) -> str:
    """What each training group's memory per GPU is counted as: the training software, its
    attention kernel and the stated choices (empty when no group is sized from a transformer)."""
    said = [(w.name, w.layout.memory_basis) for w in rows if w.layout and w.layout.memory_basis]
    if not said:
        return ""
    if len(said) == 1:
        return f"Memory per GPU is counted for {said[0][1]}."
    return (
        "Memory per GPU is counted for "
        + "; ".join(f"{name}: {basis}" for name, basis in said)
        + "."
    )


def fill_workloads(
    t: QTableWidget, rows: list[WorkloadResult], design: Design | None, spread: Spread
) -> None:
    """One row per group: its GPUs, sharing, layout, memory and training times."""
    groups = {g.name: g for g in design.workloads} if design is not None else {}
    t.setRowCount(len(rows))
    for i, w in enumerate(rows):
        profile = w.sharing.slot_profile
        if w.sharing.vgpu_type and w.sharing.vgpu_type != profile:
            profile = f"{w.sharing.vgpu_type} ({profile})"
        mode = mode_label(w.sharing.mode)
        shown = None if profile in ("whole GPU", "GPU share") else profile
        sharing = ": ".join(x for x in (mode, shown) if x) or MISSING
        tr = w.training
        calibrated = training_basis(groups.get(w.name)).startswith(CALIBRATED)
        cells = [
            w.name,
            gpus_text(w),
            sharing,
            layout_text(w),
            fixed(w.memory_gb.total, "GB"),
            spread_text(tr.time_to_train_hours, spread(w.name).get("time_to_train_hours"), "h")
            + (" calibrated" if calibrated else "")
            if tr and tr.time_to_train_hours is not None
            else MISSING,
            unit(tr.allreduce_seconds_per_iteration if tr else None, "s")  # as the proposal
            + (f" over {tr.allreduce_link}" if tr and tr.allreduce_link else ""),
        ]
        for c, text in enumerate(cells):
            item = QTableWidgetItem(text)
            # the layout's tooltip says why the sizing chose it
            item.setToolTip(f"{text}: {w.layout.reason}" if c == 3 and w.layout else text)
            if c in (1, 4, 5):
                item.setTextAlignment(_RIGHT)
            t.setItem(i, c, item)
    rows_tall(t)


def fill_serving(
    t: QTableWidget, rows: list[WorkloadResult], design: Design | None, spread: Spread
) -> None:
    """TTFT, time between tokens and throughput of every serving group, against targets."""
    served = [w for w in rows if w.serving is not None]
    targets = SERVING_COLUMNS.index("Targets")
    groups = {g.name: g for g in design.workloads} if design is not None else {}
    t.setRowCount(len(served))
    for i, w in enumerate(served):
        s = w.serving
        assert s is not None
        missed = [x for x in s.targets if not x.met]
        sp = spread(w.name)
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
                item.setTextAlignment(_RIGHT)
            if c == targets and missed:
                item.setForeground(Qt.GlobalColor.darkRed)
            elif c == targets and any(at_risk(x, sp or None) is not None for x in s.targets):
                item.setForeground(QColor("#8a5a00"))
            t.setItem(i, c, item)
    rows_tall(t)


def fill_placement(t: QTableWidget, note: QLabel, r: Result) -> None:
    """Identical GPU layouts counted together (thousands of GPUs stay readable)."""
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
                item.setTextAlignment(_RIGHT)
            t.setItem(i, c, item)
    p = r.packing
    note.setText(
        f"{count(p.gpus_used, 'GPU')} on {count(p.hosts_used, 'host')} carry the workloads, at "
        f"{p.mean_utilization:.0%} of them allocated on average; GPUs with the same layout are "
        "counted together."
    )


def fill_calculations(t: QTableWidget, r: Result, design: Design | None, catalog: Catalog) -> None:
    """The calculation log in words, as the proposal prints it (the file and --json keep the
    formula)."""
    t.setRowCount(len(r.calculations))
    groups = [g.name for g in design.workloads] if design is not None else []
    for i, c in enumerate(r.calculations):
        inputs = inputs_words(c.inputs)
        for col, text in enumerate(
            [quantity(c, "", groups), num(c.value), c.unit,
             formula_words(c.formula), inputs, in_words(customer_source(c.source, catalog))]
        ):  # fmt: skip
            item = QTableWidgetItem(text)
            item.setToolTip(text)
            t.setItem(i, col, item)
    t.resizeColumnsToContents()
    for col, most in ((3, 320), (4, 320), (0, 300)):
        t.setColumnWidth(col, min(t.columnWidth(col), most))


_ICONS = {Severity.INFO: "info", Severity.WARNING: "warning", Severity.ERROR: "error"}


def failures(n: int) -> str:
    return count(n, "host failure") if n else "no host failure"


def risk_item(x: Risk, named: bool = False) -> QListWidgetItem:
    """A risk of the register in the wizard's words: its severity word first, then its cluster
    when ``named`` (every cluster shown together); the tooltip says what the word means and
    the mitigation, as the proposal's risk register does."""
    where = f"{x.cluster}: " if named and x.cluster else ""
    item = QListWidgetItem(
        icon(_ICONS[x.severity]), f"{SEVERITY[x.severity]}: {where}{in_words(x.text)}"
    )
    item.setToolTip(f"{SEVERITY_MEANS[x.severity]}\nMitigation: {x.mitigation}")
    return item


def decision_text(d: Decision) -> str:
    return f"{d.text}\n    Justification: {d.reason}" + (
        f"\n    Implication: {d.implication}" if d.implication else ""
    )
