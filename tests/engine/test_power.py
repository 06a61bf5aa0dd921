"""Power, heat and racks: watts per host, cluster kW, BTU/h, racks at the power limit and
height, and host placement that honours a rack failure domain."""

from itertools import pairwise

import pytest

from tests.engine.conftest import calc, design_dict
from wizard.app.io import design_from_dict
from wizard.engine.fitout.power import BTU_PER_HOUR_PER_W
from wizard.engine.size import size
from wizard.model.catalog import Cooling


def _sized(catalog, name: str, catalog_override=None, **sections):
    doc = design_dict(name)
    for key, value in sections.items():
        doc[key] = {**doc.get(key, {}), **value}
    return size(design_from_dict(doc), catalog_override or catalog)


def _codes(result) -> set[str]:
    return {w.code for w in result.warnings}


def test_btu_conversion_is_nist():
    """NIST SP 811, B.8: 1 BTU_IT/h = 0.2930711 W."""
    assert pytest.approx(1 / 0.2930711, rel=1e-6) == BTU_PER_HOUR_PER_W


def test_enterprise_power_worked_example(sized):
    """C4140: 4 x V100 SXM2 at 300 W + 450 W baseline = 1,650 W per host; 8 hosts = 13,200 W;
    switches: one SN4600C (466 W), two SN3420 (240 W) and the rack's SN2201 out-of-band switch
    (100 W, the catalog's estimate) = 1,046 W; 14,246 W = 48,609 BTU/h."""
    r = sized["enterprise"]
    p = r.power
    assert (p.gpu_w_per_host, p.baseline_w_per_host, p.host_w) == (1200, 450, 1650)
    assert (p.hosts_w, p.network_w, p.total_w) == (13_200, 1_046, 14_246)
    assert p.total_kw == pytest.approx(14.246)
    assert p.btu_per_hour == pytest.approx(14_246 * 3.412142)
    assert calc(r, "power.btu_per_hour").source.startswith("NIST")
    assert (p.psu_installed_w, p.psu_redundant_w) == (4800, 2400)


def test_storage_with_a_published_figure_is_in_the_total(catalog):
    """NetApp's key specifications for the AFF A800 give 8,417 BTU/h worst case for the HA pair
    (two controllers): 8,417 / 3.41214 = 2,467 W, 1,233 W a controller. The enterprise design on
    the minimum of one pair adds 2 x 1,233 = 2,466 W to its 14,246 W, and the pair's own rack its
    out-of-band switch (100 W): 16,812 W, and says nothing
    is missing. The Isilon F800 it ships with has no published figure: not counted, and said."""
    assert round(8417 / 3.41214 / 2) == 1233
    r = _sized(catalog, "enterprise", hardware={"storage": "netapp-aff-a800"})
    (item,) = [i for i in r.power.items if i.item.startswith("NetApp AFF A800")]
    assert (item.count, item.watts_each, item.watts_total) == (2, 1233, 2466)
    assert r.power.total_w == 14_246 + 2466 + 100
    assert "storage-power-unknown" not in _codes(r)
    shipped = _sized(catalog, "enterprise")
    assert shipped.power.total_w == 14_246
    assert "storage-power-unknown" in _codes(shipped)


def test_racks_at_the_power_limit(catalog):
    """At 5 kW per rack, less the 100 W of its out-of-band switch: floor(4,900 / 1,650) = 2 hosts
    per rack, so 8 hosts take 4 racks of 2; the three leaves fit at the top of R01
    (2 x 1,650 + 466 + 2 x 240 + 100 = 4,346 W), the storage takes a network rack of its own."""
    r = _sized(catalog, "enterprise", assumptions={"max_rack_power_kw": 5})
    racks = r.racks
    assert (racks.hosts_per_rack, racks.limited_by) == (2, "power")
    assert [len(x.hosts) for x in racks.racks] == [2, 2, 2, 2, 0]
    assert [x.role for x in racks.racks] == ["hosts+network"] + ["hosts"] * 3 + ["network"]
    assert racks.racks[0].power_w == 2 * 1650 + 466 + 2 * 240 + 100
    assert all(x.power_w <= 5000 for x in racks.racks)
    assert sorted(h for x in racks.racks for h in x.hosts) == list(range(8))


def test_racks_at_the_space_limit(catalog):
    """Ten 4U DSS 8440 hosts in 12U racks, 1U of each for its out-of-band switch:
    floor(11 / 4) = 2 per rack when power allows."""
    doc_hw = {"gpu": "t4", "server": "dell-dss8440", "gpus_per_host": 2}
    r = _sized(catalog, "starter", hardware=doc_hw, assumptions={"rack_units": 12})
    assert (r.racks.hosts_per_rack, r.racks.limited_by) == (2, "space")
    for rack in r.racks.racks:
        assert rack.used_u <= 12
        units = sorted((i.u_position, i.u_position + i.height_u) for i in rack.items)
        assert all(a[1] <= b[0] for a, b in pairwise(units))  # no overlap


def test_one_rack_holds_a_small_cluster_with_its_switches(sized):
    (rack,) = sized["starter"].racks.racks
    assert rack.role == "hosts+network" and len(rack.hosts) == 8
    # eight 2U hosts, three 1U switches, the four Isilon F800 nodes (one 4U chassis) and the
    # 1U out-of-band switch
    assert rack.used_u == 8 * 2 + 3 + 4 + 1


def test_rack_failure_domain_places_hosts_per_rack(catalog):
    """Rack domain of 2 hosts: N+1 adds a rack's worth (2 hosts) to the 7 for capacity, and no
    rack holds more than 2, so losing any rack leaves 7 hosts."""
    r = _sized(catalog, "enterprise", ha={"failure_domain": "rack", "hosts_per_rack": 2})
    assert r.cluster.hosts_total == 9
    host_racks = [x for x in r.racks.racks if x.hosts]
    assert [len(x.hosts) for x in host_racks] == [2, 2, 2, 2, 1]
    assert r.racks.limited_by == "failure-domain"
    assert min(9 - len(x.hosts) for x in host_racks) >= r.cluster.hosts_for_capacity


# ------------------------------------------------------------------------ warnings raised


def test_host_over_the_rack_limit_is_warned(catalog):
    r = _sized(catalog, "gpt3-175b", assumptions={"max_rack_power_kw": 5})  # 8.6 kW hosts
    assert "rack-power-over-limit" in _codes(r)
    assert all(len(x.hosts) <= 1 for x in r.racks.racks)


def test_host_over_its_power_supplies(catalog):
    weak = catalog.servers["dell-c4140"].model_copy(update={"psu_w": 800})
    cat = catalog.model_copy(update={"servers": {**catalog.servers, "dell-c4140": weak}})
    r = _sized(catalog, "enterprise", catalog_override=cat)  # 1,650 W > 2 x 800 W
    (w,) = [w for w in r.warnings if w.code == "host-power-over-psu"]
    assert w.severity == "error"


def test_host_over_its_redundant_supply_capacity(sized, catalog):
    """XE9680: 8 x 700 W + 4,000 W = 9,600 W, exactly what three of its six 3,200 W supplies
    carry; with the 2,800 W units it shipped with at launch, three carry only 8,400 W."""
    assert "host-power-over-psu-redundancy" not in _codes(sized["gpt3-175b"])
    launch = catalog.servers["dell-xe9680"].model_copy(update={"psu_w": 2800})
    cat = catalog.model_copy(update={"servers": {**catalog.servers, "dell-xe9680": launch}})
    assert "host-power-over-psu-redundancy" in _codes(
        _sized(catalog, "gpt3-175b", catalog_override=cat)
    )
    assert "host-power-over-psu-redundancy" not in _codes(sized["enterprise"])


def test_an_hgx_h100_host_plans_near_the_dgx_maximum(sized):
    """NVIDIA DGX H100 (the same HGX H100 8-GPU board with two CPUs): 10.2 kW maximum system
    power. A host planned far below it would undersize power and cooling."""
    assert sized["gpt3-175b"].power.host_w == pytest.approx(10_200, rel=0.10)


def test_rack_failure_domain_without_hosts_per_rack(catalog):
    r = _sized(catalog, "enterprise", ha={"failure_domain": "rack"})
    assert "rack-domain-unsized" in _codes(r)


def test_rack_domain_larger_than_a_rack_holds(catalog):
    r = _sized(
        catalog,
        "enterprise",
        ha={"failure_domain": "rack", "hosts_per_rack": 6},
        assumptions={"max_rack_power_kw": 5},
    )
    assert "rack-domain-smaller-than-planned" in _codes(r)


def test_whole_rack_loss_beyond_host_ha_is_noted(sized):
    (w,) = [w for w in sized["starter"].warnings if w.code == "rack-failure-exceeds-ha"]
    assert w.severity == "info"


def test_liquid_cooled_hosts_are_flagged_with_their_rack_density(catalog):
    """A liquid-cooled server needs facility water and coolant distribution units; the warning
    gives the densest rack's draw so the facility can check it. Air-cooled: no such warning."""
    air = _sized(catalog, "llm-serving")
    assert "liquid-cooled-hosts" not in _codes(air)
    server = catalog.servers["dell-xe9680"].model_copy(update={"cooling": Cooling.LIQUID})
    liquid_catalog = catalog.model_copy(
        update={"servers": {**catalog.servers, "dell-xe9680": server}}
    )
    r = _sized(catalog, "llm-serving", liquid_catalog)
    (w,) = [w for w in r.warnings if w.code == "liquid-cooled-hosts"]
    densest = max(rack.power_w for rack in r.racks.racks if rack.hosts)
    assert f"{densest / 1000:,.1f} kW" in w.message
    assert "facility water" in w.message


def test_no_hosts_fill_no_rack(catalog):
    """A design sized to no host (bert-large-25gbe's one group at count 0, N+0) places nothing:
    no rack, no host in the fullest one (0, not 1), no room figure and no rack warning."""
    doc = design_dict("bert-large-25gbe")
    doc["workloads"][0]["count"] = 0
    r = size(design_from_dict(doc), catalog)
    assert r.cluster.hosts_total == 0
    racks = r.racks
    assert (racks.racks, racks.host_racks, racks.network_racks) == ([], 0, 0)
    assert (racks.hosts_per_rack, racks.hosts_room) == (0, 0)
    assert not {c for c in _codes(r) if c.startswith("rack-")}


def test_the_logged_rack_room_for_a_failure_domain_states_space_and_power_too(catalog):
    """With a rack failure domain of 2 hosts, the log's room per rack is the domain, but its
    formula keeps the space and power rules, so a reader who changes an input re-checks the
    room with the same rule (``expr.evaluate``, the log's own evaluator). Enterprise: 41U (42U
    less the out-of-band switch's 1U) of 1U C4140 hosts, 14,900 W (15 kW less its 100 W) at
    1,650 W a host: floor(41 / 1) = 41 by space, floor(14,900 / 1,650) = 9 by power."""
    from wizard.engine.basis.expr import evaluate

    r = _sized(catalog, "enterprise", ha={"failure_domain": "rack", "hosts_per_rack": 2})
    row = calc(r, "racks.hosts_per_rack")
    assert row.inputs == {"rack_units": 41, "host_units": 1, "rack_limit_w": 14_900,
                          "host_w": 1650, "hosts_per_failure_domain": 2}  # fmt: skip
    assert row.value == evaluate(row.formula, row.inputs) == 2
    wide = {**row.inputs, "hosts_per_failure_domain": 100}
    assert evaluate(row.formula, wide) == 9  # power binds
    # 2U hosts and 100 kW: floor(41 / 2) = 20 by space, floor(100,000 / 1,650) = 60 by power
    tall = {**wide, "host_units": 2, "rack_limit_w": 100_000}
    assert evaluate(row.formula, tall) == 20
    # a host over the limit still gets a rack of its own: at least 1
    assert evaluate(row.formula, {**wide, "host_w": 20_000}) == 1


@pytest.mark.parametrize(("rack_kw", "over"), [(9.695, True), (9.7, False), (9.71, False)])
def test_a_rack_over_its_limit_by_a_few_watts_is_warned(catalog, rack_kw, over):
    """gpt3-175b's 9,600 W hosts each take a rack of their own with its 100 W out-of-band
    switch: 9,700 W a rack. At a 9.695 kW limit that is 5 W over, and the three host racks are
    named; at 9.7 kW exactly at the limit, and at 9.71 kW under it: no rack warning."""
    r = _sized(catalog, "gpt3-175b", assumptions={"max_rack_power_kw": rack_kw})
    assert r.power.host_w == 9600
    host_racks = [x for x in r.racks.racks if x.hosts]
    assert [(x.name, x.power_w) for x in host_racks] == [(f"R0{i}", 9700) for i in (1, 2, 3)]
    said = [w.message for w in r.warnings if w.code == "rack-power-over-limit"]
    racks_over = f"3 racks (R01, R02, R03) draw over the {rack_kw:g} kW limit, up to 9,700 W (R01)"
    assert (racks_over in said) is over
    # the host alone is under the limit: the warning names what else the rack holds
    host_over = (
        "One host draws 9,600 W and the rack's own equipment (its out-of-band switch 100 W), "
        f"over the {rack_kw:g} kW rack limit"
    )
    assert any(m.startswith(host_over) for m in said) is over
    if not over:
        assert said == []
