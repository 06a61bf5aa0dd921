"""Scrolling a form never changes a value silently: spin boxes, combo boxes and dates react to
the wheel only once they have the keyboard focus; otherwise the wheel scrolls the page."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication

from wizard.gui.widgets.inputs import Choice, Combo, DateEdit, double_spin, int_spin


def _wheel_up(widget) -> None:
    centre = QPointF(widget.width() / 2, widget.height() / 2)
    event = QWheelEvent(
        centre,
        QPointF(widget.mapToGlobal(centre.toPoint())),
        QPoint(0, 0),
        QPoint(0, 120),  # one notch up
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(widget, event)


def _value(widget):
    if hasattr(widget, "value"):
        return widget.value()
    if hasattr(widget, "date"):
        return widget.date()
    return widget.currentIndex()


def _widgets():
    choice = Choice([("one", 1), ("two", 2), ("three", 3)])
    choice.setCurrentIndex(1)
    combo = Combo()
    combo.addItems(["EUR", "USD", "GBP"])
    combo.setCurrentIndex(1)
    return [int_spin(1, 100, 50), double_spin(0.01, 100, 2, 1.0), choice, combo, DateEdit()]


@pytest.mark.parametrize("index", range(5))
def test_the_wheel_changes_nothing_without_focus(qtbot, index):
    widget = _widgets()[index]
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    before = _value(widget)
    _wheel_up(widget)
    assert _value(widget) == before
    widget.setFocus()
    qtbot.waitUntil(widget.hasFocus)
    _wheel_up(widget)
    assert _value(widget) != before  # focused, the wheel works as a user expects
