"""The PDF and the Word copy of every bundled example carry the same words: the text, the
tables cell by cell, the figure captions and the strings drawn in each figure, in the same
order. Each document is read back as a reader's tool reads it (pypdf, python-docx), not from
the objects the writers were given.

Whitespace is left out of the comparison (a PDF breaks lines anywhere in a table cell). What
only a printed page has is left out of the PDF's side: the running header and footer, the
contents' pages (Word fills its contents itself) and the bullet signs; a long table's header
row may come again between its rows (reportlab repeats it on each page the table continues
on). A Word figure is a picture; its strings are its description (alternative text)."""

from __future__ import annotations

import io
import re
import zipfile
from typing import TypeAlias

import pytest
from docx import Document
from docx.oxml.ns import qn
from pypdf import PdfReader

from reports.data import build_data
from reports.document import ReportOptions, build_pdf
from reports.styles import MARGIN_BOTTOM, MARGIN_TOP
from tests.reports.conftest import FIXED_DATE, contents_pages, squash
from wizard.app.io import design_from_text
from wizard.base.bundled import example_names, example_text

MM = 72 / 25.4
WORD_CONTENTS_NOTE = "Word fills in the contents"
SOFT_HYPHEN = "\xad"


def pdf_stream(reader: PdfReader) -> str:
    """The words of the page bodies, in order, without whitespace."""
    texts = [p.extract_text() for p in reader.pages]
    skip = set(contents_pages(texts))
    out: list[str] = []
    for n, page in enumerate(reader.pages):
        if n in skip:
            continue
        top = float(page.mediabox.top) - MARGIN_TOP + 1 * MM
        bottom = MARGIN_BOTTOM - 3 * MM
        runs: list[str] = []

        def visit(text, cm, tm, font, size, runs=runs, top=top, bottom=bottom):
            y = cm[1] * tm[4] + cm[3] * tm[5] + cm[5]
            if text.strip() and bottom <= y <= top:
                runs.append(text)

        page.extract_text(visitor_text=visit)
        out.append(squash("".join(runs)).replace("•", ""))
    return "".join(out)


def _runs_text(element) -> str:
    """A paragraph's text and the descriptions of its pictures, in order."""
    parts = []
    for node in element.iter(qn("w:t"), qn("wp:docPr")):
        parts.append(node.text or "" if node.tag == qn("w:t") else node.get("descr", ""))
    return "".join(parts)


Part: TypeAlias = tuple[str, bool]  # words without whitespace; True: the PDF may leave them out


def word_stream(blob: bytes, descriptions: bool = True) -> list[Part]:
    """The body's words in order without whitespace (the contents field and its note left
    out). Between two rows of a table whose first row is its header, the header row again,
    as one the PDF may have: a page that continues a long table repeats its header there."""
    doc = Document(io.BytesIO(blob))
    out: list[Part] = []
    in_contents = seen = False
    for element in doc.element.body.iterchildren():
        if element.tag == qn("w:p"):
            text = _runs_text(element) if descriptions else element.xpath("string(.)")
            if squash(text) == "Contents" and not seen:
                in_contents = seen = True
                continue
            if in_contents:
                in_contents = not text.startswith(WORD_CONTENTS_NOTE)
                continue
            out.append((squash(text), False))
        elif element.tag == qn("w:tbl"):
            header = None
            for n, tr in enumerate(element.iter(qn("w:tr"))):
                row = "".join(squash(_runs_text(tc)) for tc in tr.iter(qn("w:tc")))
                if n == 0 and tr.find(f"{qn('w:trPr')}/{qn('w:tblHeader')}") is not None:
                    header = row
                elif header:
                    out.append((header, True))
                out.append((row, False))
    return out


def _pattern(words: str) -> str:
    return "-?".join(re.escape(part) for part in words.split(SOFT_HYPHEN))


def same(printed: str, words: list[Part]) -> bool:
    """The PDF's words are the Word copy's, where a soft hyphen (a place a long word may
    break) reads as the hyphen the PDF drew when it broke there, or as nothing, and a table's
    header row may come again between its rows."""
    pattern = "".join(f"(?:{_pattern(t)})?" if again else _pattern(t) for t, again in words if t)
    return re.fullmatch(pattern, printed) is not None


def plain(words: list[Part]) -> str:
    return "".join(t for t, again in words if not again).replace(SOFT_HYPHEN, "")


def _first_difference(a: str, b: str) -> str:
    n = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return f"at {n}: PDF …{a[max(0, n - 60) : n + 60]}… Word …{b[max(0, n - 60) : n + 60]}…"


@pytest.fixture(scope="module")
def documents(catalog):
    """(PDF, Word copy) of a bundled example, each made once."""
    made: dict[str, tuple[bytes, bytes]] = {}

    def get(name: str) -> tuple[bytes, bytes]:
        if name not in made:
            data = build_data(design_from_text(example_text(name)), catalog)
            pdf = build_pdf(data, ReportOptions(date=FIXED_DATE))
            word = build_pdf(data, ReportOptions(date=FIXED_DATE, word=True))
            made[name] = pdf, word
        return made[name]

    return get


@pytest.mark.parametrize("name", example_names())
def test_the_pdf_and_the_word_copy_carry_the_same_words(documents, name):
    pdf, word = documents(name)
    words = word_stream(word)
    printed = pdf_stream(PdfReader(io.BytesIO(pdf)))
    assert len(printed) > 5000  # the whole body was read, not an empty page range
    assert same(printed, words), _first_difference(printed, plain(words))


@pytest.mark.parametrize("name", ["enterprise", "starter"])
def test_the_figures_and_their_captions_are_in_both(documents, name):
    """Every figure of the PDF has its caption in the Word copy, and its picture describes
    itself with the figure's strings (a picture without them would not match the PDF)."""
    pdf, word = documents(name)
    printed = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    doc = Document(io.BytesIO(word))
    captions = [p.text for p in doc.paragraphs if p.style.name == "Caption"]
    numbers = sorted({int(n) for n in re.findall(r"Figure (\d+)\. ", printed)})
    assert numbers == list(range(1, len(captions) + 1)) and captions
    described = [s.get("descr") for s in doc.element.body.iter(qn("wp:docPr"))]
    assert len(described) >= len(captions) and all(described[-len(captions) :])
    # without the descriptions the words differ: the comparison sees a figure's strings
    assert not same(pdf_stream(PdfReader(io.BytesIO(pdf))), word_stream(word, descriptions=False))


def test_a_changed_cell_is_seen(documents):
    """The negative case: one table cell of the Word copy changed, and the words differ."""
    pdf, word = documents("starter")
    files = zipfile.ZipFile(io.BytesIO(word))
    xml = files.read("word/document.xml").decode("utf-8")
    cells = re.findall(r"<w:tc>.*?<w:t>([^<]{3,})</w:t>", xml)
    assert cells
    changed = xml.replace(f"<w:t>{cells[-1]}</w:t>", f"<w:t>{cells[-1]}x</w:t>", 1)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for item in files.infolist():
            z.writestr(item, changed if item.filename == "word/document.xml" else files.read(item))
    assert not same(pdf_stream(PdfReader(io.BytesIO(pdf))), word_stream(out.getvalue()))
