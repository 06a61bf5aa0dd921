"""The proposal is one neutral document tree (reports.doctree) that two writers render: the
sections build the tree and know nothing of reportlab's page layout, the Word writer reads only
tree nodes, and each writer has a form for every kind of node."""

from __future__ import annotations

import ast
import typing

import pytest
from reportlab.graphics.shapes import Drawing, String

from reports import doctree as t
from reports.pdf_writer import Writer
from reports.styles import make_styles
from reports.word import UnknownBlock, inline_runs, to_docx
from tests.conftest import ROOT


def _imports(path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def _uses_platypus(path) -> bool:
    return any(n == "reportlab.platypus" or n.startswith("reportlab.platypus.")
               for n in _imports(path))  # fmt: skip


def test_sections_story_tree_and_word_writer_do_not_use_reportlabs_page_layout():
    reports = ROOT / "reports"
    neutral = [*sorted((reports / "sections").glob("*.py")), reports / "story.py",
               reports / "doctree.py", reports / "word.py"]  # fmt: skip
    assert len(neutral) > 20
    assert [p.name for p in neutral if _uses_platypus(p)] == []
    # the check reads imports: the PDF writer, which must use platypus, is seen to
    assert _uses_platypus(reports / "pdf_writer.py")


def test_the_word_writer_has_no_isinstance_on_reportlab_flowables():
    source = (ROOT / "reports" / "word.py").read_text(encoding="utf-8")
    for name in ("Flowable", "Paragraph", "KeepTogether", "Spacer", "CondPageBreak", "Table)"):
        assert f"isinstance(item, {name}" not in source and f", {name})" not in source


NODES = typing.get_args(t.Block)


def _one_of_each() -> list[t.Block]:
    drawing = Drawing(100, 40)
    drawing.add(String(5, 5, "GPU 0"))
    cell = t.Para("a &amp; b", "cell")
    return [
        t.Para("Title", "title"),
        t.Space(10),
        t.PageBreak(body=True),
        t.Contents(),
        t.PageBreak(),
        t.Heading(0, "Summary", "1", "s1"),
        t.Cards(("8", "2"), ("GPUs", "hosts")),
        t.Heading(1, "Detail", "1.1", "s1.1"),
        t.Heading(2, "Run-in"),
        t.Para("Body with <b>bold</b> text"),
        t.Bullets(("one", "two")),
        t.Table(
            ((t.Para("Head", "cell_bold"), t.Para("Value", "cell_bold")), (cell, cell)),
            (1.0, 2.0),
            spans=((1, 0, 1),),
        ),
        t.Figure(drawing, 1, "A figure"),
    ]


def test_every_kind_of_node_has_a_pdf_and_a_word_form():
    """A new kind of node added to the tree without a writer's form fails here, not in a
    customer's document."""
    blocks = _one_of_each()
    assert {type(b) for b in blocks} == set(NODES) - {t.Picture}
    flow = Writer(make_styles(), 480, lambda: Drawing(1, 1)).flowables(blocks)
    assert len(flow) > len(blocks)

    from reports.data import build_data
    from wizard.app.catalog_loader import load_catalog
    from wizard.app.io import design_from_text
    from wizard.base.bundled import example_text

    data = build_data(design_from_text(example_text("starter")), load_catalog(include_user=False))
    import datetime as dt
    import io

    from docx import Document

    blob = to_docx(blocks, data, dt.date(2026, 1, 5), (595, 842))
    doc = Document(io.BytesIO(blob))
    text = [p.text for p in doc.paragraphs]
    assert "1  Summary" in text and "1.1  Detail" in text and "Run-in" in text
    assert "Figure 1. A figure" in text and "Body with bold text" in text
    assert [c.text for c in doc.tables[1].rows[1].cells] == ["a & b", "a & b"]  # merged
    assert len(doc.inline_shapes) == 1

    class Unknown:
        pass

    with pytest.raises(TypeError):
        Writer(make_styles(), 480, lambda: Drawing(1, 1)).flowables([Unknown()])  # type: ignore[list-item]
    with pytest.raises(UnknownBlock):
        to_docx([Unknown()], data, dt.date(2026, 1, 5), (595, 842))  # type: ignore[list-item]


def test_inline_markup_reads_as_runs():
    """(text, bold, italic, superscript); None is a line break. Entities are characters, the
    no-break spaces of a heading's number stay, other whitespace collapses as in the PDF."""
    assert inline_runs("a <b>b</b><br/><i>c</i><super>2</super>") == (
        ("a ", False, False, False),
        ("b", True, False, False),
        (None, False, False, False),
        ("c", False, True, False),
        ("2", False, False, True),
    )
    assert inline_runs("1&nbsp;&nbsp;A &lt;b&gt; &amp;\n  c") == (
        ("1\xa0\xa0A <b> & c", False, False, False),
    )


@pytest.mark.parametrize(
    "markup", ["<img src='x'/>", "<font name='x'>y</font>", "<a href='x'>y</a>"]
)
def test_markup_outside_the_subset_stops_the_word_copy(markup):
    with pytest.raises(UnknownBlock, match="markup"):
        inline_runs(markup)


def test_every_role_has_a_pdf_style_and_word_knows_its_font():
    from dataclasses import fields

    from reports.styles import Styles
    from reports.word import _ROLE_FONT

    styles = {f.name for f in fields(Styles)}
    assert styles >= t.ROLES
    assert set(_ROLE_FONT) <= t.ROLES
    s = make_styles()
    for role in t.ROLES:  # bold, italic and monospace as the PDF's font draws them
        font = getattr(s, role).fontName
        want = ("Bold" in font, "Oblique" in font, "Mono" in font)
        assert _ROLE_FONT.get(role, (False, False, False)) == want, role


def test_a_one_word_cell_is_never_broken_across_lines():
    """A citation column of 0.3 / 9.3 of 480 pt (15.5 pt) is narrower than '[100]' in the cell
    style plus 4 pt of padding each side: the writer widens it to that, taking the width from
    the wide column, and the total stays 480 pt. Negative case: a web address longer than a
    word may break, so a column of one does not grow."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    styles = make_styles()
    writer = Writer(styles, 480, lambda: Drawing(1, 1))
    cell = styles.cell
    rows = ((t.Para("Source", "cell_bold"), t.Para("Src.", "cell_bold")),
            (t.Para("A long text that wraps", "cell"), t.Para("[100]", "cell")))  # fmt: skip
    table = writer.table(t.Table(rows, (9, 0.3)))
    widths = table._colWidths
    needed = stringWidth("[100]", cell.fontName, cell.fontSize) + 8
    assert 480 * 0.3 / 9.3 < needed <= widths[1]
    assert sum(widths) == pytest.approx(480)

    url = "https://docs.nvidia.com/vgpu/latest"  # 35 characters, longer than a word is taken to be
    rows = ((t.Para("Source", "cell"), t.Para(url, "cell")),)
    assert writer.table(t.Table(rows, (9, 0.3), header=False))._colWidths[1] == pytest.approx(
        480 * 0.3 / 9.3
    )


def test_the_longest_word_of_a_cell_sets_its_column_and_a_merged_cell_does_not():
    """'R01 Notebook cluster' in a column of 0.4 / 9.4 of 480 pt (20.4 pt): the column grows to
    'Notebook' (its longest word) plus the padding, not to the whole text. The same text in a
    cell merged over both columns leaves the shares as they are."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    styles = make_styles()
    writer = Writer(styles, 480, lambda: Drawing(1, 1))
    cell = styles.cell
    rows = ((t.Para("host-01", "cell"), t.Para("R01 Notebook cluster", "cell")),)
    widths = writer.table(t.Table(rows, (9, 0.4), header=False))._colWidths
    word = stringWidth("Notebook", cell.fontName, cell.fontSize) + 8
    whole = stringWidth("R01 Notebook cluster", cell.fontName, cell.fontSize) + 8
    assert 480 * 0.4 / 9.4 < word <= widths[1] < whole

    merged = t.Table(rows, (9, 0.4), header=False, spans=((0, 0, 1),))
    assert writer.table(merged)._colWidths[1] == pytest.approx(480 * 0.4 / 9.4)
