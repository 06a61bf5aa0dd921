"""A fitting table is exactly as tall as its first ``rows_shown`` rows: every row it holds
(up to that many) shows whole, with no empty band under the last one and no more rows."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QTableWidgetItem

from wizard.gui.widgets.fitting_table import FittingTable


def _table(qtbot, rows: int, rows_shown: int = 8) -> FittingTable:
    t = FittingTable(rows, 3, {}, rows_shown=rows_shown)
    qtbot.addWidget(t)
    t.setHorizontalHeaderLabels(["Group", "GPUs", "Mode"])
    for r in range(rows):
        for c, text in enumerate((f"group {r}", str(r + 1), "vGPU")):
            t.setItem(r, c, QTableWidgetItem(text))
    t.resize(600, 100)
    t.show()
    t.fit()
    return t


@pytest.mark.qt_log_ignore("This plugin does not support")  # a top-level table offscreen
def test_the_view_holds_exactly_the_rows_it_shows(qtbot):
    """3 rows of 8 shown: the view is the three rows' heights tall; 12 rows: the first 8's."""
    for rows, shown in ((3, 3), (8, 8), (12, 8)):
        t = _table(qtbot, rows)
        wanted = sum(t.rowHeight(r) for r in range(shown))
        assert t.viewport().height() == wanted, (rows, t.viewport().height(), wanted)
