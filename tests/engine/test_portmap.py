"""The port map: every host port, uplink, peer link and management port lands on exactly one
switch port, and the bill counts the Ethernet cables and optics from the same map, as NVIDIA's
part documents pair them. Lengths by hand: |Δu| × 44.45 mm + 1 m of routing in a rack."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from tests.conftest import ROOT
from wizard.app.io import design_from_dict, design_from_text
from wizard.base.bundled import example_text
from wizard.engine.decide.estate import estate_port_map, size_estate
from wizard.engine.fitout import linkx
from wizard.engine.fitout.portmap import OOB_PORTS, result_port_map
from wizard.engine.size import size


@pytest.fixture(scope="module")
def hgx(catalog):
    d = design_from_text(example_text("hgx-h200-llm"))
    r = size(d, catalog)
    return r, result_port_map(d, catalog, r)


@pytest.fixture(scope="module")
def two(catalog):
    doc = json.loads((ROOT / "docs" / "acme-two-clusters.json").read_text(encoding="utf-8"))
    d = design_from_dict(doc)
    e = size_estate(d, catalog)
    return e, estate_port_map(d, catalog, e)


def _parts(bom) -> Counter:
    return Counter({ln.part_number: ln.quantity for ln in bom.lines if ln.part_number})


def test_no_switch_port_is_used_twice(hgx, two):
    for _, links in (hgx, two):
        ends = [(ln.to_rack, ln.to_device, ln.to_port) for ln in links]
        assert len(ends) == len(set(ends))


def test_every_host_port_is_mapped_once(hgx):
    r, links = hgx
    for p in r.topology.fabric.planes:
        if not p.tiers:
            continue
        mine = [ln for ln in links if ln.network == p.name and ln.between == "host-leaf"]
        assert len(mine) == p.host_ports
        assert len({(ln.device, ln.port) for ln in mine}) == p.host_ports


def test_a_redundant_pair_takes_one_port_of_each_host(hgx):
    """The service network is a leaf pair: a host's two ports go to different leaves, so
    either leaf can fail (a plain in-order fill would put both on the first leaf)."""
    _, links = hgx
    svc = [ln for ln in links if ln.network == "service" and ln.between == "host-leaf"]
    by_host: dict[str, set[str]] = {}
    for ln in svc:
        by_host.setdefault(ln.device, set()).add(ln.to_device)
    assert by_host and all(len(leaves) == 2 for leaves in by_host.values())


def test_the_gpu_fabric_fills_a_leaf_in_host_order(hgx):
    """Not redundant: host-01's eight NDR ports take cages 1-4 of the one leaf, two a cage."""
    _, links = hgx
    first = [ln for ln in links if ln.network == "compute" and ln.device == "host-01"]
    assert [ln.to_port for ln in first] == [
        f"cage {c}, port {k}" for c in range(1, 5) for k in (1, 2)
    ]


def test_every_racked_device_has_a_management_port_in_its_rack(hgx, two):
    for res, links in (hgx, two):
        racks = res.racks.racks if hasattr(res, "topology") else res.racks
        oob = [ln for ln in links if ln.between == "host-oob"]
        racked = [(rk.name, i.name) for rk in racks for i in rk.items if i.kind != "oob"]
        assert sorted((ln.rack, ln.device) for ln in oob) == sorted(racked)
        assert all(ln.to_rack == ln.rack for ln in oob)
        per_switch = Counter(ln.to_device for ln in oob)
        assert max(per_switch.values()) <= OOB_PORTS


def test_in_rack_100gbe_dacs_by_hand(hgx):
    """hgx-h200-llm, one rack: hosts at U1, U7, U13; service leaves at U40 and U38.
    U1 to U40: 39 × 0.04445 + 1 = 2.73 m -> 3 m; U1 to U38: 2.64 -> 3 m;
    U7: 2.47 and 2.38 -> 2.5 m; U13: 2.20 and 2.11 -> 2.5 m; the two peer links, U40 to U38:
    1.09 -> 1.5 m. NVIDIA MCP1600-C codes: C003, C02A, C01A."""
    r, _ = hgx
    parts = _parts(r.bom)
    assert parts["MCP1600-C003"] == 2
    assert parts["MCP1600-C02A"] == 4
    assert parts["MCP1600-C01A"] == 2


def test_a_200g_breakout_between_racks_pairs_an_sr8_with_two_sr4(two):
    """acme-two-clusters: 4 host ports at 200 GbE on an SN4700 (400G ports split 1:2) in
    another rack: per switch port one 400GBASE-SR8 module (MMA1U50-WS) and one MPO-16 to
    2 × MPO-12 breakout fibre; per host port one 200GbE QSFP56 SR4 module (MMA1T00-VS), which
    ConnectX-7's QSFP112 cage takes (NVIDIA: 'backwards compatible and support QSFP56 200G')."""
    e, _ = two
    parts = _parts(e.bom)
    assert parts["MMA1U50-WS"] == 4 // 2
    assert parts["MMA1T00-VS"] == 4
    fibres = [ln for ln in e.bom.lines if "MPO-16 to 2 x MPO-12" in ln.description]
    assert sum(ln.quantity for ln in fibres) == 2
    # the old count: a 200G module at both ends of every host port
    assert not [ln for ln in e.bom.lines if ln.item.startswith("transceiver:compute.200gbe")]


def test_every_cable_has_a_length(hgx, two):
    for res, _ in (hgx, two):
        for ln in res.bom.lines:
            if ln.category == "cable":
                assert " m" in ln.description, ln.description


def test_length_codes_and_copper_reach():
    assert linkx._code(0.5, "C") == "C00A"
    assert linkx._code(2.5, "W") == "W02A"
    assert linkx._code(3, "C") == "C003"
    low, high = linkx.Place(0, 1), linkx.Place(0, 31)  # 30 × 0.04445 + 1 = 2.33 m
    # 100GbE copper reaches (2.5 m); the 400G-to-2×200G splitter stops at 2 m (NVIDIA FAQ)
    assert linkx.eth_copper_m(low, high, 100, 1) == 2.5
    assert linkx.eth_copper_m(low, high, 200, 2) is None
    assert linkx.eth_copper_m(low, linkx.Place(1, 1), 100, 1) is None  # another rack


def _two_tier_plane() -> tuple:
    """Two 100 GbE leaves of two host ports and two uplinks each, under two spines, in one rack
    (R01: spines at U42 and U41, leaves at U40 and U39), and two hosts of two ports at U1, U3."""
    from wizard.engine.fitout.portmap import Host
    from wizard.model import buildout as bo

    def tier(role: str, up: int) -> bo.SwitchTier:
        return bo.SwitchTier(role=role, switch="s", model="S", count=2, downlinks=2, uplinks=up,
                             port_speed_gbps=100, rack_units=1, power_w=100)  # fmt: skip

    run = bo.CableRun(key="c.host-leaf.100g", between="host-leaf", speed_gbps=100, count=4,
                      description="")  # fmt: skip
    plane = bo.Plane(name="c", technology="100 GbE", rdma="none", speed_gbps=100, host_ports=4,
                     redundant=False, oversubscription_target=1, oversubscription=1.0,
                     tiers=[tier("leaf", 2), tier("spine", 0)], cables=[run])  # fmt: skip
    names = {"spine": ["c-spine-01", "c-spine-02"], "leaf": ["c-leaf-01", "c-leaf-02"]}
    at = zip(names["spine"] + names["leaf"], (42, 41, 40, 39), strict=True)
    where = {n: linkx.Place(0, u) for n, u in at}
    hosts = [Host(f"host-{h + 1:02d}", "R01", linkx.Place(0, 1 + 2 * h)) for h in range(2)]
    return plane, names, where, hosts


def test_a_plane_maps_links_only_with_its_hosts_and_every_switch_placed():
    """The whole plane: 2 hosts x 2 ports = 4 host links (host-01 on leaf 01, host-02 on
    leaf 02, in order), and 2 leaves x 2 uplinks = 4 leaf-spine links, one from each leaf to
    each spine. A plane without hosts in the racks, or with a leaf or a spine not placed in a
    rack, maps no link at all (not the uplinks of switches no host uses)."""
    from wizard.engine.fitout.portmap import plane_links

    plane, names, where, hosts = _two_tier_plane()
    links = plane_links(plane, "c", hosts, names, where, ["R01"], False)
    assert Counter(ln.between for ln in links) == {"host-leaf": 4, "leaf-spine": 4}
    host_leaf = [(ln.device, ln.to_device) for ln in links if ln.between == "host-leaf"]
    assert Counter(host_leaf) == {("host-01", "c-leaf-01"): 2, ("host-02", "c-leaf-02"): 2}
    up = {(ln.device, ln.to_device) for ln in links if ln.between == "leaf-spine"}
    assert up == {(leaf, spine) for leaf in names["leaf"] for spine in names["spine"]}
    assert plane_links(plane, "c", [], names, where, ["R01"], False) == []
    for missing in ("c-leaf-02", "c-spine-01"):
        placed = {n: p for n, p in where.items() if n != missing}
        assert plane_links(plane, "c", hosts, names, placed, ["R01"], False) == []
    assert plane_links(plane, "c", hosts, {"spine": names["spine"]}, where, ["R01"], False) == []


def test_management_patch_cords_are_as_long_as_the_rack_puts_their_ends_apart():
    """Each device's management port to the out-of-band switch at the top of its rack (U43 of
    a 42U rack with that switch above it), the shortest RJ45 cord of 1, 2, 3 or 5 m that covers
    |Δu| x 0.04445 m + 1 m of routing: host-01 at U1: 42 x 0.04445 + 1 = 2.87 m -> 3 m;
    host-02 at U39: 4 x 0.04445 + 1 = 1.18 m -> 2 m; the leaf at U42: 1.04 m -> 2 m. In a 48U
    rack (the switch at U49) host-01 is 48 x 0.04445 + 1 = 3.13 m away -> 5 m."""
    from wizard.engine.fitout.portmap import oob_links
    from wizard.model import buildout as bo

    def item(name: str, kind: str, u: int, h: int) -> bo.RackItem:
        return bo.RackItem(name=name, kind=kind, model="M", u_position=u, height_u=h, power_w=0)

    def cords(height: int) -> dict[str, str]:
        items = [item("host-01", "server", 1, 2), item("host-02", "server", 39, 2),
                 item("c-leaf-01", "switch", 42, 1), item("oob-R01-01", "oob", height + 1, 1)]  # fmt: skip
        rack = bo.Rack(name="R01", role="hosts+network", height_u=height + 1, power_limit_w=1,
                       used_u=6, power_w=0, hosts=[], items=items)  # fmt: skip
        links = oob_links([rack])
        assert {ln.to_device for ln in links if ln.between == "host-oob"} == {"oob-R01-01"}
        return {ln.device: ln.cable for ln in links if ln.between == "host-oob"}

    assert cords(42) == {
        "host-01": "Cat 6 RJ45 patch cord, 3 m",
        "host-02": "Cat 6 RJ45 patch cord, 2 m",
        "c-leaf-01": "Cat 6 RJ45 patch cord, 2 m",
    }
    assert cords(48)["host-01"] == "Cat 6 RJ45 patch cord, 5 m"


def test_a_leaf_pairs_peer_links_take_the_ports_after_its_host_ports_and_uplinks():
    """A redundant 100 GbE leaf pair, two hosts of two ports: each host has one port on each
    leaf, so each leaf uses ports 1-2 for hosts. Its two peer links take the next ports, 3 and
    4, on both leaves; under two spines, with 2 uplinks a leaf on ports 3-4, they take 5 and 6.
    Every leaf port is used once."""
    from wizard.engine.fitout.portmap import Host, plane_links
    from wizard.model import buildout as bo

    def tier(role: str, up: int) -> bo.SwitchTier:
        return bo.SwitchTier(role=role, switch="s", model="S", count=2, downlinks=2, uplinks=up,
                             port_speed_gbps=100, rack_units=1, power_w=100)  # fmt: skip

    def run(between: str, n: int) -> bo.CableRun:
        return bo.CableRun(key=f"c.{between}.100g", between=between, speed_gbps=100, count=n,
                           description="")  # fmt: skip

    hosts = [Host(f"host-{h + 1:02d}", "R01", linkx.Place(0, 1 + 2 * h)) for h in range(2)]
    where = {n: linkx.Place(0, 42 - k) for k, n in
             enumerate(["c-spine-01", "c-spine-02", "c-leaf-01", "c-leaf-02"])}  # fmt: skip
    for spines, up, peer_ports in (([], 0, ["port 3", "port 4"]),
                                   (["c-spine-01", "c-spine-02"], 2, ["port 5", "port 6"])):  # fmt: skip
        tiers = [tier("leaf", up)] + ([tier("spine", 0)] if spines else [])
        plane = bo.Plane(name="c", technology="100 GbE", rdma="none", speed_gbps=100,
                         host_ports=4, redundant=True, oversubscription_target=1,
                         oversubscription=None, tiers=tiers,
                         cables=[run("host-leaf", 4), run("peer-link", 2)])  # fmt: skip
        names = {"leaf": ["c-leaf-01", "c-leaf-02"], "spine": spines}
        links = plane_links(plane, "c", hosts, names, where, ["R01"], False)
        host = {(ln.device, ln.to_device, ln.to_port) for ln in links if ln.between == "host-leaf"}
        assert host == {(h.name, leaf, f"port {k + 1}") for k, h in enumerate(hosts)
                        for leaf in ("c-leaf-01", "c-leaf-02")}  # fmt: skip
        peer = [(ln.device, ln.port, ln.to_device, ln.to_port)
                for ln in links if ln.between == "peer-link"]  # fmt: skip
        assert peer == [("c-leaf-01", p, "c-leaf-02", p) for p in peer_ports]
        uplinks = [(ln.device, ln.port) for ln in links if ln.between == "leaf-spine"]
        assert sorted(uplinks) == sorted(
            (leaf, f"port {3 + u}") for leaf in ("c-leaf-01", "c-leaf-02") for u in range(up)
        )
        used = [(ln.to_device, ln.to_port) for ln in links if ln.between == "host-leaf"]
        used += [(ln.device, ln.port) for ln in links if ln.between != "host-leaf"]
        used += [(ln.to_device, ln.to_port) for ln in links if ln.between == "peer-link"]
        assert len(used) == len(set(used))


def test_uplinks_and_peer_links_are_cabled_at_their_own_speed():
    """A leaf's uplinks run at the speed the plane sized them, not its host ports' speed: an
    SN3420-like leaf of 25 GbE host ports with 100 GbE uplinks in the same rack as its spine
    takes 100GbE QSFP28 copper (MCP1600-C) to it; in another rack a 100GbE QSFP28 SR4 module
    (MMA1B00-C100D) at each end, not 25GbE SFP28 parts. A peer link runs at its own run's speed:
    a 400 GbE peer link of a pair whose ports are split for 200 GbE hosts is 400GbE QSFP-DD
    copper (MCP1660-W)."""
    from wizard.engine.fitout.portmap import Host, plane_links
    from wizard.model import buildout as bo

    hosts = [Host("host-01", "R01", linkx.Place(0, 1))]

    def leaf(up: int, speed: float, fan: int = 1) -> bo.SwitchTier:
        return bo.SwitchTier(role="leaf", switch="s", model="S", count=2 if not up else 1,
                             downlinks=1, uplinks=up, port_speed_gbps=speed, breakout=fan,
                             rack_units=1, power_w=100)  # fmt: skip

    def plane(speed, tiers, runs, redundant=False) -> bo.Plane:
        cables = [bo.CableRun(key=f"c.{b}.{s:g}g", between=b, speed_gbps=s, count=n,
                              description="") for b, s, n in runs]  # fmt: skip
        return bo.Plane(name="c", technology="t", rdma="none", speed_gbps=speed,
                        host_ports=len(hosts) * (2 if redundant else 1), redundant=redundant,
                        oversubscription_target=1, oversubscription=None, tiers=tiers,
                        cables=cables)  # fmt: skip

    spine = bo.SwitchTier(role="spine", switch="t", model="T", count=1, downlinks=2, uplinks=0,
                          port_speed_gbps=100, rack_units=1, power_w=100)  # fmt: skip
    two = plane(25, [leaf(2, 25), spine], [("host-leaf", 25, 1), ("leaf-spine", 100, 2)])
    names = {"leaf": ["c-leaf-01"], "spine": ["c-spine-01"]}
    # next rack: 0.6 m + 2 x 2.5 m to the tray + 1 m = 6.6 m -> a 7 m MPO-12 (SR4) fibre
    for spine_at, parts, cable in (
        (linkx.Place(0, 40), {"MCP1600-C01A"}, "MCP1600-C01A 100GbE QSFP28 passive DAC, 1.5 m"),
        (linkx.Place(1, 40), {"MMA1B00-C100D", ""},
         "Multimode fibre, MPO-12/UPC female to female, OM4, 7 m; a module at each end"),
    ):  # fmt: skip
        where = {"c-leaf-01": linkx.Place(0, 41), "c-spine-01": spine_at}
        up = [ln for ln in plane_links(two, "c", hosts, names, where, ["R01", "R02"], False)
              if ln.between == "leaf-spine"]  # fmt: skip
        assert len(up) == 2
        for ln in up:
            assert {p.number for p in ln.parts + ln.shared} == parts
            assert ln.cable == cable
    pair = plane(200, [leaf(0, 200, 2)], [("host-leaf", 200, 1), ("peer-link", 400, 2)], True)
    where = {"c-leaf-01": linkx.Place(0, 41), "c-leaf-02": linkx.Place(0, 40)}
    peer = [ln for ln in plane_links(pair, "c", hosts, {"leaf": ["c-leaf-01", "c-leaf-02"]},
                                     where, ["R01"], False) if ln.between == "peer-link"]  # fmt: skip
    assert [p.number for ln in peer for p in ln.parts] == ["MCP1660-W01A"] * 2


def _variant(**change) -> dict:
    doc = json.loads((ROOT / "docs" / "acme-two-clusters.json").read_text(encoding="utf-8"))
    doc["hardware"].update(change.get("notebook", {}))
    doc["clusters"][0]["hardware"].update(change.get("hgx", {}))
    return doc


@pytest.mark.parametrize(
    ("change", "network", "per_host"),
    [
        # the notebook hosts on the HGX hosts' InfiniBand fabric with two single-port cards: 2
        # ports a host beside the HGX hosts' 8 (eight single-port cards)
        (
            {"notebook": {"nic": "cx7-ndr-1p", "nics_per_host": 2, "fabric": "ib-ndr",
                          "rdma": "infiniband"}},
            "compute.ib-ndr", {"Notebook cluster": 2, "HGX cluster": 8},
        ),
        # one service port a GPU host beside the management hosts' two
        (
            {"notebook": {"service_ports_per_host": 1}, "hgx": {"service_ports_per_host": 1}},
            "service.100gbe",
            {"Notebook cluster": 1, "HGX cluster": 1, "Management domain": 2},
        ),
    ],
)  # fmt: skip
def test_each_host_on_a_shared_network_is_cabled_for_its_own_ports(catalog, change, network,
                                                                   per_host):  # fmt: skip
    """Clusters whose hosts have different port counts on one network: the port map gives
    every host its own count (not the network's average) and maps every port once."""
    d = design_from_dict(_variant(**change))
    e = size_estate(d, catalog)
    links = [ln for ln in estate_port_map(d, catalog, e)
             if ln.network == network and ln.between == "host-leaf"]  # fmt: skip
    (p,) = [p for p in e.network if p.name == network]
    hosts = {c.name: c.hosts for c in e.clusters}
    assert p.host_ports == sum(n * hosts[c] for c, n in per_host.items())
    assert len(links) == p.host_ports
    assert len({(ln.rack, ln.device, ln.port) for ln in links}) == p.host_ports
    each = Counter(Counter((ln.rack, ln.device) for ln in links).values())
    want: Counter[int] = Counter()
    for c, n in per_host.items():
        want[n] += hosts[c]
    assert each == want


def test_a_leaf_pair_without_hosts_starts_its_peer_links_at_port_1():
    """Two leaf pairs, one host of two ports: ceil(1 / 2) = 1 host a pair, so the host's ports
    go to the first pair (port 1 of each leaf) and the second pair carries none. Four peer
    links, two a pair: the first pair's on ports 2 and 3, after its host port; the second
    pair's on ports 1 and 2, its first."""
    from wizard.engine.fitout.portmap import Host, plane_links
    from wizard.model import buildout as bo

    leaves = [f"c-leaf-0{k + 1}" for k in range(4)]
    tier = bo.SwitchTier(role="leaf", switch="s", model="S", count=4, downlinks=1, uplinks=0,
                         port_speed_gbps=100, rack_units=1, power_w=100)  # fmt: skip
    peer = bo.CableRun(key="c.peer-link.100g", between="peer-link", speed_gbps=100, count=4,
                       description="")  # fmt: skip
    plane = bo.Plane(name="c", technology="100 GbE", rdma="none", speed_gbps=100, host_ports=2,
                     redundant=True, oversubscription_target=1, oversubscription=None,
                     tiers=[tier], cables=[peer])  # fmt: skip
    where = {n: linkx.Place(0, 42 - k) for k, n in enumerate(leaves)}
    links = plane_links(plane, "c", [Host("host-01", "R01", linkx.Place(0, 1))],
                        {"leaf": leaves}, where, ["R01"], False)  # fmt: skip
    host = sorted((ln.to_device, ln.to_port) for ln in links if ln.between == "host-leaf")
    assert host == [("c-leaf-01", "port 1"), ("c-leaf-02", "port 1")]
    pairs = [(ln.device, ln.port, ln.to_device) for ln in links if ln.between == "peer-link"]
    assert pairs == [
        ("c-leaf-01", "port 2", "c-leaf-02"),
        ("c-leaf-01", "port 3", "c-leaf-02"),
        ("c-leaf-03", "port 1", "c-leaf-04"),
        ("c-leaf-03", "port 2", "c-leaf-04"),
    ]
