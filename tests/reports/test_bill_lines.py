"""The bill an installer orders from: in the PDF, no part number, quantity or amount is split
over two lines of its cell, a line that comes with another part says 'included' rather than
'0', and the proposal of a design of several clusters is priced when the proposal has a price
list (as its workbook and cost section are)."""

from __future__ import annotations

import io
import json
import re

import pytest
from pypdf import PdfReader

from reports.document import ReportOptions
from reports.proposal import proposal_pdf
from tests.conftest import ROOT
from wizard.app.io import design_from_dict
from wizard.app.pricing import load_prices
from wizard.engine import plan

PRICES = ROOT / "resources" / "examples" / "prices-sample.toml"


@pytest.fixture(scope="module")
def two(catalog):
    doc = json.loads((ROOT / "docs" / "acme-two-clusters.json").read_text(encoding="utf-8"))
    p = plan(design_from_dict(doc), catalog, load_prices(PRICES))
    pdf = proposal_pdf(p, ReportOptions())
    pages = [pg.extract_text() for pg in PdfReader(io.BytesIO(pdf)).pages]
    start = next(i for i, t in enumerate(pages) if "Bill of materials" in t and "Part number" in t)
    end = next(i for i, t in enumerate(pages[start:], start) if "Per rack" in t)
    return p, "\n".join(pages[start : end + 1])


def test_every_part_number_stands_whole_on_one_line(two):
    """Each part number of the bill is found whole on a line of the PDF's text (a cut one,
    'MCP7Y00-N02 / A', is not)."""
    p, text = two
    lines = text.splitlines()
    numbers = {ln.part_number for ln in p.estate.bom.lines if ln.part_number}
    assert numbers
    for number in numbers:
        assert any(number in line for line in lines), number


def test_the_several_cluster_bill_is_priced(two):
    """The price list prices the QM9700 (MQM9700-NS2F) at 6,666.00: the bill's line shows the
    unit price and the total, 1 x 6,666.00, each on one line."""
    p, text = two
    priced = p.priced
    assert priced is not None and priced.total
    qm = next(ln for ln in priced.lines if ln.part_number == "MQM9700-NS2F")
    assert (qm.quantity, qm.unit_price) == (1, 6666.0)
    folded = " ".join(text.split())
    assert re.search(r"MQM9700-NS2F.{0,200}?6,666\.00 6,666\.00", folded)
    for ln in priced.lines:
        if ln.total_price:
            assert any(f"{ln.total_price:,.2f}" in x for x in text.splitlines()), ln.item


def test_a_line_that_comes_with_a_part_says_included_not_zero(two):
    """The QM9700's embedded subnet manager comes with the switch: '1 fabric, included'."""
    _, text = two
    folded = " ".join(text.split())
    assert "1 fabric, included" in folded
    assert not re.search(r"subnet manager[^\n]*\s0 fabric", folded)


def test_the_figures_to_confirm_are_listed_in_one_table(two):
    """Every bill line the catalog marks unsettled is in the table of figures to confirm, by
    its part number (the SN4600C's third-party MSN4600-CS2FC among them); a settled one, the
    QM9700's MQM9700-NS2F, is not."""
    p, text = two
    folded = " ".join(text.split())
    start = folded.index("Figures to confirm with the vendor")
    table = folded[start:]
    marked = {ln.part_number for ln in p.estate.bom.lines if ln.to_confirm and ln.part_number}
    assert "MSN4600-CS2FC" in marked
    for number in marked:
        assert number in table, number
    assert "MQM9700-NS2F" not in table
    # a name is cut at a comma outside its parentheses, never inside them
    assert "(per core, minimum 16" in table and "(per core Notebook" not in table


def test_no_rdma_none_in_the_network_words(two_cluster_text):
    assert "RDMA: None" not in two_cluster_text and "RDMA None" not in two_cluster_text


def test_a_cable_count_is_said_once(two_cluster_text):
    """The shared networks' table and figure say '15 Cat 6 RJ45 patch cords', never
    '15 × 15 Cat 6 RJ45 patch cords'."""
    assert "15 Cat 6 RJ45 patch cords" in two_cluster_text
    said_twice = r"\b(\d[\d,]*) × \1 (Cat 6|fibres?|direct-attach|optical)"
    assert not re.search(said_twice, two_cluster_text)
    assert not re.search(r"\b(\d[\d,]*) × \d[\d,]* Gb/s [a-z ]+: \1 ", two_cluster_text)
