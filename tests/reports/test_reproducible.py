"""The same design and date give the same bytes; another date gives another document."""

import datetime as dt
from io import BytesIO

from pypdf import PdfReader

from reports.document import ReportOptions, build_pdf
from tests.reports.conftest import FIXED_DATE


def test_two_runs_with_a_fixed_date_are_byte_identical(example_data):
    data = example_data("enterprise")
    first = build_pdf(data, ReportOptions(date=FIXED_DATE))
    second = build_pdf(data, ReportOptions(date=FIXED_DATE))
    assert first == second


def test_the_date_is_the_only_moving_part(example_data):
    data = example_data("starter")
    a = build_pdf(data, ReportOptions(date=FIXED_DATE))
    b = build_pdf(data, ReportOptions(date=dt.date(2027, 1, 15)))
    assert a != b
    assert "2027-01-15" in PdfReader(BytesIO(b)).pages[0].extract_text()
    assert "2026-11-02" in PdfReader(BytesIO(a)).pages[0].extract_text()
