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
    from wizard.bundled import example_text

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
