"""Options as snapshots in the window: an edit after saving leaves the option as saved; "Make
this the proposal" puts the option's design on the pages (one design on screen); an edit then
asks whether it updates the option or keeps it as saved, and each answer does what it says."""

from __future__ import annotations

from tests.gui.helpers import click
from wizard.base.bundled import example_text
from wizard.gui.prompts import PromptKind
from wizard.gui.proposal import KEEP_OPTION, UPDATE_OPTION
from wizard.gui.wizard import PageId
from wizard.model.design import HaLevel


def _open(qtbot, window, prompts, tmp_path):
    path = tmp_path / "enterprise.json"
    path.write_text(example_text("enterprise"))
    assert window.open_path(path)
    window.live.refresh()
    assert window.wizard.go_to(PageId.REVIEW)
    review = window.wizard.page_of(PageId.REVIEW)
    review.tabs.setCurrentIndex(review.options_tab)
    prompts.answers.append("One spare host")  # its name; the note as filled in
    click(qtbot, review.options.save)
    assert window.doc.design().ha.level is HaLevel.N1
    return review


def _ha_level(qtbot, window, level: HaLevel) -> None:
    """Pick the HA level on the HA policy page, as a user does."""
    assert window.wizard.go_to(PageId.HA)
    ha = window.wizard.page_of(PageId.HA)
    ha.level.put(level)
    window.live.refresh()


def _propose(qtbot, window, review, name: str) -> None:
    assert window.wizard.go_to(PageId.REVIEW)
    view = review.options
    view.choice.setCurrentIndex(view.choice.findData(name))
    click(qtbot, view.propose)
    window.live.refresh()


def test_an_edit_after_saving_leaves_the_option_as_saved(qtbot, window, prompts, tmp_path):
    _open(qtbot, window, prompts, tmp_path)
    _ha_level(qtbot, window, HaLevel.N2)
    design = window.doc.design()
    assert design.ha.level is HaLevel.N2
    assert design.option("One spare host").ha.level is HaLevel.N1
    assert not [p for p in prompts.asked if p.kind is PromptKind.QUESTION]  # nothing asked


def test_making_an_option_the_proposal_shows_its_design_on_the_pages(
    qtbot, window, prompts, tmp_path
):
    review = _open(qtbot, window, prompts, tmp_path)
    _ha_level(qtbot, window, HaLevel.N2)
    _propose(qtbot, window, review, "One spare host")
    design = window.doc.design()
    assert design.proposed == "One spare host" and design.ha.level is HaLevel.N1
    # the HA page shows the option's level, and the Review sizes the same design
    assert window.wizard.go_to(PageId.HA)
    assert window.wizard.page_of(PageId.HA).level.get() is HaLevel.N1
    assert window.live.shown == design.as_designed()
    assert "The pages show the proposed option" in review.proposal_note.text()
    # one undo goes back to the design as it stood, nothing proposed
    window.doc.undo_stack.undo()
    assert window.doc.design().proposed is None
    assert window.doc.design().ha.level is HaLevel.N2


def test_an_edit_of_the_proposal_asks_and_keep_leaves_the_option(qtbot, window, prompts, tmp_path):
    review = _open(qtbot, window, prompts, tmp_path)
    _propose(qtbot, window, review, "One spare host")
    prompts.answers.append(KEEP_OPTION)
    _ha_level(qtbot, window, HaLevel.N2)
    asked = prompts.asked[-1]
    assert asked.kind is PromptKind.QUESTION and "“One spare host”" in asked.text
    design = window.doc.design()
    assert design.proposed is None and design.ha.level is HaLevel.N2
    assert design.option("One spare host").ha.level is HaLevel.N1


def test_an_edit_of_the_proposal_asks_and_update_changes_the_option(
    qtbot, window, prompts, tmp_path
):
    review = _open(qtbot, window, prompts, tmp_path)
    _propose(qtbot, window, review, "One spare host")
    prompts.answers.append(UPDATE_OPTION)
    _ha_level(qtbot, window, HaLevel.N2)
    design = window.doc.design()
    assert design.proposed == "One spare host"
    assert design.option("One spare host").ha.level is HaLevel.N2
    window.live.refresh()
    assert window.live.shown.ha.level is HaLevel.N2  # what the pages show is proposed


def test_the_comparison_keeps_its_rows_and_words_in_a_small_window(
    qtbot, window, prompts, tmp_path
):
    """At 1024 x 700 the comparison scrolls rather than squeezing its table to one row or its
    sentences onto each other."""
    from wizard.gui.widgets.options_view import SHOWN_ROWS

    window.resize(1024, 700)
    review = _open(qtbot, window, prompts, tmp_path)
    view = review.options
    review._maybe_compare()
    qtbot.waitUntil(lambda: view.table.columnCount() == 2, timeout=20_000)
    qtbot.wait(50)
    t = view.table
    rows = min(t.rowCount(), SHOWN_ROWS)
    assert rows == SHOWN_ROWS
    assert t.height() >= t.horizontalHeader().height() + sum(t.rowHeight(y) for y in range(rows))
    for label in (view.sentence, view.status):
        assert label.height() >= label.heightForWidth(label.width()), label.text()
    assert label.geometry().bottom() <= t.geometry().top()  # nothing drawn over the table
