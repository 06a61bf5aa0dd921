"""Options considered in the proposal: the table holds each option's figures as the comparison
sizes them, and the executive summary names the proposed option against the others."""

from __future__ import annotations

import io

from pypdf import PdfReader

from reports.data import build_data
from reports.document import ReportOptions, build_pdf
from tests.engine.conftest import design_dict
from tests.reports.conftest import FIXED_DATE, squash
from wizard.app.io import design_from_dict
from wizard.engine import compare
from wizard.model.prices import PriceList


def _design(proposed="H200"):
    d = design_dict("llm-serving")
    hw = dict(d["hardware"])
    d["options"] = [
        {"name": "H200", "note": "fewer GPUs for the same load",
         "hardware": {**hw, "gpu": "h200-sxm-141gb", "server": "dell-xe9680",
                      "gpus_per_host": 8, "nvlink": True}},
    ]  # fmt: skip
    d["proposed"] = proposed
    return design_from_dict(d)


def _text(design, catalog, prices=None):
    pdf = build_pdf(build_data(design, catalog, prices), ReportOptions(date=FIXED_DATE))
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)


def test_the_proposal_compares_the_options_with_the_same_figures(catalog):
    design = _design()
    rows = compare(design, catalog)
    text = _text(design, catalog)
    assert "Options considered" in text
    flat = squash(text)
    assert squash(f"Proposed: H200: {rows[1].hosts} hosts, {rows[1].gpus} GPUs") in flat
    assert squash(f"Also considered: As designed: {rows[0].hosts} hosts") in flat
    assert squash("fewer GPUs for the same load") in flat


def test_without_options_there_is_no_such_section(catalog, example_data):
    pdf = build_pdf(example_data("llm-serving"), ReportOptions(date=FIXED_DATE))
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert "Options considered" not in text and "Proposed:" not in text


def test_with_a_price_list_each_option_has_its_cost(catalog):
    design = _design(proposed=None)
    prices = PriceList(currency=design.project.currency or "USD",
                       prices={"server:dell-xe9680": 100_000})  # fmt: skip
    rows = compare(design, catalog, prices)
    text = squash(_text(design, catalog, prices))
    assert squash("Cost of ownership") in text
    for r in rows:
        assert squash(f"{r.cost.total:,.0f}") in text
    assert squash(f"Proposed: As designed: {rows[0].hosts} hosts") in text
