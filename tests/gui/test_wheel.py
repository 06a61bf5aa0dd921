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


def test_a_number_beyond_the_range_is_refused_at_the_field_with_the_range(qtbot, window, tmp_path):
    """Typing 10^12 into Users of a notebooks group (at most 1,000,000) keeps the field at what it held and says
    why under the field, naming it; the next accepted edit clears the message."""
    from wizard.base.bundled import example_text
    from wizard.gui.wizard import PageId

    path = tmp_path / "starter.json"
    path.write_text(example_text("starter"), encoding="utf-8")
    assert window.open_path(path)
    window.wizard.go_to(PageId.WORKLOADS)
    page = window.wizard.page_of(PageId.WORKLOADS)
    page.table.selectRow(0)
    ed = page.editor
    spin = ed.count
    assert spin.maximum() == 1_000_000
    spin.selectAll()
    qtbot.keyClicks(spin, "1" + "0" * 12)
    assert spin.value() == 1_000_000
    label, row = ed.errors.rows["count"]
    assert label == "Users" and row.error.isVisibleTo(ed)
    text = row.error.text()
    assert text.startswith("Users: 10,000,000 is not taken")
    assert "the allowed range is 0 to 1,000,000" in text
    spin.setValue(12)
    assert not row.error.isVisibleTo(ed)


def test_a_number_inside_the_range_raises_no_refusal(qtbot):
    spin = int_spin(1, 100, 5)
    seen = []
    spin.refused.connect(seen.append)
    spin.selectAll()
    qtbot.keyClicks(spin, "42")
    assert spin.value() == 42 and seen == []
    qtbot.keyClicks(spin, "0")  # 420 > 100
    assert spin.value() == 42 and seen and "420 is not taken" in seen[-1]
