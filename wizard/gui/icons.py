"""The wizard's icons: simple SVGs shipped in ``wizard/resources/icons``; nothing is fetched at run time.

They are rendered with QSvgRenderer at each size, so they stay sharp at 200 % scaling.
"""

from __future__ import annotations

from functools import cache

from PySide6.QtCore import QByteArray, Qt
from PySide6.QtGui import QIcon, QPainter, QPixmap
from PySide6.QtSvg import QSvgRenderer

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


@cache
def icon(name: str) -> QIcon:
    """A shipped icon by file stem, e.g. ``icon("open")``; an empty icon if it is not shipped."""
    path = resource("icons", f"{name}.svg")
    if not path.is_file():
        return QIcon()
    data = path.read_bytes()
    out = QIcon()
    for size in SIZES:
        out.addPixmap(svg_pixmap(data, size))
    return out
