"""Colours, paragraph styles and table styles: the report's look, kept in one place."""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_RIGHT
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import TableStyle

from reports.fonts import MONO, SANS, SANS_BOLD, SANS_ITALIC, register_fonts
from wizard.present.paper import PAPER

PAGE_SIZES: dict[str, tuple[float, float]] = dict(zip(PAPER, (A4, LETTER), strict=True))
MARGIN_X = 20 * mm
MARGIN_TOP = 24 * mm
MARGIN_BOTTOM = 20 * mm

INK = colors.HexColor("#1f2933")
MUTED = colors.HexColor("#616e7c")
ACCENT = colors.HexColor("#0b6e4f")
ACCENT_LIGHT = colors.HexColor("#e3f1eb")
RULE = colors.HexColor("#cbd2d9")
ZEBRA = colors.HexColor("#f5f7fa")
WARN = colors.HexColor("#b54708")
ERROR = colors.HexColor("#b42318")

# One colour per memory component (and series in general), distinguishable in grey print too.
SERIES = [
    colors.HexColor("#0b6e4f"),
    colors.HexColor("#2d9cdb"),
    colors.HexColor("#f2994a"),
    colors.HexColor("#9b51e0"),
    colors.HexColor("#eb5757"),
    colors.HexColor("#828282"),
    colors.HexColor("#f2c94c"),
]


@dataclass(frozen=True)
class Styles:
    title: ParagraphStyle
    subtitle: ParagraphStyle
    h1: ParagraphStyle
    h2: ParagraphStyle
    h3: ParagraphStyle
    body: ParagraphStyle
    small: ParagraphStyle
    caption: ParagraphStyle
    cell: ParagraphStyle
    cell_bold: ParagraphStyle
    cell_right: ParagraphStyle
    cell_mono: ParagraphStyle
    cell_small: ParagraphStyle
    figure: ParagraphStyle
    figure_label: ParagraphStyle
    toc1: ParagraphStyle
    toc2: ParagraphStyle


def make_styles() -> Styles:
    register_fonts()
    body = ParagraphStyle(
        "Body", fontName=SANS, bulletFontName=SANS, fontSize=9.5, leading=13.5, textColor=INK
    )
    cell = ParagraphStyle("Cell", parent=body, fontSize=8, leading=10)
    return Styles(
        title=ParagraphStyle(
            "Title", parent=body, fontName=SANS_BOLD, fontSize=26, leading=32, textColor=INK
        ),
        subtitle=ParagraphStyle(
            "Subtitle", parent=body, fontSize=14, leading=19, textColor=ACCENT, spaceAfter=4
        ),
        h1=ParagraphStyle(
            "H1",
            parent=body,
            fontName=SANS_BOLD,
            fontSize=16,
            leading=20,
            textColor=ACCENT,
            spaceBefore=16,
            spaceAfter=8,
            keepWithNext=1,
        ),
        h2=ParagraphStyle(
            "H2",
            parent=body,
            fontName=SANS_BOLD,
            fontSize=12,
            leading=15,
            spaceBefore=10,
            spaceAfter=5,
            keepWithNext=1,
        ),
        h3=ParagraphStyle(
            "H3",
            parent=body,
            fontName=SANS_BOLD,
            fontSize=10,
            leading=13,
            spaceBefore=6,
            spaceAfter=3,
            keepWithNext=1,
        ),
        body=ParagraphStyle("BodySpaced", parent=body, spaceAfter=6),
        small=ParagraphStyle("Small", parent=body, fontSize=8, leading=10.5, textColor=MUTED),
        caption=ParagraphStyle(
            "Caption",
            parent=body,
            fontName=SANS_ITALIC,
            fontSize=8,
            leading=10,
            textColor=MUTED,
            alignment=TA_CENTER,
            spaceBefore=3,
            spaceAfter=10,
        ),
        cell=cell,
        cell_bold=ParagraphStyle("CellBold", parent=cell, fontName=SANS_BOLD),
        cell_right=ParagraphStyle("CellRight", parent=cell, alignment=TA_RIGHT),
        cell_mono=ParagraphStyle("CellMono", parent=cell, fontName=MONO, fontSize=7.5),
        cell_small=ParagraphStyle(
            "CellSmall", parent=cell, fontSize=6.5, leading=8, textColor=MUTED
        ),
        figure=ParagraphStyle(
            "Figure",
            parent=body,
            fontName=SANS_BOLD,
            fontSize=20,
            leading=24,
            textColor=ACCENT,
            alignment=TA_CENTER,
        ),
        figure_label=ParagraphStyle(
            "FigureLabel", parent=cell, textColor=MUTED, alignment=TA_CENTER
        ),
        toc1=ParagraphStyle(
            "TOC1", parent=body, fontName=SANS_BOLD, fontSize=9.5, leading=12, leftIndent=0
        ),
        toc2=ParagraphStyle("TOC2", parent=body, fontSize=8.5, leading=10, leftIndent=16),
    )


CELL_PADDING = 4  # points left and right of a table cell's text


def table_style(header: bool = True, zebra: bool = True, rows: int = 0) -> TableStyle:
    """Thin rules, a tinted header row and light zebra stripes: readable in colour and in grey."""
    cmds: list[tuple] = [
        ("FONTNAME", (0, 0), (-1, -1), SANS),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), CELL_PADDING),
        ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PADDING),
        ("TOPPADDING", (0, 0), (-1, -1), 2.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
        ("LINEBELOW", (0, -1), (-1, -1), 0.5, RULE),
    ]
    if header:
        cmds += [
            ("BACKGROUND", (0, 0), (-1, 0), ACCENT_LIGHT),
            ("LINEBELOW", (0, 0), (-1, 0), 0.75, ACCENT),
        ]
    if zebra:
        first = 1 if header else 0
        cmds += [("BACKGROUND", (0, r), (-1, r), ZEBRA) for r in range(first + 1, rows, 2)]
    return TableStyle(cmds)
