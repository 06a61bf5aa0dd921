"""Cost of ownership from the user's price list: hardware once, licences per year, power from
the planning draw, support as a share; nothing priced that the list does not price."""

from __future__ import annotations

import pytest

from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict
from wizard.engine.basis.expr import Formula
from wizard.engine.decide.cost import Load, cost_of_ownership
from wizard.engine.fitout.bom import apply_prices
from wizard.engine.size import size
from wizard.model.buildout import Bom, BomCategory, BomLine
from wizard.model.design import CostInputs
from wizard.model.prices import PriceList


def _line(category, item, qty):
    return BomLine(category=category, item=item, part_number="", description=item,
                   quantity=qty, unit="each", source="test")  # fmt: skip


BOM = Bom(
    lines=[
        _line(BomCategory.SERVER, "server:a", 2),
        _line(BomCategory.LICENCE, "licence:gpu", 4),
        _line(BomCategory.SWITCH, "switch:x", 1),  # not in the price list
    ]
)
PRICES = PriceList(currency="EUR", prices={"server:a": 10_000, "licence:gpu": 1_000})
LOAD = Load(gpus=4, kw=2.0, workloads=[])
FULL = CostInputs(years=3, energy_price=0.20, pue=1.5, average_load=1.0, support_share=0.10)


def test_a_three_year_tco_by_hand():
    """Hardware 2 x 10,000 = 20,000 once. Per year: licences 4 x 1,000 = 4,000; power
    2.0 kW x 1.0 x 1.5 x 8,760 h x 0.20 = 5,256; support 10 % of 20,000 = 2,000; 11,256 a
    year. Three years: 20,000 + 3 x 11,256 = 53,768, over 4 GPUs x 8,760 h x 3 = 105,120
    GPU-hours: 0.5115 per GPU-hour."""
    c = cost_of_ownership(apply_prices(BOM, PRICES), LOAD, FULL)
    assert c.hardware == 20_000
    assert c.subscriptions_per_year == 4_000
    assert c.power_per_year == pytest.approx(5_256)
    assert c.support_per_year == pytest.approx(2_000)
    assert c.per_year == pytest.approx(11_256)
    assert c.total == pytest.approx(53_768)
    assert c.gpu_hours == 105_120
    assert c.cost_per_gpu_hour == pytest.approx(53_768 / 105_120)
    assert c.left_out == []


def test_an_unpriced_line_is_listed_never_guessed():
    c = cost_of_ownership(apply_prices(BOM, PRICES), LOAD, FULL)
    assert c.unpriced_items == ["switch:x"]
    assert c.hardware == 20_000  # the switch adds nothing, not an estimate


def test_costs_without_an_input_are_left_out_and_said_to_be():
    """No energy price and no support share: 20,000 + 3 x 4,000 = 32,000."""
    c = cost_of_ownership(apply_prices(BOM, PRICES), LOAD, CostInputs(years=3))
    assert (c.power_per_year, c.support_per_year) == (None, None)
    assert c.total == pytest.approx(32_000)
    assert len(c.left_out) == 2 and "energy price" in c.left_out[0]


def test_a_pue_and_a_lower_average_load_scale_power_alone():
    half = FULL.model_copy(update={"average_load": 0.5, "pue": 1.0})
    c = cost_of_ownership(apply_prices(BOM, PRICES), LOAD, half)
    assert c.power_per_year == pytest.approx(2.0 * 0.5 * 1.0 * 8_760 * 0.20)  # 1,752
    assert c.subscriptions_per_year == 4_000 and c.support_per_year == pytest.approx(2_000)


def test_cost_per_million_output_tokens_of_a_serving_group(catalog):
    """One serving group takes all the cost: total / (tokens/s x 31,536,000 s x years) x 1e6."""
    r = size(design_from_dict(design_dict("llm-serving")), catalog)
    prices = PriceList(currency="EUR", prices={ln.item: 1_000.0 for ln in r.bom.lines})
    load = Load(gpus=r.cluster.gpus_total, kw=r.power.total_kw, workloads=r.workloads)
    c = cost_of_ownership(apply_prices(r.bom, prices), load, FULL)
    (w,) = c.workloads
    assert w.share == 1 and w.cost == pytest.approx(c.total)
    tps = r.workloads[0].serving.tokens_per_s_total
    assert w.cost_per_million_tokens == pytest.approx(c.total / (tps * 31_536_000 * 3) * 1e6)


def test_the_cost_log_evaluates_to_its_values():
    c = cost_of_ownership(apply_prices(BOM, PRICES), LOAD, FULL)
    assert c.calculations
    for calc in c.calculations:
        assert Formula(calc.formula)(**calc.inputs) == pytest.approx(calc.value), calc.id


def test_an_unpriced_licence_line_adds_nothing_to_the_subscriptions():
    """Two licence lines, one not in the price list: subscriptions are the priced one alone,
    4 x 1,000 = 4,000 a year, and the other is listed as left unpriced; no energy price or
    support share, so over 3 years 20,000 + 3 x 4,000 = 32,000."""
    bom = Bom(lines=[*BOM.lines, _line(BomCategory.LICENCE, "licence:unlisted", 7)])
    c = cost_of_ownership(apply_prices(bom, PRICES), LOAD, CostInputs(years=3))
    assert c.subscriptions_per_year == 4_000
    assert c.per_year == pytest.approx(4_000)
    assert c.total == pytest.approx(32_000)
    assert "licence:unlisted" in c.unpriced_items


def test_no_installed_gpu_gives_no_cost_per_gpu_hour():
    """The negative case of the GPU-hour figure: 0 GPUs x 8,760 h x 3 = 0 GPU-hours, over
    which nothing is spread: 0, not a division by zero or a stand-in figure."""
    c = cost_of_ownership(apply_prices(BOM, PRICES), Load(gpus=0, kw=2.0, workloads=[]), FULL)
    assert c.gpu_hours == 0
    assert c.cost_per_gpu_hour == 0.0
    assert c.total == pytest.approx(53_768)  # as by hand above: the GPUs change no cost
