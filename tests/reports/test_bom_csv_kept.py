"""The CSV bill of an expansion: what a buyer's tool sums and what an installer walks.

Decision: the 'quantity' column stays what is bought (a tool multiplies it by the unit price);
a 'kept' column after it says how many of the item the estate already has and keeps, and each
existing cluster's lines stand together, its kept-only lines with quantity 0. A bill without
an estate keeps its columns as they were."""

from __future__ import annotations

import csv
import io
import json

from tests.conftest import ROOT
from wizard.app.io import design_from_dict
from wizard.engine.decide.planning import plan

SAMPLE = ROOT / "tests" / "data" / "estate" / "expansion.json"
KEPT = "Notebooks A100"


def _rows(d: dict, catalog, prices=None) -> list[dict[str, str]]:
    from reports.bom_export import bom_csv

    p = plan(design_from_dict(d), catalog, prices)
    bom = p.priced or p.estate.bom
    return list(csv.DictReader(io.StringIO(bom_csv(bom, p.estate.kept))))


def _row(rows, cluster, item):
    (r,) = [r for r in rows if r["cluster"] == cluster and r["item"] == item]
    return r


def test_a_kept_cluster_with_nothing_bought_shows_its_lines_at_quantity_zero(catalog):
    rows = _rows(json.loads(SAMPLE.read_text(encoding="utf-8")), catalog)
    assert list(rows[0])[:7] == ["cluster", "category", "item", "part_number", "description",
                                 "quantity", "kept"]  # fmt: skip
    # the sample: three R750xa with four A100 80GB each, all kept, none bought
    server = _row(rows, KEPT, "server:dell-r750xa")
    assert (server["quantity"], server["kept"]) == ("0", "3")
    gpu = _row(rows, KEPT, "gpu:a100-pcie-80gb")
    assert (gpu["quantity"], gpu["kept"]) == ("0", "12")
    # the new cluster's lines are bought, none kept: three XE9680 with eight H200 each
    new = _row(rows, "GPU cluster", "server:dell-xe9680")
    assert (new["quantity"], new["kept"]) == ("3", "0")
    assert _row(rows, "GPU cluster", "gpu:h200-sxm-141gb")["quantity"] == "24"
    # the kept cluster's rows come first and together
    clusters = [r["cluster"] for r in rows if r["cluster"] in (KEPT, "GPU cluster")]
    assert clusters == sorted(clusters, key=lambda c: c != KEPT)


def test_a_grown_cluster_buys_its_added_host_on_the_row_that_keeps_the_others(catalog):
    d = json.loads(SAMPLE.read_text(encoding="utf-8"))
    d["workloads"][0]["count"] = 18  # 9 GPUs -> 3 hosts of 4, N+1 -> 4: 3 kept, 1 added
    rows = _rows(d, catalog)
    server = _row(rows, KEPT, "server:dell-r750xa")
    assert (server["quantity"], server["kept"]) == ("1", "3")
    gpu = _row(rows, KEPT, "gpu:a100-pcie-80gb")
    assert (gpu["quantity"], gpu["kept"]) == ("4", "12")


def test_the_priced_rows_add_up_to_what_is_bought(catalog):
    from wizard.app.pricing import load_prices

    prices = load_prices(ROOT / "resources" / "examples" / "prices-sample.toml")
    d = json.loads(SAMPLE.read_text(encoding="utf-8"))
    rows = _rows(d, catalog, prices)
    lines = [r for r in rows if r["category"] not in ("total", "note")]
    kept = [r for r in lines if r["quantity"] == "0" and r["kept"] not in ("", "0")]
    # a kept row is not bought: no price, so a tool's sum of the rows is the order
    assert kept and all(r["unit_price"] == "" and r["total_price"] == "" for r in kept)
    # the sample price list prices the R750xa: it would count 3 x its price if kept were bought
    assert _row(rows, KEPT, "server:dell-r750xa")["total_price"] == ""
    once = float(next(r for r in rows if r["item"] == "one-off")["total_price"])
    per_year = float(next(r for r in rows if r["item"] == "per-year")["total_price"])
    summed = sum(float(r["total_price"]) for r in lines if r["total_price"])
    assert abs(summed - (once + per_year)) < 0.01


def test_a_bill_without_an_estate_has_no_kept_column(catalog):
    d = json.loads(SAMPLE.read_text(encoding="utf-8"))
    d["existing"] = {"clusters": []}
    d["workloads"] = d["workloads"][1:]
    rows = _rows(d, catalog)
    assert "kept" not in rows[0] and "cluster" not in rows[0]
