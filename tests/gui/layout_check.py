"""The small-screen check shared by the in-process test and the 200 % scaling subprocess: on
every page, each visible widget of the page's scrolling content lies inside the scroll area's
viewport from left to right (the page scrolls down, never cuts off the right-hand side).
Widgets inside a nested scroll area (a table) are that area's business."""

from __future__ import annotations

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QAbstractScrollArea, QScrollArea, QWidget


def _nested(child: QWidget, content: QWidget) -> bool:
    p = child.parentWidget()
    while p is not None and p is not content:
        owner = p.parentWidget()
        if isinstance(owner, QAbstractScrollArea) and p is owner.viewport():
            return True
        p = owner
    return False


def _name(child: QWidget) -> str:
    return type(child).__name__ + (f" '{child.objectName()}'" if child.objectName() else "")


def _pages(window, app):
    """Each page in turn, shown with the design sized, as (page id, page)."""
    from wizard.gui.wizard import PageId

    for pid in PageId:
        assert window.wizard.go_to(pid), f"stopped before {pid.name}"
        window.live.refresh()
        app.processEvents()
        yield pid, window.wizard.page_of(pid)


def clipped(window, app) -> list[str]:
    """Every widget cut off at the right or left, as 'page: widget at x, width w of viewport v'."""
    out = []
    for pid, page in _pages(window, app):
        scroll = page.findChild(QScrollArea)
        if scroll is None or not scroll.isVisible() or scroll.parentWidget() is not page:
            # a page that does not scroll as a whole: its widgets lie inside the page
            for child in page.findChildren(QWidget):
                if not child.isVisibleTo(page) or child.width() == 0 or _nested(child, page):
                    continue
                x = child.mapTo(page, QPoint(0, 0)).x()
                if x < -1 or x + child.width() > page.width() + 1:
                    out.append(f"{pid.name}: {_name(child)} at x {x}, width {child.width()} "
                               f"of {page.width()}")  # fmt: skip
            continue
        viewport, content = scroll.viewport(), scroll.widget()
        for child in content.findChildren(QWidget):
            if not child.isVisibleTo(page) or child.width() == 0 or _nested(child, content):
                continue
            x = child.mapTo(viewport, QPoint(0, 0)).x()
            if x < -1 or x + child.width() > viewport.width() + 1:
                out.append(
                    f"{pid.name}: {_name(child)} at x {x}, width {child.width()} of "
                    f"{viewport.width()}"
                )
    return out


def cut_headings(window, app) -> list[str]:
    """Every table heading narrower than its words ('ime-sliced vGP'), on every page and every
    tab of a page, as 'page, tab: heading "text" w of needed n'."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QHeaderView, QTabWidget

    out = []
    for pid, page in _pages(window, app):
        tabs = page.findChild(QTabWidget)
        views = [(tabs, i) for i in range(tabs.count())] if tabs is not None else [(None, 0)]
        for tab_widget, i in views:
            where = pid.name
            if tab_widget is not None:
                tab_widget.setCurrentIndex(i)
                app.processEvents()
                where += f", {tab_widget.tabText(i).replace('&&', '&')}"
            for header in page.findChildren(QHeaderView):
                if header.orientation() != Qt.Orientation.Horizontal or not header.isVisible():
                    continue
                model = header.model()
                if model is None:
                    continue
                metrics = header.fontMetrics()
                for section in range(header.count()):
                    if header.isSectionHidden(section) or header.sectionSize(section) == 0:
                        continue
                    text = str(model.headerData(section, Qt.Orientation.Horizontal) or "")
                    if not text.strip():
                        continue
                    need = max(metrics.horizontalAdvance(line) for line in text.split("\n"))
                    if header.sectionSize(section) < need + 4:
                        out.append(f'{where}: heading "{text}" {header.sectionSize(section)} '
                                   f"of needed {need + 4}")  # fmt: skip
        if tabs is not None:
            tabs.setCurrentIndex(0)
    return out
