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


def clipped(window, app) -> list[str]:
    """Every widget cut off at the right or left, as 'page: widget at x, width w of viewport v'."""
    from wizard.gui.wizard import PageId

    out = []
    for pid in PageId:
        assert window.wizard.go_to(pid), f"stopped before {pid.name}"
        window.live.refresh()
        app.processEvents()
        page = window.wizard.page_of(pid)
        scroll = page.findChild(QScrollArea)
        if scroll is None:
            continue
        viewport, content = scroll.viewport(), scroll.widget()
        for child in content.findChildren(QWidget):
            if not child.isVisibleTo(page) or child.width() == 0 or _nested(child, content):
                continue
            x = child.mapTo(viewport, QPoint(0, 0)).x()
            if x < -1 or x + child.width() > viewport.width() + 1:
                name = type(child).__name__ + (
                    f" '{child.objectName()}'" if child.objectName() else ""
                )
                out.append(
                    f"{pid.name}: {name} at x {x}, width {child.width()} of {viewport.width()}"
                )
    return out
