"""Every proposal a customer reads, for every bundled example and the two Acme designs (and the
option acme-options proposes): each NVIDIA switch, NIC, optical module, cable and NVLink bridge
on the bill stands in the PDF with its part number or with its mark, and the table of figures
to confirm lists exactly the bill lines the catalog marks (a settled part number, such as
NVIDIA's own MMA1T00-VS or MQM9700-NS2F, is never in it)."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from reports.document import ReportOptions
from reports.proposal import proposal_pdf
from tests.engine.test_port_ends import CASES, design_of
from wizard.engine import plan
from wizard.model.buildout import BomCategory as Cat

PARTS = (Cat.SWITCH, Cat.NIC, Cat.TRANSCEIVER, Cat.CABLE, Cat.NVLINK_BRIDGE)


_DOCUMENTS: dict[str, tuple] = {}


def _document(name: str, catalog):
    """(bill, the bill's PDF text, the table of figures to confirm), rendered once per name."""
    if name not in _DOCUMENTS:
        _DOCUMENTS[name] = _render(name, catalog)
    return _DOCUMENTS[name]


def _render(name: str, catalog):
    p = plan(design_of(name), catalog)
    pdf = proposal_pdf(p, ReportOptions())
    pages = [pg.extract_text() for pg in PdfReader(io.BytesIO(pdf)).pages]
    start = next(i for i, t in enumerate(pages) if "Bill of materials" in t and "Part number" in t)
    bill = " ".join(" ".join(pages[start:]).split())
    head = bill.index("Figures to confirm with the vendor")
    table = bill[head : bill.index("Calculations", head)]
    return p.estate.bom, bill[:head], table


def _name(description: str) -> str:
    """A line's name as the table gives it: its words up to the first comma outside
    parentheses."""
    depth = 0
    for i, ch in enumerate(description):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            return " ".join(description[:i].split())
    return " ".join(description.split())[:40]


@pytest.mark.parametrize("name", CASES)
def test_every_nvidia_part_stands_with_its_number_or_its_mark(name, catalog):
    bom, bill, _ = _document(name, catalog)
    for ln in bom.lines:
        if ln.category not in PARTS or not ln.description.startswith("NVIDIA"):
            continue
        if ln.part_number:
            assert ln.part_number in bill, (name, ln.item)
        else:  # no number read: the line says the number is to confirm
            assert "part number" in ln.to_confirm, (name, ln.item)


@pytest.mark.parametrize("name", CASES)
def test_the_table_to_confirm_lists_exactly_the_marked_lines(name, catalog):
    bom, _, table = _document(name, catalog)
    marked = [ln for ln in bom.lines if ln.to_confirm]
    assert marked, name  # every design bills at least one licence without a published SKU
    numbers = {ln.part_number for ln in marked if ln.part_number}
    for ln in marked:
        said = ln.part_number or _name(ln.description)
        assert said in table, (name, ln.item)
    settled = {ln.part_number for ln in bom.lines if ln.part_number and not ln.to_confirm}
    for number in settled - numbers:
        assert number not in table, (name, number)


def test_the_proposed_option_marks_its_bridges_and_its_shipped_licence(catalog):
    """acme-options proposes H100 NVL pairs: the bridge line has no number (none was read) and
    says so; the NVIDIA AI Enterprise years the H100 NVL ships with are a reseller's reading."""
    _, bill, table = _document("acme-options, as proposed", catalog)
    assert "NVIDIA NVLink 4 bridge for NVIDIA H100 NVL 94GB" in table
    assert "bridges per group, part number" in table
    assert "part number, years included with the GPU" in table
    assert "MMA1T00-VS" in bill and "MMA1T00-VS" not in table
