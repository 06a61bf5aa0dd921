"""What a user does: click buttons, type into fields, pick from lists."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QComboBox,
    QLineEdit,
    QPushButton,
    QWizard,
)


def next_button(window):
    return window.wizard.button(QWizard.WizardButton.NextButton)


def back_button(window):
    return window.wizard.button(QWizard.WizardButton.BackButton)


def click(qtbot, widget) -> None:
    if (
        isinstance(widget, QAbstractButton)
        and widget.isCheckable()
        and not isinstance(widget, QPushButton)
    ):
        # A check box reacts to clicks on its box and label, not on empty space beside them.
        qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=QPoint(6, widget.height() // 2))
        return
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)


def type_into(qtbot, widget, text: str) -> None:
    """Select what is there and type over it, key by key."""
    edit = widget.lineEdit() if isinstance(widget, QAbstractSpinBox | QComboBox) else widget
    assert isinstance(edit, QLineEdit)
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClicks(edit, text)
    if isinstance(widget, QAbstractSpinBox):
        widget.interpretText()


def pick(combo: QComboBox, value: object) -> None:
    """Choose the item holding ``value``, as a click in the drop-down list would."""
    index = combo.index_of(value)
    assert index >= 0, f"{value!r} is not offered"
    assert combo.enabled(value), f"{value!r} is disabled: {combo.reason(value)}"
    combo.setCurrentIndex(index)


def go_next(qtbot, window) -> None:
    button = next_button(window)
    assert button.isEnabled(), window.wizard.currentPage().reason.text()
    before = window.wizard.currentId()
    click(qtbot, button)
    assert window.wizard.currentId() == before + 1
