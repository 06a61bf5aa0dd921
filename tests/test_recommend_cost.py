"""Recommend for me with a price list: the lowest total cost of ownership among the hardware the
list prices (never a choice made cheap by a missing price), and the two best as options whose
cost the comparison shows to the same figure."""

from __future__ import annotations

import json

from tests.conftest import run_cli
from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict, load_design
from wizard.app.recommend import best_options, rank_by_cost, recommend
from wizard.engine import compare
from wizard.model.prices import PriceList

PRICES = PriceList(
    currency="EUR",
    prices={"server:dell-xe9680": 250_000, "gpu:h100-sxm5-80gb": 25_000,
            "gpu:h200-sxm-141gb": 32_000, "server:lenovo-sr675-v3": 40_000,
            "gpu:l40s": 9_000},
)  # fmt: skip


def _design():
    d = design_dict("llm-serving")
    d["project"]["currency"] = "EUR"
    return design_from_dict(d)


def test_only_fully_priced_hardware_is_ranked_cheapest_first(catalog):
    ranked = rank_by_cost(_design(), catalog, PRICES)
    gpus = [s.gpu.id for s, _ in ranked]
    assert set(gpus) <= {"h100-sxm5-80gb", "h200-sxm-141gb", "l40s"}  # the others are unpriced
    totals = [c.total for _, c in ranked]
    assert totals == sorted(totals)
    for s, c in ranked:  # hardware = servers x their price + GPU boards x theirs, nothing else
        t = s.result.topology.totals
        server_price = PRICES.prices[f"server:{s.server.id}"]
        assert (
            c.hardware == t.hosts * server_price + t.gpu_boards * PRICES.prices[f"gpu:{s.gpu.id}"]
        )


def test_the_recommendation_says_it_is_the_cheapest_and_the_comparison_agrees(catalog):
    design = _design()
    (best, cost), *_ = rank_by_cost(design, catalog, PRICES)
    rec = recommend(design, catalog, keep_gpu=False, prices=PRICES)
    assert rec.hardware.gpu == best.gpu.id
    assert f"{cost.total:,.0f} EUR" in rec.reasons["gpu"]
    assert "lowest 3-year cost of ownership" in rec.reasons["gpu"]
    options = best_options(design, catalog, PRICES)
    assert [o.name for o in options] == [
        s.gpu.name for s, _ in rank_by_cost(design, catalog, PRICES)[:2]
    ]
    with_options = design.model_copy(update={"options": options})
    rows = compare(with_options, catalog, PRICES)
    assert rows[1].cost.total == cost.total  # one figure for the option, wherever it is read


def test_recommend_options_on_the_command_line(tmp_path):
    src = tmp_path / "d.json"
    d = design_dict("llm-serving")
    d["project"]["currency"] = "EUR"
    src.write_text(json.dumps(d), encoding="utf-8")
    prices = tmp_path / "p.toml"
    prices.write_text(
        'currency = "EUR"\n[prices]\n'
        + "".join(f'"{k}" = {v}\n' for k, v in PRICES.prices.items()),
        encoding="utf-8",
    )
    out = tmp_path / "o.json"
    proc = run_cli("recommend", str(src), "--prices", str(prices), "--options", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    design = load_design(out)
    assert len(design.options) == 2 and design.proposed == design.options[0].name
