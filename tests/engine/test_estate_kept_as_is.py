"""The existing clusters kept as they are (nothing planned on them) still draw power and fill
racks: the estate's power and racks count them, the bill and the cost of ownership do not.

Catalog figures used by hand: Dell PowerEdge XE9680 platform baseline 4,000 W, 6U; NVIDIA H200
SXM 700 W TDP; Dell PowerEdge R750xa baseline 800 W, 2U; NVIDIA A100 PCIe 80GB 300 W. A host
plans its GPUs at TDP plus its server's baseline (wizard.engine.fitout.power)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import ROOT
from wizard.app.io import design_from_dict
from wizard.engine.decide.planning import plan

SAMPLE = ROOT / "tests" / "data" / "estate" / "expansion.json"


def _sample() -> dict:
    return json.loads(SAMPLE.read_text(encoding="utf-8"))


def _hgx(n: int, mode: str = "mig") -> dict:
    vgpu = "H200X-3-71C" if mode == "mig" else "H200X-71C"
    return {"name": "HGX today", "hosts": [
        {"name": f"hgx{i}", "server": "dell-xe9680", "gpu": "h200-sxm-141gb", "gpus": 8,
         "sharing_mode": mode, "in_use": [{"vm": f"vm{i}", "vgpu_type": vgpu}]}
        for i in range(n)
    ]}  # fmt: skip


def test_kept_hosts_are_racked_less_the_out_of_band_switch(catalog):
    """Five 9,600 W hosts under a 48 kW limit: 48,000 / 9,600 = 5 would fill one rack, but
    every rack keeps 100 W for its out-of-band switch (the SN2201), so 47,900 W takes 4 a rack
    and the five stand in ceil(5 / 4) = 2, as the racks of the design's own hosts are
    counted."""
    assert catalog.switches["nvidia-sn2201"].power_w == 100
    d = _sample()
    d["assumptions"]["max_rack_power_kw"] = 48
    d["existing"]["clusters"].append(_hgx(5))
    p = plan(design_from_dict(d), catalog)
    (a,) = p.estate.as_is
    assert a.host_racks == 2
    (per,) = [c for c in p.estate.calculations if c.id.endswith("dell-xe9680.hosts_per_rack")]
    assert (per.inputs["rack_limit_w"], per.inputs["host_w"], per.value) == (47_900, 9_600, 4)


def test_an_hgx_cluster_outside_support_counts_in_power_and_racks(catalog):
    d = _sample()
    d["existing"]["clusters"].append(_hgx(2))
    p = plan(design_from_dict(d), catalog)
    (a,) = p.estate.as_is
    assert a.name == "HGX today" and "outside NVIDIA's support" in a.reason
    # 8 x 700 W + 4,000 W = 9,600 W a host; two hosts 19.2 kW
    assert a.host_w == [9600, 9600] and a.hosts_kw == pytest.approx(19.2)
    # per rack: the fewer of 42 U / 6 U = 7 and 40 kW / 9.6 kW = 4 -> two hosts, one rack
    assert (a.hosts_counted, a.host_racks, a.not_counted) == (2, 1, "")
    t = p.estate.totals
    planned = sum(c.hosts_kw for c in p.estate.clusters)
    assert t.hosts_kw == pytest.approx(planned + 19.2)
    # existing: the three kept R750xa (4 x 300 + 800 = 2,000 W each) and the HGX hosts
    assert t.existing_kw == pytest.approx(3 * 2.0 + 19.2)
    without = plan(design_from_dict(_sample()), catalog).estate.totals
    assert t.host_racks == without.host_racks + 1
    # the power list names them with their count, each host's 9,600 W and the 19,200 W total
    (item,) = [i for i in p.estate.power_items if i.item.startswith("HGX today")]
    assert (item.count, item.watts_each, item.watts_total) == (2, 9600, 19_200)
    # nothing of it is bought
    assert "HGX today" not in {ln.cluster for ln in p.estate.bom.lines + p.estate.kept}


def test_the_cost_of_ownership_leaves_out_the_power_of_what_is_kept_as_it_is(catalog):
    from wizard.app.pricing import load_prices

    prices = load_prices(ROOT / "resources/examples/prices-sample.toml")
    d = _sample()
    d["costs"] = {"energy_price": 0.25, "years": 3}
    base = plan(design_from_dict(d), catalog, prices)
    d["existing"]["clusters"].append(_hgx(2))
    more = plan(design_from_dict(d), catalog, prices)
    # the estate draws 19.2 kW more, all of it existing: the yearly energy cost is the same
    assert more.estate.totals.total_kw == pytest.approx(base.estate.totals.total_kw + 19.2)
    assert more.cost.power_per_year == pytest.approx(base.cost.power_per_year)


def test_a_host_the_catalog_cannot_power_is_named_not_guessed(catalog):
    d = _sample()
    c = _hgx(2, "vgpu")
    c["name"] = "Mixed"
    c["hosts"][1] |= {"server": None, "server_as_read": "Acme Box 9", "gpu": None, "gpus": 2}
    d["existing"]["clusters"].append(c)
    p = plan(design_from_dict(d), catalog)
    (a,) = p.estate.as_is
    assert "differ" in a.reason
    assert (a.hosts, a.hosts_counted, a.host_w) == (2, 1, [9600])
    assert a.not_counted.startswith("hgx1:")
    assert a.host_racks == 1


def test_a_planned_existing_cluster_is_not_kept_as_it_is(catalog):
    d = _sample()
    d["existing"]["clusters"].append(_hgx(2, "vgpu"))  # time-sliced on HGX: supported, planned
    p = plan(design_from_dict(d), catalog)
    assert p.estate.as_is == []
    assert "HGX today" in [c.name for c in p.estate.clusters]
