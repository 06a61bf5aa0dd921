"""The customer's proposal speaks the customer's language: no value the code writes for a choice
(an enum value or a name a label table translates), no catalog id, no working note of the
catalog's authors and no "1 hosts" reaches the text of the PDF or of the editable Word copy of
any bundled example or of the two-cluster Acme design.

Each rule has its own negative test, so the checker itself can fail."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterable
from functools import cache

import pytest
from pypdf import PdfReader

from tests.conftest import ROOT
from tests.reports.conftest import page_texts
from wizard.app.catalog_loader import load_catalog
from wizard.base.bundled import example_names
from wizard.model.catalog import Catalog
from wizard.present import labels

# Values that are also ordinary words where a customer reads them ("none", "passthrough GPUs",
# "LoRA fine-tuning", "on the baseboard", "a percentage"), a release number ("vSphere 9.0") and
# the switch vendors' own term ("a peer-link cable").
PLAIN_WORDS = frozenset(
    {
        "none", "full", "selective", "shared", "model", "passthrough", "remote", "training",
        "inference", "development", "fine-tuning", "attention", "design", "network", "power",
        "racks", "host", "rack", "socket", "server", "switch", "cable", "transceiver", "licence",
        "storage", "cooling", "air", "liquid", "bridge", "baseboard", "percentage", "disabled", "warning",
        "error", "qualified", "unknown", "compute", "service", "management", "vmotion",
        "kubernetes", "licensing", "vcenter", "vm", "leaf", "spine", "9.0", "9.1", "8.0",
        "peer-link", "fused", "eager", "torchtune", "deepspeed",
    }
)  # fmt: skip

# Commands and settings a customer types as they are, quoted by the sources and the checklist.
COMMANDS = ("nvidia-smi mig -lgipp",)

# Notes the catalog's authors keep for themselves, and wording that hedges a count.
WORKING_NOTES = (
    "not re-verified",
    "recalled",
    "seed view",
    "catalog servers/",
    "catalog nics/",
    "catalog gpus/",
    "catalog switches/",
    "catalog storage/",
    "catalog software/",
    "catalog licences/",
    "catalog cooling/",
    "TODO",
    "(s)",
)

# Read line by line: a table's value and the next row's label ("tolerated 1 / GPUs after") and
# the figures above a tile's caption are on lines of their own.
AGREEMENT = (
    re.compile(r"(?<![\d.,])1 (?:hosts|GPUs|racks|nodes|switches|licences)\b"),
    re.compile(r"(?<![\d.,])0 host failures\b"),
)

# A design field by its path ("hardware.storage", "workloads[2].count"): the reader gets its label
_DESIGN_PATH = re.compile(
    r"(?<![\w/.-])(?:project|workloads|hardware|ha|clusters|assumptions|data|platform|licensing"
    r"|costs|options|proposed)(?:\[\d+\])?\.[a-z_]+\b(?!\.html)"
)

_EDGE = ".,;:()[]{}'\"!?…*"

# A name as code writes it ("gpus_per_host", "part_number"); and a page of the program named in
# a document ("give Dataset size on the Hardware page"): the document's own "Page 3 of 35"
# footer is not one.
_SNAKE = re.compile(r"^[a-z][a-z0-9]*_[a-z0-9_]+$")
_PAGE = re.compile(
    r"\b(?:on|in|from) the (?:[A-Z][\w-]*)(?: [A-Za-z][\w-]*){0,2} page\b"
    r"|\bpages? (?:was|were) not\b|\bthe (?:Hardware|Workloads|Review|Export|Platform) page\b"
)
_FOOTER = re.compile(r"\bPage \d+ of \d+\b")


@cache
def _cited_urls() -> str:
    """Every web address the catalogs and the engine's sources cite: a PDF line may break one
    anywhere, leaving a piece ("ctors_gpu_board") that is part of an address, not a code name."""
    files = [*(ROOT / "catalogs").glob("*.toml"), *(ROOT / "wizard").rglob("*.py")]
    text = " ".join(p.read_text(encoding="utf-8") for p in files)
    return " ".join(re.findall(r"https?://[^\s'\"]+", text))


def code_values() -> set[str]:
    """Every value the label tables translate: the enum values of the design and result models
    and the names the engine writes for layers, roles, networks and runs."""
    out: set[str] = set()
    tables = (*labels.BY_ENUM.values(), *labels.RESULT_ENUMS.values(), *labels.BY_NAME.values())
    for table in tables:
        out |= {str(k) for k in table}
    return out - PLAIN_WORDS


def catalog_ids(catalog: Catalog) -> set[str]:
    """The catalog's ids, except those that are the vendor's own name or part number."""
    ids: set[str] = set()
    for kind in ("gpus", "servers", "nics", "switches", "storage", "software", "licences"):
        for key, entry in getattr(catalog, kind).items():
            names = " ".join(
                str(getattr(entry, f, "") or "") for f in ("name", "model", "part_number")
            )
            if key.lower() not in names.lower().split():
                ids.add(key)
    return ids


def tokens(text: str) -> Iterable[str]:
    """Whitespace-separated words without their punctuation; a word with a slash is a path or a
    broken URL, which the check leaves alone."""
    for raw in text.split():
        word = raw.strip(_EDGE)
        if word and "/" not in word and "=" not in word:
            yield word


def leaks(text: str, codes: set[str], ids: set[str]) -> list[str]:
    """What in ``text`` a customer should not read, one line each."""
    found = []
    for command in COMMANDS:
        text = text.replace(command, "")
    for word in tokens(text):
        if _SNAKE.match(word) and word not in _cited_urls():
            found.append(f"code name {word!r}")
        elif word in codes:
            found.append(f"code value {word!r}")
        elif word in ids:
            found.append(f"catalog id {word!r}")
    flat = " ".join(text.split())
    unfooted = _FOOTER.sub("", flat)
    for m in _PAGE.finditer(unfooted):
        found.append(f"page {unfooted[max(0, m.start() - 60) : m.end() + 20]!r}")
    for m in _DESIGN_PATH.finditer(flat):
        found.append(f"design field {m.group(0)!r}")
    for note in WORKING_NOTES:
        for m in re.finditer(re.escape(note), flat):
            found.append(f"working note {flat[max(0, m.start() - 50) : m.end() + 30]!r}")
    for line in text.splitlines():
        line = " ".join(line.split())
        for pat in AGREEMENT:
            found += [f"agreement {line!r}" for _ in pat.finditer(line)]
    return found


@pytest.fixture(scope="module")
def rules():
    return code_values(), catalog_ids(load_catalog(include_user=False))


def docx_text(blob: bytes) -> str:
    """Every paragraph of a .docx, table cells and header/footer included, one per line."""
    from docx import Document

    doc = Document(io.BytesIO(blob))
    lines = [p.text for p in doc.paragraphs]
    for table in doc.tables:
        for row in table.rows:
            lines += [cell.text for cell in row.cells]
    for section in doc.sections:
        for part in (section.header, section.footer):
            lines += [p.text for p in part.paragraphs]
    return "\n".join(lines)


@cache
def _acme_blob(word: bool) -> bytes:
    from reports.document import ReportOptions
    from reports.proposal import proposal_pdf
    from tests.reports.conftest import FIXED_DATE
    from wizard.app.io import design_from_dict
    from wizard.engine import plan

    doc = json.loads((ROOT / "docs" / "acme-two-clusters.json").read_text(encoding="utf-8"))
    catalog = load_catalog(include_user=False)
    design = design_from_dict(doc)
    options = ReportOptions(date=FIXED_DATE, word=word)
    return proposal_pdf(plan(design, catalog), options)


def _acme_text() -> str:
    return "\n".join(page_texts(PdfReader(io.BytesIO(_acme_blob(False)))))


@pytest.mark.parametrize("name", example_names())
def test_an_example_proposal_speaks_the_customers_language(name, example_pdf, rules):
    _, reader = example_pdf(name)
    found = leaks("\n".join(page_texts(reader)), *rules)
    assert not found, "\n".join(sorted(set(found)))


def test_the_two_cluster_proposal_speaks_the_customers_language(rules):
    found = leaks(_acme_text(), *rules)
    assert not found, "\n".join(sorted(set(found)))


@pytest.mark.parametrize("name", example_names())
def test_an_example_word_copy_speaks_the_customers_language(name, example_data, rules):
    from reports.document import ReportOptions, build_pdf
    from tests.reports.conftest import FIXED_DATE

    blob = build_pdf(example_data(name), ReportOptions(date=FIXED_DATE, word=True))
    text = docx_text(blob)
    assert "Executive summary" in text  # the text was read, not an empty document
    found = leaks(text, *rules)
    assert not found, "\n".join(sorted(set(found)))


def test_the_two_cluster_word_copy_speaks_the_customers_language(rules):
    text = docx_text(_acme_blob(True))
    assert "Where each workload group runs" in text
    found = leaks(text, *rules)
    assert not found, "\n".join(sorted(set(found)))


# ------------------------------------------------------------------ the checker can fail


def test_an_enum_value_is_caught_but_its_plain_word_is_not(rules):
    codes, ids = rules
    assert "roce-v2" in codes and "esxi-host" in codes and "pcie-switch" in codes
    assert leaks("RDMA: roce-v2.", codes, ids) == ["code value 'roce-v2'"]
    assert leaks("Layer esxi-host (vgpu)", codes, ids) == [
        "code value 'esxi-host'",
        "code value 'vgpu'",
    ]
    assert leaks("RoCE v2 on a PCIe switch; none; passthrough GPUs; vGPU", codes, ids) == []


def test_a_catalog_id_is_caught_but_a_vendor_name_is_not(rules):
    codes, ids = rules
    assert "dell-xe9680" in ids
    assert leaks("Dell PowerEdge XE9680 [dell-xe9680]", codes, ids) == ["catalog id 'dell-xe9680'"]
    assert leaks("a path https://x.example/dell-xe9680/ is left alone", codes, ids) == []


def test_a_design_field_path_is_caught_but_a_web_address_is_not():
    assert leaks("no storage system is chosen (hardware.storage)", set(), set()) == [
        "design field 'hardware.storage'"
    ]
    assert leaks("give workloads[2].count", set(), set()) == ["design field 'workloads[2].count'"]
    assert (
        leaks("see https://example.com/hpc-workloads.html and megatron/data/x.py", set(), set())
        == []
    )


def test_a_working_note_is_caught():
    found = leaks("PSU from the spec sheet as recalled; see catalog servers/x", set(), set())
    assert len(found) == 2 and all(f.startswith("working note") for f in found)
    assert leaks("one or more GPU(s)", set(), set())[0].startswith("working note")


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("need 1 GPUs now", True),
        ("1 hosts", True),
        ("after 0 host failures", True),
        ("1 host, 1.1 hosts on average, 11 GPUs, 2,001 GPUs", False),
        ("survives 1 host failure", False),
    ],
)
def test_number_agreement_is_checked(text, bad):
    assert bool(leaks(text, set(), set())) is bad


def test_the_word_reader_sees_paragraphs_cells_and_footers(rules):
    """A code value planted in a paragraph, a table cell and the footer of a .docx is caught in
    each, so the Word checks read the whole document."""
    from docx import Document

    doc = Document()
    doc.add_paragraph("Fabric roce-v2")
    doc.add_table(rows=1, cols=1).cell(0, 0).text = "Layer esxi-host"
    doc.sections[0].footer.paragraphs[0].text = "Mode vgpu"
    out = io.BytesIO()
    doc.save(out)
    assert sorted(leaks(docx_text(out.getvalue()), *rules)) == [
        "code value 'esxi-host'",
        "code value 'roce-v2'",
        "code value 'vgpu'",
    ]


def test_a_code_name_and_a_program_page_are_caught_but_the_footer_is_not():
    assert leaks("the formula gpus_per_host × 8", set(), set()) == ["code name 'gpus_per_host'"]
    (found,) = leaks("give Dataset size on the Hardware page to size it", set(), set())
    assert found.startswith("page ")
    assert leaks("Acme · GPU infrastructure proposal Page 3 of 35", set(), set()) == []
    assert leaks("per GPU-hour and per host", set(), set()) == []  # no underscore, no page
    # a vendor's web page cited as a source is not a page of the program
    assert leaks("Dell PowerEdge XE9680 product page and spec sheet", set(), set()) == []


@cache
def _xlsx_text(name: str) -> str:
    """Every cell of the bill of materials workbook of a bundled example (or a docs design)."""
    from openpyxl import load_workbook

    from reports.bom_export import bom_xlsx
    from wizard.app.io import design_from_text
    from wizard.base.bundled import example_text
    from wizard.engine.decide.estate import size_estate

    text = (
        (ROOT / "docs" / f"{name}.json").read_text(encoding="utf-8")
        if name.startswith("acme-")
        else example_text(name)
    )
    design = design_from_text(text).proposal()
    bom = size_estate(design, load_catalog(include_user=False)).bom
    ws = load_workbook(io.BytesIO(bom_xlsx(bom))).active
    return "\n".join(str(c.value) for row in ws.iter_rows() for c in row if c.value is not None)


@pytest.mark.parametrize("name", [*example_names(), "acme-two-clusters", "acme-options"])
def test_the_bill_of_materials_workbook_speaks_the_customers_language(name, rules):
    text = _xlsx_text(name)
    assert "Description" in text and "Quantity" in text
    found = leaks(text, *rules)
    assert not found, "\n".join(sorted(set(found)))


def test_the_options_proposal_speaks_the_customers_language(rules):
    from reports.data import build_data
    from reports.document import ReportOptions, build_pdf
    from tests.reports.conftest import FIXED_DATE
    from wizard.app.io import design_from_text

    text = (ROOT / "docs" / "acme-options.json").read_text(encoding="utf-8")
    data = build_data(design_from_text(text), load_catalog(include_user=False))
    for word in (False, True):
        blob = build_pdf(data, ReportOptions(date=FIXED_DATE, word=word))
        shown = docx_text(blob) if word else "\n".join(page_texts(PdfReader(io.BytesIO(blob))))
        found = leaks(shown, *rules)
        assert not found, "\n".join(sorted(set(found)))
