"""The proposal as one neutral document tree: what the sections say (headings, paragraphs,
bullet lists, tables, figures with their captions, the summary's figure cards) and the few
layout hints both documents honour (a page break, a space), with nothing of either writer in
it. The PDF writer (``reports.pdf_writer``) and the Word writer (``reports.word``) each render
the same tree, so the two copies cannot drift and a new kind of block is one node both writers
must handle.

Paragraph text is markup in a small, explicit subset (``INLINE_TAGS``): user text escaped, bold
``<b>``, italic ``<i>``, superscript ``<super>``, a line break ``<br/>`` and the entities
``&amp; &lt; &gt; &quot; &nbsp;``. A figure's vector content is a reportlab graphics
``Drawing`` (a drawing, not a page-layout object), which the PDF draws and Word rasterizes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias
from xml.sax.saxutils import escape

from reportlab.graphics.shapes import Drawing

INLINE_TAGS = frozenset({"b", "i", "super", "br"})

# A paragraph's role: how it reads (body text, a note, a caption, a table cell, ...). The PDF
# sets each role in its paragraph style of the same name (reports.styles.Styles); Word maps the
# roles to its own styles.
ROLES = frozenset(
    {
        "body", "small", "caption", "title", "subtitle", "h1", "h3",
        "cell", "cell_bold", "cell_right", "cell_mono", "cell_small",
        "figure", "figure_label",
    }
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Para:
    """A paragraph of markup (see the module) in a role (``ROLES``)."""

    text: str
    role: str = "body"


@dataclass(frozen=True, slots=True)
class Heading:
    """A numbered section (level 0) or subsection (level 1), in the contents and the outline
    under ``key``, or a run-in heading (level 2, not numbered). ``title`` is plain text."""

    level: int
    title: str
    number: str = ""
    key: str = ""

    @property
    def markup(self) -> str:
        title = escape(self.title)
        return f"{self.number}&nbsp;&nbsp;{title}" if self.number else title


@dataclass(frozen=True, slots=True)
class Bullets:
    """A bulleted list of body text, one item of markup each."""

    items: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Table:
    """A table over the text width: ``rows`` of cells, ``widths`` the columns' shares of the
    width, a ``header`` row repeated on each page it continues on; ``spans`` are (row, first
    column, last column) merged into one cell."""

    rows: tuple[tuple[Para, ...], ...]
    widths: tuple[float, ...]
    header: bool = True
    spans: tuple[tuple[int, int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Figure:
    """A numbered figure: the vector drawing (already no wider than the text) and its caption
    (plain text), kept together on one page."""

    drawing: Drawing
    number: int
    caption: str

    @property
    def caption_markup(self) -> str:
        return f"Figure {self.number}. {escape(self.caption)}"


@dataclass(frozen=True, slots=True)
class Cards:
    """The summary's headline figures: one card each, the value above its label."""

    values: tuple[str, ...]
    labels: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Picture:
    """A raster image (the customer's logo on the cover) at ``width`` x ``height`` points."""

    data: bytes
    width: float
    height: float


@dataclass(frozen=True, slots=True)
class Contents:
    """The table of contents: every numbered heading of the document, with its page."""


@dataclass(frozen=True, slots=True)
class PageBreak:
    """The next block starts a new page; ``body``: it starts the body's pages (after the cover)."""

    body: bool = False


@dataclass(frozen=True, slots=True)
class Space:
    """Vertical space of ``height`` points (the PDF's layout; Word keeps its own spacing)."""

    height: float


Block: TypeAlias = (
    Para | Heading | Bullets | Table | Figure | Cards | Picture | Contents | PageBreak | Space
)


def walk_headings(blocks: list[Block]) -> list[Heading]:
    """The numbered headings (sections and subsections), in order."""
    return [b for b in blocks if isinstance(b, Heading) and b.level < 2]
