import datetime as dt
import io
from functools import cache

import pytest
from pypdf import PdfReader

from reports.data import ReportData, build_data
from reports.document import ReportOptions, build_pdf
from wizard.app.io import design_from_text
from wizard.base.bundled import example_text

FIXED_DATE = dt.date(2026, 11, 2)


@pytest.fixture(scope="session")
def example_data(catalog):
    @cache
    def get(name: str) -> ReportData:
        return build_data(design_from_text(example_text(name)), catalog)

    return get


@pytest.fixture(scope="session")
def example_pdf(example_data):
    """(pdf bytes, reader) of a bundled example, built once per session and page size."""

    @cache
    def get(name: str, page_size: str = "a4") -> tuple[bytes, PdfReader]:
        pdf = build_pdf(example_data(name), ReportOptions(page_size=page_size, date=FIXED_DATE))
        return pdf, PdfReader(io.BytesIO(pdf))

    return get


def squash(text: str) -> str:
    """Text without any whitespace: table cells wrap lines anywhere, so compare without it."""
    return "".join(text.split())


def page_texts(reader: PdfReader) -> list[str]:
    return [p.extract_text() for p in reader.pages]


def contents_pages(texts: list[str]) -> list[int]:
    """0-based indices of the table-of-contents pages: those with dot leaders."""
    return [i for i, t in enumerate(texts) if ".  .  .  ." in t]


def summary_page(texts: list[str]) -> str:
    """Text of the first page after the contents: the executive summary."""
    return texts[contents_pages(texts)[-1] + 1]


@pytest.fixture(scope="session")
def two_cluster_text(catalog) -> str:
    """The text of docs/acme-two-clusters.json's proposal, whitespace folded to single spaces
    (table cells wrap anywhere)."""
    import json

    from reports.proposal import proposal_pdf
    from tests.conftest import ROOT
    from wizard.app.io import design_from_dict
    from wizard.engine import plan

    doc = json.loads((ROOT / "docs" / "acme-two-clusters.json").read_text(encoding="utf-8"))
    design = design_from_dict(doc)
    pdf = proposal_pdf(plan(design, catalog), ReportOptions())
    return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages).split())
