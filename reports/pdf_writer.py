"""The document tree (``reports.doctree``) as reportlab platypus flowables, for the PDF: each
node in its paragraph style, tables in the report's table style, figures kept with their
captions. Paragraph parsing and line breaking are cached here (``Text``), tables measure each
cell once per column width (``_Table``): a large design repeats the same cell text thousands of
times."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from io import BytesIO

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    Image,
    KeepTogether,
    NextPageTemplate,
    PageBreak,
    Paragraph,
    Spacer,
    TableStyle,
)
from reportlab.platypus import Table as PlatypusTable
from reportlab.rl_config import _FUZZ

from reports import doctree as t
from reports.fonts import SANS, with_fallback
from reports.styles import ACCENT_LIGHT, CELL_PADDING, RULE, Styles, table_style
from wizard.present.fields import in_document_words


class _Parsed:
    """A paragraph's markup parsed once, and its lines once per width: a proposal repeats the
    same cell text (a dash, a unit, a yes) thousands of times in a large design, and parsing
    and breaking lines are most of a page's time. Nothing reportlab does changes either."""

    __slots__ = ("bullet", "frags", "lines", "style", "text")

    def __init__(self, p: Paragraph) -> None:
        self.text, self.style, self.frags, self.bullet = p.text, p.style, p.frags, p.bulletText
        self.lines: dict[float, tuple] = {}


_PARSED: dict[tuple, _Parsed] = {}
_PARSED_MAX = 200_000  # entries; a long-lived process (the wizard) starts over past it


def forget_parsed() -> None:
    """Drop the parsed paragraphs (a document's styles and texts are not the next one's)."""
    _PARSED.clear()
    _WORD_WIDTHS.clear()


class Text(Paragraph):
    """Every paragraph of the report goes through here: a design field the engine names by its
    path reads as its label (no page of the program is named); the markup (user text escaped, plus the report's own tags)
    gets the runs DejaVu cannot draw set in the fallback font, after escaping, so no tag added
    comes from user text. A split paragraph is rebuilt from parsed fragments. The same text in
    the same style is parsed once, and its lines broken once per width (``_Parsed``)."""

    def __init__(self, text: str | None, style=None, bulletText: str | None = None, **kwargs):
        if text is None or kwargs or style is None:
            if text is not None:
                text = with_fallback(in_document_words(text))
            super().__init__(text, style, bulletText, **kwargs)
            self._lines_at: dict[float, tuple] = {}
            return
        key = (text, style, bulletText)
        parsed = _PARSED.get(key)
        if parsed is None:
            super().__init__(with_fallback(in_document_words(text)), style, bulletText)
            if len(_PARSED) >= _PARSED_MAX:
                _PARSED.clear()
            parsed = _PARSED[key] = _Parsed(self)
        else:
            self.caseSensitive, self.encoding, self.debug = 1, "utf8", 0
            self.text, self.style, self.frags = parsed.text, parsed.style, parsed.frags
            self.bulletText = parsed.bullet
        self._lines_at = parsed.lines

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        """The lines broken once per width: a table cell is wrapped by every measure of its
        table (each pass of the contents, each split, each try of a heading with what follows),
        always at its column's width. The height the frame offers does not change where the
        lines break."""
        done = self._lines_at.get(availWidth)
        if done is None or availWidth < _FUZZ:
            size = super().wrap(availWidth, availHeight)
            self._lines_at[availWidth] = (size, self.blPara, self._wrapWidths)  # type: ignore[has-type]
            return size
        size, self.blPara, self._wrapWidths = done
        self.width, self.height = size
        return size


class _Table(PlatypusTable):
    """A table that measures each cell once per column width: reportlab measures every cell
    of a table each time it wraps it (each pass, each try of a page, each split's remainder)."""

    def _listCellGeom(self, V, w, s, W=None, H=None, aH=72000):
        if W is not None or H is not None or isinstance(V, str) or not V:
            return super()._listCellGeom(V, w, s, W, H, aH)
        key = (w, s.leftPadding, s.rightPadding, s.topPadding, s.bottomPadding, aH)
        memo = V.__dict__.setdefault("_geom", {})  # the cell's expanded tuple, kept by the table
        if key not in memo:
            memo[key] = super()._listCellGeom(V, w, s, W, H, aH)
        return memo[key]


class Heading(Text):
    """A heading the document puts into the table of contents and the PDF outline."""

    def __init__(self, text: str, style, level: int, key: str) -> None:
        super().__init__(text, style)
        self.toc_level = level
        self.toc_key = key
        self.toc_markup = self.text  # escaped and with fallback runs, for the contents page


_ONE_WORD = 32  # characters: a longer word (a web address) may break
_TAG = re.compile(r"<[^>]*>")
_WORD_WIDTHS: dict[tuple[str, str], float] = {}


class Writer:
    """Turns tree nodes into flowables for a text ``width`` in ``styles``; ``contents`` makes
    the table of contents (the document template owns it)."""

    def __init__(self, styles: Styles, width: float, contents: Callable[[], Flowable]) -> None:
        self.s = styles
        self.width = width
        self._contents = contents

    def flowables(self, blocks: list[t.Block]) -> list[Flowable]:
        out: list[Flowable] = []
        for block in blocks:
            out += self.block(block)
        return out

    def block(self, b: t.Block) -> list[Flowable]:
        if isinstance(b, t.Para):
            return [self.para(b)]
        if isinstance(b, t.Table):
            return [self.table(b)]
        if isinstance(b, t.Heading):
            return self.heading(b)
        if isinstance(b, t.Bullets):
            return [Text(item, self.s.body, bulletText="•") for item in b.items]
        if isinstance(b, t.Figure):
            return [self.figure(b)]
        if isinstance(b, t.Space):
            return [Spacer(1, b.height)]
        if isinstance(b, t.PageBreak):
            return [NextPageTemplate("body"), PageBreak()] if b.body else [PageBreak()]
        if isinstance(b, t.Cards):
            return [self.cards(b)]
        if isinstance(b, t.Picture):
            image = Image(BytesIO(b.data), width=b.width, height=b.height)
            image.hAlign = "LEFT"
            return [image]
        if isinstance(b, t.Contents):
            return [self._contents()]
        raise TypeError(f"no PDF form for {type(b).__name__}")

    def para(self, p: t.Para) -> Text:
        return Text(p.text, getattr(self.s, p.role))

    def heading(self, h: t.Heading) -> list[Flowable]:
        if h.level == 0:
            return [CondPageBreak(self.width * 0.35), Heading(h.markup, self.s.h1, 0, h.key)]
        if h.level == 1:
            return [CondPageBreak(90), Heading(h.markup, self.s.h2, 1, h.key)]
        # a run-in heading, moved to the next page rather than left alone at the bottom
        return [CondPageBreak(70), Spacer(1, 6), Text(h.markup, self.s.h3)]

    def table(self, tb: t.Table) -> PlatypusTable:
        total = sum(tb.widths)
        cols = self._whole_words(tb, [self.width * w / total for w in tb.widths])
        s = self.s
        body = [[Text(c.text, getattr(s, c.role)) for c in row] for row in tb.rows]
        out = _Table(
            body,
            colWidths=cols,
            repeatRows=1 if tb.header else 0,
            hAlign="LEFT",
            spaceBefore=2,
            spaceAfter=8,
        )
        out.setStyle(table_style(header=tb.header, rows=len(body)))
        for at, first, last in tb.spans:
            out.setStyle([("SPAN", (first, at), (last, at))])
        return out

    def _whole_words(self, tb: t.Table, cols: list[float]) -> list[float]:
        """The column widths with each column at least as wide as the longest word of its cells
        (a citation "[100]", a part number, "Notebook" in a rack's name): reportlab breaks a
        word wider than its column anywhere, and "[10" over "0]" reads as another number. The
        width a column gains is taken from the others' room beyond their own longest words; a
        merged cell, and a word longer than ``_ONE_WORD`` characters (a web address), may
        break."""
        if len(cols) < 2:
            return cols
        merged = {(at, c) for at, first, last in tb.spans for c in range(first, last + 1)}
        need = [0.0] * len(cols)
        for r, row in enumerate(tb.rows):
            for c, cell in enumerate(row[: len(cols)]):
                if (r, c) not in merged:
                    need[c] = max(need[c], self._longest_word(cell))
        short = sum(max(n - w, 0.0) for n, w in zip(need, cols, strict=True))
        if short == 0:
            return cols
        room = [max(w - n, 0.0) for n, w in zip(need, cols, strict=True)]
        if sum(room) < short:
            return cols  # nothing to take it from: the table keeps its shares
        take = short / sum(room)
        return [n if n > w else w - r * take
                for n, w, r in zip(need, cols, room, strict=True)]  # fmt: skip

    def _longest_word(self, cell: t.Para) -> float:
        """The width of the cell's longest word with the cell's padding (0 for none), once per
        text and role: a large design repeats the same cell text thousands of times."""
        key = (cell.text, cell.role)
        width = _WORD_WIDTHS.get(key)
        if width is None:
            style = getattr(self.s, cell.role)
            plain = (
                html.unescape(_TAG.sub(" ", cell.text))
                if "<" in cell.text or "&" in cell.text
                else cell.text
            )
            words = [w for w in plain.split() if len(w) <= _ONE_WORD]
            width = (
                max(stringWidth(w, style.fontName, style.fontSize) for w in words)
                + 2 * CELL_PADDING
                + 0.5
                if words
                else 0.0
            )
            if len(_WORD_WIDTHS) >= _PARSED_MAX:
                _WORD_WIDTHS.clear()
            _WORD_WIDTHS[key] = width
        return width

    def figure(self, f: t.Figure) -> Flowable:
        f.drawing.hAlign = "CENTER"
        label = Text(f.caption_markup, self.s.caption)
        return KeepTogether([Spacer(1, 4), f.drawing, label])

    def cards(self, c: t.Cards) -> PlatypusTable:
        cells = [
            [Text(v, self.s.figure) for v in c.values],
            [Text(label, self.s.figure_label) for label in c.labels],
        ]
        width = self.width / len(c.values)
        out = PlatypusTable(cells, colWidths=[width] * len(c.values))
        out.setStyle(
            TableStyle(
                [
                    ("FONTNAME", (0, 0), (-1, -1), SANS),
                    ("BACKGROUND", (0, 0), (-1, -1), ACCENT_LIGHT),
                    ("LINEAFTER", (0, 0), (-2, -1), 2, "white"),
                    ("TOPPADDING", (0, 0), (-1, 0), 8),
                    ("BOTTOMPADDING", (0, -1), (-1, -1), 8),
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                    ("BOX", (0, 0), (-1, -1), 0.5, RULE),
                ]
            )
        )
        return out
