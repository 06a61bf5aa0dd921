"""Keyboard use: Tab walks each form page's fields in reading order, top to bottom."""

from __future__ import annotations

from itertools import pairwise

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QAbstractScrollArea, QLineEdit, QWidget

from wizard.gui.wizard import PageId

FORM_PAGES = [PageId.PROJECT, PageId.HARDWARE, PageId.HA, PageId.EXPORT]


def _tab_chain(page: QWidget) -> list[QWidget]:
    """The page's widgets that Tab stops at, in the order Tab visits them."""

    def stops(w: QWidget) -> bool:
        return (
            w.isVisible()
            and w.isEnabled()
            and bool(w.focusPolicy() & Qt.FocusPolicy.TabFocus)
            and not isinstance(w, QAbstractScrollArea)
            and not (isinstance(w, QLineEdit) and isinstance(w.parent(), QWidget)
                     and w.parent().focusProxy() is w)  # a spin box's own editor
        )  # fmt: skip

    candidates = [w for w in page.findChildren(QWidget) if stops(w)]
    assert candidates
    start = cur = candidates[0]
    chain: list[QWidget] = []
    for _ in range(10 * len(candidates) + 50):
        if cur in candidates and cur not in chain:
            chain.append(cur)
        cur = cur.nextInFocusChain()
        if cur is start:
            break
    assert set(chain) == set(candidates)
    first = min(chain, key=lambda w: _pos(page, w))
    i = chain.index(first)
    return chain[i:] + chain[:i]


def _pos(page: QWidget, w: QWidget) -> tuple[int, int]:
    p = w.mapTo(page, QPoint(0, 0))
    return (p.y(), p.x())


@pytest.mark.parametrize("pid", FORM_PAGES, ids=lambda p: p.name.lower())
def test_tab_order_follows_reading_order(qtbot, window, pid):
    window.open_example("enterprise")
    window.wizard.go_to(pid)
    qtbot.wait(50)
    page = window.wizard.page_of(pid)
    rows = [_pos(page, w)[0] for w in _tab_chain(page)]
    for before, after in pairwise(rows):
        assert after >= before - 6, rows  # same row or further down


@pytest.mark.parametrize("pid", [PageId.PROJECT, PageId.WORKLOADS, PageId.EXPORT],
                         ids=lambda p: p.name.lower())  # fmt: skip
def test_escape_does_not_blank_the_window(qtbot, window, pid):
    """The wizard is a QWizard (a dialog) inside the main window: Escape rejected it and left
    only the menu and status bar. Escape, twice, on any page: the page stays on screen."""
    window.wizard.go_to(pid)
    page = window.wizard.currentPage()
    for _ in range(2):
        qtbot.keyClick(page, Qt.Key.Key_Escape)
        qtbot.keyClick(window.wizard, Qt.Key.Key_Escape)
    assert window.wizard.isVisible() and window.wizard.currentPage() is page
    window.wizard.done(1)  # what Finish would do
    assert window.wizard.isVisible()
