"""The PDF proposal: page templates (cover, body), table of contents, headers and footers with
page X of Y, outline, metadata. Sections come from ``reports.sections``; this module only lays
them out.

Reproducible: the canvas runs in reportlab's invariant mode and the only date in the document is
the one passed in, so the same design and date give the same bytes.
"""

from __future__ import annotations

import calendar
import datetime as dt
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from io import BytesIO
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab import rl_config
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    KeepTogether,
    PageTemplate,
    Table,
    TableStyle,
)
from reportlab.platypus.flowables import _listWrapOn
from reportlab.platypus.tableofcontents import TableOfContents

from reports import doctree as t
from reports import sections
from reports.data import ReportData
from reports.fonts import SANS, SANS_BOLD, draw_string, fit, missing_glyphs, register_fonts
from reports.logo import load_logo
from reports.pdf_writer import Heading, Writer, forget_parsed
from reports.story import Story
from reports.styles import (
    ACCENT,
    MARGIN_BOTTOM,
    MARGIN_TOP,
    MARGIN_X,
    MUTED,
    PAGE_SIZES,
    RULE,
    make_styles,
)
from wizard import __version__
from wizard.base.numbers import MISSING, count, some

TITLE = "GPU infrastructure proposal"


@dataclass
class ReportOptions:
    page_size: str = "a4"
    date: dt.date | None = None  # cover and footer date; default: the design's, else today
    word: bool = False  # the editable Word copy (.docx) instead of the PDF
    logo_base: Path | None = None  # folder a relative logo path is taken from
    named_logos: tuple[str, ...] = ()  # logo files the user named, read wherever they are
    notices: list[str] = field(default_factory=list)  # filled: what the reader should know


class NumberedCanvas(Canvas):
    """Holds every page until the end so the footer can say "page X of Y"."""

    def __init__(self, *args, report_date: dt.date, **kwargs) -> None:
        kwargs["initialFontName"] = SANS  # no unembedded Helvetica in the font list
        super().__init__(*args, **kwargs)
        self._pages: list[dict] = []
        # Creation and modification date: the report's date (midnight UTC), not the run's.
        stamp = self._doc._timeStamp
        epoch = calendar.timegm(report_date.timetuple())
        stamp.t, stamp.lt = epoch, time.gmtime(epoch)
        stamp.YMDhms = tuple(stamp.lt)[:6]
        stamp.dhh = stamp.dmm = 0
        stamp.tzname = "UTC"

    def showPage(self) -> None:
        self._pages.append(dict(self.__dict__))
        self._startPage()

    def save(self) -> None:
        total = len(self._pages)
        for state in self._pages:
            self.__dict__.update(state)
            if self._pageNumber > 1:  # the cover carries no number
                width, _ = self._pagesize
                self.setFont(SANS, 7.5)
                self.setFillColor(MUTED)
                self.drawRightString(
                    width - MARGIN_X, MARGIN_BOTTOM - 9 * mm, f"Page {self._pageNumber} of {total}"
                )
            super().showPage()
        super().save()


class _HeadingAndNext(KeepTogether):
    """A heading kept with what follows it. ReportLab moves the pair to the next page whenever
    it does not fit whole, which left half pages empty before a long table; a table that starts
    with at least a few rows under its heading here is split over the pages instead."""

    MIN_ROWS_PT = 72  # the header row and a few rows

    def wrap(self, aW: float, aH: float) -> tuple[float, float]:
        """As KeepTogether measures, but a table at the end only as far as the room there is:
        whether the group fits is all the split asks of a height past that room, and reportlab
        stops measuring a long table's rows once they fill it (its whole length, hundreds of
        rows in a large design, was measured at every try of every page)."""
        last = self._content[-1]
        if not isinstance(last, Table):
            return super().wrap(aW, aH)
        dims: list[tuple[float, float]] = []
        parts = [*self._content[:-1], _Within(last, aH)]
        width, self._H = _listWrapOn(parts, aW, self.canv, dims=dims)
        self._H0 = dims[0][1] if dims else 0
        self._wrapInfo = aW, aH
        return width, 0xFFFFFF  # force a split, as KeepTogether does

    def split(self, aW: float, aH: float) -> list[Flowable]:
        last = self._content[-1]
        if isinstance(last, Table) and len(self._content) > 1:
            heads = sum(f.wrap(aW, aH)[1] + f.getSpaceBefore() + f.getSpaceAfter()
                        for f in self._content[:-1])  # fmt: skip
            if aH - heads >= self.MIN_ROWS_PT and last.wrap(aW, aH)[1] > aH - heads:
                return list(self._content)
        return super().split(aW, aH)


class _Within(Flowable):
    """A flowable measured against at most ``room`` points of height (a long table then stops
    at the rows that fill it); its spaces are the flowable's own."""

    def __init__(self, inner: Flowable, room: float) -> None:
        super().__init__()
        self._inner, self._room = inner, room

    def wrapOn(self, canv: Canvas, aW: float, aH: float) -> tuple[float, float]:
        return self._inner.wrapOn(canv, aW, min(aH, self._room + 1))

    def getSpaceBefore(self) -> float:
        return self._inner.getSpaceBefore()

    def getSpaceAfter(self) -> float:
        return self._inner.getSpaceAfter()


class _Contents(TableOfContents):
    """The contents, set as a table once for each list of entries and width: reportlab sets
    every entry again each time the contents are measured (twice a pass, as it splits them
    over their pages), a thousand entries in a large design."""

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        made = (list(self._lastEntries), availWidth)
        if self._table is None or getattr(self, "_made", None) != made:
            self._made = made
            size = super().wrap(availWidth, availHeight)
            self._draw_end = self.canv.getNamedCB("drawTOCEntryEnd")
            return size
        self.canv.setNamedCB("drawTOCEntryEnd", self._draw_end)
        size = self._table.wrapOn(self.canv, availWidth, availHeight)
        self.width, self.height = size
        return size


class _Frame(Frame):
    """A frame that, in a pass that only lays out, places each flowable without drawing it:
    drawing is half a page's time, and only the last pass's drawing is kept."""

    def __init__(self, drawing: _Switch, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._drawing = drawing

    def _add(self, flowable: Flowable, canv: Canvas, trySplit: int = 0) -> int:
        if self._drawing.on:
            return super()._add(flowable, canv, trySplit)
        object.__setattr__(flowable, "drawOn", _placed)  # a drawing checks what is set on it
        try:
            return super()._add(flowable, canv, trySplit)
        finally:
            object.__delattr__(flowable, "drawOn")

    add = _add


class _Switch:
    """Whether the frames draw; shared, not copied, when reportlab copies a frame to measure."""

    on = True

    def __deepcopy__(self, memo: dict) -> _Switch:
        return self


def _placed(*args, **kwargs) -> None:
    """What a flowable draws in a pass that only lays out: nothing."""


def headings(flow: list[Flowable]) -> Iterator[Heading]:
    """The story's headings in order, inside kept-together groups too."""
    for item in flow:
        if isinstance(item, Heading):
            yield item
        elif isinstance(item, KeepTogether):
            yield from headings(item._content)


class ProposalTemplate(BaseDocTemplate):
    def __init__(self, buffer: BytesIO, data: ReportData, date: dt.date, pagesize) -> None:
        project = data.design.project
        super().__init__(
            buffer,
            pagesize=pagesize,
            leftMargin=MARGIN_X,
            rightMargin=MARGIN_X,
            topMargin=MARGIN_TOP,
            bottomMargin=MARGIN_BOTTOM,
            title=f"{TITLE}: {data.title()}",
            author=project.architect or "gpuwizard",
            subject=(f"GPU infrastructure for {project.customer}" if project.customer else TITLE),
            creator=f"gpuwizard {__version__}",
            keywords=["GPU", "machine learning", "reference architecture"],
            invariant=1,
            lang="en",
            keepTogetherClass=_HeadingAndNext,
        )
        self.data = data
        self.date = date
        w, h = pagesize
        self.drawing = _Switch()  # off: a pass that only lays out (see multiBuild)
        self._passes = -1  # multiBuild's passes so far; -1 outside multiBuild
        frame = _Frame(
            self.drawing, MARGIN_X, MARGIN_BOTTOM, w - 2 * MARGIN_X, h - MARGIN_TOP - MARGIN_BOTTOM,
            id="body",
        )  # fmt: skip
        cover = _Frame(
            self.drawing, MARGIN_X, MARGIN_BOTTOM, w - 2 * MARGIN_X, h - 60 * mm - MARGIN_BOTTOM
        )
        self.addPageTemplates(
            [
                PageTemplate("cover", [cover], onPage=self._cover_page, pagesize=pagesize),
                PageTemplate("body", [frame], onPage=self._body_page, pagesize=pagesize),
            ]
        )

    def multiBuild(self, story, maxPasses=10, **buildKwds):
        """Two passes where reportlab takes three, the first only laid out. The contents are
        given their entries (every heading of the story, pages not yet known) before the first
        pass, so they take the room they will take and the body's pages do not move between the
        passes: the first finds each heading's page, the second draws with them and confirms.
        A heading that did move costs a further pass, as before; the document is the same."""
        for item in story:
            if isinstance(item, TableOfContents):
                item._entries = [(h.toc_level, h.toc_markup, 0, h.toc_key) for h in headings(story)]
        self._passes = 0  # counted by build: the first only lays out
        try:
            return super().multiBuild(story, maxPasses, **buildKwds)
        finally:
            self._passes = -1

    def build(self, flowables, **kwargs):
        if self._passes >= 0:
            self._passes += 1
        self.drawing.on = self._passes != 1
        try:
            super().build(flowables, **kwargs)
        finally:
            self.drawing.on = True

    def afterFlowable(self, flowable) -> None:
        if isinstance(flowable, Heading):
            self.canv.bookmarkPage(flowable.toc_key)
            plain = flowable.getPlainText()
            self.canv.addOutlineEntry(plain, flowable.toc_key, flowable.toc_level, closed=True)
            # The contents page sets each entry as a Paragraph, which parses markup: it gets the
            # heading's own markup, where user text (a group's name, say) is escaped, so it stays
            # text (an <img> tag in a name must never make the PDF read a file), and runs DejaVu
            # cannot draw are already set in the fallback font.
            self.notify(
                "TOCEntry", (flowable.toc_level, flowable.toc_markup, self.page, flowable.toc_key)
            )

    def _cover_page(self, canv: Canvas, doc) -> None:
        w, h = doc.pagesize
        canv.saveState()
        canv.setFillColor(ACCENT)
        canv.rect(0, h - 38 * mm, w, 38 * mm, stroke=0, fill=1)
        canv.setFillColorRGB(1, 1, 1)
        canv.setFont(SANS_BOLD, 11)
        canv.drawString(MARGIN_X, h - 22 * mm, TITLE.upper())
        canv.setFont(SANS, 8)
        canv.setFillColor(MUTED)
        canv.drawString(
            MARGIN_X,
            MARGIN_BOTTOM - 9 * mm,
            f"Prepared with gpuwizard {__version__}. Every figure is traced in the calculation "
            "log of this document.",
        )
        canv.restoreState()

    def _body_page(self, canv: Canvas, doc) -> None:
        w, h = doc.pagesize
        project = self.data.design.project
        left = self.data.title()
        if project.customer:
            left = f"{left} · {project.customer}"
        canv.saveState()
        canv.setStrokeColor(RULE)
        canv.setLineWidth(0.5)
        canv.line(MARGIN_X, h - MARGIN_TOP + 6 * mm, w - MARGIN_X, h - MARGIN_TOP + 6 * mm)
        canv.line(MARGIN_X, MARGIN_BOTTOM - 6 * mm, w - MARGIN_X, MARGIN_BOTTOM - 6 * mm)
        canv.setFont(SANS, 7.5)
        canv.setFillColor(MUTED)
        _draw_clipped(canv, MARGIN_X, h - MARGIN_TOP + 8 * mm, left, (w - 2 * MARGIN_X) * 0.7)
        canv.drawRightString(w - MARGIN_X, h - MARGIN_TOP + 8 * mm, TITLE)
        canv.drawString(MARGIN_X, MARGIN_BOTTOM - 9 * mm, self.date.isoformat())
        canv.restoreState()


def _draw_clipped(canv: Canvas, x: float, y: float, text: str, width: float) -> None:
    shown, size = fit(text, width, SANS, 7.5, 7.5)
    draw_string(canv, x, y, shown, SANS, size)


def _cover(story: Story, options: ReportOptions, date: dt.date, design_line: str) -> list[t.Block]:
    data = story.data
    project = data.design.project
    flow: list[t.Block] = []
    if project.logo_path:
        picture, notice = load_logo(
            project.logo_path, options.logo_base, 70 * mm, 28 * mm, options.named_logos
        )
        if notice:
            options.notices.append(notice)
        if picture is not None:
            flow += [picture, t.Space(8 * mm)]
    flow += [
        t.Para(escape(data.title()), "title"),
        t.Space(4 * mm),
        t.Para(
            escape(f"for {project.customer}") if project.customer else "Reference architecture",
            "subtitle",
        ),
        t.Space(10 * mm),
    ]
    rows = [
        ("Customer", project.customer or MISSING),
        ("Project", project.project_name or MISSING),
        ("Architect", project.architect or MISSING),
        ("Date", date.isoformat()),
        ("Design", design_line),
    ]
    flow.append(story.pairs(rows, 0.22))
    if project.notes:
        flow += [t.Space(8 * mm), story.p(project.notes, "small")]
    return flow


def build_pdf(data: ReportData, options: ReportOptions | None = None) -> bytes:
    """The whole proposal of ``data``'s plan, one cluster or several, as PDF bytes (or the Word
    copy). Notices (e.g. an unusable logo) land in ``options.notices``; nothing here raises for
    a valid plan."""
    return render(data, options or ReportOptions(), sections.build_all, design_line(data))


def design_line(data: ReportData) -> str:
    """The cover's one line on the design: its hosts and GPUs by product, or for several
    clusters the clusters, hosts, GPUs and power."""
    e = data.plan.estate
    t = e.totals
    if len(e.clusters) == 1:
        return f"{t.hosts} × {data.server.product_name}, {t.gpus} × {data.gpu.name}"
    return (
        f"{count(len(e.clusters), 'cluster')}: {count(t.hosts, 'host')}, "
        f"{count(t.gpus, 'GPU')}, {t.total_kw:,.1f} kW"
    )


def render(
    data: ReportData,
    options: ReportOptions,
    body: Callable[[Story], list[t.Block]],
    design_line: str,
) -> bytes:
    """Cover, contents and ``body`` laid out as the proposal; ``data`` gives the cover, the
    running header and the document's metadata."""
    register_fonts()
    pagesize = PAGE_SIZES[options.page_size]
    date = options.date or data.design.project.date or dt.date.today()
    styles = make_styles()
    width = pagesize[0] - 2 * MARGIN_X
    notices_before = len(options.notices)

    def tree() -> list[t.Block]:
        """The whole document as one tree: cover, contents, body."""
        del options.notices[notices_before:]
        story = Story(data, styles, width)
        blocks = _cover(story, options, date, design_line)
        blocks += [t.PageBreak(body=True), t.Para("Contents", "h1"), t.Contents(), t.PageBreak()]
        return blocks + body(story)

    def contents() -> Flowable:
        return _Contents(
            levelStyles=[styles.toc1, styles.toc2],
            dotsMinLevel=0,
            tableStyle=TableStyle(
                [
                    ("FONTNAME", (0, 0), (-1, -1), SANS),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ]
            ),
        )

    forget_parsed()
    a85 = rl_config.useA85
    try:
        if options.word:
            from reports.word import to_docx

            return to_docx(tree(), data, date, pagesize)
        buffer = BytesIO()
        doc = ProposalTemplate(buffer, data, date, pagesize)
        # Page streams compressed only: ASCII85 on top makes them a quarter longer, a text
        # form no reader needs, and encoding it was a twentieth of a large proposal's time.
        rl_config.useA85 = 0
        flow = Writer(styles, width, contents).flowables(tree())
        doc.multiBuild(flow, canvasmaker=partial(NumberedCanvas, report_date=date))
    finally:
        rl_config.useA85 = a85
        forget_parsed()
    _say_missing_glyphs(data, options)
    return buffer.getvalue()


def _design_texts(value: object, path: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _design_texts(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _design_texts(item, f"{path}[{i}]")


def _say_missing_glyphs(data: ReportData, options: ReportOptions) -> None:
    texts = _design_texts(data.design.model_dump(mode="json", exclude={"project": {"logo_path"}}))
    chars, fields = missing_glyphs(texts)
    if chars:
        shown = " ".join(chars[:12]) + (f" and {len(chars) - 12:,} more" if len(chars) > 12 else "")
        options.notices.append(
            f"the proposal's fonts have no glyph for {len(chars):,} character"
            f"{'' if len(chars) == 1 else 's'} in {some(fields, 4)} ({shown}); they print as "
            "empty boxes. The bundled fonts cover Latin, Greek, Cyrillic, Chinese, Japanese and "
            "Korean script, not emoji or rarer symbols"
        )
