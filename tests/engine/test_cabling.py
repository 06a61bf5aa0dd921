"""Cables and optics by where the racks put their ends, and the racks billed with their PDUs.

A link whose host and leaf share a rack is direct-attach copper (no optical module); a link
between racks is fibre with a module at each end; a breakout run across racks has one module at
the switch and one per host port. Every rack is billed with two PDUs (A and B feeds)."""

from __future__ import annotations

import pytest

from wizard.engine.fitout.fabric import place_cables
from wizard.engine.fitout.linkx import fill
from wizard.model import buildout as bo


def _runs(result, between: str) -> dict[str, bo.CableRun]:
    return {
        p.name: c for p in result.topology.fabric.planes for c in p.cables if c.between == between
    }


def _qty(result, item: str) -> int:
    return sum(ln.quantity for ln in result.bom.lines if ln.item == item)


def test_one_rack_for_hosts_and_switches_is_cabled_in_copper(sized):
    """The enterprise design fits one rack (R01: 8 hosts, the leaves, the storage): its 8 GPU
    fabric and 16 service links are copper, no optical module is counted for them; the one
    module on the bill is the out-of-band switch's uplink to the site."""
    r = sized["enterprise"]
    assert [x.role for x in r.racks.racks] == ["hosts+network"]
    runs = _runs(r, "host-leaf")
    assert runs["compute"].count == 8 and runs["service"].count == 16
    for run in runs.values():
        assert run.transceivers == 0
        assert "direct-attach copper" in run.description
    optics = [ln for ln in r.bom.lines if ln.category is bo.BomCategory.TRANSCEIVER]
    assert [(ln.part_number, ln.quantity) for ln in optics] == [("MMA1B00-C100D", 1)]
    assert "out-of-band switch uplink" in optics[0].description


def test_leaves_go_to_the_top_of_a_host_rack_and_the_other_racks_cable_in_fibre(sized):
    """gpt3-175b: 3 hosts of 9.6 kW, one per 15 kW rack. The GPU-fabric leaf (1.2 kW with the
    service pair) fits on top of R01 beside host-01, so no network rack is needed: host-01's 8
    NDR ports reach the leaf by copper (U1 to U42: 41 × 0.04445 + 1 = 2.82 m -> 3 m MCP7Y00,
    one per two ports: 4), the 16 ports of host-02 and host-03 cross racks: a twin-port
    MMA4Z00-NS per two (8), an MMA4Z00-NS400 and a fibre per port (16); fibres R02 -> R01:
    0.6 + 2 × 2.5 + 1 = 6.6 -> 7 m, R03 -> R01: 1.2 + 6 = 7.2 -> 10 m. The run's words and
    optics are the bill's: 4 copper splitters and 16 fibres, 20 cables for the 24 ports;
    8 + 16 = 24 modules (not one module at each end of 16 links, 32: the switch end is a
    twin-port module carrying two)."""
    r = sized["gpt3-175b"]
    assert [x.role for x in r.racks.racks] == ["hosts+network", "hosts", "hosts"]
    runs = _runs(r, "host-leaf")
    assert (runs["compute"].count, runs["compute"].transceivers) == (4 + 16, 16 // 2 + 16)
    assert "4 direct-attach copper cables, 16 fibres, 24 optical modules" in (
        runs["compute"].description
    )
    assert _qty(r, "cable:mcp7y00-n003") == 4
    assert _qty(r, "transceiver:mma4z00-ns") == 16 // 2
    assert _qty(r, "transceiver:mma4z00-ns400") == 16
    assert _qty(r, "cable:mfp7e10-n007") == 8 and _qty(r, "cable:mfp7e10-n010") == 8


def test_a_leaf_stays_out_of_a_rack_without_room():
    """A leaf goes to the top of its hosts' rack only within the rack's power: a rack at 14.5 of
    15 kW cannot take a 1 kW switch, which stays for the network rack."""
    from wizard.engine.fitout.racks import top_of_rack

    host = bo.RackItem(name="host-01", kind="server", model="H", u_position=1, height_u=2,
                       power_w=14500, host=0)  # fmt: skip
    full = bo.Rack(name="R01", role="hosts", height_u=42, power_limit_w=15000, used_u=2,
                   power_w=14500, hosts=[0], items=[host])  # fmt: skip
    homes = {"c-leaf-01": ([0, 0], 3.0)}
    placed, rest = top_of_rack([full], [("c-leaf-01", "S", 1, 1000.0)], homes, strict=False)
    assert rest == [("c-leaf-01", "S", 1, 1000.0)] and placed[0].role == "hosts"
    room = full.model_copy(update={"power_w": 10000.0})
    placed, rest = top_of_rack([room], [("c-leaf-01", "S", 1, 1000.0)], homes, strict=False)
    assert rest == [] and placed[0].role == "hosts+network"
    assert placed[0].power_w == 11000.0 and placed[0].items[-1].u_position == 42
    # a rack failure domain (strict): not with a host port in another rack
    homes = {"c-leaf-01": ([0, 1], 3.0)}
    _, rest = top_of_rack([room], [("c-leaf-01", "S", 1, 1000.0)], homes, strict=True)
    assert rest == [("c-leaf-01", "S", 1, 1000.0)]
    # nor where copper cannot reach down to the lowest host (2 m from U42 to U1: 2.82 m)
    homes = {"c-leaf-01": ([0, 0], 2.0)}
    _, rest = top_of_rack([room], [("c-leaf-01", "S", 1, 1000.0)], homes, strict=False)
    assert rest == [("c-leaf-01", "S", 1, 1000.0)]


def test_a_breakout_run_across_racks_has_a_module_per_end(sized):
    """llm-serving joins its 200 G hosts through 400 G leaf ports split in two: each breakout
    cable crossing racks has one module at the switch and two at the hosts, 1 + 2 = 3."""
    r = sized["llm-serving"]
    leaf = next(t for p in r.topology.fabric.planes if p.name == "compute" for t in p.tiers)
    assert leaf.breakout == 2
    run = _runs(r, "host-leaf")["compute"]
    assert run.transceivers == run.count * 3
    assert f"{run.count} fibres, {run.count * 3} optical modules" in run.description
    assert "MMA1U50-WS" in run.description and "MMA1T00-VS" in run.description


def test_two_host_racks_cross_racks_even_with_a_leaf_in_one_of_them():
    """A leaf in R01 with hosts in R01 and R02: the R02 hosts cross racks by fibre, the R01
    hosts reach the leaf by copper: 2 links × 2 ends = 4 modules."""
    run = bo.CableRun(key="c.host-leaf.100g", between="host-leaf", speed_gbps=100, count=4,
                      description="")  # fmt: skip
    leaf = bo.SwitchTier(role="leaf", switch="s", model="S", count=1, downlinks=4, uplinks=0,
                         port_speed_gbps=100, rack_units=1, power_w=100)  # fmt: skip
    plane = bo.Plane(name="c", technology="100 GbE", rdma="none", speed_gbps=100, host_ports=4,
                     redundant=False, oversubscription_target=1, oversubscription=None,
                     tiers=[leaf], cables=[run])  # fmt: skip

    def rack(name: str, hosts: list[int], items: list[str]) -> bo.Rack:
        return bo.Rack(name=name, role="hosts", height_u=42, power_limit_w=15000, used_u=1,
                       power_w=0, hosts=hosts,
                       items=[bo.RackItem(name=i, kind="switch", model="S", u_position=1,
                                          height_u=1, power_w=0) for i in items])  # fmt: skip

    one = place_cables([plane], [rack("R01", [0, 1, 2, 3], ["c-leaf-01"])])
    assert one[0].cables[0].transceivers == 0
    two = place_cables([plane], [rack("R01", [0, 1], ["c-leaf-01"]), rack("R02", [2, 3], [])])
    assert two[0].cables[0].transceivers == 4  # the 2 links from R02 × 2 ends
    assert "copper for the 2 links" in two[0].cables[0].description


def test_every_rack_is_billed_with_two_pdus_rated_for_its_limit(sized):
    """enterprise: 1 rack of 42 U at 15 kW → 1 rack, 2 PDUs; gpt3-175b: 3 racks (its leaves on
    top of the first) → 3 and 6."""
    for name, racks in (("enterprise", 1), ("gpt3-175b", 3)):
        r = sized[name]
        assert len(r.racks.racks) == racks
        limit = r.racks.power_limit_kw
        assert _qty(r, f"rack:{r.racks.rack_units}u") == racks
        assert _qty(r, f"pdu:{limit:g}kw") == 2 * racks
        (pdu,) = [ln for ln in r.bom.lines if ln.item == f"pdu:{limit:g}kw"]
        assert f"rated for at least {limit:g} kW" in pdu.description


def test_copper_reach_to_a_top_of_rack_leaf_is_measured_from_its_own_unit():
    """The copper a leaf at the top of its hosts' rack needs runs from the unit it stands in down
    to the lowest host (|Δu| x 44.45 mm + 1 m of routing). In a 42U rack with its host at U1, a
    1U leaf stands at U42: 41 x 0.04445 + 1 = 2.822 m; a 2U leaf placed after it stands below it,
    at U40: 39 x 0.04445 + 1 = 2.734 m. Each goes to the top of the rack where its copper reaches
    that far, and to the network racks where it reaches 1 cm less."""
    from wizard.engine.fitout.racks import top_of_rack

    host = bo.RackItem(name="host-01", kind="server", model="H", u_position=1, height_u=2,
                       power_w=1000, host=0)  # fmt: skip
    rack = bo.Rack(name="R01", role="hosts", height_u=42, power_limit_w=15000, used_u=2,
                   power_w=1000, hosts=[0], items=[host])  # fmt: skip
    a, b = ("c-leaf-01", "S", 1, 100.0), ("s-leaf-01", "T", 2, 100.0)

    def placed(reach_a: float, reach_b: float) -> tuple[list[tuple[str, int]], list[str]]:
        homes = {a[0]: ([0], reach_a), b[0]: ([0], reach_b)}
        (out,), rest = top_of_rack([rack], [a, b], homes, strict=False)
        ups = [(i.name, i.u_position) for i in out.items if i.kind == "switch"]
        return ups, [s[0] for s in rest]

    assert placed(2.83, 2.74) == ([("c-leaf-01", 42), ("s-leaf-01", 40)], [])
    # the 1U leaf out, the 2U one would stand at U41: 40 x 0.04445 + 1 = 2.778 m > 2.74 m
    assert placed(2.82, 2.74) == ([], ["c-leaf-01", "s-leaf-01"])
    assert placed(2.82, 2.78) == ([("s-leaf-01", 41)], ["c-leaf-01"])
    assert placed(2.83, 2.73) == ([("c-leaf-01", 42)], ["s-leaf-01"])


def _breakout_plane(fan: int, host_ports: int = 8) -> bo.Plane:
    """One leaf whose switch ports each carry ``fan`` host links (1: a straight cable)."""
    cables = -(-host_ports // fan)
    run = bo.CableRun(key="c.host-leaf.200g", between="host-leaf", speed_gbps=200, count=cables,
                      description="")  # fmt: skip
    leaf = bo.SwitchTier(role="leaf", switch="s", model="S", count=1, downlinks=host_ports,
                         uplinks=0, port_speed_gbps=200, breakout=fan, rack_units=1,
                         power_w=100)  # fmt: skip
    return bo.Plane(name="c", technology="200 GbE", rdma="none", speed_gbps=200,
                    host_ports=host_ports, redundant=False, oversubscription_target=1,
                    oversubscription=None, tiers=[leaf], cables=[run])  # fmt: skip


def _rack(name: str, hosts: list[int], switches: list[str]) -> bo.Rack:
    return bo.Rack(name=name, role="hosts", height_u=42, power_limit_w=15000, used_u=1,
                   power_w=0, hosts=hosts,
                   items=[bo.RackItem(name=i, kind="switch", model="S", u_position=42,
                                      height_u=1, power_w=0) for i in switches])  # fmt: skip


@pytest.mark.parametrize(
    ("fan", "cables", "modules"),
    [
        (1, 8, 2 * 8),  # a straight fibre: a module at each end
        (2, 4, 4 * (1 + 2)),  # one at the switch port, one at each of its 2 host ports
        (4, 2, 2 * (1 + 4)),
    ],
)
def test_host_links_across_racks_take_a_module_at_the_switch_and_one_per_host_port(
    fan, cables, modules
):
    """8 host ports on one leaf, all of them in another rack than the leaf (or the switches in
    network racks of their own, racks not given): a breakout cable across racks is a fibre with
    one optical module at its switch port and one at each of its ``fan`` host ports,
    cables x (1 + fan); a straight link has one at each end, 2 x cables. The same hosts in the
    leaf's rack take copper and no module."""
    plane = _breakout_plane(fan)
    across = place_cables(
        [plane], [_rack("R01", [], ["c-leaf-01"]), _rack("R02", list(range(4)), [])]
    )
    apart = place_cables([plane], None)
    for (run,) in (across[0].cables, apart[0].cables):
        assert (run.count, run.transceivers) == (cables, modules)
        assert "across racks" in run.description
        assert ("breakout" in run.description) == (fan > 1)
    (local,) = place_cables([plane], [_rack("R01", list(range(4)), ["c-leaf-01"])])[0].cables
    assert (local.count, local.transceivers) == (cables, 0)
    assert "in the rack" in local.description


def test_a_redundant_network_of_two_pairs_keeps_each_hosts_ports_on_its_own_pair():
    """Six hosts of two ports each on a redundant network of four leaves (two pairs): ceil(6 /
    2) = 3 hosts a pair, so hosts 0 to 2 alternate their ports over leaves 0 and 1 and hosts 3
    to 5 over leaves 2 and 3; no leaf holds a port of a host of the other pair."""
    plane = bo.Plane(name="service", technology="Ethernet", rdma="none", speed_gbps=25,
                     host_ports=12, redundant=True, oversubscription_target=1,
                     oversubscription=None, tiers=[], cables=[])  # fmt: skip
    by_leaf = fill(plane, 6, 4)
    assert by_leaf == [
        [(0, 0), (1, 0), (2, 0)],
        [(0, 1), (1, 1), (2, 1)],
        [(3, 0), (4, 0), (5, 0)],
        [(3, 1), (4, 1), (5, 1)],
    ]


def _mixed_plane(counts: list[int], redundant: bool) -> bo.Plane:
    return bo.Plane(name="service", technology="Ethernet", rdma="none", speed_gbps=100,
                    host_ports=sum(counts), redundant=redundant, oversubscription_target=1,
                    oversubscription=None, tiers=[], cables=[],
                    ports_per_host=counts)  # fmt: skip


def test_hosts_of_one_and_two_ports_share_a_pair_evenly():
    """Three hosts of one port and two of two on a leaf pair (7 ports). Worked by hand: host 0's
    port to leaf 0, host 1's to leaf 1, host 2's to leaf 0 (the one-port hosts alternate); host
    3 starts on leaf 1 (the odd count before it), so its ports go 1, 0; so do host 4's. Each
    two-port host has a port on each leaf, and the leaves hold 4 and 3 ports."""
    by_leaf = fill(_mixed_plane([1, 1, 1, 2, 2], True), 5, 2)
    assert by_leaf == [
        [(0, 0), (2, 0), (3, 1), (4, 1)],
        [(1, 0), (3, 0), (4, 0)],
    ]


def test_a_host_of_eight_ports_beside_hosts_of_two_takes_its_own_eight():
    """A shared network without a pair, two leaves: 8 + 2 + 2 = 12 ports, 6 a leaf in order:
    host 0's ports 0 to 5 on leaf 0 and 6, 7 on leaf 1, then hosts 1 and 2 on leaf 1. A fill by
    the average count (12 // 3 = 4 a host) would give host 0 four ports and the others four."""
    by_leaf = fill(_mixed_plane([8, 2, 2], False), 3, 2)
    assert by_leaf == [
        [(0, j) for j in range(6)],
        [(0, 6), (0, 7), (1, 0), (1, 1), (2, 0), (2, 1)],
    ]


def test_hosts_of_different_counts_on_two_pairs_stay_on_one_pair_each():
    """2 + 8 + 8 = 18 ports over two pairs, 9 a pair in port order: host 0 (ports 0, 1) and host
    1 (from port 2) on the first pair, host 2 (from port 10) on the second; each host's ports
    alternate over its pair's leaves."""
    by_leaf = fill(_mixed_plane([2, 8, 8], True), 3, 4)
    assert by_leaf[0] == [(0, 0)] + [(1, j) for j in (0, 2, 4, 6)]
    assert by_leaf[1] == [(0, 1)] + [(1, j) for j in (1, 3, 5, 7)]
    assert by_leaf[2] == [(2, j) for j in (0, 2, 4, 6)]
    assert by_leaf[3] == [(2, j) for j in (1, 3, 5, 7)]
