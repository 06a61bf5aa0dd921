"""One design, one answer: the cost, the rack count and the targets that `size`, `compare`, `cost`,
the Review page and the proposal state are the same, for every bundled example and every design
in docs/. Each reader quotes the engine's one Plan; before it, the one-cluster readers priced the
Result and the others the estate, and the two costs of one design differed by the coolant
distribution units' power."""

from __future__ import annotations

import io
import json
from functools import cache

import pytest

from tests.conftest import ROOT
from wizard.app.io import design_from_text
from wizard.base.bundled import example_names, example_text
from wizard.cli import main
from wizard.model.buildout import BomCategory

DOCS = sorted(p.name for p in (ROOT / "docs").glob("*.json"))
DESIGNS = [("example", n) for n in example_names()] + [("docs", n) for n in DOCS]
UNIT_PRICE = 1_000.0  # every item; a licence line is priced per unit and year


def _text(kind: str, name: str) -> str:
    if kind == "example":
        return example_text(name)
    return (ROOT / "docs" / name).read_text(encoding="utf-8")


@cache
def _files(kind: str, name: str, tmp: str) -> tuple[str, str]:
    """The design and a price list that prices every line of its bill, written to ``tmp``."""
    from wizard.app.catalog_loader import load_catalog
    from wizard.engine import plan

    design = design_from_text(_text(kind, name))
    bom = plan(design, load_catalog(include_user=False)).estate.bom
    cur = design.project.currency
    items = dict.fromkeys(ln.item for ln in bom.lines)  # an estate bills an item per cluster
    rows = ["item,unit_price,currency", *(f"{i},{UNIT_PRICE},{cur}" for i in items)]
    d = f"{tmp}/{kind}-{name}.json"
    p = f"{tmp}/{kind}-{name}-prices.csv"
    with open(d, "w", encoding="utf-8") as f:
        f.write(_text(kind, name))
    with open(p, "w", encoding="utf-8") as f:
        f.write("\n".join(rows) + "\n")
    return d, p


def _json(capsys, *args: str):
    assert main(list(args)) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(("kind", "name"), DESIGNS, ids=[f"{k}-{n}" for k, n in DESIGNS])
def test_size_compare_cost_and_the_proposal_state_one_cost_one_rack_count_one_set_of_targets(
    kind, name, tmp_path, capsys
):
    from pypdf import PdfReader

    design_file, prices_file = _files(kind, name, str(tmp_path))
    design = design_from_text(_text(kind, name))
    cur = design.project.currency

    sized = _json(capsys, "size", design_file, "--json")
    # size --json is the estate, for a design of one cluster as for several
    racks = len(sized["racks"])
    bill = sized["bom"]["lines"]
    # by hand: the hardware bought once is every non-licence line at the one unit price
    hardware = sum(
        ln["quantity"] * UNIT_PRICE for ln in bill if ln["category"] != BomCategory.LICENCE.value
    )
    assert hardware > 0

    cost = _json(capsys, "cost", design_file, "--prices", prices_file, "--json")
    assert cost["hardware"] == pytest.approx(hardware)

    rows = _json(capsys, "compare", design_file, "--prices", prices_file, "--json")
    (proposed,) = [r for r in rows if r["proposed"]]
    assert proposed["error"] is None
    assert proposed["racks"] == racks
    assert proposed["cost"]["total"] == pytest.approx(cost["total"])
    assert proposed["cost"]["hardware"] == pytest.approx(hardware)

    # the targets: met as the Result estimates them, by the rule written here
    met: dict[tuple[str, str], bool] = {}
    estate = "totals" in sized
    clusters = [c["result"] for c in sized["clusters"] if c["result"]] if estate else [sized]
    for r in clusters:
        for w in r["workloads"]:
            for t in (w["serving"] or {}).get("targets", []):
                above = t["value"] >= t["target"]
                met[(w["name"], t["metric"])] = (
                    above if t["metric"] == "throughput" else (t["value"] <= t["target"])
                )
    shown = {(t["workload"], t["metric"]): t["met"] for t in proposed["targets"]}
    assert {k: v for k, v in shown.items() if k in met} == met

    # the proposal with the same price list states the same total and hardware
    pdf_file = tmp_path / "p.pdf"
    rc = main(["report", design_file, "--prices", prices_file, "-o", str(pdf_file)])
    assert rc == 0, capsys.readouterr().err
    text = " ".join(
        " ".join(
            p.extract_text() for p in PdfReader(io.BytesIO(pdf_file.read_bytes())).pages
        ).split()
    )
    assert f"{cur} {round(cost['total']):,} ({cur} {round(hardware):,} of hardware once" in text
    at_risk = sum(1 for t in proposed["targets"] if t["at_risk"])
    missed = sum(1 for t in proposed["targets"] if not t["met"])
    if not at_risk and not missed:
        assert (
            "at risk" not in text.split("Performance against the targets")[1].split("Top risks")[0]
        )


def test_the_estate_total_counts_the_in_rack_coolant_units_as_one_cluster_does(catalog):
    """The rule the cost above rests on, isolated: the cost's planning draw is the estate's
    total, which must hold the in-rack distribution units' power as the one cluster's power
    does (the bug it guards: a one-cluster reader pricing 875 W more than the estate's).
    Four Supermicro SYS-422GA-NBRT-LCC hosts with a Vertiv CoolChip CDU 121 (875 W) in the rack
    (tests/engine/test_liquid_cooling.py gives the figures)."""
    import copy

    from tests.engine.test_liquid_cooling import CDU_121_W, _lcc
    from wizard.app.io import design_from_dict
    from wizard.engine import plan

    doc = _lcc()
    p = plan(design_from_dict(doc), catalog)
    (one,) = p.clusters
    t = p.estate.totals
    assert t.cooling_kw == pytest.approx(CDU_121_W / 1000)  # one unit, by hand
    assert t.total_kw == pytest.approx(t.hosts_kw + t.network_kw + t.storage_kw + 0.875)
    assert t.total_kw == pytest.approx(one.result.power.total_kw)

    # the same hosts as the second cluster of two: the estate's own layout holds the unit
    two = copy.deepcopy(doc)
    two["clusters"] = [{"name": "Liquid", "role": "gpu-cluster", "hardware": doc["hardware"]}]
    two["hardware"] = {**doc["hardware"], "server": "supermicro-sys-821ge-tnhr",
                       "gpu": "h100-sxm", "nic": "cx7-ndr-1p"}  # fmt: skip
    two["workloads"][0]["cluster"] = "Liquid"
    two["workloads"].append({**doc["workloads"][0], "name": "Small", "count": 1, "cluster": None})
    e = plan(design_from_dict(two), catalog).estate
    units = sum(1 for r in e.racks for i in r.items if i.kind == "cdu")
    assert units >= 1
    assert e.totals.cooling_kw == pytest.approx(units * CDU_121_W / 1000)
    total = e.totals.hosts_kw + e.totals.network_kw + e.totals.storage_kw + e.totals.cooling_kw
    assert e.totals.total_kw == pytest.approx(total)
