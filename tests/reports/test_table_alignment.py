"""Figures line up on their digits: in every table of the proposal a column of figures (a count,
gigabytes, watts, an amount) is set right-aligned, and a column of words (a name, a description,
a part number, a source) left-aligned. Checked over every bundled example's document tree, and
over a bill priced from the sample price list."""

from __future__ import annotations

import html
import re

import pytest

import reports.word as word
from reports import doctree as t
from reports.document import ReportOptions
from reports.proposal import proposal_pdf
from tests.conftest import ROOT
from wizard.app.io import design_from_text
from wizard.app.pricing import load_prices
from wizard.base.bundled import example_names, example_text
from wizard.engine import plan

# Headers whose column holds one figure a row (or nothing)
FIGURES = {
    "Allocated", "Cables starting there", "Count", "Dataset GB", "Down", "GB/s",
    "GPU memory GB", "GPUs / replica", "GPUs in ring", "GPUs per VM", "Gb/s", "Hosts", "Members",
    "Models GB", "Optics", "Out-of-band switches", "PDUs", "Ports", "Read GB/s", "Replicas", "U",
    "Up", "W each", "W total",
}  # fmt: skip
# Headers whose column holds words
WORDS = {
    "Category", "Part number", "Description", "Src.", "Source", "Group", "Kind", "Item", "Note",
    "Risk", "Mitigation", "Decision", "Setting", "Component", "Role", "Rack", "Device",
}  # fmt: skip


def _plain(cell: t.Para) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", cell.text)).replace("\xad", "").strip()


def _tables(p, monkeypatch) -> list[t.Table]:
    got: list = []
    monkeypatch.setattr(word, "to_docx", lambda blocks, *a: got.extend(blocks) or b"")
    proposal_pdf(p, ReportOptions(word=True))
    return [b for b in got if isinstance(b, t.Table) and b.header]


def _columns(table: t.Table):
    for c, head in enumerate(table.rows[0]):
        body = [r[c] for r in table.rows[1:] if c < len(r) and _plain(r[c])]
        yield _plain(head), {cell.role for cell in body}


@pytest.fixture(scope="module")
def tables(catalog) -> list[t.Table]:
    mp = pytest.MonkeyPatch()
    try:
        found = []
        for name in example_names():
            found += _tables(plan(design_from_text(example_text(name)), catalog), mp)
        return found
    finally:
        mp.undo()


def test_columns_of_figures_are_right_aligned_and_columns_of_words_left(tables):
    seen: set[str] = set()
    for table in tables:
        for head, roles in _columns(table):
            if head in FIGURES:
                assert roles <= {"cell_right"}, (head, roles)
                seen.add(head)
            elif head in WORDS:
                assert "cell_right" not in roles, (head, roles)
    assert {"GPUs / replica", "Replicas", "Members", "Ports", "W total"} <= seen


def test_a_priced_bills_quantities_and_amounts_are_right_aligned(catalog, monkeypatch):
    """With the sample price list the bill gains a unit price and a total a line: those, and the
    quantity, line up on the right; without prices the quantity still does."""
    design = design_from_text(example_text("llm-serving"))
    prices = load_prices(ROOT / "resources/examples/prices-sample.toml")
    for p, figures in (
        (plan(design, catalog, prices), ("Quantity", "Unit price (EUR)", "Total (EUR)")),
        (plan(design, catalog), ("Quantity",)),
    ):
        (bill,) = [x for x in _tables(p, monkeypatch) if _plain(x.rows[0][1]) == "Part number"]
        columns = dict(_columns(bill))
        for head in figures:
            assert columns[head] == {"cell_right"}, (head, columns[head])
        for head in ("Category", "Part number", "Description", "Src."):
            assert "cell_right" not in columns[head], head
