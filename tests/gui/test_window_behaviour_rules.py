"""Rules of the main window a user meets: what Escape answers in a question, what each menu and
toolbar action's tooltip says, how the group table aligns its counts, when a page offers a
choice of GPU cluster.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QMessageBox

from tests.conftest import ROOT
from wizard.base.bundled import example_text
from wizard.gui.main_window import MainWindow
from wizard.gui.prompts import CANCEL, DISCARD, SAVE, Prompt, PromptKind
from wizard.gui.wizard import PageId


def _open(window, tmp_path, text: str, name: str = "design.json") -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    assert window.open_path(path)
    window.live.refresh()


def _answer_box_with(qtbot, key, seen: dict) -> None:
    """Once the message box is up: note each button's role, then press ``key`` in it."""
    boxes = [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox)]
    boxes = [b for b in boxes if b.isVisible()]
    if not boxes:
        QTimer.singleShot(20, lambda: _answer_box_with(qtbot, key, seen))
        return
    box = boxes[0]
    seen.update({b.text(): box.buttonRole(b) for b in box.buttons()})
    qtbot.keyClick(box, key)


@pytest.mark.qt_log_ignore("This plugin does not support")  # a dialog on offscreen
def test_escape_on_save_discard_cancel_answers_cancel(qtbot, window):
    """Escape must never save nor throw work away: Cancel is the box's reject button, Discard
    its destructive one, Save its accept one, so Escape answers Cancel."""
    seen: dict = {}
    QTimer.singleShot(0, lambda: _answer_box_with(qtbot, Qt.Key.Key_Escape, seen))
    guard = QTimer()  # a box left open would block the run: close it after 10 s at the latest
    guard.setSingleShot(True)
    guard.timeout.connect(lambda: [w.reject() for w in QApplication.topLevelWidgets()
                                   if isinstance(w, QMessageBox) and w.isVisible()])  # fmt: skip
    guard.start(10_000)
    request = Prompt(PromptKind.QUESTION, "Unsaved changes", "Save the design first?",
                     buttons=(SAVE, DISCARD, CANCEL), default=SAVE)  # fmt: skip
    got = MainWindow.prompt(window, request)
    guard.stop()
    role = QMessageBox.ButtonRole
    assert seen == {SAVE: role.AcceptRole, DISCARD: role.DestructiveRole, CANCEL: role.RejectRole}
    assert got == CANCEL


def test_every_actions_tooltip_says_its_tip_or_its_plain_name(window):
    """An action given a status-bar tip shows that tip as its tooltip too; one without shows
    its name without the menu's & accelerator and without a trailing ellipsis."""
    with_tip = without_tip = 0
    for action in window.findChildren(QAction):
        if action.isSeparator() or not action.text():
            continue
        if action.statusTip():
            assert action.toolTip() == action.statusTip(), action.text()
            with_tip += 1
        else:
            tip = action.toolTip()
            assert "&" not in tip.replace("&&", "") and "…" not in tip, action.text()
            without_tip += 1
    assert with_tip > 0


def test_the_group_tables_counts_are_right_aligned_and_its_words_are_not(window, tmp_path):
    """The workloads table: name and kind are words (left), how many is a figure (right), as
    in the proposal's tables."""
    _open(window, tmp_path, example_text("enterprise"))
    window.wizard.go_to(PageId.WORKLOADS)
    table = window.wizard.page_of(PageId.WORKLOADS).table
    assert table.rowCount() > 0
    right = Qt.AlignmentFlag.AlignRight
    for row in range(table.rowCount()):
        assert Qt.AlignmentFlag(table.item(row, 2).textAlignment()) & right
        for col in (0, 1):
            assert not Qt.AlignmentFlag(table.item(row, col).textAlignment()) & right


def test_the_sharing_page_offers_a_cluster_choice_only_for_several_clusters(window, tmp_path):
    """One GPU cluster (the enterprise example): nothing to choose, so no choice is shown; two
    (docs/acme-two-clusters.json): the choice shows."""
    _open(window, tmp_path, example_text("enterprise"))
    window.wizard.go_to(PageId.SHARING)
    page = window.wizard.page_of(PageId.SHARING)
    assert not page.cluster.isVisibleTo(page)
    assert not page.cluster_label.isVisibleTo(page)
    acme = (ROOT / "docs" / "acme-two-clusters.json").read_text(encoding="utf-8")
    _open(window, tmp_path, acme, "acme.json")
    window.wizard.go_to(PageId.SHARING)
    page = window.wizard.page_of(PageId.SHARING)
    assert page.cluster.isVisibleTo(page) and page.cluster_label.isVisibleTo(page)
