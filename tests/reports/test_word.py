"""The editable Word copy: the same story as the PDF, so every heading, table and figure the PDF
lays out is in the .docx, in order; user text stays text; the CLI writes it for a .docx name."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from docx import Document

import reports.word
from reports import doctree
from reports.data import build_data
from reports.document import ReportOptions, build_pdf
from tests.conftest import ROOT, run_cli
from wizard.app.catalog_loader import load_catalog
from wizard.app.io import design_from_dict, design_from_text
from wizard.base.bundled import example_text


def _word(design, monkeypatch, **options):
    """The .docx of ``design`` and the document tree it was written from."""
    seen = {}
    real = reports.word.to_docx

    def keep(flow, *args):
        seen["flow"] = flow
        return real(flow, *args)

    monkeypatch.setattr(reports.word, "to_docx", keep)
    data = build_data(design, load_catalog(include_user=False))
    blob = build_pdf(data, ReportOptions(word=True, **options))
    return Document(io.BytesIO(blob)), seen["flow"], blob


@pytest.mark.parametrize("name", ["enterprise", "llm-serving"])
def test_the_word_copy_has_every_heading_table_and_figure_of_the_story(name, monkeypatch):
    doc, items, _ = _word(design_from_text(example_text(name), name), monkeypatch)
    want = [(h.level + 1, f"{h.number}  {h.title}") for h in doctree.walk_headings(items)]
    got = [(int(p.style.name.split()[-1]), p.text) for p in doc.paragraphs
           if p.style.name in ("Heading 1", "Heading 2")]  # fmt: skip
    got = [g for g in got if g[1] != "Contents"]
    assert [t.replace("\xa0", " ") for _, t in got] == [t.replace("\xa0", " ") for _, t in want]
    assert [lvl for lvl, _ in got] == [lvl for lvl, _ in want]
    # the summary's figure cards are a table of two rows: the figures and their labels
    tables = [len(t.rows) if isinstance(t, doctree.Table) else 2 for t in items
              if isinstance(t, doctree.Table | doctree.Cards)]  # fmt: skip
    assert len(doc.tables) == len(tables)
    for docx_table, rows in zip(doc.tables, tables, strict=True):
        assert len(docx_table.rows) == rows
    drawings = [d for d in items if isinstance(d, doctree.Figure)]
    assert drawings, "the story has figures"
    assert len(doc.inline_shapes) == len(drawings)
    for shape in doc.inline_shapes:
        blob = shape._inline.graphic.graphicData.pic.blipFill.blip.embed
        part = doc.part.related_parts[blob]
        assert part.content_type == "image/png" and part.blob[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_bill_of_materials_reads_the_same_in_word(monkeypatch):
    """Every BOM line of the enterprise design is a row of the Word copy's BOM table, its
    quantity in the row."""
    design = design_from_text(example_text("enterprise"), "enterprise")
    doc, _, _ = _word(design, monkeypatch)
    r = build_data(design, load_catalog(include_user=False)).result
    text = ["\t".join(c.text for c in row.cells) for t in doc.tables for row in t.rows]
    for line in r.bom.lines:
        assert any(line.description[:30] in row and f"{line.quantity:,}" in row for row in text), (
            line.description
        )


def test_user_text_is_text_in_word(monkeypatch):
    doc_dict = json.loads(example_text("starter"))
    doc_dict["project"]["customer"] = "<b>ACME</b> & <font size=40>Co</font>"
    doc, _, blob = _word(design_from_dict(doc_dict), monkeypatch)
    assert any(
        "<b>ACME</b> & <font size=40>Co</font>" in c.text
        for t in doc.tables
        for row in t.rows
        for c in row.cells
    )
    with zipfile.ZipFile(io.BytesIO(blob)) as z:  # the markup is characters, not XML
        assert "<b>ACME" not in z.read("word/document.xml").decode()


def test_the_cli_writes_the_word_copy_for_a_docx_name(tmp_path):
    import subprocess
    import sys

    out = tmp_path / "acme.docx"
    done = subprocess.run(
        [sys.executable, "-m", "wizard", "report", str(ROOT / "docs" / "acme-two-clusters.json"),
         "-o", str(out)], capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    doc = Document(str(out))
    heads = [p.text for p in doc.paragraphs if p.style.name == "Heading 1"]
    assert any("Executive summary" in h for h in heads)
    assert any("HGX cluster: sizing per workload" in h for h in heads)
    bad = subprocess.run(
        [sys.executable, "-m", "wizard", "report", str(ROOT / "docs" / "acme-two-clusters.json"),
         "-o", str(tmp_path / "acme.txt")], capture_output=True, text=True,
    )  # fmt: skip
    assert bad.returncode != 0 and "-o" in bad.stderr and ".docx" in bad.stderr
    assert "Traceback" not in bad.stderr


@pytest.fixture(scope="module")
def acme_docx(tmp_path_factory) -> Path:
    """acme-options' Word copy, written once by the command line for the tests that read it."""
    out = tmp_path_factory.mktemp("word") / "acme.docx"
    proc = run_cli("report", str(ROOT / "docs" / "acme-options.json"), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    return out


def test_word_is_asked_to_update_the_fields_on_open(acme_docx):
    """ECMA-376 Part 1, 17.15.1.90 updateFields: with it true Word updates the contents and the
    page numbers when the file opens (python-docx writes no such setting by itself)."""
    from lxml import etree

    with zipfile.ZipFile(acme_docx) as z:
        settings = etree.fromstring(z.read("word/settings.xml"))
    w = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
    (flag,) = settings.findall(f"{w}updateFields")
    assert flag.get(f"{w}val") == "true"


def test_table_grids_match_their_cell_widths(acme_docx):
    """Word lays a table out by its cells' widths, LibreOffice by the grid: the two must agree,
    column by column, in every table (python-docx alone writes equal grid columns), and the
    layout is fixed so neither program re-flows the columns. Headings carry Word's heading
    styles, which its navigation pane lists."""
    from lxml import etree

    with zipfile.ZipFile(acme_docx) as z:
        body = etree.fromstring(z.read("word/document.xml"))
    w = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
    tables = body.iter(f"{w}tbl")
    n, unequal = 0, False
    for tbl in tables:
        grid = [int(c.get(f"{w}w")) for c in tbl.find(f"{w}tblGrid").findall(f"{w}gridCol")]
        first = tbl.find(f"{w}tr")
        cells = [int(c.find(f"{w}tcPr/{w}tcW").get(f"{w}w")) for c in first.findall(f"{w}tc")]
        if len(cells) == len(grid):  # a merged first row spans grid columns
            assert grid == cells
        unequal = unequal or len(set(grid)) > 1
        assert tbl.find(f"{w}tblPr/{w}tblLayout").get(f"{w}type") == "fixed"
        n += 1
    assert n > 10 and unequal  # the bill's description column is wider than its others
    styles = {p.get(f"{w}val") for p in body.iter(f"{w}pStyle")}
    assert {"Heading1", "Heading2"} <= styles
