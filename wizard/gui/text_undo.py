"""Ctrl+Z and Ctrl+Y in a text field: the field's own undo wins while it has one.

The window's Undo and Redo undo whole edits of the design, whichever page made them. Inside a
text field a user expects the keys to take back what was just typed there, as in any editor, and
then to bring it back with Ctrl+Y (or Ctrl+Shift+Z) on every platform, although Qt's line edit
knows only its platform's redo key. So while a text field has focus, an undo or redo key goes to
the field when the field can undo (redo) itself, and to the design's Undo (Redo) otherwise.
"""

from __future__ import annotations

import contextlib

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QWidget,
)

REDO_KEYS = ("Ctrl+Y", "Ctrl+Shift+Z")

TextField = QLineEdit | QPlainTextEdit


def text_field(widget: QObject | None) -> TextField | None:
    """The editable text of ``widget``: a line edit, a spin box's or an editable list's line,
    or a plain text box; None for anything else or a read-only one."""
    if isinstance(widget, QAbstractSpinBox | QComboBox):
        widget = widget.lineEdit()
    if isinstance(widget, QLineEdit | QPlainTextEdit) and not widget.isReadOnly():
        return widget
    return None


def _can(field: TextField, redo: bool) -> bool:
    if isinstance(field, QPlainTextEdit):
        doc = field.document()
        return doc.isRedoAvailable() if redo else doc.isUndoAvailable()
    return field.isRedoAvailable() if redo else field.isUndoAvailable()


def _which(event: QKeyEvent) -> str | None:
    """'undo' or 'redo' for a key that means one, else None."""
    if event.matches(QKeySequence.StandardKey.Undo):
        return "undo"
    if event.matches(QKeySequence.StandardKey.Redo):
        return "redo"
    pressed = QKeySequence(event.keyCombination())
    if any(pressed.matches(QKeySequence(k)) is QKeySequence.SequenceMatch.ExactMatch
           for k in REDO_KEYS):  # fmt: skip
        return "redo"
    return None


class TextUndo(QObject):
    """Sends the undo and redo keys of ``window``'s text fields to the field or to the design's
    actions. It watches only the text field that has focus (the keys go to the focus widget),
    so no other event of the window passes through Python."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.window = window
        self._watched: QWidget | None = None
        app = QApplication.instance()
        assert isinstance(app, QApplication), "a window runs inside its application"
        app.focusChanged.connect(self._focus_changed)

    def _focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        if self._watched is not None:
            with contextlib.suppress(RuntimeError):  # a field deleted with its page
                self._watched.removeEventFilter(self)
            self._watched = None
        if new is not None and new.window() is self.window and text_field(new) is not None:
            new.installEventFilter(self)
            self._watched = new

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind not in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress):
            return False
        if not isinstance(watched, QWidget):
            return False
        field = text_field(watched)
        if field is None or not isinstance(event, QKeyEvent):
            return False
        which = _which(event)
        if which is None:
            return False
        own = _can(field, which == "redo")
        if kind is QEvent.Type.ShortcutOverride:
            # accepted: the key comes to the field as a key press; left alone: the window's
            # Undo or Redo action takes it
            event.setAccepted(own)
            return True
        if own:
            field.redo() if which == "redo" else field.undo()
            return True
        return False
