"""The wizard's icons: simple SVGs shipped in ``wizard/resources/icons``; nothing is fetched at run time.

Each is rendered with QSvgRenderer at the size it is drawn at, when it is first drawn, so it stays
sharp at 200 % scaling and an icon nobody sees (a closed menu's) costs nothing at start.
"""

from __future__ import annotations

from functools import cache

from PySide6.QtCore import QByteArray, QRect, QSize, Qt
from PySide6.QtGui import QIcon, QIconEngine, QPainter, QPixmap
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QApplication, QStyleOption

from wizard.bundled import resource

SIZES = (16, 20, 24, 32, 40, 48, 64)


def svg_pixmap(data: bytes, size: int) -> QPixmap:
    renderer = QSvgRenderer(QByteArray(data))
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    renderer.render(painter)
    painter.end()
    return pixmap


class SvgIconEngine(QIconEngine):
    """An SVG drawn at each size it is asked for, once; other modes (disabled) are made from it
    by the style, as QIcon does for pixmaps added to it."""

    def __init__(self, data: bytes) -> None:
        super().__init__()
        self.data = data
        self._pixmaps: dict[tuple[int, QIcon.Mode], QPixmap] = {}

    def pixmap(self, size: QSize, mode: QIcon.Mode, state: QIcon.State) -> QPixmap:
        side = max(1, min(size.width(), size.height()))
        key = (side, mode)
        if key not in self._pixmaps:
            pixmap = svg_pixmap(self.data, side)
            style = QApplication.style() if QApplication.instance() else None
            if mode != QIcon.Mode.Normal and style is not None:
                pixmap = style.generatedIconPixmap(mode, pixmap, QStyleOption())
            self._pixmaps[key] = pixmap
        return self._pixmaps[key]

    def scaledPixmap(self, size: QSize, mode: QIcon.Mode, state: QIcon.State,
                     scale: float) -> QPixmap:  # fmt: skip
        pixmap = QPixmap(self.pixmap(size * scale, mode, state))
        pixmap.setDevicePixelRatio(scale)
        return pixmap

    def paint(self, painter: QPainter, rect: QRect, mode: QIcon.Mode, state: QIcon.State) -> None:
        scale = painter.device().devicePixelRatioF() if painter.device() else 1.0
        painter.drawPixmap(rect, self.scaledPixmap(rect.size(), mode, state, scale))

    def actualSize(self, size: QSize, mode: QIcon.Mode, state: QIcon.State) -> QSize:
        side = min(size.width(), size.height())
        return QSize(side, side)

    def availableSizes(self, mode: QIcon.Mode = QIcon.Mode.Normal,
                       state: QIcon.State = QIcon.State.Off) -> list[QSize]:  # fmt: skip
        return [QSize(s, s) for s in SIZES]

    def clone(self) -> QIconEngine:
        return SvgIconEngine(self.data)


@cache
def icon(name: str) -> QIcon:
    """A shipped icon by file stem, e.g. ``icon("open")``; an empty icon if it is not shipped."""
    path = resource("icons", f"{name}.svg")
    if not path.is_file():
        return QIcon()
    return QIcon(SvgIconEngine(path.read_bytes()))
