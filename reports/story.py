"""The small vocabulary sections are written in: numbered headings, escaped paragraphs, tables
whose cells wrap, figures with captions, and numbered source citations."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias
from xml.sax.saxutils import escape

from reportlab.graphics.shapes import Drawing
from reportlab.platypus import CondPageBreak, Flowable, KeepTogether, Paragraph, Spacer, Table
from reportlab.rl_config import _FUZZ

from reports.data import ReportData
from reports.fonts import with_fallback
from reports.styles import Styles, table_style
from wizard.present.fields import in_document_words
from wizard.present.references import customer_source

Cell: TypeAlias = str | Flowable


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


class _Table(Table):
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


class Story:
    def __init__(self, data: ReportData, styles: Styles, width: float) -> None:
        self.data = data
        self.s = styles
        self.width = width
        self.sources: dict[str, int] = {}
        self._told: dict[str, str] = {}  # a source as the customer reads it, by the source
        self.section = 0
        self.subsection = 0
        self.figures = 0
        self.shown_calculations: set[str] = set()  # ids already in a calculation table
        self.clusters: list[ReportData] = []  # each GPU cluster's view, as the sections read it

    # ----------------------------------------------------------------------- headings

    def h1(self, title: str) -> list[Flowable]:
        self.section += 1
        self.subsection = 0
        text = f"{self.section}&nbsp;&nbsp;{escape(title)}"
        return [
            CondPageBreak(self.width * 0.35),
            Heading(text, self.s.h1, 0, f"s{self.section}"),
        ]

    def h2(self, title: str) -> list[Flowable]:
        self.subsection += 1
        text = f"{self.section}.{self.subsection}&nbsp;&nbsp;{escape(title)}"
        key = f"s{self.section}.{self.subsection}"
        return [CondPageBreak(90), Heading(text, self.s.h2, 1, key)]

    def h3(self, title: str) -> list[Flowable]:
        """A run-in heading, moved to the next page rather than left alone at the bottom."""
        return [CondPageBreak(70), Spacer(1, 6), Text(escape(title), self.s.h3)]

    # ------------------------------------------------------------------------- text

    def p(self, text: str, style=None) -> Paragraph:
        """A paragraph of plain text (escaped: user text never breaks the markup)."""
        return Text(escape(text), style or self.s.body)

    def markup(self, text: str, style=None) -> Paragraph:
        """A paragraph of reportlab mini-markup; the caller escapes any user text in it."""
        return Text(text, style or self.s.body)

    def cite(self, source: str) -> str:
        """``[n]``: the number of ``source`` in the appendix's list of sources, which gives it as
        the customer reads it (the vendor's reference, no catalog id or working note)."""
        told = self._told.get(source)
        if told is None:  # a large design cites the same few sources thousands of times
            told = self._told[source] = customer_source(source, self.data.catalog)
        n = self.sources.setdefault(told, len(self.sources) + 1)
        return f"[{n}]"

    def bullets(self, items: Sequence[str]) -> list[Flowable]:
        return [
            Text(escape(item), self.s.body, bulletText="•")
            for item in items
            if item  # skip empty
        ]

    # ------------------------------------------------------------------------ tables

    def cell(self, value: Cell, style=None) -> Flowable:
        if isinstance(value, Flowable):
            return value
        return Text(escape(str(value)), style or self.s.cell)

    def table(
        self,
        rows: Sequence[Sequence[Cell]],
        widths: Sequence[float],
        header: bool = True,
        right: Sequence[int] = (),
        mono: Sequence[int] = (),
        spans: Sequence[tuple[int, int, int]] = (),
    ) -> Table:
        """A table over the full text width; ``widths`` are shares of it. Long tables split across
        pages and repeat their header row. ``spans`` are (row, first column, last column)."""
        total = sum(widths)
        cols = [self.width * w / total for w in widths]
        body = []
        for r, row in enumerate(rows):
            out = []
            for c, value in enumerate(row):
                if header and r == 0:
                    style = self.s.cell_bold
                elif c in right:
                    style = self.s.cell_right
                elif c in mono:
                    style = self.s.cell_mono
                else:
                    style = self.s.cell
                out.append(self.cell(value, style))
            body.append(out)
        t = _Table(
            body,
            colWidths=cols,
            repeatRows=1 if header else 0,
            hAlign="LEFT",
            spaceBefore=2,
            spaceAfter=8,
        )
        t.setStyle(table_style(header=header, rows=len(body)))
        for at, first, last in spans:
            t.setStyle([("SPAN", (first, at), (last, at))])
        return t

    def pairs(self, items: Sequence[tuple[str, Cell]], label_share: float = 0.35) -> Table:
        """A two-column label/value table without a header."""
        rows = [[self.cell(k, self.s.cell_bold), v] for k, v in items]
        return self.table(rows, [label_share, 1 - label_share], header=False)

    # ----------------------------------------------------------------------- figures

    def figure(self, drawing: Drawing, caption: str) -> Flowable:
        """A drawing scaled to the text width (never wider) with a numbered caption below."""
        self.figures += 1
        if drawing.width > self.width:
            scale = self.width / drawing.width
            drawing.scale(scale, scale)
            drawing.width *= scale
            drawing.height *= scale
        drawing.hAlign = "CENTER"
        label = Text(f"Figure {self.figures}. {escape(caption)}", self.s.caption)
        return KeepTogether([Spacer(1, 4), drawing, label])
