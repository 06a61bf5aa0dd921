"""The Word copy's document properties (File > Info in Word): the title, the customer as the
subject, the architect as the author and last editor, and the proposal's date as created and
modified, so a customer's document list sorts and searches it as the PDF's metadata would."""

from __future__ import annotations

import datetime as dt
import io
import json

from docx import Document

from reports.data import build_data
from reports.document import ReportOptions, build_pdf
from tests.conftest import ROOT
from wizard.app.io import design_from_dict

LLM = json.loads((ROOT / "resources/examples/llm-serving.json").read_text(encoding="utf-8"))


def _properties(doc: dict, catalog):
    data = build_data(design_from_dict(doc), catalog)
    blob = build_pdf(data, ReportOptions(word=True, date=dt.date(2026, 11, 2)))
    return Document(io.BytesIO(blob)).core_properties


def test_the_customer_and_architect_are_the_subject_and_author(catalog):
    doc = json.loads(json.dumps(LLM))
    doc["project"].update(customer="Example Corp", architect="Ada Lovelace")
    props = _properties(doc, catalog)
    assert (props.subject, props.author, props.last_modified_by) == (
        "Example Corp",
        "Ada Lovelace",
        "Ada Lovelace",
    )
    assert props.created == props.modified == dt.datetime(2026, 11, 2, tzinfo=dt.UTC)
    assert props.title


def test_no_architect_leaves_the_author_empty_not_a_placeholder(catalog):
    doc = json.loads(json.dumps(LLM))
    doc["project"].update(customer="Example Corp", architect="")
    props = _properties(doc, catalog)
    assert props.author == "" and props.subject == "Example Corp"
