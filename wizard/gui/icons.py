"""The wizard's icons: simple SVGs shipped in ``resources/icons`` (installed as ``wizard.resources``); nothing is fetched at run time.

Qt's own SVG icon engine (the ``qsvgicon`` plugin that ships with PySide6) draws each at the
size and mode it is shown in, when it is first shown: sharp at 200 % scaling, nothing paid at
start for an icon nobody sees, and no Python subclass of a Qt class to build while the first
page is on its way.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from PySide6.QtGui import QIcon, QPixmap

from wizard.base.bundled import resource

SIZES = (16, 20, 24, 32, 40, 48, 64)


@cache
def icon(name: str) -> QIcon:
    """A shipped icon by file stem, e.g. ``icon("open")``; an empty icon if it is not shipped."""
    path = resource("icons", f"{name}.svg")
    if not path.is_file():
        return QIcon()
    if isinstance(path, Path):
        return QIcon(os.fspath(path))
    return _drawn(path.read_bytes())  # shipped inside an archive: no file for Qt to open


def _drawn(data: bytes) -> QIcon:
    """The icon drawn once at each usual size, for an SVG that is not a file on disk."""
    from PySide6.QtCore import QByteArray, Qt
    from PySide6.QtGui import QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(QByteArray(data))
    result = QIcon()
    for side in SIZES:
        pixmap = QPixmap(side, side)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        renderer.render(painter)
        painter.end()
        result.addPixmap(pixmap)
    return result
