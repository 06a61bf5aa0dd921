"""InfiniBand NDR cabling as NVIDIA's part documents pair it. A QM9700 cage is twin-port ('Each
OSFP port consists of 2 logical InfiniBand ports', QM97XX manual); in a rack a 1:2 splitter DAC
(MCP7Y00, 1-3 m) joins a cage to two ConnectX-7 OSFP ports; between racks a twin-port MMA4Z00-NS
at the switch drives two straight MFP7E10 fibres to two host MMA4Z00-NS400 modules."""

from __future__ import annotations

import json

from tests.conftest import ROOT
from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict
from wizard.engine.decide.estate import size_estate
from wizard.engine.fitout import linkx
from wizard.engine.size import size
from wizard.model.buildout import CableRun, Plane, SwitchTier

DAC_M = {1.0, 1.5, 2.0, 2.5, 3.0}  # MCP7Y00 ordering lengths
FIBRE_M = {3, 5, 7, 10, 15, 20, 30, 50}


def _parts(bom):
    out: dict[str, int] = {}
    for ln in bom.lines:
        if ln.part_number:
            key = (
                ln.part_number.split("-N0")[0]
                if ln.part_number.startswith("MCP")
                else ln.part_number
            )
            out[key] = out.get(key, 0) + ln.quantity
    return out


def test_hgx_h200_in_one_rack_is_cabled_with_splitters(catalog):
    """hgx-h200-llm: 3 XE9680 hosts x 8 single-port NDR ConnectX-7 = 24 host ports on one
    QM9700 in the same rack: 24 / 2 = 12 MCP7Y00 splitters, no straight 400G DAC to the switch,
    no optics, and the subnet manager said."""
    doc = design_dict("hgx-h200-llm")
    r = size(design_from_dict(doc), catalog)
    assert r.cluster.hosts_total == 3 and doc["hardware"]["nics_per_host"] == 8
    parts = _parts(r.bom)
    assert parts["MCP7Y00"] == 3 * 8 // 2
    assert "MMA4Z00-NS" not in parts and "MMA4Z00-NS400" not in parts
    items = {ln.item for ln in r.bom.lines}
    assert not [i for i in items if i.startswith("cable:compute.ib-ndr")]
    assert not [i for i in items if i.startswith("transceiver:compute.ib-ndr")]
    for ln in r.bom.lines:
        if ln.part_number.startswith("MCP7Y00"):
            metres = float(ln.description.split(" m:")[0].rsplit(" ", 1)[1])
            assert metres in DAC_M
    assert any("subnet manager" in ln.description for ln in r.bom.lines)


def test_a_leaf_in_its_hosts_rack_takes_splitters(catalog):
    """acme-two-clusters: the QM9700 serves only the 3 HGX hosts, all in their own rack, so it
    stands at the top of that rack (a shared network's leaf moves only when all its hosts are
    there) and each cage takes one MCP7Y00 splitter: 24 ports -> 12. Lengths by hand, hosts at
    U1, U7, U13 (6U each), the leaf at U42: 41 × 0.04445 + 1 = 2.82 -> 3 m, 35 × 0.04445 + 1 =
    2.56 -> 3 m, 29 × 0.04445 + 1 = 2.29 -> 2.5 m, four cages a host: 8 × N003 and 4 × N02A;
    no optics on the GPU fabric (the old count: 48 × 400G modules)."""
    doc = json.loads((ROOT / "docs" / "acme-two-clusters.json").read_text(encoding="utf-8"))
    e = size_estate(design_from_dict(doc), catalog)
    exact = {ln.part_number: ln.quantity for ln in e.bom.lines if ln.part_number}
    assert exact["MCP7Y00-N003"] == 8
    assert exact["MCP7Y00-N02A"] == 4
    parts = _parts(e.bom)
    assert "MMA4Z00-NS" not in parts and "MMA4Z00-NS400" not in parts
    hgx = next(r for r in e.racks if r.cluster == "HGX cluster")
    assert hgx.role == "hosts+network"
    assert not [ln for ln in e.bom.lines if ln.item.startswith("transceiver:compute.ib-ndr")]


def _plane(ports, leaves=1):
    tier = SwitchTier.model_construct(role="leaf", count=leaves, uplinks=0, switch="nvidia-qm9700")
    cable = CableRun(key="k", between="host-leaf", speed_gbps=400, count=ports, description="")
    return Plane.model_construct(name="compute", host_ports=ports, tiers=[tier], cables=[cable],
                                 rdma="infiniband", speed_gbps=400, redundant=False)  # fmt: skip


def test_an_odd_port_count_leaves_one_splitter_leg_free():
    """3 host ports on a leaf: 2 splitters (a cage cannot be half bought), one leg unused."""
    hosts = [linkx.Place(0, 1), linkx.Place(0, 2), linkx.Place(0, 3)]
    lines = linkx.host_leaf_lines(_plane(3), hosts, [linkx.Place(0, 40)], osfp_hosts=True)
    assert sum(ln.quantity for ln in lines) == 2
    assert all(ln.part_number.startswith("MCP7Y00") for ln in lines)


def test_qsfp112_hosts_get_the_qsfp112_parts():
    """Dual-port ConnectX-7 cards have QSFP112 cages: the MCP7Y10 splitter in a rack, the
    MMA1Z00-NS400 module across racks (never the OSFP parts)."""
    near = linkx.host_leaf_lines(_plane(2), [linkx.Place(0, 1)] * 2, [linkx.Place(0, 30)], False)
    assert [ln.part_number[:7] for ln in near] == ["MCP7Y10"]
    far = linkx.host_leaf_lines(_plane(2), [linkx.Place(0, 1)] * 2, [linkx.Place(3, 30)], False)
    assert {ln.part_number for ln in far} >= {"MMA4Z00-NS", "MMA1Z00-NS400"}


def test_a_run_too_long_for_copper_goes_optical():
    """A host 40 U below its leaf needs 40 x 44.45 mm + 1 m of routing = 2.78 m: a 3 m DAC; no
    copper length reaches across racks, so a host in the next rack gets modules and a fibre."""
    assert linkx._dac_m(linkx.Place(0, 1), linkx.Place(0, 41), linkx.DAC_LENGTHS_M) == 3.0
    assert linkx._fibre_m(linkx.Place(0, 1), linkx.Place(1, 41)) == 7  # 0.6 + 5 + 1 = 6.6 m


def test_switch_to_switch_links_pair_in_twin_port_parts():
    """4 leaf-spine links within 2 m in one rack: 2 MCP4Y10 twin-port DACs; across racks: a
    twin-port module at each end per pair of links (4) and a fibre per link (4)."""
    same = [(linkx.Place(0, 40), linkx.Place(0, 42))] * 4
    (dac,) = linkx.leaf_spine_lines(same)
    assert dac.part_number.startswith("MCP4Y10") and dac.quantity == 2
    apart = [(linkx.Place(0, 40), linkx.Place(2, 42))] * 4
    parts = {ln.part_number: ln.quantity for ln in linkx.leaf_spine_lines(apart)}
    assert parts["MMA4Z00-NS"] == 4 and sum(v for k, v in parts.items() if "MFP7E10" in k) == 4


def test_length_codes_follow_nvidias_part_numbers():
    """MCP4Y10-N00A is 0.5 m, MCP7Y00-N01A 1.5 m, MCP7Y00-N003 3 m (NVIDIA ordering tables)."""
    assert linkx._code(0.5) == "N00A" and linkx._code(1.5) == "N01A" and linkx._code(3) == "N003"


def test_every_pairings_lengths_run_shortest_first():
    """A run takes the first listed length that reaches (the shortest that does), so each
    generation's splitter, switch-cable and fibre lengths must stand in rising order."""
    from wizard.engine.fitout.ib_parts import PAIRINGS

    for p in PAIRINGS.values():
        for lengths in (p.splitter_lengths_m, p.switch_cable_lengths_m, p.fibre_lengths_m):
            assert list(lengths) == sorted(set(lengths)), (p.generation, lengths)


def test_an_xdr_switch_link_19_units_apart_takes_the_2_m_cable():
    """Two XDR switches 19 U apart in one rack: 19 x 44.45 mm + 1 m of routing = 1.845 m, so
    the 2 m MCA4K50 (lengths 1, 1.5, 2, 2.5 and 3 m), not the 2.5 m or a longer one."""
    from wizard.engine.fitout.ib_parts import XDR

    m = linkx._dac_m(linkx.Place(0, 1), linkx.Place(0, 20), XDR.switch_cable_lengths_m)
    assert m == 2.0
    assert XDR.switch_cable_number(m).endswith("X002")
