"""Every page of a proposal PDF as contact sheets (eight pages a sheet), for the docs and for
reviewing a report at a glance: ``python scripts/proposal_pages.py docs/sample-enterprise.pdf``
writes ``docs/pages/sample-enterprise-1.png`` and on. Pages are rendered with pypdfium2 (the
Word copy's renderer) and laid out with Pillow (reportlab's own image library)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageDraw

COLUMNS, ROWS = 4, 2
SCALE = 0.75  # 54 dpi: a page's layout and figures readable, its small print not
GAP = 12


def sheets(pdf: Path, out_dir: Path) -> list[Path]:
    doc = pdfium.PdfDocument(str(pdf))
    pages = [doc[i].render(scale=SCALE).to_pil().convert("RGB") for i in range(len(doc))]
    w = max(p.width for p in pages)
    h = max(p.height for p in pages)
    per = COLUMNS * ROWS
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for n, first in enumerate(range(0, len(pages), per), 1):
        batch = pages[first : first + per]
        rows = (len(batch) + COLUMNS - 1) // COLUMNS
        sheet = Image.new("RGB", (COLUMNS * (w + GAP) + GAP, rows * (h + GAP) + GAP), "#c8ccd2")
        draw = ImageDraw.Draw(sheet)
        for i, page in enumerate(batch):
            r, c = divmod(i, COLUMNS)
            x, y = GAP + c * (w + GAP), GAP + r * (h + GAP)
            sheet.paste(page, (x, y))
            draw.rectangle([x - 1, y - 1, x + page.width, y + page.height], outline="#8a9099")
        path = out_dir / f"{pdf.stem}-{n}.png"
        sheet.quantize(colors=64, dither=Image.Dither.NONE).save(path, optimize=True)
        written.append(path)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdf", type=Path, nargs="+")
    parser.add_argument("--out", type=Path, default=Path("docs/pages"))
    args = parser.parse_args()
    for pdf in args.pdf:
        for path in sheets(pdf, args.out):
            print(path)


if __name__ == "__main__":
    main()
