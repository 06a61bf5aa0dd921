"""Drawing helpers shared by the diagrams: boxes and labels that always fit their space."""

from __future__ import annotations

from reportlab.graphics.shapes import Drawing, Group, Line, Rect, String
from reportlab.lib import colors
from reportlab.lib.attrmap import AttrMap, AttrMapValue
from reportlab.lib.validators import isNumber, isString
from reportlab.pdfbase.pdfmetrics import stringWidth

from reports.fonts import SANS, SANS_BOLD, fit, runs, text_width
from reports.styles import INK, MUTED

WHITE = colors.white


def new_drawing(width: float, height: float) -> Drawing:
    """A Drawing whose initial font is the embedded one (reportlab's default is Helvetica, which
    would appear in the PDF's font list unembedded)."""
    d = Drawing(width, height)
    d.initialFontName = SANS
    return d


def label(
    x: float,
    y: float,
    text: str,
    width: float,
    size: float = 7.5,
    anchor: str = "start",
    font: str = SANS,
    color=INK,
    min_size: float = 7.0,
) -> String:
    """A label no wider than ``width``: shrunk, then cut with an ellipsis if it must be. Text
    DejaVu cannot draw is set in the fallback font: a whole label when the fallback draws all of
    it, else in runs (the fallback has no Latin letters), measured in the font that draws each."""
    shown, fitted = fit(text, width, font, size, min_size)
    parts = runs(shown, font)
    if len(parts) <= 1:
        drawn = parts[0][1] if parts else font
        return String(x, y, shown, fontName=drawn, fontSize=fitted, fillColor=color,
                      textAnchor=anchor)  # fmt: skip
    return Label(x, y, parts, fitted, anchor, color)


class Label(Group):
    """A label in runs of two fonts, one String each, placed as one String with ``anchor`` would
    be; ``text`` and ``fontSize`` are the whole label's, as on a String."""

    _attrMap = AttrMap(BASE=Group, text=AttrMapValue(isString), fontSize=AttrMapValue(isNumber))

    def __init__(self, x, y, parts: list[tuple[str, str]], size: float, anchor: str, color):
        super().__init__()
        self.text = "".join(t for t, _ in parts)
        self.fontSize = size
        widths = [stringWidth(part, font, size) for part, font in parts]
        left = x - {"start": 0, "middle": sum(widths) / 2, "end": sum(widths)}[anchor]
        for (part, font), w in zip(parts, widths, strict=True):
            self.add(String(left, y, part, fontName=font, fontSize=size, fillColor=color))
            left += w


def box(
    x: float,
    y: float,
    w: float,
    h: float,
    fill,
    stroke=MUTED,
    title: str | None = None,
    title_size: float = 8,
    radius: float = 3,
    stroke_width: float = 0.6,
) -> Group:
    g = Group(
        Rect(
            x,
            y,
            w,
            h,
            rx=radius,
            ry=radius,
            fillColor=fill,
            strokeColor=stroke,
            strokeWidth=stroke_width,
        )
    )
    if title:
        g.add(label(x + 6, y + h - title_size - 4, title, w - 12, title_size, font=SANS_BOLD))
    return g


def lines_in_box(
    x: float,
    top: float,
    w: float,
    items: list[str],
    size: float = 7,
    leading: float = 9.5,
    max_lines: int = 8,
    color=INK,
) -> Group:
    """Items top-down, each wrapped over as many lines as it needs (never cut), up to
    ``max_lines`` lines; a last line says how many items were left out."""
    g = Group()
    lines: list[str] = []
    placed = 0
    for n, item in enumerate(items):
        wrapped = wrap(item, w, size) or [""]
        room = max_lines - len(lines) - (1 if n < len(items) - 1 else 0)
        if len(wrapped) > room:
            break
        lines += wrapped
        placed += 1
    for i, text in enumerate(lines):
        g.add(label(x, top - (i + 1) * leading, text, w, size, color=color, min_size=size))
    if placed < len(items):
        more = len(items) - placed
        g.add(label(x, top - (len(lines) + 1) * leading, f"+ {more} more", w, size,
                    color=MUTED, min_size=size))  # fmt: skip
    return g


def connector(x1: float, y1: float, x2: float, y2: float, color=MUTED, width: float = 0.8) -> Line:
    return Line(x1, y1, x2, y2, strokeColor=color, strokeWidth=width)


def wrap(text: str, width: float, size: float = 7.5, font: str = SANS) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width``, so a label is summarized
    over lines rather than cut; a single word wider than the line stays whole (shrunk later)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if line and text_width(candidate, font, size) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    return [*lines, line] if line else lines
