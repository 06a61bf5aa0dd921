"""The workbook's rows have heights: LibreOffice opens a sheet at the stored row heights and does
not grow a row to its wrapped text, so rows without one overlap their neighbours' text. Each row
gets the height of its tallest cell's lines at the column's width."""

from __future__ import annotations

import io
import json

from openpyxl import load_workbook

from reports.bom_export import ROW_PT, XLSX_WIDTHS, bom_xlsx, row_lines
from tests.conftest import ROOT
from wizard.app.io import design_from_dict
from wizard.engine.decide.estate import size_estate


def test_lines_by_hand():
    # width 8 leaves 7 characters: "aaa bbb" fills a line, "ccc" takes the next
    assert row_lines(["aaa bbb ccc"], [8]) == 2
    # a 10-character word in 4-character lines: ceil(10 / 4) = 3
    assert row_lines(["a" * 10], [5]) == 3
    # numbers and empty cells take one line; the tallest cell sets the row
    assert row_lines([12, None, "", "x"], [5, 5, 5, 5]) == 1
    assert row_lines(["one", "aaa bbb ccc ddd e"], [20, 8]) == 3  # "aaa bbb", "ccc ddd", "e"


def test_every_row_of_the_bill_has_its_height(catalog):
    doc = json.loads((ROOT / "docs" / "acme-two-clusters.json").read_text(encoding="utf-8"))
    e = size_estate(design_from_dict(doc), catalog)
    ws = load_workbook(io.BytesIO(bom_xlsx(e.bom))).active
    widths = [22, *XLSX_WIDTHS]  # a cluster column first
    rows = [[c.value for c in row] for row in ws.iter_rows()]
    tall = 0
    for r, row in enumerate(rows, start=1):
        height = ws.row_dimensions[r].height
        assert height == ROW_PT * row_lines(row, widths), r
        tall += height > ROW_PT
    assert tall  # the long descriptions wrap (e.g. the servers' configuration lines)
