"""Recommend for me across clusters: the demand divided into users who share GPUs and jobs of
several GPUs, one cluster against two, and the one that draws less power taken."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli
from tests.engine.test_estate import acme
from wizard.app.io import design_from_dict, load_design
from wizard.app.recommend_split import partition, recommend_split
from wizard.base.errors import UserError


def one_cluster() -> dict:
    d = acme(pinned=False)
    d["hardware"] = d["clusters"][0]["hardware"]  # the HGX H100 hardware
    d["clusters"], d["cluster_name"] = [], "GPU cluster"
    return d


def test_partition_puts_gpu_sharing_users_apart_from_multi_gpu_jobs(catalog):
    shared, multi = partition(design_from_dict(one_cluster()), catalog)
    assert "Data scientists' notebooks" in [g.name for g in shared]  # 16 GB vGPU each
    assert "Llama 3.3 70B chat service" in [g.name for g in multi]  # tensor parallel


def test_the_split_takes_the_option_that_draws_less_power(catalog):
    split = recommend_split(design_from_dict(one_cluster()), catalog)
    t1, t2 = split.one.totals, split.two.totals
    assert split.take_two == (t2.total_kw < t1.total_kw)
    assert f"{t1.total_kw:,.1f} kW" in split.why and f"{t2.total_kw:,.1f} kW" in split.why
    assert f"{abs(t1.total_kw - t2.total_kw):,.1f} kW" in split.why
    assert [c.name for c in split.two.clusters] == ["Shared-GPU cluster", "Multi-GPU cluster"]
    assert len(split.one.clusters) == 1
    # the same demand on both sides
    assert sum(len(c.workloads) for c in split.two.clusters) == 3


def test_a_demand_that_does_not_divide_is_said_so(catalog):
    d = one_cluster()
    d["workloads"] = d["workloads"][:1]  # notebooks only
    with pytest.raises(UserError, match="nothing to split"):
        recommend_split(design_from_dict(d), catalog)


def test_recommend_on_the_command_line_names_products_and_writes_the_design(tmp_path):
    src = tmp_path / "d.json"
    src.write_text(json.dumps(one_cluster()), encoding="utf-8")
    proc = run_cli("recommend", str(src))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("GPU: NVIDIA ")
    assert "h100-sxm5-80gb" not in proc.stdout and "25gbe" not in proc.stdout
    out = tmp_path / "split.json"
    proc = run_cli("recommend", str(src), "--split", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("One cluster of ")
    chosen = load_design(out)  # a design the tool reads back
    assert len(chosen.workloads) == 3


def _prices(split, each: dict[str, float]):
    """A EUR price list for every server and GPU line of both options: ``each`` by item, 1,000
    for the rest."""
    from wizard.model.buildout import BomCategory
    from wizard.model.prices import PriceList

    items = {
        ln.item
        for e in (split.one, split.two)
        for ln in e.bom.lines
        if ln.category in (BomCategory.SERVER, BomCategory.GPU)
    }
    return PriceList(currency="EUR", prices={i: each.get(i, 1_000.0) for i in items})


def test_with_prices_the_lower_cost_of_ownership_decides(catalog):
    """One cluster is 3 Dell XE9680; the split is two clusters of 3 Lenovo SR675 V3 (checked
    first): each is a VMware Cloud Foundation workload domain of at least three hosts, which
    makes a third XE9680 in the multi-GPU cluster draw more than the SR675 V3 with H100 NVL.
    With an XE9680 at EUR 1,000,000 and everything else at EUR 1,000, one cluster's hardware is
    over 3,000,000 and the split's under 2,100,000 (6 servers and 48 GPUs at 1,000): the split
    is taken, whatever the power says. With an SR675 V3 at EUR 10,000,000 the split's hardware
    is over 60,000,000 against about 3,000 x 3 for one cluster: one cluster is taken."""
    d = design_from_dict(one_cluster())
    plain = recommend_split(d, catalog)

    def servers(e):
        out: dict[str, int] = {}
        for ln in e.bom.lines:
            if ln.item.startswith("server:"):
                out[ln.item] = out.get(ln.item, 0) + ln.quantity
        return out

    assert servers(plain.one) == {"server:dell-xe9680": 3}
    assert servers(plain.two) == {"server:lenovo-sr675-v3": 6}
    split = recommend_split(d, catalog, _prices(plain, {"server:dell-xe9680": 1e6}))
    assert split.cost_one is not None and split.cost_two is not None
    assert split.cost_one.hardware > 3_000_000 > 2_100_000 > split.cost_two.hardware
    assert split.take_two and "Two clusters, since their 3-year cost of ownership" in split.why
    assert "kW" in split.why
    split = recommend_split(d, catalog, _prices(plain, {"server:lenovo-sr675-v3": 1e7}))
    assert split.cost_two is not None and split.cost_two.hardware > 60_000_000
    assert not split.take_two and "One cluster, since its 3-year cost of ownership" in split.why


def test_a_price_list_without_the_gpus_leaves_the_choice_to_power(catalog):
    """A list that prices the servers but no GPU cannot cost either option: power decides, and
    the text says why."""
    from wizard.model.prices import PriceList

    d = design_from_dict(one_cluster())
    plain = recommend_split(d, catalog)
    servers = {ln.item: 1_000.0 for e in (plain.one, plain.two) for ln in e.bom.lines
               if ln.item.startswith("server:")}  # fmt: skip
    split = recommend_split(d, catalog, PriceList(currency="EUR", prices=servers))
    assert split.cost_one is None and split.cost_two is None
    assert split.take_two == plain.take_two
    assert "does not price the servers and GPUs of both, so power decides" in split.why


def test_recommend_split_on_the_command_line_weighs_a_price_list(tmp_path):
    """`gpuwizard recommend --split --prices`: with the XE9680 priced far above everything else
    (three in one cluster, none in the split), the command takes the split and says so in cost
    terms."""
    src = tmp_path / "d.json"
    src.write_text(json.dumps(one_cluster()), encoding="utf-8")
    prices = tmp_path / "p.toml"
    items = ["server:lenovo-sr675-v3", "gpu:h200-sxm-141gb", "gpu:h100-sxm5-80gb",
             "gpu:h100-nvl-94gb", "gpu:h100-pcie-80gb"]  # fmt: skip
    prices.write_text(
        'currency = "EUR"\n[prices]\n"server:dell-xe9680" = 1000000\n'
        + "".join(f'"{i}" = 1000\n' for i in items),
        encoding="utf-8",
    )
    out = tmp_path / "r.json"
    proc = run_cli("recommend", str(src), "--split", "--prices", str(prices), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "Two clusters, since their 3-year cost of ownership is EUR" in proc.stdout
    assert not load_design(out).is_single_cluster()


def test_on_an_equal_cost_of_ownership_one_cluster_is_kept(catalog, monkeypatch):
    """Two clusters are taken only when they cost less: when both options come to the same cost
    of ownership (here the one-cluster cost given to both), one cluster, simpler to run, is kept."""
    import wizard.app.recommend_split as rs

    d = design_from_dict(one_cluster())
    plain = recommend_split(d, catalog)
    prices = _prices(plain, {})
    first: list = []

    def same_cost(p):
        cost = p.cost if p.hardware_priced else None
        first.append(cost)
        return first[0]

    monkeypatch.setattr(rs, "_cost", same_cost)
    split = recommend_split(d, catalog, prices)
    assert split.cost_one is split.cost_two and split.cost_one is not None
    assert not split.take_two
    assert "One cluster, since two have the same 3-year cost of ownership" in split.why
    assert " 0 less" not in split.why


def test_on_an_equal_power_draw_one_cluster_is_kept(catalog, monkeypatch):
    """Unpriced, two clusters are taken only when they draw less: given the one-cluster plan for
    both options (the same kilowatts), one cluster is kept."""
    import wizard.app.recommend_split as rs

    planned: list = []
    real = rs.plan

    def patched(design, *args, **kwargs):
        if design.clusters and planned:  # the two-cluster option: the one cluster's figures
            return planned[-1]
        planned.append(real(design, *args, **kwargs))
        return planned[-1]

    monkeypatch.setattr(rs, "plan", patched)
    split = recommend_split(design_from_dict(one_cluster()), catalog)
    assert split.one.totals.total_kw == split.two.totals.total_kw
    assert not split.take_two and "One cluster, since two would draw the same" in split.why


def test_the_power_reason_says_when_the_two_options_draw_the_same():
    """Without prices power decides: 40.0 kW against 40.0 kW keeps one cluster and says they are
    the same; 40.0 against 39.5 takes two (0.5 kW less); 40.0 against 40.5 keeps one (0.5 kW
    more)."""
    from wizard.app.recommend_split import _by_power

    assert _by_power(40.0, 40.0, False).startswith(
        "One cluster, since two would draw the same 40.0"
    )
    assert _by_power(40.0, 39.5, False) == "Two clusters, since they draw 0.5 kW less."
    assert _by_power(40.0, 40.5, False).startswith("One cluster, since two would draw 0.5 kW more")
