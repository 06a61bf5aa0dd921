"""Hosts added to an existing cluster are racked and cabled like every host bought: their
service and out-of-band ports are on the design's new switches and their cables on the bill,
beside the new hosts where a rack has room, else in a rack of their own.

The sample (tests/data/estate/expansion.json) with 18 notebooks: 9 A100 80GB -> 3 hosts of 4,
N+1 -> 4: the 3 kept Dell R750xa and 1 added. Each R750xa has 2 service ports (100 GbE, split
across a pair of leaves) and 1 BMC port; the new cluster's 3 XE9680 have 2 service ports each.
Catalog: R750xa 2U, 800 W baseline, A100 PCIe 80GB 300 W (a host plans 4 x 300 + 800 =
2,000 W); XE9680 6U, 4,000 W, H200 SXM 700 W (9,600 W)."""

from __future__ import annotations

import json

from tests.conftest import ROOT
from wizard.app.io import design_from_dict
from wizard.engine.decide.planning import plan

SAMPLE = ROOT / "tests" / "data" / "estate" / "expansion.json"
KEPT = "Notebooks A100"


def _plan(catalog, notebooks: int, rack_kw: float | None = None):
    d = json.loads(SAMPLE.read_text(encoding="utf-8"))
    d["workloads"][0]["count"] = notebooks
    if rack_kw is not None:
        d["assumptions"]["max_rack_power_kw"] = rack_kw
    return plan(design_from_dict(d), catalog)


def _cables(p) -> int:
    return sum(ln.quantity for ln in p.estate.bom.lines if ln.category.value == "cable")


def _ports(p, name: str) -> int:
    (plane,) = [x for x in p.estate.network if x.name.startswith(name)]
    return plane.host_ports


def test_the_added_host_has_its_ports_on_the_new_switches_and_its_cables_billed(catalog):
    base, grown = _plan(catalog, 6), _plan(catalog, 18)
    kept = next(c for c in grown.estate.clusters if c.name == KEPT)
    assert (kept.hosts, kept.existing_hosts) == (4, 3)
    # service: 3 XE9680 x 2 = 6 ports, + the added R750xa's 2 = 8; out of band: 3 + 1 = 4
    assert (_ports(base, "service"), _ports(grown, "service")) == (6, 8)
    assert (_ports(base, "oob"), _ports(grown, "oob")) == (3, 4)
    # the hosts on each network: the 3 new and the 1 added, not the 3 kept on their own network
    on = {x.name.split(".")[0]: x.hosts for x in grown.estate.network}
    assert on == {"compute": 3, "service": 3 + 1, "oob": 3 + 1}
    # the bill: its two service cables and its BMC cord, nothing else
    assert _cables(grown) - _cables(base) == 3
    links = [ln for ln in grown.port_map if ln.device == f"host-04 ({KEPT})"]
    assert sorted(ln.between for ln in links) == ["host-leaf", "host-leaf", "host-oob"]
    # none of the kept hosts is cabled or racked by the plan
    assert {ln.device for ln in grown.port_map if KEPT in ln.device} == {f"host-04 ({KEPT})"}


def test_the_added_host_stands_beside_the_new_hosts_where_a_rack_has_room(catalog):
    base, grown = _plan(catalog, 6), _plan(catalog, 18)
    # one rack of 40 kW: 3 x 6U + 2U = 20U and 3 x 9.6 + 2.0 = 30.8 kW of hosts: it fits
    assert len(grown.estate.racks) == len(base.estate.racks) == 1
    (rack,) = grown.estate.racks
    (added,) = [i for i in rack.items if i.cluster == KEPT]
    # above the three XE9680 (U1-U18)
    assert (added.name, added.u_position, added.height_u) == (f"host-04 ({KEPT})", 19, 2)
    # the decision names the rack it stands in, which is the new cluster's
    assert rack.cluster != KEPT
    (x,) = [x for x in grown.estate.decisions if x.text.startswith("The host added")]
    assert f"stands in {rack.name} and is cabled" in x.text
    # racks of hosts: the new one, and the one rack the three kept R750xa stand in
    assert grown.estate.totals.host_racks == 1 + 1
    racks = {ln.item: ln.quantity for ln in grown.estate.bom.lines if ln.category.value == "rack"}
    assert racks["rack:42u"] == 1


def test_without_room_the_added_host_gets_a_rack_of_its_own(catalog):
    # 30 kW racks: three XE9680 take 28.8 kW of hosts, so the R750xa's 2 kW does not fit beside
    # them; it stands in a rack of its own, bought
    base, grown = _plan(catalog, 6, 30), _plan(catalog, 18, 30)
    own = [r for r in grown.estate.racks if r.cluster == KEPT]
    assert len(own) == 1 and [i.name for i in own[0].items if i.host is not None] == ["host-04"]
    racks = lambda p: next(ln.quantity for ln in p.estate.bom.lines if ln.item == "rack:42u")  # noqa: E731
    assert racks(grown) > racks(base)
    assert _ports(grown, "service") == _ports(base, "service") + 2
    # the decision names its own rack only, not the new cluster's beside it
    (x,) = [x for x in grown.estate.decisions if x.text.startswith("The host added")]
    assert f"stands in {own[0].name} and is cabled" in x.text


def test_where_the_design_buys_no_switches_the_added_host_takes_the_clusters_own(catalog):
    d = json.loads(SAMPLE.read_text(encoding="utf-8"))
    d["workloads"] = d["workloads"][:1]  # only the notebooks: nothing new but the added host
    d["workloads"][0]["count"] = 18
    p = plan(design_from_dict(d), catalog)
    bought = {ln.item: ln.quantity for ln in p.estate.bom.lines}
    # no pair of new leaves, out-of-band switch or rack for one host
    assert not any(k.startswith(("switch:", "rack:", "pdu:")) for k in bought)
    assert p.estate.racks == []
    # its cables: 2 service ports and 1 BMC port, to the cluster's own switches
    assert bought["cable:service-to-existing-switch"] == 2
    assert bought["cable:oob-to-existing-switch"] == 1
    (x,) = [x for x in p.estate.decisions if x.text.startswith("The host added")]
    assert "2 on its service switches" in x.text and "1 on its out-of-band switches" in x.text
    assert "confirm the free ports" in x.implication
    # it stands beside the kept hosts: 4 R750xa of 2 kW in one 40 kW rack
    assert p.estate.totals.host_racks == 1


def test_each_added_host_counts_against_the_rack_it_joins(catalog):
    """32 notebooks: 16 A100 -> 4 hosts of 4, N+1 -> 5: the 3 kept and 2 added. Under a 32 kW
    limit less the out-of-band switch's 100 W, 31,900 W: the three XE9680 (28,800 W) and one
    R750xa (2,000 W) make 30,800 W, so the first added host stands beside them; a second would
    make 32,800 W, so it takes a rack of its own, from its foot (U1), not where the first
    stood in the cluster's own rack (U3)."""
    p = _plan(catalog, 32, 32)
    kept = next(c for c in p.estate.clusters if c.name == KEPT)
    assert (kept.hosts, kept.existing_hosts) == (5, 3)
    where = {
        i.name: (r.cluster, i.u_position)
        for r in p.estate.racks
        for i in r.items
        if i.host is not None
    }
    assert where[f"host-04 ({KEPT})"] == ("GPU cluster", 19)
    assert where["host-05"] == (KEPT, 1)


def test_only_the_existing_cluster_is_sized_with_hosts_it_has(catalog):
    """The kept cluster is sized with its 3 hosts (its host count the larger of the need and
    those 3); the design's new GPU cluster has none, and its log holds no such step."""
    p = _plan(catalog, 18)
    sized = {c.name: c.result for c in p.estate.clusters if c.result is not None}
    assert sized[KEPT].cluster.hosts_existing == 3
    assert "cluster.hosts_with_existing" in {x.id for x in sized[KEPT].calculations}
    new = sized["GPU cluster"]
    assert new.cluster.hosts_existing == 0
    assert "cluster.hosts_with_existing" not in {x.id for x in new.calculations}


def test_an_existing_cluster_that_grows_by_no_host_cables_nothing(catalog):
    """Only the notebooks, 6 of them: 3 A100 -> 1 host, N+1 -> 2, within the 3 kept R750xa, so
    no host is added: no cable to the cluster's own switches and no decision about one."""
    d = json.loads(SAMPLE.read_text(encoding="utf-8"))
    d["workloads"] = d["workloads"][:1]
    d["workloads"][0]["count"] = 6
    p = plan(design_from_dict(d), catalog)
    kept = next(c for c in p.estate.clusters if c.name == KEPT)
    assert kept.hosts == kept.existing_hosts == 3
    assert not [ln for ln in p.estate.bom.lines if ln.item.endswith("-to-existing-switch")]
    assert not [x for x in p.estate.decisions if "added to the existing cluster" in x.text]


def test_an_added_host_stands_beside_only_where_the_units_are_left(catalog):
    """20 U racks keep 19 U below the out-of-band switch: the three XE9680 fill U1-U18, so the
    R750xa's 2 U (U19-U20) would pass the top of the 19: it takes a rack of its own, though
    the 40 kW have room for it."""
    d = json.loads(SAMPLE.read_text(encoding="utf-8"))
    d["workloads"][0]["count"] = 18
    d["assumptions"]["rack_units"] = 20
    p = plan(design_from_dict(d), catalog)
    new = [r for r in p.estate.racks if r.cluster == "GPU cluster"]
    assert [len([i for i in r.items if i.host is not None]) for r in new] == [3]
    own = [r for r in p.estate.racks if r.cluster == KEPT]
    assert len(own) == 1
    assert [(i.name, i.u_position) for i in own[0].items if i.host is not None] == [("host-04", 1)]


def test_an_added_host_that_fills_the_rack_exactly_stands_beside(catalog):
    """21 U racks keep 20 U below the out-of-band switch: the three XE9680 fill U1-U18 and the
    R750xa's 2 U fill U19-U20 exactly, so it stands beside them."""
    d = json.loads(SAMPLE.read_text(encoding="utf-8"))
    d["workloads"][0]["count"] = 18
    d["assumptions"]["rack_units"] = 21
    p = plan(design_from_dict(d), catalog)
    (added,) = [i for r in p.estate.racks for i in r.items if i.cluster == KEPT]
    assert added.u_position == 19
    assert not [r for r in p.estate.racks if r.cluster == KEPT]


def test_the_added_part_holds_the_added_hosts_gpus(catalog):
    """The added part of the kept cluster: with 32 notebooks, 5 hosts of 4 A100 (20 GPUs), 3
    kept, so 2 hosts and 2 x 4 = 8 GPUs."""
    from wizard.engine.decide.kept_build import added_part

    p = _plan(catalog, 32)
    kept = next(c for c in p.estate.clusters if c.name == KEPT)
    assert (kept.hosts, kept.gpus) == (5, 20)
    part = added_part(kept)
    assert part is not None
    assert (part.hosts, part.gpus) == (2, 8)


def test_an_added_host_stands_beside_only_where_the_power_is_left(catalog):
    """The rack's power less its out-of-band switch's 100 W holds the three XE9680 (3 x 9,600 =
    28,800 W) and the R750xa's 2,000 W exactly at 30.9 kW (30,800 W): it stands beside them
    at U19. At 30.89 kW (30,790 W) it is 10 W short and takes a rack of its own, from U1."""
    assert catalog.switches["nvidia-sn2201"].power_w == 100
    exact = _plan(catalog, 18, rack_kw=30.9)
    (added,) = [i for r in exact.estate.racks for i in r.items if i.cluster == KEPT]
    assert added.u_position == 19
    assert not [r for r in exact.estate.racks if r.cluster == KEPT]
    short = _plan(catalog, 18, rack_kw=30.89)
    (own,) = [r for r in short.estate.racks if r.cluster == KEPT]
    assert [(i.name, i.u_position) for i in own.items if i.host is not None] == [("host-04", 1)]
