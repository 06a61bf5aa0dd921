"""The Review's serving table marks the targets cell alone: dark red where a target is missed,
amber where every target is met as estimated but one misses at the pessimistic end of the
stated spread; the other cells keep the table's colour."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from wizard.app.io import design_from_text
from wizard.base.bundled import example_text
from wizard.engine import FIGURE_OF, FigureRange, plan
from wizard.gui.pages.review_tables import SERVING_COLUMNS, fill_serving, table

AMBER = QColor("#8a5a00")


def _served(catalog):
    design = design_from_text(example_text("llm-serving"))
    rows = [w for w in plan(design, catalog).workloads if w.serving and w.serving.targets]
    assert rows
    return design, rows


def _colours(t) -> list[QColor]:
    return [t.item(0, c).foreground().color() for c in range(t.columnCount())]


def test_a_target_at_risk_colours_only_the_targets_cell(qtbot, catalog):
    """Every target met as estimated; the spread's pessimistic end misses the first: the
    targets cell is amber, every other cell as an unmarked row's."""
    design, rows = _served(catalog)
    w = rows[0]
    first = w.serving.targets[0]
    assert all(x.met for x in w.serving.targets)
    figure = FIGURE_OF[first.metric]
    worse = first.target * (2.0 if first.metric in ("ttft", "itl") else 0.5)
    rng = FigureRange(w.name, figure, first.value, first.value, worse, worse)
    t = table(SERVING_COLUMNS)
    qtbot.addWidget(t)
    fill_serving(t, [w], design, lambda name: {})
    plain = _colours(t)
    fill_serving(t, [w], design, lambda name: {figure: rng})
    marked = _colours(t)
    targets = SERVING_COLUMNS.index("Targets")
    assert marked[targets] == AMBER
    assert [c for i, c in enumerate(marked) if i != targets] == [
        c for i, c in enumerate(plain) if i != targets
    ]
    assert AMBER not in [c for i, c in enumerate(marked) if i != targets]


def test_a_missed_target_colours_only_the_targets_cell_dark_red(qtbot, catalog):
    design, rows = _served(catalog)
    w = rows[0]
    first = w.serving.targets[0]
    missed = first.model_copy(update={"met": False, "shortfall": 0.5})
    w = w.model_copy(update={"serving": w.serving.model_copy(update={"targets": [missed]})})
    t = table(SERVING_COLUMNS)
    qtbot.addWidget(t)
    fill_serving(t, [w], design, lambda name: {})
    colours = _colours(t)
    targets = SERVING_COLUMNS.index("Targets")
    assert colours[targets] == QColor(Qt.GlobalColor.darkRed)
    assert QColor(Qt.GlobalColor.darkRed) not in [c for i, c in enumerate(colours) if i != targets]
