"""The cost of ownership as a section of the proposal when a price list is given: bought once,
per year (subscriptions, power, support), over the term, per GPU-hour and per workload group,
with the arithmetic written out here from the price list, the bill's quantities and the cost
inputs; no section without prices; the several-cluster proposal has it too."""

from __future__ import annotations

import io
import json

import pytest
from pypdf import PdfReader

from reports.data import build_data
from reports.document import ReportOptions, build_pdf
from tests.conftest import ROOT
from tests.reports.conftest import FIXED_DATE, squash
from tests.reports.test_proposed_option import PRICES
from wizard.app.io import design_from_dict
from wizard.model.buildout import BomCategory
from wizard.model.prices import PriceList
from wizard.model.result import Calculation
from wizard.present.formula_text import name_words, quantity

ENERGY, SUPPORT, PUE = 0.25, 0.08, 1.5


def _prices() -> PriceList:
    import tomllib

    doc = tomllib.loads(PRICES)
    return PriceList(currency=doc["currency"], prices=doc["prices"])


def _design(name: str):
    doc = json.loads((ROOT / "docs" / name).read_text(encoding="utf-8"))
    doc["costs"] = {"years": 3, "energy_price": ENERGY, "support_share": SUPPORT, "pue": PUE}
    return design_from_dict(doc)


def _text(pdf: bytes) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)


def _section(text: str) -> str:
    """The body of the numbered 'Cost of ownership' section (not the contents line)."""
    start = text.index("Cost of ownership\nThe cost of owning")
    return text[start : text.index("Security and operations", start)]


@pytest.fixture(scope="module")
def acme(catalog):
    design = _design("acme-options.json")
    data = build_data(design, catalog, _prices())
    return data, _text(build_pdf(data, ReportOptions(date=FIXED_DATE)))


def test_each_cost_is_the_arithmetic_of_the_price_list(acme):
    data, text = acme
    prices = _prices().prices
    bom = data.result.bom
    # hand arithmetic: each priced line's quantity × its price, licences apart
    hardware = sum(
        ln.quantity * prices[ln.item]
        for ln in bom.lines
        if ln.item in prices and ln.category is not BomCategory.LICENCE
    )
    subs = sum(
        ln.quantity * prices[ln.item]
        for ln in bom.lines
        if ln.item in prices and ln.category is BomCategory.LICENCE
    )
    kw = data.result.power.total_kw
    power = kw * 1.0 * PUE * 8760 * ENERGY  # full planning draw, around the clock
    support = hardware * SUPPORT
    per_year = subs + power + support
    total = hardware + 3 * per_year
    gpu_hours = data.result.cluster.gpus_total * 8760 * 3
    body = squash(_section(text))
    for figure in (hardware, subs, power, support, per_year, total, 3 * power, 3 * subs):
        assert squash(f"{figure:,.0f}") in body, figure
    assert squash(f"EUR {total / gpu_hours:,.2f} per GPU-hour") in body
    assert squash(f"{kw:.2f} kW planning draw × 100 % average load × PUE 1.50") in body


def test_each_group_carries_its_share_of_the_gpus(acme):
    data, text = acme
    body = _section(text)
    taken = {w.name: w.sharing.gpus_allocated for w in data.result.workloads}
    whole = sum(taken.values())
    assert "Per workload group" in body
    for name, gpus in taken.items():
        assert name in body
        assert squash(f"{gpus / whole * 100:.0f} %") in squash(body)


def test_unpriced_lines_are_named_by_what_they_are(acme):
    _, text = acme
    body = _section(text)
    # the price list has no price for the out-of-band switch: said in words, not by its key
    assert "SN2201 out-of-band management switch" in body
    assert "switch:nvidia-sn2201" not in body


def test_no_price_list_no_cost_section(catalog):
    design = _design("acme-options.json")
    text = _text(build_pdf(build_data(design, catalog), ReportOptions(date=FIXED_DATE)))
    assert "The cost of owning" not in text
    assert "no price list was given" in text


def test_the_several_cluster_proposal_has_the_cost_section(catalog):
    from reports.proposal import proposal_pdf
    from wizard.engine import plan
    from wizard.engine.decide.cost import estate_cost
    from wizard.engine.decide.estate import size_estate

    design = _design("acme-two-clusters.json")
    estate = size_estate(design, catalog)
    pdf = proposal_pdf(plan(design, catalog, _prices()), ReportOptions(date=FIXED_DATE))
    text = _text(pdf)
    assert "The cost of owning the design for 3 years" in text
    cost = estate_cost(estate, design.costs, _prices())
    # the power row: the whole design's planning draw, switches included
    power = estate.totals.total_kw * PUE * 8760 * ENERGY
    assert squash(f"{power:,.0f}") in squash(text)
    assert squash(f"{cost.total:,.0f}") in squash(text)


def test_a_group_name_with_a_dot_stays_whole_in_the_log():
    calc = Calculation(
        id="cost.Llama 3.3 70B chat.per_million_tokens", formula="x", inputs={}, value=1.0,
        unit="", source="s",
    )  # fmt: skip
    assert (
        quantity(calc, "cost.", ["Llama 3.3 70B chat"]) == "Llama 3.3 70B chat: per million tokens"
    )


def test_a_rate_per_second_reads_in_the_singular():
    assert name_words("tokens_per_s") == "tokens per second"
    assert name_words("prefill_s") == "prefill seconds"
