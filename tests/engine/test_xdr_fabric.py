"""800 Gb/s fabrics on B300 hosts with ConnectX-8: InfiniBand XDR on Quantum-X800 and 800GbE on
Spectrum-4, sized, drawn into the racks and billed with the parts NVIDIA pairs.

NVIDIA's LinkX 800G/200G-PAM4 list: an air-cooled Q3400 takes finned-top (IHS) twin-port parts,
a ConnectX-8 cage flat-top (RHS) ones; XDR has no passive copper ('too short at 200G-PAM4') and
no multimode optics; 'The same single mode, straight … fiber cables are used for both XDR and
NDR/400GbE'. In a rack: the MCA7K10 1.6T-to-2x800G active copper splitter (1, 1.5, 2 m);
between racks: MMS4A00-XM twin-port at the switch, MMS4A20-XM800 at each host, one MFP7E30 per
link. ConnectX-8 runs Ethernet as two 400GbE links in its one cage ('800GbE link speed is not
supported on a single port'), so an 800GbE host link is a twin-port module at each end and two
fibres."""

from __future__ import annotations

import re

import pytest

from tests.engine.conftest import hgx_training
from wizard.app.io import design_from_dict
from wizard.engine.decide.estate import size_estate
from wizard.engine.fitout.portmap import result_port_map
from wizard.engine.size import size
from wizard.model.result import Severity

NDR_PARTS = ("MCP7Y00", "MCP7Y10", "MCP4Y10", "MMA4Z00-NS400", "MMA1Z00-NS400", "MFP7E10")


def _b300(**hardware) -> dict:
    """Three HGX B300 hosts (ASUS XA NB3I-E12, 9U, 8 x 1,100 W + 5,700 W = 14,500 W each) of
    time-sliced vGPU training, eight ConnectX-8 each, in 60 kW racks."""
    board = {"gpu": "b300-sxm", "server": "asus-xa-nb3i-e12", "nic": "cx8-800g-1p",
             "fabric": "ib-xdr"}  # fmt: skip
    # 16 GPUs train in 2,046 h (the compute its all-reduces run under slowed), within 2,200 h
    return hgx_training(1, 2200, 60, {**board, **hardware})


def _parts(result) -> dict[str, int]:
    out: dict[str, int] = {}
    for ln in result.bom.lines:
        if ln.part_number:
            out[ln.part_number] = out.get(ln.part_number, 0) + ln.quantity
    return out


@pytest.fixture(scope="module")
def xdr(catalog):
    return size(design_from_dict(_b300()), catalog)


def test_b300_on_quantum_x800_sizes_with_one_leaf(xdr):
    assert not [w for w in xdr.warnings if w.severity is Severity.ERROR]
    assert xdr.cluster.hosts_total == 3
    compute = next(p for p in xdr.topology.fabric.planes if p.name == "compute")
    # 3 hosts x 8 ConnectX-8 = 24 host ports at 800 Gb/s, within one Q3400's 144
    assert compute.host_ports == 24 and compute.speed_gbps == 800
    assert [(t.switch, t.count) for t in compute.tiers] == [("nvidia-q3400-ra", 1)]


def test_the_leaf_is_drawn_in_the_rack_and_its_power_counted(xdr):
    (rack,) = xdr.racks.racks
    leaf = next(i for i in rack.items if i.name == "compute-leaf-01")
    assert leaf.height_u == 4  # catalog: 4U (marked unsettled there)
    # hosts at U1, U10, U19 (9U each), the leaf at the top below the 1U out-of-band switch
    # (U42): U38..41
    assert [i.u_position for i in rack.items if i.kind == "server"] == [1, 10, 19]
    assert leaf.u_position == 42 - 1 - 4 + 1
    # 3 x 14,500 W hosts + the Q3400 (1,681 W) + two SN4600C service leaves (466 W each) + the
    # SN2201 out-of-band switch (100 W)
    assert rack.power_w == pytest.approx(3 * 14_500 + 1_681 + 2 * 466 + 100)


def test_host_links_are_billed_with_nvidia_xdr_parts(xdr):
    """Leaf at U39: host-03 (U19) 20 x 0.04445 + 1 = 1.89 m -> MCA7K10 2 m, four cages (its 8
    ports); host-02 (U10) 29 x 0.04445 + 1 = 2.29 m and host-01 (U1) 2.69 m exceed the MCA7K10's
    2 m: fibre, 0 x 0.6 + 2 x 2.5 + 1 = 6 m -> 7 m. 16 links in 8 cages: 8 MMS4A00-XM, 16
    MMS4A20-XM800, 16 MFP7E30-N007."""
    parts = _parts(xdr)
    assert parts["980-9IAO5-00X002"] == 4  # MCA7K10, 2 m
    assert parts["MMS4A00-XM"] == 8
    assert parts["MMS4A20-XM800"] == 16
    assert parts["MFP7E30-N007"] == 16
    assert not [p for p in parts if p.startswith(NDR_PARTS)]
    assert not [ln for ln in xdr.bom.lines if ln.item.startswith("cable:compute.")]


def test_the_subnet_manager_is_ufm(xdr):
    (sm,) = [ln for ln in xdr.bom.lines if ln.item == "switch:ib-subnet-manager"]
    assert sm.quantity == 1 and "UFM" in sm.description


def test_the_port_map_names_the_xdr_parts(catalog, xdr):
    links = [ln for ln in result_port_map(design_from_dict(_b300()), catalog, xdr)
             if ln.network == "compute"]  # fmt: skip
    assert len(links) == 24
    assert sum("MCA7K10" not in ln.cable and "980-9IAO5" in ln.cable for ln in links) == 8
    assert sum("MFP7E30-N007" in ln.cable and "MMS4A20-XM800" in ln.cable for ln in links) == 16


def _errors(doc, catalog) -> dict[str, str]:
    r = size(design_from_dict(doc), catalog)
    return {w.code: w.message for w in r.warnings if w.severity is Severity.ERROR}


def test_a_400g_nic_on_xdr_is_refused(catalog):
    errors = _errors(_b300(nic="cx7-ndr-1p"), catalog)
    assert "400 Gb/s, below the 800 Gb/s fabric" in errors["nic-slower-than-fabric"]
    assert "nic-slower-than-fabric" not in _errors(_b300(), catalog)


def test_ndr_designs_keep_their_parts(catalog):
    """The generation follows the fabric: the same hosts on NDR take NDR parts only."""
    r = size(design_from_dict(_b300(fabric="ib-ndr", nic="cx7-ndr-1p")), catalog)
    parts = _parts(r)
    assert "MMS4A00-XM" not in parts and "MMS4A20-XM800" not in parts
    assert any(p.startswith("MCP7Y00") for p in parts)


def test_800gbe_on_spectrum_4_takes_twin_port_optics(catalog):
    """800GbE: one SN5600 (64 x 800G) for 24 host ports; no copper pairs with the ConnectX-8's
    flat-top cage, so every link is optics: a finned MMA4Z00-NS at the switch, a flat-top
    MMA4Z00-NS-FLT at the host and two straight fibres, 7 m in one rack (as above)."""
    r = size(design_from_dict(_b300(fabric="800gbe", rdma="roce-v2")), catalog)
    compute = next(p for p in r.topology.fabric.planes if p.name == "compute")
    assert [(t.switch, t.count) for t in compute.tiers] == [("nvidia-sn5600", 1)]
    parts = _parts(r)
    assert parts["MMA4Z00-NS"] == 24
    assert parts["MMA4Z00-NS-FLT"] == 24
    assert parts["MFP7E10-N007"] == 2 * 24


def test_800gbe_refuses_a_400g_nic(catalog):
    errors = _errors(_b300(fabric="800gbe", rdma="roce-v2", nic="cx7-200g-2p"), catalog)
    assert "below the 800 Gb/s fabric" in errors["nic-slower-than-fabric"]


def test_a_two_tier_xdr_fabric_uses_xdr_switch_links(catalog):
    """19 hosts x 8 = 152 host ports, more than one Q3400's 144: leaves and spines; every
    leaf-to-spine link is an MCA4K50 active copper cable or MMS4A00-XM modules and fibre, never
    an NDR part."""
    doc = _b300()
    doc["workloads"][0]["count"] = 19
    doc["ha"] = {"level": "n+0"}
    r = size_estate(design_from_dict(doc), catalog)
    (compute,) = [p for p in r.network if p.name == "compute"]
    assert [t.role for t in compute.tiers] == ["leaf", "spine"]
    parts = _parts(r)
    assert not [p for p in parts if p.startswith(NDR_PARTS)]
    assert (
        parts.get("MMS4A00-XM", 0) + sum(n for p, n in parts.items() if p.startswith("980-9IAM"))
        > 0
    )


def _nic_lines(result) -> list[tuple[str, str, int]]:
    return [(ln.item, ln.part_number, ln.quantity) for ln in result.bom.lines
            if ln.category.value == "nic" and not ln.item.endswith(":service")]  # fmt: skip


def test_the_b300_boards_connectx8_come_with_the_server_not_as_cards(xdr):
    """The HGX B300 board carries one ConnectX-8 per GPU (DGX B300 User Guide: on the GPU tray,
    cabled to the front OSFP cages): 3 hosts x 8 = 24 on the boards, no card to order, so no
    part number and a line of their own that says so."""
    ((item, part, qty),) = _nic_lines(xdr)
    assert (item, part, qty) == ("nic:cx8-800g-1p:on-board", "", 24)
    line = next(ln for ln in xdr.bom.lines if ln.item == item)
    assert "on the HGX baseboard, one per GPU, ordered with the server" in line.description


def test_connectx8_beyond_the_boards_are_cards_and_other_boards_have_none(catalog):
    """Ten per host on the B300 (nic_slots 10): 8 on the board, 2 cards per host, 3 x 2 = 6
    cards with NVIDIA's OPN. An HGX B200 board has no NIC of its own: all 8 per host are cards."""
    ten = size(design_from_dict(_b300(nics_per_host=10)), catalog)
    assert _nic_lines(ten) == [
        ("nic:cx8-800g-1p:on-board", "", 24),
        ("nic:cx8-800g-1p", "900-9X81E-00EX-ST0", 6),
    ]
    b200 = size(design_from_dict(_b300(gpu="b200-sxm", server="nvidia-dgx-b200")), catalog)
    assert _nic_lines(b200) == [
        ("nic:cx8-800g-1p", "900-9X81E-00EX-ST0", 8 * b200.cluster.hosts_total)
    ]


def test_a_board_nic_the_catalog_does_not_have_is_refused(catalog):
    from pydantic import ValidationError

    from wizard.model.catalog import Catalog

    data = catalog.model_dump()
    data["gpus"]["b300-sxm"]["board_nic"] = "cx9-1600g"
    with pytest.raises(ValidationError, match=re.escape("gpus.b300-sxm.board_nic: 'cx9-1600g'")):
        Catalog.model_validate(data)
