"""The Review's figure cards reflow by the width the page gives: as many columns as cards of at
least their minimum width fit with the grid's spacing between them, rows as even as they allow,
and no card squeezed under its minimum or cut off at the right."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from wizard.gui.widgets.cards import CARD_MIN_WIDTH, CardRow

SPECS = [(f"k{i}", f"label {i}", "tip") for i in range(7)]


def _row(qtbot, width: int) -> CardRow:
    row = CardRow(SPECS)
    qtbot.addWidget(row)
    row.resize(width, 200)
    row.show()
    QApplication.processEvents()
    return row


@pytest.mark.qt_log_ignore("This plugin does not support")  # a top-level widget offscreen
def test_at_the_narrowest_width_for_four_columns_every_card_keeps_its_minimum(qtbot):
    """4 x 120 + 3 x 8 (the spacing) = 504 pixels hold four columns (seven cards: 4 + 3); each card is at
    least 120 wide and ends inside the row. One pixel less holds three columns."""
    width = 4 * CARD_MIN_WIDTH + 3 * 8
    row = _row(qtbot, width)
    assert row.columns == 4
    for card in row.cards.values():
        g = card.geometry()
        assert g.width() >= CARD_MIN_WIDTH
        assert g.x() >= 0 and g.x() + g.width() <= row.width()
    row.resize(width - 1, 200)
    QApplication.processEvents()
    assert row.columns == 3
