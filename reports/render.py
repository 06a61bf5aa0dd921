"""The diagrams for the wizard's screens, without the GUI importing reportlab: SVG text that Qt's
``QSvgRenderer`` draws (it is in PySide6-Essentials), plus the font files the SVG names so the GUI
can register them with ``QFontDatabase.addApplicationFontFromData``.

PNG output through reportlab's renderPM would need the rlPyCairo/pycairo packages (and the cairo
C library on Linux); Qt rasterizes the SVG instead, so no extra dependency is needed.
"""

from __future__ import annotations

from reportlab.graphics import renderSVG
from reportlab.graphics.shapes import Drawing

from reports.data import ReportData
from reports.diagrams import DIAGRAMS
from reports.fonts import register_fonts
from wizard.base.bundled import resource

DEFAULT_WIDTH = 480.0


def drawing_names(data: ReportData) -> list[tuple[str, str]]:
    """(name, title) of each diagram this Result has data for, in report order."""
    return [(name, spec.title) for name, spec in DIAGRAMS.items() if _draw(name, data)]


def _draw(name: str, data: ReportData, width: float = DEFAULT_WIDTH) -> Drawing | None:
    if name not in DIAGRAMS:
        known = ", ".join(DIAGRAMS)
        raise KeyError(f"unknown diagram '{name}' (known: {known})")
    register_fonts()
    return DIAGRAMS[name].draw(data, width)


def drawing_svg(name: str, data: ReportData, width: float = DEFAULT_WIDTH) -> str | None:
    """The diagram ``name`` as SVG text ``width`` points wide, or None when the Result holds no
    data for it."""
    drawing = _draw(name, data, width)
    if drawing is None:
        return None
    return renderSVG.drawToString(drawing)


def font_files() -> dict[str, bytes]:
    """The fonts the SVG text uses, by family name, for the GUI to register."""
    from reports.fonts import MONO, SANS, SANS_BOLD, SANS_BOLD_ITALIC, SANS_ITALIC

    names = (SANS, SANS_BOLD, SANS_ITALIC, SANS_BOLD_ITALIC, MONO)
    return {n: resource("fonts", f"{n}.ttf").read_bytes() for n in names}
