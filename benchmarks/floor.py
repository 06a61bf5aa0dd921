"""The floor a proposal's speed is held to: a plain reportlab platypus document of N pages, set in
the proposal's embedded fonts (DejaVu, ``reports.fonts``), of the same kinds of content (headings,
paragraphs, tables and vector drawings), written the way reportlab's own manual writes one.

Each page holds a heading, two paragraphs, a 12-row table and a drawing of 40 shapes and 16
labels, then a page break, so a document of N blocks has exactly N pages and the same text
density as a proposal page. It is what laying out N such pages costs at the least; the
proposal's PDF and Word copy are measured against it (``benchmarks/run.py``).

Run ``python benchmarks/floor.py 34`` for the time of one 34-page document. This file is the
yardstick: it is not to change with the proposal's speed work.
"""

from __future__ import annotations

import sys
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from reportlab.graphics.shapes import Drawing, Line, Rect, String  # noqa: E402
from reportlab.lib import colors  # noqa: E402
from reportlab.lib.pagesizes import A4  # noqa: E402
from reportlab.lib.styles import ParagraphStyle  # noqa: E402
from reportlab.lib.units import mm  # noqa: E402
from reportlab.platypus import (  # noqa: E402
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from reports.fonts import MONO, SANS, SANS_BOLD, SANS_ITALIC, register_fonts  # noqa: E402

WORDS = (
    "The cluster runs eight GPUs per host on a non-blocking fabric; each training job takes "
    "whole GPUs by passthrough while the inference service shares its GPUs as vGPU profiles. "
    "Power, cooling and rack space follow from the host count, and every figure is traced to "
    "its source in the calculation log at the end of the document. "
)


def _styles() -> dict[str, ParagraphStyle]:
    body = ParagraphStyle("Body", fontName=SANS, fontSize=9.5, leading=13.5, spaceAfter=6)
    return {
        "h1": ParagraphStyle(
            "H1",
            parent=body,
            fontName=SANS_BOLD,
            fontSize=16,
            leading=20,
            spaceBefore=16,
            spaceAfter=8,
        ),
        "body": body,
        "cell": ParagraphStyle("Cell", parent=body, fontSize=8, leading=10, spaceAfter=0),
        "mono": ParagraphStyle(
            "Mono", parent=body, fontName=MONO, fontSize=7.5, leading=10, spaceAfter=0
        ),
        "caption": ParagraphStyle(
            "Caption", parent=body, fontName=SANS_ITALIC, fontSize=8, leading=10
        ),
    }


def _drawing(width: float, page: int) -> Drawing:
    d = Drawing(width, 150)
    for i in range(8):
        x = 10 + i * (width - 20) / 8
        d.add(
            Rect(
                x,
                20,
                (width - 20) / 8 - 6,
                100,
                fillColor=colors.HexColor("#e3f1eb"),
                strokeColor=colors.HexColor("#0b6e4f"),
                strokeWidth=0.75,
            )
        )
        for k in range(3):
            d.add(
                Rect(
                    x + 4,
                    30 + 28 * k,
                    (width - 20) / 8 - 14,
                    20,
                    fillColor=colors.white,
                    strokeColor=colors.grey,
                    strokeWidth=0.5,
                )
            )
        d.add(String(x + 4, 126, f"Host {page}.{i + 1}", fontName=SANS, fontSize=7))
        d.add(String(x + 4, 8, f"GPU {8 * i}-{8 * i + 7}", fontName=SANS, fontSize=6.5))
    d.add(Line(10, 140, width - 10, 140, strokeColor=colors.HexColor("#0b6e4f")))
    return d


def _page(n: int, s: dict[str, ParagraphStyle], width: float) -> list:
    rows = [[Paragraph(h, s["cell"]) for h in ("Item", "Role", "Count", "Watts", "Part")]]
    for r in range(11):
        rows.append(
            [
                Paragraph(f"Server {n}.{r} with eight H100 SXM5 80 GB GPUs", s["cell"]),
                Paragraph("GPU host, training and inference", s["cell"]),
                Paragraph(f"{r + 1:,}", s["cell"]),
                Paragraph(f"{(r + 1) * 10_200:,} W", s["cell"]),
                Paragraph(f"XE9680-{n:03d}-{r:02d}", s["mono"]),
            ]
        )
    table = Table(
        rows,
        colWidths=[w * width for w in (0.32, 0.28, 0.1, 0.12, 0.18)],
        repeatRows=1,
        hAlign="LEFT",
    )
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), SANS),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e3f1eb")),
                ("LINEBELOW", (0, 0), (-1, 0), 0.75, colors.HexColor("#0b6e4f")),
                ("LINEBELOW", (0, -1), (-1, -1), 0.5, colors.HexColor("#cbd2d9")),
            ]
        )
    )
    return [
        Paragraph(f"{n}&nbsp;&nbsp;Section {n} of the document", s["h1"]),
        Paragraph(WORDS * 2, s["body"]),
        table,
        Spacer(1, 6),
        _drawing(width, n),
        Paragraph(f"Figure {n}. The hosts of rack {n} and their GPUs.", s["caption"]),
        Paragraph(WORDS, s["body"]),
        PageBreak(),
    ]


def floor_pdf(pages: int) -> bytes:
    """A plain platypus document of exactly ``pages`` A4 pages (each block fits one page and
    ends with a page break)."""
    register_fonts()
    buffer = BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=A4,
        leftMargin=20 * mm,
        rightMargin=20 * mm,
        topMargin=24 * mm,
        bottomMargin=20 * mm,
        invariant=1,
    )
    s = _styles()
    flow: list = []
    for n in range(1, pages + 1):
        flow += _page(n, s, doc.width)
    flow.pop()  # no page break after the last block
    doc.build(flow)
    return buffer.getvalue()


def floor_time(pages: int) -> float:
    """Seconds to build the ``pages``-page floor document."""
    start = time.perf_counter()
    floor_pdf(pages)
    return time.perf_counter() - start


def main() -> None:
    pages = int(sys.argv[1]) if len(sys.argv) > 1 else 34
    floor_pdf(1)  # fonts registered and parsed before the measured run
    print(f"platypus floor, {pages} pages: {floor_time(pages) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
