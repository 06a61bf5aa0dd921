"""The window speaks the customer's language as the proposal does: on every page, every tab of
the Review page and every group in the Workloads editor of every bundled design, no label,
button, table cell, list item, choice, tooltip or message holds a field path, an enum value, a
catalog id, a code name or a working note (the proposal's checker, tests/reports)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QGroupBox,
    QLabel,
    QListWidget,
    QTableWidget,
    QTabWidget,
    QWidget,
)

from tests.conftest import ROOT
from tests.reports.test_customer_language import catalog_ids, code_values, leaks
from wizard.app.catalog_loader import load_catalog
from wizard.base.bundled import example_names, example_text
from wizard.gui.wizard import PageId

DESIGNS = [*example_names(), "docs/acme-two-clusters.json", "docs/acme-options.json"]


def _texts(root: QWidget) -> list[tuple[str, str]]:
    """(where, text) for everything a user reads in ``root`` that is on screen."""
    out: list[tuple[str, str]] = []

    def add(where: str, text: str | None) -> None:
        if text:
            out.append((where, text))

    for w in root.findChildren(QWidget):
        if not w.isVisible():
            continue
        add("tooltip", w.toolTip())
        if isinstance(w, QLabel):
            add("label", w.text())
        elif isinstance(w, QAbstractButton):
            add("button", w.text())
        elif isinstance(w, QGroupBox):
            add("group", w.title())
        elif isinstance(w, QComboBox):
            for i in range(w.count()):
                add("choice", w.itemText(i))
                add("choice tooltip", w.itemData(i, 3))  # Qt.ToolTipRole
        elif isinstance(w, QTableWidget):
            for c in range(w.columnCount()):
                head = w.horizontalHeaderItem(c)
                add("heading", head.text() if head else None)
            for r in range(w.rowCount()):
                head = w.verticalHeaderItem(r)
                add("row heading", head.text() if head else None)
                for c in range(w.columnCount()):
                    item = w.item(r, c)
                    if item is not None:
                        add("cell", item.text())
                        add("cell tooltip", item.toolTip())
        elif isinstance(w, QListWidget):
            for i in range(w.count()):
                add("list", w.item(i).text())
                add("list tooltip", w.item(i).toolTip())
        elif isinstance(w, QTabWidget):
            for i in range(w.count()):
                add("tab", w.tabText(i))
    return out


def _window_leaks(text: str, rules) -> list[str]:
    """The proposal's rules, less the one about naming the program's pages: the window may say
    'on the Hardware page'."""
    return [f for f in leaks(text, *rules) if not f.startswith("page ")]


@pytest.fixture(scope="module")
def rules():
    return code_values(), catalog_ids(load_catalog(include_user=False))


def _open(window, tmp_path, design: str) -> None:
    path = tmp_path / "design.json"
    source = ROOT / design if design.endswith(".json") else None
    path.write_text(source.read_text("utf-8") if source else example_text(design), "utf-8")
    assert window.open_path(path)


def _walk(window, qtbot) -> list[tuple[str, str, str]]:
    seen: list[tuple[str, str, str]] = []
    for pid in PageId:
        if not window.wizard.go_to(pid):
            break
        window.live.refresh()
        qtbot.wait(1)
        page = window.wizard.page_of(pid)
        views: list[str] = [""]
        if pid is PageId.WORKLOADS:
            views = []
            for i in range(len(page.rows)):
                page.table.selectRow(i)
                qtbot.wait(1)
                seen += [(pid.name, f"group {i + 1} {where}", t) for where, t in _texts(page)]
        tabs = page.findChild(QTabWidget) if pid is PageId.REVIEW else None
        if tabs is not None:
            views = []
            for i in range(tabs.count()):
                if tabs.tabText(i) == "Diagrams":
                    continue  # pictures (the proposal's drawings, checked with the proposal)
                tabs.setCurrentIndex(i)
                qtbot.wait(1)
                tab = tabs.tabText(i)
                seen += [(pid.name, f"{tab}: {where}", t) for where, t in _texts(page)]
            tabs.setCurrentIndex(0)
        for _ in views:
            seen += [(pid.name, where, t) for where, t in _texts(page)]
    seen += [("window", "status bar", window.status.text())]
    return seen


@pytest.mark.parametrize("design", DESIGNS)
def test_no_page_of_the_window_shows_an_internal_word(qtbot, window, tmp_path, rules, design):
    _open(window, tmp_path, design)
    found = []
    for page, where, text in _walk(window, qtbot):
        found += [f"{page}, {where}: {f}" for f in _window_leaks(text, rules)]
    window.doc.dirty = False
    assert sorted(set(found)) == []


def test_the_window_walk_sees_an_internal_word(qtbot, window, tmp_path, rules):
    """The walk itself: a tooltip holding a field path and a label holding an enum value are
    found, on the page they are on."""
    _open(window, tmp_path, "enterprise")
    page = window.wizard.page_of(PageId.HA)
    planted = QLabel("mode vgpu_mig here", page)
    planted.setToolTip("see hardware.gpus_per_host")
    planted.show()
    found = []
    for name, where, text in _walk(window, qtbot):
        found += [f"{name}, {where}: {f}" for f in _window_leaks(text, rules)]
    window.doc.dirty = False
    assert any(f.startswith("HA, tooltip: design field 'hardware.gpus_per_host'") for f in found)
    assert any(f.startswith("HA, label: code name 'vgpu_mig'") for f in found), found
