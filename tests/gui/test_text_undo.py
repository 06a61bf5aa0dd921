"""Ctrl+Z and Ctrl+Y inside a text field: the field's own undo wins while it has one, and the
design follows it: typing taken back leaves the design as saved (no '*'), Ctrl+Y (and
Ctrl+Shift+Z) brings it back on every platform; in a field with nothing of its own to undo the
keys undo and redo the design's last edit, as the Edit menu does."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.gui.helpers import click
from wizard.base.bundled import example_text
from wizard.gui.wizard import PageId

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


def _saved(qtbot, window, tmp_path, example="enterprise"):
    path = tmp_path / f"{example}.json"
    path.write_text(example_text(example))
    assert window.open_path(path)
    window.activateWindow()  # keys reach the field that has focus, in the active window
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    assert not window.doc.dirty and not window.isWindowModified()


def _append(qtbot, edit, text):
    edit.setFocus()
    edit.end(False)
    qtbot.keyClicks(edit, text)


def test_ctrl_z_in_a_group_name_takes_the_typing_back_and_the_design_is_saved_again(
    qtbot, window, tmp_path
):
    _saved(qtbot, window, tmp_path)
    assert window.wizard.go_to(PageId.WORKLOADS)
    page = window.wizard.page_of(PageId.WORKLOADS)
    name = page.editor.name
    before = name.text()
    _append(qtbot, name, " B")
    assert window.doc.get("workloads")[0].name == before + " B"
    assert window.doc.dirty and window.isWindowModified()
    qtbot.keyClick(name, Qt.Key.Key_Z, CTRL)
    assert name.text() == before
    assert window.doc.get("workloads")[0].name == before
    assert not window.doc.dirty and not window.isWindowModified()  # no '*' left
    qtbot.keyClick(name, Qt.Key.Key_Y, CTRL)  # Ctrl+Y redoes the typing, on every platform
    assert name.text() == before + " B"
    assert window.doc.get("workloads")[0].name == before + " B"
    assert window.doc.dirty and window.isWindowModified()
    qtbot.keyClick(name, Qt.Key.Key_Z, CTRL)
    qtbot.keyClick(name, Qt.Key.Key_Z, CTRL | SHIFT)  # and Ctrl+Shift+Z
    assert window.doc.get("workloads")[0].name == before + " B"


def test_in_the_customer_field_and_the_notes_box_too(qtbot, window, tmp_path):
    _saved(qtbot, window, tmp_path)
    project = window.wizard.page_of(PageId.PROJECT)
    customer = window.doc.get("project").customer
    _append(qtbot, project.customer, "!")
    qtbot.keyClick(project.customer, Qt.Key.Key_Z, CTRL)
    assert window.doc.get("project").customer == customer and not window.doc.dirty
    notes = project.notes
    notes.setFocus()
    qtbot.keyClicks(notes, "Call back")
    assert "Call back" in (window.doc.get("project").notes or "")
    qtbot.keyClick(notes, Qt.Key.Key_Z, CTRL)
    assert "Call back" not in (window.doc.get("project").notes or "")
    qtbot.keyClick(notes, Qt.Key.Key_Y, CTRL)
    assert "Call back" in (window.doc.get("project").notes or "")


def test_a_field_with_nothing_of_its_own_to_undo_undoes_the_design(qtbot, window, tmp_path):
    """Negative case: the field was only clicked into, so Ctrl+Z is the design's Undo (the last
    edit, made with a check box) and Ctrl+Y its Redo."""
    _saved(qtbot, window, tmp_path)
    assert window.wizard.go_to(PageId.WORKLOADS)
    page = window.wizard.page_of(PageId.WORKLOADS)
    box = page.editor.migration
    was = box.isChecked()
    click(qtbot, box)
    assert window.doc.get("workloads")[0].constraints.live_migration_required is not was
    page.editor.name.setFocus()
    assert not page.editor.name.isUndoAvailable()
    qtbot.keyClick(page.editor.name, Qt.Key.Key_Z, CTRL)
    assert window.doc.get("workloads")[0].constraints.live_migration_required is was
    assert not window.doc.dirty
    qtbot.keyClick(page.editor.name, Qt.Key.Key_Y, CTRL)
    assert window.doc.get("workloads")[0].constraints.live_migration_required is not was


def test_only_an_editable_text_is_a_text_field(qtbot, window):
    from wizard.gui.text_undo import text_field

    project = window.wizard.page_of(PageId.PROJECT)
    assert text_field(project.customer) is project.customer
    assert text_field(project.notes) is project.notes
    project.customer.setReadOnly(True)  # a read-only field leaves the keys to the design
    try:
        assert text_field(project.customer) is None
    finally:
        project.customer.setReadOnly(False)
    assert text_field(window.wizard) is None


def test_typing_taken_back_after_a_pause_leaves_the_design_as_saved(
    qtbot, window, tmp_path, monkeypatch
):
    """Keys typed far apart are separate edits of the design; the field's Ctrl+Z takes them
    all back at once, and the design steps back over every one of them (no '*')."""
    import wizard.gui.document as document

    monkeypatch.setattr(document, "MERGE_SECONDS", 0.0)  # every key its own edit
    _saved(qtbot, window, tmp_path)
    project = window.wizard.page_of(PageId.PROJECT)
    customer = window.doc.get("project").customer
    _append(qtbot, project.customer, "-Ltd")
    assert window.doc.undo_stack.index() == 4 and window.doc.dirty
    qtbot.keyClick(project.customer, Qt.Key.Key_Z, CTRL)
    assert window.doc.get("project").customer == customer
    assert window.doc.undo_stack.index() == 0 and not window.doc.dirty
    qtbot.keyClick(project.customer, Qt.Key.Key_Y, CTRL)
    assert window.doc.get("project").customer == customer + "-Ltd" and window.doc.dirty


def test_a_value_typed_back_by_hand_before_the_save_is_a_new_edit(qtbot, window, tmp_path):
    """Negative case: the design never steps back past its saved state."""
    project = window.wizard.page_of(PageId.PROJECT)
    project.customer.setFocus()
    project.customer.selectAll()
    qtbot.keyClicks(project.customer, "Acme")
    window.doc.mark_saved(tmp_path / "d.json")
    project.customer.clear()  # back to what it held before "Acme", across the save
    assert window.doc.get("project").customer in (None, "")
    assert window.doc.dirty
    assert window.doc.undo_stack.index() == 2  # "Acme", then the clearing
