"""The Word copy's contents: a TOC field whose result, until Word updates it, lists every
numbered heading of the proposal once, in the document's order, one paragraph each, indented
by level (ECMA-376 Part 1, 17.16.5.68 TOC; the field's result lies between its 'separate' and
'end' field characters)."""

from __future__ import annotations

import io

from docx import Document
from docx.oxml.ns import qn

from reports.data import build_data
from reports.document import ReportOptions, build_pdf
from wizard.app.catalog_loader import load_catalog
from wizard.app.io import design_from_text
from wizard.base.bundled import example_text


def _field_result(doc) -> list[tuple[int, str]]:
    """(indent in points, text) of each paragraph of the TOC field's result."""
    out: list[tuple[int, str]] = []
    inside = False
    for p in doc.paragraphs:
        kinds = [c.get(qn("w:fldCharType")) for c in p._p.iter(qn("w:fldChar"))]
        if "separate" in kinds:
            inside = True
        if inside:
            texts = "".join(t.text or "" for t in p._p.iter(qn("w:t")))
            indent = p.paragraph_format.left_indent
            out.append((round(indent.pt) if indent is not None else 0, texts))
        if "end" in kinds:
            break
    return out


def test_the_contents_lists_every_heading_once_in_order_one_paragraph_each():
    data = build_data(design_from_text(example_text("starter")), load_catalog(include_user=False))
    doc = Document(io.BytesIO(build_pdf(data, ReportOptions(word=True))))
    headings = [
        (0 if p.style.name == "Heading 1" else 14, p.text)
        for p in doc.paragraphs
        if p.style.name in ("Heading 1", "Heading 2") and p.text != "Contents"
    ]
    assert len(headings) >= 10
    assert _field_result(doc) == headings
