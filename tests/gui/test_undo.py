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
    from wizard.bundled import example_text

    project = window.wizard.page_of(PageId.PROJECT)
    type_into(qtbot, project.customer, "Acme")
    path = tmp_path / "starter.json"
    path.write_text(example_text("starter"), encoding="utf-8")
    prompts.answers.append(DISCARD)  # the unsaved edit: a question, since undo cannot help
    assert window.open_path(path)
    assert window.doc.undo_stack.count() == 0 and not window.undo_action.isEnabled()
