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

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    KeepTogether,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Spacer,
    Table,
    TableStyle,
)
from reportlab.platypus.tableofcontents import TableOfContents

from reports import sections
from reports.data import ReportData
from reports.fonts import SANS, SANS_BOLD, draw_string, fit, missing_glyphs, register_fonts
from reports.logo import load_logo
from reports.story import Heading, Story, Text
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
from wizard.base.numbers import MISSING, some

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

    def split(self, aW: float, aH: float) -> list[Flowable]:
        last = self._content[-1]
        if isinstance(last, Table) and len(self._content) > 1:
            heads = sum(f.wrap(aW, aH)[1] + f.getSpaceBefore() + f.getSpaceAfter()
                        for f in self._content[:-1])  # fmt: skip
            if aH - heads >= self.MIN_ROWS_PT and last.wrap(aW, aH)[1] > aH - heads:
                return list(self._content)
        return super().split(aW, aH)


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
        frame = Frame(
            MARGIN_X, MARGIN_BOTTOM, w - 2 * MARGIN_X, h - MARGIN_TOP - MARGIN_BOTTOM, id="body"
        )
        cover = Frame(MARGIN_X, MARGIN_BOTTOM, w - 2 * MARGIN_X, h - 60 * mm - MARGIN_BOTTOM)
        self.addPageTemplates(
            [
                PageTemplate("cover", [cover], onPage=self._cover_page, pagesize=pagesize),
                PageTemplate("body", [frame], onPage=self._body_page, pagesize=pagesize),
            ]
        )

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


def _cover(story: Story, options: ReportOptions, date: dt.date, design_line: str) -> list:
    s = story.s
    data = story.data
    project = data.design.project
    flow: list = []
    if project.logo_path:
        image, notice = load_logo(
            project.logo_path, options.logo_base, 70 * mm, 28 * mm, options.named_logos
        )
        if notice:
            options.notices.append(notice)
        if image is not None:
            flow += [image, Spacer(1, 8 * mm)]
    flow += [
        Text(escape(data.title()), s.title),
        Spacer(1, 4 * mm),
        Text(
            escape(f"for {project.customer}") if project.customer else "Reference architecture",
            s.subtitle,
        ),
        Spacer(1, 10 * mm),
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
        flow += [Spacer(1, 8 * mm), story.p(project.notes, s.small)]
    return flow


def build_pdf(data: ReportData, options: ReportOptions | None = None) -> bytes:
    """The whole proposal as PDF bytes. Notices (e.g. an unusable logo) land in
    ``options.notices``; nothing here raises for a valid Result."""
    r = data.result
    line = (
        f"{r.cluster.hosts_total} × {data.server.product_name}, "
        f"{r.cluster.gpus_total} × {data.gpu.name}"
    )
    return render(data, options or ReportOptions(), sections.build_all, line)


def render(
    data: ReportData,
    options: ReportOptions,
    body: Callable[[Story], list[Flowable]],
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

    def story_for_pass() -> list:
        del options.notices[notices_before:]
        story = Story(data, styles, width)
        flow = _cover(story, options, date, design_line)
        flow += [NextPageTemplate("body"), PageBreak()]
        toc = TableOfContents(
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
        flow += [Text("Contents", styles.h1), toc, PageBreak()]
        flow += body(story)
        return flow

    if options.word:
        from reports.word import to_docx

        return to_docx(story_for_pass(), data, date, pagesize)
    buffer = BytesIO()
    doc = ProposalTemplate(buffer, data, date, pagesize)
    doc.multiBuild(story_for_pass(), canvasmaker=partial(NumberedCanvas, report_date=date))
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
