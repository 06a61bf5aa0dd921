"""The proposal read back from the PDF: sections, headline numbers, every formula and decision,
page numbering, contents, fonts and metadata."""

import re

import pytest
from pypdf.generic import IndirectObject

from reports.sections import SECTIONS
from reports.sections.summary import headline, paragraph
from tests.reports.conftest import contents_pages, page_texts, squash, summary_page
from wizard.present.fields import in_document_words as in_words
from wizard.present.formula_text import formula_words
from wizard.present.references import customer_source

TITLES = [s.title for s in SECTIONS]
ALWAYS = [
    "Executive summary",
    "Requirements",
    "Sizing per workload",
    "Cluster size and high availability",
    "Design decisions",
    "Risks and warnings",
    "Appendix",
]


def _headings(texts: list[str]) -> dict[str, int]:
    """Numbered section headings ('3 Sizing per workload') -> 1-based page, after the contents."""
    found: dict[str, int] = {}
    first = contents_pages(texts)[-1] + 1
    for page, text in enumerate(texts[first:], start=first + 1):
        for line in text.splitlines():
            m = re.fullmatch(r"(\d+(?:\.\d+)?)\s+(.+?)", line.strip())
            if m and m.group(2) in TITLES:
                found.setdefault(m.group(2), page)
    return found


@pytest.mark.parametrize("name", ["enterprise", "starter", "bert-large-25gbe", "llm-serving"])
def test_sections_present_in_order(example_pdf, example_data, name):
    _, reader = example_pdf(name)
    found = _headings(page_texts(reader))
    for title in ALWAYS:
        assert title in found, f"{title} missing from the {name} report"
    pages = [found[t] for t in ALWAYS]
    assert pages == sorted(pages)
    r = example_data(name).result
    has_sharing = bool(r.sharing_comparison or r.packing)
    assert ("Sharing modes and GPU layouts" in found) == has_sharing
    for title, part in [
        ("Host topology", r.topology),
        ("Network fabric", r.topology),
        ("Storage and data path", r.storage),
        ("Software stack and platform checklist", r.software),
        ("Power and space", r.power or r.racks),
        ("Bill of materials", r.bom),
    ]:
        assert (title in found) == (part is not None), title
    assert list(found) == [s.title for s in SECTIONS if s.title in found]  # in report order


def test_contents_page_numbers_match_the_headings(example_pdf):
    _, reader = example_pdf("enterprise")
    found = _headings(page_texts(reader))
    entries = {}
    toc = [reader.pages[i] for i in contents_pages(page_texts(reader))]
    lines = [
        line for page in toc for line in page.extract_text(extraction_mode="layout").splitlines()
    ]
    for line in lines:
        m = re.fullmatch(r"\s*\d+\s+(.+?)\s+[. ]+\s(\d+)\s*", line)
        if m:
            entries[m.group(1)] = int(m.group(2))
    assert set(ALWAYS) <= set(found)
    for title, page in found.items():
        assert entries[title] == page, title


@pytest.mark.parametrize("name", ["enterprise", "bert-large-25gbe"])
def test_headline_numbers_are_the_results(example_pdf, example_data, name):
    data = example_data(name)
    c = data.result.cluster
    figures = dict((label, v) for label, v in headline(data))
    assert figures["GPUs in the cluster"] == f"{c.gpus_total:,}"
    assert figures["hosts"] == f"{c.hosts_total:,}"
    assert figures["GPUs the workloads need"] == f"{c.gpus_demand:,}"
    assert f"{c.gpus_after_failures:,}" in figures.values()
    _, reader = example_pdf(name)
    summary = squash(summary_page(page_texts(reader)))
    for label, v in headline(data):
        assert squash(v + label) in summary or squash(v) in summary
    assert squash(paragraph(data)) in summary


def test_enterprise_summary_states_the_reference_cluster(example_pdf):
    _, reader = example_pdf("enterprise")
    text = " ".join(summary_page(page_texts(reader)).split())
    assert (
        "The design provides 32 NVIDIA Tesla V100 SXM2 32GB GPUs in 8 Dell PowerEdge C4140" in text
    )
    assert "so 28 GPUs remain after 1 host failure" in text


@pytest.mark.parametrize("name", ["enterprise", "bert-large-25gbe", "gpt3-175b", "llm-serving"])
def test_every_calculation_decision_and_warning_is_in_the_pdf(example_pdf, example_data, name):
    r = example_data(name).result
    _, reader = example_pdf(name)
    text = squash("".join(page_texts(reader)))
    for calc in r.calculations:
        # as the customer reads it: in words, with × and ÷ (term for term the logged formula)
        assert squash(formula_words(calc.formula)) in text, calc.id
    # as the customer reads them: design fields by their labels, sources by the vendor's reference
    for d in r.decisions:
        assert squash(in_words(d.text)) in text and squash(in_words(d.reason)) in text
    for w in r.warnings:
        assert squash(in_words(w.message)) in text
    for source in {c.source for c in r.calculations}:
        assert squash(in_words(customer_source(source, example_data(name).catalog))) in text


def test_bert_large_figures_with_substituted_inputs(example_pdf):
    """The seed's BERT-Large numbers appear with the inputs that produced them."""
    _, reader = example_pdf("bert-large-25gbe")
    text = squash("".join(page_texts(reader)))
    # in words, with × and ÷ (the log keeps "ring_factor * (data_parallel - 1) / ...")
    assert squash("gradient bytes = 4; PP = 1; TP = 1; trainable parameters = 340,000,000") in text
    assert squash("ring factor × (data parallel − 1) ÷ data parallel × gradient (GB)") in text
    assert squash("data parallel = 16; gradient (GB) = 1.36; ring factor = 2") in text
    # 2 x 15/16 x 1.36 GB; 3,000,000 iterations x 2 x 1.36 GB / 3.125 GB/s / 3,600 s
    assert squash("2.55 GB") in text and squash("725.3 h") in text


@pytest.mark.parametrize("name", ["enterprise", "starter"])
def test_every_page_after_the_cover_says_page_x_of_y(example_pdf, name):
    _, reader = example_pdf(name)
    texts = page_texts(reader)
    n = len(texts)
    assert n >= 6
    assert "Page 1 of" not in texts[0]
    for i, text in enumerate(texts[1:], start=2):
        assert f"Page {i} of {n}" in text


def _fonts(reader):
    fonts = {}
    for page in reader.pages:
        resources = page["/Resources"]
        for ref in resources.get("/Font", {}).values():
            font = ref.get_object() if isinstance(ref, IndirectObject) else ref
            fonts[str(font["/BaseFont"])] = font
    return fonts


def test_only_embedded_dejavu_fonts(example_pdf):
    _, reader = example_pdf("enterprise")
    fonts = _fonts(reader)
    assert fonts
    for name, font in fonts.items():
        assert "DejaVuSans" in name, name
        descriptor = font["/FontDescriptor"].get_object()
        assert "/FontFile2" in descriptor, f"{name} is not embedded"


def test_unicode_text_survives(catalog):
    """A customer name outside Latin-1 is drawn in the embedded font and reads back."""
    import io

    from pypdf import PdfReader

    from reports.data import build_data
    from reports.document import ReportOptions, build_pdf
    from wizard.app.io import design_from_text
    from wizard.base.bundled import example_text

    design = design_from_text(example_text("starter"))
    design = design.model_copy(
        update={"project": design.project.model_copy(update={"customer": "Ωmega Αναλυτική ≈ Ltd"})}
    )
    pdf = build_pdf(build_data(design, catalog), ReportOptions())
    text = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    assert "Ωmega Αναλυτική ≈ Ltd" in text


def test_metadata(example_pdf, example_data):
    _, reader = example_pdf("enterprise")
    meta = reader.metadata
    project = example_data("enterprise").design.project
    assert meta.title == "GPU infrastructure proposal: Enterprise GPU cluster"
    assert meta.author == project.architect == "Solutions Architecture"
    assert meta.subject == "GPU infrastructure for Example Corp"
    assert meta.creator.startswith("gpuwizard ")
    assert meta.creation_date.date().isoformat() == "2026-11-02"


@pytest.mark.parametrize(("size", "points"), [("a4", (595.3, 841.9)), ("letter", (612, 792))])
def test_page_sizes(example_pdf, size, points):
    _, reader = example_pdf("starter", size)
    for page in reader.pages:
        box = page.mediabox
        assert (round(float(box.width), 1), round(float(box.height), 1)) == points


def test_outline_holds_the_sections(example_pdf):
    _, reader = example_pdf("enterprise")
    titles = [" ".join(o.title.split()) for o in reader.outline if not isinstance(o, list)]
    assert titles[0] == "1 Executive summary"
    assert titles[-1].endswith("Appendix")


@pytest.mark.parametrize("name", ["enterprise", "llm-serving"])
def test_bom_lines_are_in_the_report(example_pdf, example_data, name):
    bom = example_data(name).result.bom
    assert bom is not None and bom.lines
    _, reader = example_pdf(name)
    texts = page_texts(reader)
    start = next(i for i, t in enumerate(texts) if re.search(r"^\d+\s+Bill of materials$", t, re.M)
                 and ".  .  ." not in t)  # fmt: skip
    section = squash("".join(texts[start : start + 4]))
    for line in bom.lines:
        row = squash(f"{line.description}{line.quantity:,}{line.unit}")
        assert row in section, line.item


def test_fifth_headline_number_is_the_power(example_data):
    data = example_data("enterprise")
    label, value = headline(data)[4]
    assert label == "kW for the whole cluster"
    assert value == f"{data.result.power.total_kw:.1f}"
