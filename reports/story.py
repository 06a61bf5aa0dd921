"""The small vocabulary sections are written in: numbered headings, escaped paragraphs, tables
whose cells wrap, figures with captions, and numbered source citations."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias
from xml.sax.saxutils import escape

from reportlab.graphics.shapes import Drawing
from reportlab.platypus import CondPageBreak, Flowable, KeepTogether, Paragraph, Spacer, Table

from reports.data import ReportData
from reports.fonts import with_fallback
from reports.styles import Styles, table_style
from wizard.present.fields import in_document_words
from wizard.present.references import customer_source

Cell: TypeAlias = str | Flowable


class Text(Paragraph):
    """Every paragraph of the report goes through here: a design field the engine names by its
    path reads as its label (no page of the program is named); the markup (user text escaped, plus the report's own tags)
    gets the runs DejaVu cannot draw set in the fallback font, after escaping, so no tag added
    comes from user text. A split paragraph is rebuilt from parsed fragments."""

    def __init__(self, text: str | None, style=None, bulletText: str | None = None, **kwargs):
        if text is not None:
            text = with_fallback(in_document_words(text))
        super().__init__(text, style, bulletText, **kwargs)


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
        self.section = 0
        self.subsection = 0
        self.figures = 0
        self.shown_calculations: set[str] = set()  # ids already in a calculation table

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
        source = customer_source(source, self.data.catalog)
        n = self.sources.setdefault(source, len(self.sources) + 1)
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
        t = Table(
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
