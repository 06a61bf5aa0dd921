"""Cables and optics by where the racks put their ends, and the racks billed with their PDUs.

A link whose host and leaf share a rack is direct-attach copper (no optical module); a link
between racks is fibre with a module at each end; a breakout run across racks has one module at
the switch and one per host port. Every rack is billed with two PDUs (A and B feeds)."""

from __future__ import annotations

from wizard.engine.fabric import place_cables
from wizard.model import buildout as bo


def _runs(result, between: str) -> dict[str, bo.CableRun]:
    return {
        p.name: c for p in result.topology.fabric.planes for c in p.cables if c.between == between
    }


def _qty(result, item: str) -> int:
    return sum(ln.quantity for ln in result.bom.lines if ln.item == item)


def test_one_rack_for_hosts_and_switches_is_cabled_in_copper(sized):
    """The enterprise design fits one rack (R01: 8 hosts, the leaves, the storage): its 8 GPU
    fabric and 16 service links are copper, no optical module is counted for them."""
    r = sized["enterprise"]
    assert [x.role for x in r.racks.racks] == ["hosts+network"]
    runs = _runs(r, "host-leaf")
    assert runs["compute"].count == 8 and runs["service"].count == 16
    for run in runs.values():
        assert run.transceivers == 0
        assert "direct-attach copper" in run.description
    assert not any(ln.category is bo.BomCategory.TRANSCEIVER for ln in r.bom.lines)


def test_hosts_in_their_racks_and_switches_in_a_network_rack_are_cabled_in_fibre(sized):
    """gpt3-175b: 3 host racks and a network rack. Its 24 GPU fabric links (3 hosts × 8 NICs)
    and 6 service links (3 hosts × 2 ports) cross racks: 2 × 24 = 48 and 2 × 6 = 12 modules."""
    r = sized["gpt3-175b"]
    assert [x.role for x in r.racks.racks] == ["hosts", "hosts", "hosts", "network"]
    runs = _runs(r, "host-leaf")
    assert (runs["compute"].count, runs["compute"].transceivers) == (24, 48)
    assert (runs["service"].count, runs["service"].transceivers) == (6, 12)
    assert "fibre across racks" in runs["compute"].description
    # billed as NVIDIA pairs them: a twin-port module per two links at the switch, a host
    # module per link (24 / 2 + 24 = 36 modules for the 48 link ends)
    assert _qty(r, "transceiver:compute.ib-ndr.host-leaf.400g") == 0
    assert _qty(r, "transceiver:mma4z00-ns") == 24 // 2
    assert _qty(r, "transceiver:mma4z00-ns400") == 24


def test_a_breakout_run_across_racks_has_a_module_per_end(sized):
    """llm-serving joins its 200 G hosts through 400 G leaf ports split in two: each breakout
    cable crossing racks has one module at the switch and two at the hosts, 1 + 2 = 3."""
    r = sized["llm-serving"]
    leaf = next(t for p in r.topology.fabric.planes if p.name == "compute" for t in p.tiers)
    assert leaf.breakout == 2
    run = _runs(r, "host-leaf")["compute"]
    assert run.transceivers == run.count * 3
    assert "one optical module at the switch and one per host port" in run.description


def test_two_host_racks_cross_racks_even_with_a_leaf_in_one_of_them():
    """A leaf in R01 with hosts in R01 and R02: the R02 hosts cross racks, so the run is fibre
    (the rule takes the run as a whole: copper only when every host shares the leaf's rack)."""
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
    assert two[0].cables[0].transceivers == 8  # 4 links × 2 ends


def test_every_rack_is_billed_with_two_pdus_rated_for_its_limit(sized):
    """enterprise: 1 rack of 42 U at 15 kW → 1 rack, 2 PDUs; gpt3-175b: 4 racks → 4 and 8."""
    for name, racks in (("enterprise", 1), ("gpt3-175b", 4)):
        r = sized[name]
        assert len(r.racks.racks) == racks
        limit = r.racks.power_limit_kw
        assert _qty(r, f"rack:{r.racks.rack_units}u") == racks
        assert _qty(r, f"pdu:{limit:g}kw") == 2 * racks
        (pdu,) = [ln for ln in r.bom.lines if ln.item == f"pdu:{limit:g}kw"]
        assert f"rated for at least {limit:g} kW" in pdu.description
