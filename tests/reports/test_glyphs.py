"""Chinese, Japanese and Korean text prints in the shipped fallback font; text neither font can
draw is named in a notice, not printed silently as boxes."""

import io
import subprocess
import sys

from pypdf import PdfReader

from reports.data import build_data
from reports.document import ReportOptions, build_pdf
from reports.fonts import FALLBACK
from tests.conftest import ROOT
from tests.reports.conftest import page_texts, squash

CUSTOMER = "北京智能计算中心"
PROJECT = "東京データセンター"
GROUP = "한국어 추론 그룹"
NOTES = "備考：日本語のメモです。中文备注。한국어 메모입니다."


def _named(data, customer: str, group: str, **project):
    design = data.design
    project = design.project.model_copy(update={"customer": customer, **project})
    first = design.workloads[0].model_copy(update={"name": group})
    design = design.model_copy(update={"project": project,
                                       "workloads": [first, *design.workloads[1:]]})  # fmt: skip
    return build_data(design, data.catalog)


def _embedded_fonts(page) -> set[str]:
    """Base names (subset prefix dropped) of the page's fonts that carry their TrueType file."""
    fonts = page["/Resources"]["/Font"]
    names = set()
    for ref in fonts.values():
        font = ref.get_object()
        if "/FontFile2" in font["/FontDescriptor"]:
            names.add(str(font["/BaseFont"]).split("+")[-1])
    return names


def test_chinese_japanese_and_korean_text_prints(example_data, catalog):
    options = ReportOptions()
    named = _named(example_data("starter"), CUSTOMER, GROUP, project_name=PROJECT, notes=NOTES)
    data = build_data(named.design, catalog)  # the sizing section's heading is the group's name
    reader = PdfReader(io.BytesIO(build_pdf(data, options)))
    assert options.notices == []
    texts = page_texts(reader)
    cover = squash(texts[0])
    for text in (CUSTOMER, PROJECT, NOTES):
        assert squash(text) in cover
    assert squash(GROUP) in squash("".join(texts[1:]))
    assert squash(GROUP) in squash(texts[1])  # the contents page: the group's sizing heading
    # The page header: the customer in runs, then the title and date still in DejaVu.
    assert squash(f"{PROJECT} · {CUSTOMER}") in squash(texts[2])
    assert "GPU infrastructure proposal" in texts[2] and "\x00" not in texts[2]
    assert FALLBACK in _embedded_fonts(reader.pages[0])
    assert FALLBACK in _embedded_fonts(reader.pages[1])


def test_a_character_neither_font_has_is_named_in_a_notice(example_data):
    options = ReportOptions()
    build_pdf(_named(example_data("starter"), "客户 Corp 🚀", "Équipe 株式 𝄞"), options)
    (notice,) = options.notices
    # Two characters in order of first use; two fields; the CJK, space and Latin letters are fine.
    assert "no glyph for 2 characters in project.customer, workloads[0].name" in notice
    assert "(🚀 𝄞)" in notice and "empty boxes" in notice
    assert "客" not in notice and "株" not in notice


def test_latin_greek_and_cyrillic_text_gives_no_notice(example_data):
    """The negative case: accented Latin, Greek and Cyrillic are in DejaVu; a zero-width space
    and a right-to-left mark are invisible and not reported."""
    options = ReportOptions()
    build_pdf(_named(example_data("starter"), "Société Ωmega", "Группа\u200b\u200f"), options)
    assert options.notices == []


def test_a_report_without_cjk_does_not_read_the_fallback_font():
    """The fallback is 3.4 MB: a fresh process that writes the starter report never parses it,
    and the PDF names no such font."""
    code = (
        "import sys; from reportlab.pdfbase import pdfmetrics; "
        "from reports.data import build_data; from reports.document import build_pdf; "
        "from wizard.base.bundled import example_text; from wizard.app.catalog_loader import load_catalog; "
        "from wizard.app.io import design_from_text; "
        "data = build_data(design_from_text(example_text('starter')), "
        "load_catalog(include_user=False)); pdf = build_pdf(data); "
        f"sys.exit({FALLBACK!r}.encode() in pdf "
        f"or {FALLBACK!r} in pdfmetrics.getRegisteredFontNames())"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
