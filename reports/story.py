"""The small vocabulary sections are written in: numbered headings, escaped paragraphs, tables
whose cells wrap, figures with captions, and numbered source citations. Each builds nodes of
the neutral document tree (``reports.doctree``), which the PDF and the Word writer render."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias
from xml.sax.saxutils import escape

from reportlab.graphics.shapes import Drawing

from reports.data import ReportData
from reports.doctree import Block, Bullets, Figure, Heading, Para, Table
from reports.styles import Styles
from wizard.present.references import customer_source

Cell: TypeAlias = str | Para


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

    def h1(self, title: str) -> list[Block]:
        self.section += 1
        self.subsection = 0
        return [Heading(0, title, str(self.section), f"s{self.section}")]

    def h2(self, title: str) -> list[Block]:
        self.subsection += 1
        number = f"{self.section}.{self.subsection}"
        return [Heading(1, title, number, f"s{number}")]

    def h3(self, title: str) -> list[Block]:
        """A run-in heading, moved to the next page rather than left alone at the bottom."""
        return [Heading(2, title)]

    # ------------------------------------------------------------------------- text

    def p(self, text: str, role: str = "body") -> Para:
        """A paragraph of plain text (escaped: user text never breaks the markup)."""
        return Para(escape(text), role)

    def markup(self, text: str, role: str = "body") -> Para:
        """A paragraph of the tree's markup (``reports.doctree``); the caller escapes any user
        text in it."""
        return Para(text, role)

    def cite(self, source: str) -> str:
        """``[n]``: the number of ``source`` in the appendix's list of sources, which gives it as
        the customer reads it (the vendor's reference, no catalog id or working note)."""
        told = self._told.get(source)
        if told is None:  # a large design cites the same few sources thousands of times
            told = self._told[source] = customer_source(source, self.data.catalog)
        n = self.sources.setdefault(told, len(self.sources) + 1)
        return f"[{n}]"

    def bullets(self, items: Sequence[str]) -> list[Block]:
        kept = tuple(escape(item) for item in items if item)  # skip empty
        return [Bullets(kept)] if kept else []

    # ------------------------------------------------------------------------ tables

    def cell(self, value: Cell, role: str = "cell") -> Para:
        if isinstance(value, Para):
            return value
        return Para(escape(str(value)), role)

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
        body = []
        cell = self.cell
        for r, row in enumerate(rows):
            out = []
            for c, value in enumerate(row):
                if header and r == 0:
                    role = "cell_bold"
                elif c in right:
                    role = "cell_right"
                elif c in mono:
                    role = "cell_mono"
                else:
                    role = "cell"
                out.append(cell(value, role))
            body.append(tuple(out))
        return Table(tuple(body), tuple(widths), header, tuple(spans))

    def pairs(self, items: Sequence[tuple[str, Cell]], label_share: float = 0.35) -> Table:
        """A two-column label/value table without a header."""
        rows = [[self.cell(k, "cell_bold"), v] for k, v in items]
        return self.table(rows, [label_share, 1 - label_share], header=False)

    # ----------------------------------------------------------------------- figures

    def figure(self, drawing: Drawing, caption: str) -> Figure:
        """A drawing scaled to the text width (never wider) with a numbered caption below."""
        self.figures += 1
        if drawing.width > self.width:
            scale = self.width / drawing.width
            drawing.scale(scale, scale)
            drawing.width *= scale
            drawing.height *= scale
        return Figure(drawing, self.figures, caption)
