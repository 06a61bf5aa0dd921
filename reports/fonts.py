"""The report's fonts: DejaVu, shipped in ``resources/fonts`` and embedded (subset) in every PDF.

Built-in PDF fonts cover Latin-1 only; a customer name in Greek or a formula with × and ≈ needs a
Unicode font, and embedding it makes the PDF look the same on every reader. DejaVu's licence
(resources/fonts/LICENSE-DejaVu.txt, the Bitstream Vera licence) permits redistribution.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Iterable

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from wizard.bundled import resource

SANS = "DejaVuSans"
SANS_BOLD = "DejaVuSans-Bold"
SANS_ITALIC = "DejaVuSans-Oblique"
SANS_BOLD_ITALIC = "DejaVuSans-BoldOblique"
MONO = "DejaVuSansMono"

_FILES = (SANS, SANS_BOLD, SANS_ITALIC, SANS_BOLD_ITALIC, MONO)


def register_fonts() -> None:
    """Register the shipped fonts with reportlab once per process (read through
    importlib.resources, so it works from an installed wheel)."""
    registered = set(pdfmetrics.getRegisteredFontNames())
    for name in _FILES:
        if name not in registered:
            data = resource("fonts", f"{name}.ttf").read_bytes()
            pdfmetrics.registerFont(TTFont(name, io.BytesIO(data)))
    addMapping(SANS, 0, 0, SANS)
    addMapping(SANS, 1, 0, SANS_BOLD)
    addMapping(SANS, 0, 1, SANS_ITALIC)
    addMapping(SANS, 1, 1, SANS_BOLD_ITALIC)
    addMapping(MONO, 0, 0, MONO)
    addMapping(MONO, 1, 0, MONO)
    addMapping(MONO, 0, 1, MONO)
    addMapping(MONO, 1, 1, MONO)


def text_width(text: str, font: str = SANS, size: float = 8) -> float:
    return pdfmetrics.stringWidth(text, font, size)


def fit(text: str, width: float, font: str = SANS, size: float = 8, min_size: float = 5.5):
    """The text and font size that fit ``width``: shrink to ``min_size``, then cut with an
    ellipsis. Diagram labels go through here so none runs past its box."""
    register_fonts()
    while size > min_size and text_width(text, font, size) > width:
        size = max(min_size, size - 0.5)
    if text_width(text, font, size) <= width:
        return text, size
    cut = text
    while cut and text_width(cut + "…", font, size) > width:
        cut = cut[:-1]
    return (cut.rstrip() + "…") if cut else "", size


def missing_glyphs(fields: Iterable[tuple[str, str]]) -> tuple[list[str], list[str]]:
    """The characters of ``fields`` (name, text) that the report's font cannot draw, in order of
    first use, and the names of the fields holding them. DejaVu covers Latin, Greek and Cyrillic
    (and more) but no Chinese, Japanese or Korean: such text would print as empty boxes,
    so the report says so instead of staying silent. Invisible format characters are left out."""
    register_fonts()
    drawable = pdfmetrics.getFont(SANS).face.charToGlyph
    chars: dict[str, None] = {}
    where: dict[str, None] = {}
    for name, text in fields:
        for c in text:
            if ord(c) in drawable or unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp", "Zs"):
                continue
            chars.setdefault(c, None)
            where.setdefault(name, None)
    return list(chars), list(where)
