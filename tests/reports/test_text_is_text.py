"""Text from a design is text wherever the proposal sets it: a name holding markup must not make
the PDF read a file, change a font or break the page."""

from __future__ import annotations

import io

from PIL import Image
from pypdf import PdfReader

from reports.data import build_data
from reports.document import ReportOptions, build_pdf
from tests.reports.conftest import page_texts, squash
from wizard.app.io import design_from_text
from wizard.base.bundled import example_text


def _named(catalog, name: str):
    design = design_from_text(example_text("starter"))
    groups = [design.workloads[0].model_copy(update={"name": name}), *design.workloads[1:]]
    return build_data(design.model_copy(update={"workloads": groups}), catalog)


def _images(pdf: bytes) -> int:
    return sum(len(page.images) for page in PdfReader(io.BytesIO(pdf)).pages)


def test_an_img_tag_in_a_group_name_reads_no_file(catalog, tmp_path):
    """A group named like an <img> tag used to reach the contents page unescaped, where the
    paragraph parser embedded the named file in the PDF (local file disclosure)."""
    secret = tmp_path / "private.png"
    Image.new("RGB", (64, 64), (10, 200, 10)).save(secret)
    name = f'<img src="{secret}" width="300" height="150"/>'
    clean = build_pdf(_named(catalog, "Researchers"), ReportOptions())
    hostile = build_pdf(_named(catalog, name), ReportOptions())
    assert _images(hostile) == _images(clean)
    text = squash("".join(page_texts(PdfReader(io.BytesIO(hostile)))))
    assert squash(f'<img src="{secret}"') in text  # shown as the text it is


def test_markup_in_a_name_changes_no_font(catalog):
    pdf = build_pdf(_named(catalog, '<font size="90">Big</font> & co'), ReportOptions())
    text = squash("".join(page_texts(PdfReader(io.BytesIO(pdf)))))
    assert squash('<font size="90">Big</font> & co') in text


def test_font_markup_in_a_cjk_name_prints_as_text(catalog):
    """CJK runs are wrapped in ``<font name=…>`` after escaping: a name holding that very markup
    prints literally, its CJK characters still in the fallback font."""
    name = '<font name="DroidSansFallback">株式</font> & <b>会社</b>'
    options = ReportOptions()
    pdf = build_pdf(_named(catalog, name), options)
    text = squash("".join(page_texts(PdfReader(io.BytesIO(pdf)))))
    assert squash(name) in text
    assert options.notices == []


def test_every_paragraph_goes_through_the_fallback_wrapping():
    """``reports.pdf_writer.Text`` is the one place paragraph markup gets its fallback-font runs; a
    reportlab Paragraph built anywhere else in the report would print CJK text as boxes."""
    from tests.conftest import ROOT

    for path in sorted((ROOT / "reports").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if path.name == "pdf_writer.py":
            source = source.replace("class Text(Paragraph):", "")
        assert "Paragraph(" not in source, f"{path.name} builds a Paragraph directly"


def test_every_label_at_its_longest_still_renders(catalog):
    """The schema's limits are what the proposal is proven to set: 200 characters for the
    customer, the project, the architect and a group's name; 20,000 for the notes."""
    from wizard.model.design import ProjectInfo, WorkloadGroup

    limit = {name: f.metadata for name, f in ProjectInfo.model_fields.items()}
    assert any(getattr(m, "max_length", None) == 200 for m in limit["customer"])
    design = design_from_text(example_text("starter"))
    project = design.project.model_copy(
        update={"customer": "C" * 200, "project_name": "P " * 100, "architect": "A" * 200,
                "notes": "Long notes. " * 1666}
    )  # fmt: skip
    name_limit = next(m.max_length for m in WorkloadGroup.model_fields["name"].metadata
                      if getattr(m, "max_length", None))  # fmt: skip
    groups = [design.workloads[0].model_copy(update={"name": "W" * name_limit}),
              *design.workloads[1:]]  # fmt: skip
    data = build_data(design.model_copy(update={"project": project, "workloads": groups}),
                      catalog)  # fmt: skip
    assert build_pdf(data, ReportOptions())[:4] == b"%PDF"
