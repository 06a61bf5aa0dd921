"""The proposal of a calibrated design: a Measurements used section (files, factors against
their defaults, every point against the calibrated model) and each serving figure saying what it
rests on; a design with no calibration has no such section and says 'estimated'."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from pypdf import PdfReader

from reports.data import build_data
from reports.document import ReportOptions, build_pdf
from tests.measure.test_fit import GROUP, _design, _file
from tests.reports.conftest import FIXED_DATE, page_texts
from tests.reports.test_customer_language import docx_text
from wizard.app.io import design_from_dict
from wizard.measure.fit import calibrate, calibrated


@pytest.fixture(scope="module")
def designs(catalog):
    plain = design_from_dict({**_design(1), "project": {"project_name": "Chat"}})
    report = calibrate(plain, catalog, GROUP, [_file(1), _file(5)], today=dt.date(2026, 11, 27))
    return plain, calibrated(plain, report)


def _pdf_text(design, catalog) -> str:
    blob = build_pdf(build_data(design, catalog), ReportOptions(date=FIXED_DATE))
    return " ".join(" ".join(page_texts(PdfReader(io.BytesIO(blob)))).split())


def test_a_calibrated_proposal_lists_its_measurements_and_labels_its_figures(designs, catalog):
    text = _pdf_text(designs[1], catalog)
    assert "Measurements used" in text
    for name in ("c1.json", "c5.json", "Decode bandwidth efficiency",
                 "Prefill compute efficiency"):  # fmt: skip
        assert name in text
    # the design's load is the c1 run's: each figure is the model's, the run's beside it
    assert "calibrated on your measurements; your run measured 18.58 ms at this load" in text
    assert "your run measured 406.8 ms at this load" in text  # 406.77 printed to 4 figures
    assert "shown, not fitted (queueing)" in text  # the TTFT under load


def test_a_proposal_without_measurements_says_estimated_and_has_no_section(designs, catalog):
    text = _pdf_text(designs[0], catalog)
    assert "Measurements used" not in text
    assert "; estimated" in text and "calibrated on your" not in text


def test_the_word_copy_carries_the_section_too(designs, catalog):
    blob = build_pdf(build_data(designs[1], catalog), ReportOptions(date=FIXED_DATE, word=True))
    text = docx_text(blob)
    assert "Measurements used" in text and "c5.json" in text


def test_the_calibrated_proposal_speaks_the_customers_language(designs, catalog):
    from tests.reports.test_customer_language import catalog_ids, code_values, leaks

    blob = build_pdf(build_data(designs[1], catalog), ReportOptions(date=FIXED_DATE))
    text = "\n".join(page_texts(PdfReader(io.BytesIO(blob))))
    assert leaks(text, code_values(), catalog_ids(catalog)) == []
