"""The power of in-rack coolant distribution units in a design of several clusters: the racks'
PDUs feed each unit as they feed the hosts, so the estate's cooling power is the units placed
times each unit's own draw (Vertiv CoolChip CDU 121: about 875 W, Vertiv's datasheet as
transcribed in the catalog; see tests/engine/test_liquid_cooling.py for one cluster)."""

from __future__ import annotations

import pytest

from tests.engine.conftest import hgx_training
from tests.engine.test_estate import acme
from wizard.app.io import design_from_dict
from wizard.engine.decide.estate import size_estate

CDU_121_KW = 0.875
BOARD = {"gpu": "b200-sxm", "server": "supermicro-sys-422ga-nbrt-lcc", "nic": "cx7-ndr-1p",
         "fabric": "ib-ndr"}  # fmt: skip
MANAGEMENT = {"name": "Management domain", "role": "management-domain", "server": "dell-r760xa"}


def _estate(catalog, jobs: int, rack_kw: float = 120):
    doc = hgx_training(jobs, 2000, rack_kw, BOARD)  # liquid-cooled HGX B200 hosts
    doc["clusters"] = [MANAGEMENT]  # a second cluster: the estate's own racks and network
    return size_estate(design_from_dict(doc), catalog)


def _units(e) -> int:
    return sum(1 for r in e.racks for i in r.items if i.kind == "cdu")


def test_the_catalog_unit_draws_875_w(catalog):
    assert catalog.cooling["vertiv-coolchip-cdu-121"].power_w == CDU_121_KW * 1000


@pytest.mark.parametrize("jobs", [1, 3])
def test_the_cooling_power_is_the_units_times_875_w(catalog, jobs):
    """One 70B job is 4 liquid-cooled hosts, one rack with one unit: 1 x 0.875 kW; three jobs
    take more racks, each with its unit: units x 0.875 kW."""
    e = _estate(catalog, jobs)
    assert len(e.clusters) == 2
    assert e.cooling is not None and e.cooling.cdu == "vertiv-coolchip-cdu-121"
    assert e.cooling.placement == "in-rack"
    units = _units(e)
    assert units >= 1
    if jobs == 1:
        assert units == 1
    assert e.totals.cooling_kw == pytest.approx(units * CDU_121_KW)
    # and the estate's total counts it once, with the hosts, network and storage
    t = e.totals
    assert t.total_kw == pytest.approx(t.hosts_kw + t.network_kw + t.storage_kw + t.cooling_kw)


def test_air_cooled_clusters_draw_nothing_for_coolant(catalog):
    """The negative case: the Acme estate of tests/engine/test_estate.py is air-cooled; no
    unit is placed and its cooling power is 0."""
    e = size_estate(design_from_dict(acme()), catalog)
    assert _units(e) == 0
    assert e.totals.cooling_kw == 0.0
