"""Liquid cooling as a design dimension: a direct-liquid-cooled rack's heat splits into what its
coolant carries and what goes to the room air, the coolant distribution units (CDUs) are placed
and billed, and the facility water follows from the heat.

Figures: the Supermicro SYS-422GA-NBRT-LCC (HGX B200, 4U) cools GPUs, CPUs and PCIe switches
with cold plates (ServeTheHome's hands-on): its catalog share of heat to the coolant is
(8 x 1,000 W + 2 x 500 W) / 14,300 W = 0.63. Vertiv CoolChip CDU 121: 121 kW at a 4 C approach,
about 875 W of its own (Vertiv's datasheet as transcribed); Vertiv CoolChip CDU 600: 600 kW.
Water: heat = mass flow x 4,186 J/(kg K) x rise, at 995 kg/m3."""

from __future__ import annotations

import math

import pytest

from tests.engine.conftest import hgx_training
from wizard.app.io import design_from_dict
from wizard.engine.basis.record import Recorder
from wizard.engine.fitout.cooling import cooling
from wizard.engine.size import size
from wizard.model import buildout as bo
from wizard.model.catalog import CduPlacement

HOST_W = 6_300 + 8 * 1_000  # catalog baseline + 8 B200 at 1,000 W
SHARE = 0.63
CDU_121_W = 875


def _lcc(hosts_per_job: int = 1, rack_kw: float = 120, **hardware) -> dict:
    board = {"gpu": "b200-sxm", "server": "supermicro-sys-422ga-nbrt-lcc", "nic": "cx7-ndr-1p",
             "fabric": "ib-ndr"}  # fmt: skip
    # 2,000 h: three hosts of capacity per job, the fourth for N+1
    return hgx_training(hosts_per_job, 2000, rack_kw, {**board, **hardware})


@pytest.fixture(scope="module")
def one_rack(catalog):
    return size(design_from_dict(_lcc()), catalog)


def test_the_catalog_share_is_the_cold_plated_parts(catalog):
    s = catalog.servers["supermicro-sys-422ga-nbrt-lcc"]
    assert s.liquid_heat_share == pytest.approx((8 * 1_000 + 2 * 500) / 14_300, abs=0.005)
    assert "liquid_heat_share" in s.unsettled and "liquid_heat_share" in s.source_note


def test_a_rack_splits_its_heat_into_liquid_and_air(one_rack):
    assert one_rack.power.host_w == HOST_W
    (rack,) = one_rack.racks.racks
    hosts = [i for i in rack.items if i.kind == "server"]
    assert len(hosts) == one_rack.cluster.hosts_total == 4
    assert rack.liquid_w == pytest.approx(4 * HOST_W * SHARE)  # 36,036 W
    switches = sum(i.power_w for i in rack.items if i.kind in ("switch", "oob"))
    # the air takes the hosts' other 37 %, the switches (the out-of-band one too) and the CDU's
    # own pumps
    assert rack.air_w == pytest.approx(4 * HOST_W * (1 - SHARE) + switches + CDU_121_W)
    assert rack.liquid_w + rack.air_w == pytest.approx(rack.power_w)


def test_the_in_rack_cdu_stands_at_the_foot_of_the_rack(one_rack):
    (rack,) = one_rack.racks.racks
    cdu = next(i for i in rack.items if i.kind == "cdu")
    assert (cdu.u_position, cdu.height_u, cdu.power_w) == (1, 4, CDU_121_W)
    first = min(i.u_position for i in rack.items if i.kind == "server")
    assert first == 1 + 4


def test_cooling_names_the_cdu_and_the_facility_water(one_rack):
    c = one_rack.racks.cooling
    assert c is not None
    assert (c.cdu, c.placement, c.units, c.racks) == ("vertiv-coolchip-cdu-121", "in-rack", 1, 1)
    liquid = 4 * HOST_W * SHARE
    assert c.liquid_kw == pytest.approx(liquid / 1000)
    # 36,036 W / (4,186 x 10 x 995) kg/s -> x 60,000 l/min per m3/s = 51.9 l/min
    assert c.facility_flow_lpm == pytest.approx(liquid / (4_186 * 10 * 995) * 60_000)
    assert c.facility_flow_lpm == pytest.approx(51.9, abs=0.05)
    assert c.cdu_power_w == CDU_121_W


def test_the_cdu_is_in_the_bill(one_rack):
    (line,) = [ln for ln in one_rack.bom.lines if ln.category.value == "cooling"]
    assert line.item == "cooling:vertiv-coolchip-cdu-121" and line.quantity == 1
    assert "121 kW" in line.description and "vertiv.com" in line.source


def test_the_log_reevaluates_the_flow(one_rack):
    calc = next(c for c in one_rack.calculations if c.id == "cooling.facility_water_flow")
    v = calc.inputs
    got = (
        v["coolant_heat_w"]
        / (v["water_specific_heat"] * v["temperature_rise"] * v["water_density"])
        * 60_000
    )
    assert got == pytest.approx(calc.value)


def test_the_cdu_takes_its_room_from_the_hosts(catalog):
    """42U less the 4U unit and the 1U out-of-band switch = 37U: 9 hosts of 4U by space; by
    power (120,000 - 875 - 100 for the SN2201) / 14,300 = 8.32 -> room for 8 hosts per rack; more
    than 8 hosts -> 2 racks, each with its own unit."""
    r = size(design_from_dict(_lcc(hosts_per_job=3)), catalog)
    room = next(c for c in r.calculations if c.id == "racks.hosts_per_rack")
    assert room.value == 8
    assert room.inputs["rack_units"] == 42 - 4 - 1
    assert room.inputs["rack_limit_w"] == 120_000 - 875 - 100
    assert 8 < r.cluster.hosts_total <= 16
    host_racks = [rk for rk in r.racks.racks if rk.hosts]
    assert r.racks.cooling is not None
    assert r.racks.cooling.units == len(host_racks) == math.ceil(r.cluster.hosts_total / 8)
    assert all(sum(i.kind == "cdu" for i in rk.items) == 1 for rk in host_racks)


def test_in_row_units_when_no_in_rack_unit_is_listed(catalog):
    """Without in-rack units: ceil(liquid / 600 kW) CDU 600s plus one spare (N+1)."""
    in_row = {k: c for k, c in catalog.cooling.items() if c.placement is CduPlacement.IN_ROW}
    row = catalog.model_copy(update={"cooling": in_row})
    r = size(design_from_dict(_lcc()), row)
    c = r.racks.cooling
    assert c is not None and c.placement == "in-row"
    assert c.cdu == "vertiv-liebert-xdu1350"  # the largest in-row unit: fewest in the row
    assert c.units == math.ceil(c.liquid_kw / 1_368) + 1 == 2
    assert not any(i.kind == "cdu" for rk in r.racks.racks for i in rk.items)
    doc = _lcc()
    doc["assumptions"]["cdu_spares"] = 0
    assert size(design_from_dict(doc), row).racks.cooling.units == 1


def test_an_air_cooled_design_has_no_coolant(catalog):
    r = size(design_from_dict(_lcc(server="supermicro-sys-a22ga-nbrt", rack_kw=60)), catalog)
    assert r.racks.cooling is None
    assert all(rk.liquid_w == 0 for rk in r.racks.racks)
    assert not [ln for ln in r.bom.lines if ln.category.value == "cooling"]


def test_the_power_total_counts_the_in_rack_units_as_the_racks_do(one_rack):
    """One number per concept: the in-rack unit draws from the rack's PDUs, so the cluster's
    total is the racks' sum: 4 x 14,300 W + the switches + 875 W."""
    p = one_rack.power
    assert p.cdu_w == CDU_121_W
    assert p.total_w == pytest.approx(4 * HOST_W + p.network_w + CDU_121_W)
    assert p.total_w == pytest.approx(sum(r.power_w for r in one_rack.racks.racks))
    calc = next(c for c in one_rack.calculations if c.id == "power.total_w")
    assert calc.inputs["cdus_w"] == CDU_121_W


def test_every_cdu_in_the_catalog_can_be_designed_with(catalog):
    """With only that unit in the catalog, the liquid-cooled design plans and bills it."""
    for cdu in catalog.cooling.values():
        only = catalog.model_copy(update={"cooling": {cdu.id: cdu}})
        r = size(design_from_dict(_lcc()), only)
        assert r.racks.cooling is not None and r.racks.cooling.cdu == cdu.id, cdu.id
        assert [ln.item for ln in r.bom.lines if ln.category.value == "cooling"] == [
            f"cooling:{cdu.id}"
        ]


def test_where_space_binds_the_unit_takes_its_units_from_the_hosts(catalog):
    """At 135 kW a rack is full by space: (42 - 4) // 4 = 9 hosts of 4U beside the 4U unit (not
    42 // 4 = 10), which power would also allow ((135,000 - 875) // 14,300 = 9): space binds;
    every rack's contents fit its 42 units."""
    r = size(design_from_dict(_lcc(hosts_per_job=3, rack_kw=135)), catalog)
    room = next(c for c in r.calculations if c.id == "racks.hosts_per_rack")
    assert room.value == 9 and r.racks.limited_by == "space"
    assert all(rk.used_u <= rk.height_u for rk in r.racks.racks)


def test_a_rack_too_small_for_a_unit_and_a_host_plans_in_row_units(catalog):
    """A 15 kW rack cannot hold a 14,300 W host beside the Vertiv unit's 875 W: that unit is not
    planned (its own power would leave no budget for a host); at 10 kW no in-rack unit is (a
    host alone is over the limit), the row's units cool and the rack budget stays positive."""
    r = size(design_from_dict(_lcc(rack_kw=15)), catalog)
    assert r.racks.cooling is not None and r.racks.cooling.cdu != "vertiv-coolchip-cdu-121"
    r = size(design_from_dict(_lcc(rack_kw=10)), catalog)
    assert not any(i.kind == "cdu" for rk in r.racks.racks for i in rk.items)
    assert r.racks.cooling is not None and r.racks.cooling.placement == "in-row"
    room = next(c for c in r.calculations if c.id == "racks.hosts_per_rack")
    assert room.inputs["rack_limit_w"] == 10_000 - 100  # less the out-of-band switch


def test_an_in_rack_unit_is_sized_for_the_hosts_the_power_left_after_its_own_draw(catalog):
    """pick_in_rack counts the hosts a rack holds beside the unit: by space (42U less its 4U)
    and by the power its own 875 W leaves, and takes the smallest unit whose capacity carries
    their coolant heat (14,300 W x 0.63 = 9,009 W a host). With a 75 kW copy of the CDU 121:
    - at 128,000 W: (128,000 - 875) // 14,300 = 8 hosts, 8 x 9,009 = 72,072 W <= 75 kW: it fits
      (counting the unit's draw as budget, (128,000 + 875) // 14,300 = 9 would not);
    - at 130,000 W: (130,000 - 875) // 14,300 = 9 hosts, 81,081 W > 75 kW: the 250 kW unit;
    - at 500 kW but 36U: (36 - 4) // 4 = 8 hosts by space: 72,072 W, the 75 kW unit again;
    - at 15,000 W: 875 + 14,300 = 15,175 W leaves no host beside the CDU 121, so the 250 kW
      unit, whose catalog states no power (0 W), is taken; at 14,000 W a host alone is over;
    - at exactly 875 + 14,300 = 15,175 W, or in 8U (the unit's 4U and one host's 4U), one
      host fits beside the CDU 121 exactly: it is taken."""
    from wizard.engine.fitout.cooling import pick_in_rack

    small = catalog.cooling["vertiv-coolchip-cdu-121"].model_copy(update={"capacity_kw": 75.0})
    large = catalog.cooling["supermicro-in-rack-cdu-250kw"]
    assert (small.power_w, small.rack_units, large.power_w, large.rack_units) == (875, 4, None, 4)
    units = catalog.model_copy(update={"cooling": {small.id: small, large.id: large}})
    server = catalog.servers["supermicro-sys-422ga-nbrt-lcc"]
    assert (server.rack_units, server.liquid_heat_share) == (4, SHARE)

    def pick(height_u: int, limit_w: float) -> str | None:
        unit = pick_in_rack(units, server, HOST_W, height_u, limit_w)
        return unit.id if unit else None

    assert pick(42, 128_000) == small.id
    assert pick(42, 130_000) == large.id
    assert pick(36, 500_000) == small.id
    assert pick(42, 15_000) == large.id
    assert pick(42, 14_000) is None  # a host alone is over the limit
    assert pick(42, 15_175) == small.id
    assert pick(8, 500_000) == small.id


@pytest.mark.parametrize(("liquid_w", "over"), [(121_000.0, False), (121_001.0, True)])
def test_an_in_rack_unit_is_over_capacity_only_beyond_it(catalog, liquid_w, over):
    """A rack whose coolant carries exactly the Vertiv CoolChip CDU 121's 121 kW is within it;
    one watt more is over (a rack drawn by hand: one liquid-cooled host of that coolant heat)."""
    host = bo.RackItem(name="host-01", kind="server", model="m", u_position=1, height_u=4,
                       power_w=liquid_w, host=0, liquid_w=liquid_w)  # fmt: skip
    rack = bo.Rack(name="R01", role="hosts", height_u=42, power_limit_w=200_000, used_u=4,
                   power_w=liquid_w, hosts=[0], items=[host])  # fmt: skip
    rec = Recorder()
    unit = catalog.cooling["vertiv-coolchip-cdu-121"]
    assert cooling([rack], catalog, unit, 1, rec) is not None
    assert ("cdu-over-capacity" in {w.code for w in rec.warnings}) is over
