"""Undo and redo of every edit of the design, across pages; a design loaded whole starts a new
history."""

from __future__ import annotations

from tests.gui.helpers import pick, type_into
from wizard.gui.prompts import DISCARD
from wizard.gui.wizard import PageId
from wizard.model.design import HaLevel


def test_an_edit_undoes_and_redoes_and_the_page_follows(qtbot, window):
    project = window.wizard.page_of(PageId.PROJECT)
    type_into(qtbot, project.customer, "Acme Bank")
    assert window.doc.get("project").customer == "Acme Bank"
    assert window.undo_action.isEnabled()
    window.undo_action.trigger()
    assert window.doc.get("project").customer in (None, "")
    assert project.customer.text() == ""
    window.redo_action.trigger()
    assert window.doc.get("project").customer == "Acme Bank"
    assert project.customer.text() == "Acme Bank"


def test_typing_a_word_is_one_step_but_two_sections_are_two(qtbot, window):
    project = window.wizard.page_of(PageId.PROJECT)
    type_into(qtbot, project.customer, "Acme")  # four keystrokes, one quick edit
    assert window.doc.undo_stack.count() == 1
    window.wizard.go_to(PageId.HA)
    pick(window.wizard.page_of(PageId.HA).level, HaLevel.N2)
    assert window.doc.undo_stack.count() == 2
    window.undo_action.trigger()
    assert window.doc.get("ha").level is HaLevel.N1
    assert window.wizard.page_of(PageId.HA).level.get() is HaLevel.N1
    assert window.doc.get("project").customer == "Acme"


def test_the_history_survives_page_changes(qtbot, window):
    project = window.wizard.page_of(PageId.PROJECT)
    type_into(qtbot, project.customer, "Acme")
    window.wizard.go_to(PageId.WORKLOADS)
    window.undo_action.trigger()
    assert window.doc.get("project").customer in (None, "")


def test_a_design_loaded_whole_starts_a_new_history(qtbot, window, prompts, tmp_path):
    from wizard.base.bundled import example_text

    project = window.wizard.page_of(PageId.PROJECT)
    type_into(qtbot, project.customer, "Acme")
    path = tmp_path / "starter.json"
    path.write_text(example_text("starter"), encoding="utf-8")
    prompts.answers.append(DISCARD)  # the unsaved edit: a question, since undo cannot help
    assert window.open_path(path)
    assert window.doc.undo_stack.count() == 0 and not window.undo_action.isEnabled()


def test_typing_a_name_sizes_the_design_once_not_per_keystroke(qtbot, window):
    """25 keystrokes in a text field within the debounce: one sizing after the last, not 25
    (the Review page and the status bar follow the design through that one run)."""
    from wizard.app.io import design_from_text
    from wizard.base.bundled import example_text
    from wizard.gui.sizing import DEBOUNCE_MS

    window.doc.load(design_from_text(example_text("enterprise")), None)
    window.live.refresh()
    runs: list[int] = []
    window.live.updated.connect(lambda: runs.append(window.doc.revision))
    project = window.wizard.page_of(PageId.PROJECT)
    type_into(qtbot, project.customer, "Acme Bank Group Holdings")  # 24 letters
    qtbot.keyClicks(project.customer, "!")
    assert runs == []  # nothing sized while typing
    qtbot.waitUntil(lambda: len(runs) == 1, timeout=10 * DEBOUNCE_MS)
    qtbot.wait(3 * DEBOUNCE_MS)
    assert runs == [window.doc.revision]  # one run, of the design as last typed
    assert window.live.design is not None
    assert window.live.design.project.customer == "Acme Bank Group Holdings!"


def test_ctrl_y_redoes(qtbot, window):
    """Ctrl+Y redoes on every platform, as does Ctrl+Shift+Z (docs/wizard.md says both): the key
    pressed in the window brings the undone edit back."""
    from PySide6.QtCore import Qt

    keys = [k.toString() for k in window.redo_action.shortcuts()]
    assert "Ctrl+Y" in keys and "Ctrl+Shift+Z" in keys
    project = window.wizard.page_of(PageId.PROJECT)
    type_into(qtbot, project.customer, "Acme")
    window.undo_action.trigger()
    assert window.doc.get("project").customer in (None, "")
    window.activateWindow()
    window.wizard.setFocus()
    qtbot.keyClick(window.wizard, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert window.doc.get("project").customer == "Acme"


def test_the_unsaved_mark_follows_the_undo_position(qtbot, window, tmp_path):
    """Saved, edited, undone back to the saved state: saved again (no '*'); redone: unsaved."""
    project = window.wizard.page_of(PageId.PROJECT)
    type_into(qtbot, project.customer, "Acme")
    window.doc.mark_saved(tmp_path / "d.json")
    assert not window.doc.dirty and not window.isWindowModified()
    type_into(qtbot, project.customer, " Bank")
    assert window.doc.dirty and window.isWindowModified()
    window.undo_action.trigger()
    assert window.doc.get("project").customer == "Acme"
    assert not window.doc.dirty and not window.isWindowModified()
    window.redo_action.trigger()
    assert window.doc.dirty and window.isWindowModified()
    # undo past the saved state: unsaved again
    window.undo_action.trigger()
    window.undo_action.trigger()
    assert window.doc.dirty


def test_a_recovered_draft_stays_unsaved_after_undo(qtbot, window):
    """A draft recovered after a crash was never saved: undoing an edit does not make it so."""
    window.doc.load_partial(window.doc.partial_dict(), None, dirty=True)
    project = window.wizard.page_of(PageId.PROJECT)
    type_into(qtbot, project.customer, "Acme")
    window.undo_action.trigger()
    assert window.doc.dirty
