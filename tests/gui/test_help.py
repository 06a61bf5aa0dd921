"""Help inside the program: F1 and each page's Help button open the user guide at the page in
use, beside the wizard (not modal); the guide carries every page and the glossary."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QWizard

from wizard.gui.help import guide_html
from wizard.gui.wizard import PageId
from wizard.present.glossary import named
from wizard.present.guide import GUIDE, PAGE_ANCHORS


def test_every_page_has_a_section_and_the_glossary_is_in_the_guide():
    anchors = {s.anchor for s in GUIDE}
    assert set(PAGE_ANCHORS) <= anchors and len(PAGE_ANCHORS) == len(PageId)
    html = guide_html()
    for name, _ in named():
        assert name.replace("&", "&amp;") in html


@pytest.mark.qt_log_ignore("This plugin does not support")  # raise() on the offscreen platform
def test_f1_opens_the_guide_at_the_page_in_use(qtbot, window, tmp_path):
    from wizard.base.bundled import example_text

    path = tmp_path / "starter.json"
    path.write_text(example_text("starter"), encoding="utf-8")
    assert window.open_path(path)
    assert window.help_action.shortcut() == QKeySequence(Qt.Key.Key_F1)
    assert window.wizard.go_to(PageId.HARDWARE)
    window.help_action.trigger()
    help_window = window.help_window
    assert help_window is not None and help_window.isVisible()
    assert not help_window.isModal()
    browser = help_window.browser
    top = browser.cursorForPosition(browser.viewport().rect().topLeft())
    assert top.block().text() == "3. Hardware"
    window.wizard.go_to(PageId.PROJECT)
    window.help_action.trigger()
    top = browser.cursorForPosition(browser.viewport().rect().topLeft())
    assert top.block().text() != "3. Hardware"
    help_window.close()


def test_the_help_button_opens_the_section_of_its_page(qtbot, window, monkeypatch):
    seen = []
    monkeypatch.setattr(type(window), "show_help", lambda self, anchor=None: seen.append(anchor))
    window.wizard.helpRequested.disconnect()
    window.wizard.helpRequested.connect(lambda: window.show_help())
    window.wizard.button(QWizard.WizardButton.HelpButton).click()
    assert seen == [None]


def test_the_active_at_once_explanation_warns_about_powered_on_vms():
    text = " ".join(p for s in GUIDE if s.anchor == "workloads" for p in s.paragraphs)
    assert "powered-on VM keeps its vGPU memory" in text


def test_help_goes_beside_the_window_where_the_screen_has_room():
    """Right of the main window when it fits, else left, else against the screen's right edge;
    its top follows the window's but stays on the screen (hand-placed rectangles)."""
    from PySide6.QtCore import QPoint, QRect

    from wizard.gui.help import beside

    screen = QRect(0, 0, 1920, 1050)
    assert beside(QRect(0, 0, 1280, 800), (620, 640), screen) == QPoint(1280, 0)
    assert beside(QRect(700, 100, 1200, 800), (620, 640), screen) == QPoint(80, 100)
    small = QRect(0, 0, 1366, 740)
    assert beside(QRect(0, 0, 1280, 700), (620, 640), small) == QPoint(746, 0)
    # 900 + 620 > 1366 and no room on the left: the right edge, 1366 - 620 = 746; the top
    # moves up from 300 to 740 - 640 = 100 so the whole window is on the screen
    assert beside(QRect(0, 300, 900, 400), (620, 640), small) == QPoint(746, 100)
    assert beside(QRect(0, 300, 700, 400), (620, 640), small) == QPoint(700, 100)


@pytest.mark.qt_log_ignore("This plugin does not support")
def test_help_finds_a_word_and_says_when_it_is_not_there(qtbot, window):
    window.help_action.trigger()
    help_window = window.help_window
    text = help_window.browser.toPlainText()
    help_window.search.setText("MIG")
    expected = text.casefold().count("mig")
    assert expected > 1
    assert help_window.found.text() == f"{expected:,} found"
    first = help_window.browser.textCursor().position()
    assert help_window.browser.textCursor().selectedText().casefold() == "mig"
    assert help_window.find_next()  # Enter: the next one
    assert help_window.browser.textCursor().position() > first
    help_window.search.setText("qqqxyz")
    assert help_window.found.text() == "not found"
