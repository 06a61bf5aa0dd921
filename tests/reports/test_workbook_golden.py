"""Golden test of how the bill-of-materials workbook is laid out, for every bundled example and
the docs' design of several clusters: each sheet's name, heading row, column widths and every
row's height (a row is as tall as its most wrapped cell at its column's width).

The bill's figures are pinned by source-derived tests (tests/engine, tests/reports/test_bill_*);
this pins the sheets a customer opens. After an intended change, regenerate with
    GPUWIZARD_UPDATE_GOLDEN=1 python -m pytest tests/reports/test_workbook_golden.py
and review the diff of tests/reports/golden/workbooks.json.
"""

from __future__ import annotations

import io
import json
import os

from openpyxl import load_workbook

from reports.bom_export import bom_xlsx
from tests.conftest import ROOT
from wizard.app.io import design_from_text
from wizard.base.bundled import example_names, example_text
from wizard.engine import plan

GOLDEN = ROOT / "tests" / "reports" / "golden" / "workbooks.json"
DOCS = ("acme-two-clusters",)


def _layout(data: bytes) -> dict[str, dict]:
    book = load_workbook(io.BytesIO(data))
    out = {}
    for ws in book.worksheets:
        columns = [chr(ord("A") + i) for i in range(ws.max_column)]
        out[ws.title] = {
            "heading": [c.value for c in ws[1]],
            "widths": [ws.column_dimensions[c].width for c in columns],
            "heights": [ws.row_dimensions[r].height for r in range(1, ws.max_row + 1)],
        }
    return out


def _workbooks(catalog) -> dict[str, dict]:
    texts = {n: example_text(n) for n in example_names()}
    texts |= {n: (ROOT / "docs" / f"{n}.json").read_text(encoding="utf-8") for n in DOCS}
    out = {}
    for name, text in texts.items():
        p = plan(design_from_text(text), catalog)
        out[name] = _layout(bom_xlsx(p.estate.bom, p.port_map, p.estate.kept))
    return out


def test_every_workbook_is_laid_out_as_the_golden_says(catalog):
    got = _workbooks(catalog)
    if os.environ.get("GPUWIZARD_UPDATE_GOLDEN"):
        GOLDEN.write_text(json.dumps(got, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert list(got) == list(want)
    for name, sheets in got.items():
        assert list(sheets) == list(want[name]), name
        for title, sheet in sheets.items():
            for part in ("heading", "widths", "heights"):
                assert sheet[part] == want[name][title][part], f"{name}, {title}: {part}"
