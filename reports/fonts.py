"""The report's fonts: DejaVu, shipped in ``resources/fonts`` and embedded (subset) in every PDF,
with Droid Sans Fallback for the Chinese, Japanese and Korean characters DejaVu lacks.

Built-in PDF fonts cover Latin-1 only; a customer name in Greek or a formula with × and ≈ needs a
Unicode font, and embedding it makes the PDF look the same on every reader. DejaVu's licence
(resources/fonts/LICENSE-DejaVu.txt, the Bitstream Vera licence) permits redistribution; so does
the fallback's (resources/fonts/LICENSE-DroidSansFallback.txt, Apache-2.0). The fallback has CJK
ideographs, kana and Hangul but no Latin letters, so text is set in runs: each character in
DejaVu unless DejaVu lacks it and the fallback has it.
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Iterable

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from wizard.base.bundled import resource

SANS = "DejaVuSans"
SANS_BOLD = "DejaVuSans-Bold"
SANS_ITALIC = "DejaVuSans-Oblique"
SANS_BOLD_ITALIC = "DejaVuSans-BoldOblique"
MONO = "DejaVuSansMono"
FALLBACK = "DroidSansFallback"

_FILES = (SANS, SANS_BOLD, SANS_ITALIC, SANS_BOLD_ITALIC, MONO)
_SANS_CHARS: dict[int, int] = {}  # DejaVu's characters, filled once the fonts are registered

# A tag or an entity of reportlab's paragraph markup: the caller's, passed through untouched.
_MARKUP = re.compile(r"(<[^>]*>|&#?[A-Za-z0-9]+;)")


def _register(name: str) -> None:
    if name not in pdfmetrics.getRegisteredFontNames():
        data = resource("fonts", f"{name}.ttf").read_bytes()
        pdfmetrics.registerFont(TTFont(name, io.BytesIO(data)))


def register_fonts() -> None:
    """Register the shipped DejaVu fonts with reportlab once per process (read through
    importlib.resources, so it works from an installed wheel). The fallback is not among them:
    see ``register_fallback``. Called for every label measured, so a second call only checks."""
    if _SANS_CHARS:
        return
    for name in _FILES:
        _register(name)
    addMapping(SANS, 0, 0, SANS)
    addMapping(SANS, 1, 0, SANS_BOLD)
    addMapping(SANS, 0, 1, SANS_ITALIC)
    addMapping(SANS, 1, 1, SANS_BOLD_ITALIC)
    addMapping(MONO, 0, 0, MONO)
    addMapping(MONO, 1, 0, MONO)
    addMapping(MONO, 0, 1, MONO)
    addMapping(MONO, 1, 1, MONO)
    _SANS_CHARS.update(pdfmetrics.getFont(SANS).face.charToGlyph)


def register_fallback() -> None:
    """Register the fallback font once per process, only when a text needs it: parsing its
    3.4 MB takes about a tenth of a second, which a report without CJK text does not pay. It has one face, so
    bold and italic runs map to it too."""
    _register(FALLBACK)
    for bold in (0, 1):
        for italic in (0, 1):
            addMapping(FALLBACK, bold, italic, FALLBACK)


def _sans_chars() -> dict[int, int]:
    register_fonts()
    return _SANS_CHARS


def _fallback_chars() -> dict[int, int]:
    register_fallback()
    return pdfmetrics.getFont(FALLBACK).face.charToGlyph


def runs(text: str, font: str = SANS) -> list[tuple[str, str]]:
    """``text`` cut into maximal runs, each with the font that draws it: ``font``, or the
    fallback for characters DejaVu lacks and the fallback has. Characters neither font has stay
    in ``font`` (``missing_glyphs`` names them)."""
    sans = _sans_chars()
    if all(ord(c) in sans for c in text):
        return [(text, font)] if text else []
    fallback = _fallback_chars()
    out: list[tuple[str, str]] = []
    for c in text:
        f = FALLBACK if ord(c) not in sans and ord(c) in fallback else font
        if out and out[-1][1] == f:
            out[-1] = (out[-1][0] + c, f)
        else:
            out.append((c, f))
    return out


def with_fallback(markup: str) -> str:
    """Paragraph ``markup`` with each run the fallback draws set in it (``<font name=…>``).
    Works on escaped text: tags and entities are left alone, and a user's ``<`` is ``&lt;`` by
    now, so the tags added here never come from user text."""
    sans = _sans_chars()
    if all(ord(c) in sans for c in markup):
        return markup
    out: list[str] = []
    for i, part in enumerate(_MARKUP.split(markup)):
        if i % 2:
            out.append(part)
            continue
        for text, font in runs(part):
            out.append(f'<font name="{FALLBACK}">{text}</font>' if font == FALLBACK else text)
    return "".join(out)


def text_width(text: str, font: str = SANS, size: float = 8) -> float:
    """The width of ``text`` as drawn: each run measured in the font that draws it."""
    return sum(pdfmetrics.stringWidth(t, f, size) for t, f in runs(text, font))


def draw_string(canv: Canvas, x: float, y: float, text: str, font: str, size: float) -> None:
    """``canv.drawString`` in runs, for canvas text that may hold user text (the page header).
    Leaves ``font`` set, as ``setFont`` and ``drawString`` would, for the text drawn next."""
    for part, f in runs(text, font):
        canv.setFont(f, size)
        canv.drawString(x, y, part)
        x += pdfmetrics.stringWidth(part, f, size)
    canv.setFont(font, size)


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
    """The characters of ``fields`` (name, text) that neither DejaVu nor the fallback can draw
    (a rare symbol, an emoji), in order of first use, and the names of the fields holding them:
    they would print as empty boxes, so the report says so instead of staying silent. Invisible
    format characters are left out. The fallback is read only if DejaVu lacks a character."""
    sans = _sans_chars()
    fallback: dict[int, int] | None = None
    chars: dict[str, None] = {}
    where: dict[str, None] = {}
    for name, text in fields:
        for c in text:
            if ord(c) in sans or unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp", "Zs"):
                continue
            if fallback is None:
                fallback = _fallback_chars()
            if ord(c) in fallback:
                continue
            chars.setdefault(c, None)
            where.setdefault(name, None)
    return list(chars), list(where)
