"""Purchase-grade lines: the 25 GbE and 10 GbE copper, the 25 GbE optics, the SN3420 and the
management domain's memory carry what the vendor's documents give, and 'to confirm' stays
exactly where the source is not the vendor's ordering table.

Expected values are read from the cited documents, not from the program:
- NVIDIA's Cumulus Linux guide, 'Troubleshoot Layer 1', shows a 25G DAC on a Spectrum switch
  as 'PN: MCP2M00-A003 … Type: 25g-cr' (3 m; NVIDIA's length code, as MCP1600-C003);
- 'MMA2P00-AS 25GbE SFP28 MMF Transceiver Product Specifications' (docs.nvidia.com);
- NVIDIA's SONiC platform code reads an SN3420's part number as 'MSN3420-CB2FO';
- VMware's VCF management domain checklist: 'Memory | 256 GB per server'."""

from __future__ import annotations

import copy

import pytest

from tests.engine.test_port_ends import CASES, PROPOSED
from tests.engine.test_port_ends import _sized as sized_bill
from wizard.engine.fitout import ib_parts, linkx
from wizard.engine.fitout.confirm import marked
from wizard.model import buildout as bo
from wizard.model.buildout import BomCategory as Cat


def _line(part: linkx.Part) -> bo.BomLine:
    return bo.BomLine(category=part.category, item=f"{part.category.value}:{part.number.lower()}",
                      part_number=part.number, description=part.text, quantity=1, unit="each",
                      source=part.source)  # fmt: skip


def test_25gbe_copper_is_nvidias_mcp2m00_by_its_length():
    assert linkx.eth_copper(25, 1, 3.0).number == "MCP2M00-A003"  # the guide's 3 m DAC
    assert linkx.eth_copper(25, 1, 1.5).number == "MCP2M00-A01A"
    assert linkx.eth_copper(25, 1, 0.5).number == "MCP2M00-A00A"
    # 30 units apart in one rack: 30 x 0.04445 + 1 = 2.33 m, the next length listed is 2.5 m
    assert linkx.eth_copper_m(linkx.Place(0, 1), linkx.Place(0, 31), 25, 1) == 2.5
    # past the longest listed (3 m: 45 units apart is 3.0 m) no copper: optics instead
    assert linkx.eth_copper_m(linkx.Place(0, 1), linkx.Place(0, 46), 25, 1) is None


def test_the_dacs_gauge_suffix_is_to_confirm_but_not_the_sfp28_optic(catalog):
    """The DAC's order code needs its gauge suffix (E30N, E26N) chosen: marked. The MMA2P00-AS
    is NVIDIA's own part on its own specification page: not marked."""
    dac = marked(_line(linkx.eth_copper(25, 1, 3.0)), catalog)
    assert dac.to_confirm == ["part number"]
    module, host, fibre = linkx.eth_optics(25, 1, 10)
    assert module.number == host.number == "MMA2P00-AS"
    assert "mma2p00asspec" in module.source
    assert marked(_line(module), catalog).to_confirm == []
    # NVIDIA's cable guide: the SR SFP takes 'Duplex LC/UPC' on the patch cable
    assert fibre.number == "" and "duplex LC/UPC" in fibre.text  # a patch cord, given by type


def test_sr4_fibre_is_the_female_mpo_upc_patch_cable_nvidias_cable_guide_names():
    """'Male MPO/UPC (with pins)' on the 100G and 200G SR4 transceivers, 'Female MPO/UPC (with
    holes)' on the patch cable; the twin-port 800G modules take MPO-12/APC fibre instead."""
    for speed in (100, 200):
        fibre = linkx.eth_optics(speed, 1, 10)[2]
        assert "MPO-12/UPC female to female" in fibre.text and "10 m" in fibre.text
    assert "APC" in linkx.eth_optics(800, 1, 10)[2].text
    assert "UPC" not in linkx.eth_optics(800, 1, 10)[2].text


def test_10gbe_copper_is_named_and_marked_other_speeds_stay_generic():
    ten = linkx.eth_copper(10, 1, 3.0)
    assert ten.number == "MC3309130-003" and "confirm" in ten.source
    assert linkx.eth_copper(10, 1, 0.5).number == "MC3309130-00A"
    # no NVIDIA part is known for a 40 Gb/s host link: by type, no invented number
    assert linkx.eth_copper(40, 1, 2.0).number == ""
    ten_sr = linkx.eth_optics(10, 1, 10)[0]  # the guide's MFM1T02A, its -SR code to confirm
    assert ten_sr.number == "MFM1T02A-SR" and "confirm" in ten_sr.source
    assert linkx.eth_optics(40, 1, 10)[0].number == ""


def test_the_sn3420_carries_its_part_number_marked_to_confirm(catalog):
    sw = catalog.switches["nvidia-sn3420"]
    assert sw.part_number == "MSN3420-CB2FO"
    assert "part_number" in sw.unsettled  # the suffix follows the OS and airflow ordered
    bom = sized_bill("bert-large-25gbe", catalog)[0]
    line = next(ln for ln in bom.lines if ln.item == "switch:nvidia-sn3420")
    assert line.part_number == "MSN3420-CB2FO" and line.to_confirm == ["part number"]
    dacs = [ln for ln in bom.lines if ln.part_number.startswith("MCP2M00-A")]
    assert dacs and all(ln.to_confirm == ["part number"] for ln in dacs)
    assert not any("25 Gb/s passive DAC" in ln.description for ln in bom.lines)


@pytest.mark.parametrize("name", CASES)
def test_every_nvidia_part_on_the_bill_has_its_number_or_says_to_confirm(name, catalog):
    """Every switch, NIC, optic and cable the bill names as NVIDIA's has a part number, or its
    line says the part number is to confirm; the lines given by type (fibre, patch cords, the
    subnet manager's software) name no vendor."""
    bom = sized_bill(name, catalog)[0]
    for ln in bom.lines:
        if ln.category not in (Cat.SWITCH, Cat.NIC, Cat.TRANSCEIVER, Cat.CABLE,
                               Cat.NVLINK_BRIDGE):  # fmt: skip
            continue
        if ln.description.startswith("NVIDIA"):
            assert ln.part_number or "part number" in ln.to_confirm, (name, ln.description)
        if not ln.part_number:
            assert "NVIDIA" not in ln.description.split(",")[0] or ln.to_confirm, ln.description


def test_the_management_domain_hosts_get_vmwares_memory(catalog):
    bom = sized_bill("acme-two-clusters", catalog)[0]
    mgmt = [ln for ln in bom.lines if ln.cluster == "Management domain"]
    server = next(ln for ln in mgmt if ln.category is Cat.SERVER)
    memory = next(ln for ln in mgmt if ln.item.startswith("server-memory:"))
    assert "256 GB per host" in memory.description and memory.quantity == server.quantity == 4
    assert "256 GB per server" in memory.source
    assert "vendor's quote" not in server.description
    # the GPU clusters keep twice their GPU memory, not the management domain's figure
    gpu = [ln for ln in bom.lines if ln.item.startswith("server-memory:") and ln not in mgmt]
    assert gpu and not any("256 GB per host" in ln.description and "VMware" in ln.source
                           for ln in gpu)  # fmt: skip


def test_several_clusters_mark_the_liquid_figures_as_one_cluster_does(catalog):
    """The liquid-cooled B200 server (liquid_heat_share unsettled) as the second of two
    clusters: the design's cooling says its share of heat is to confirm, and names no figure
    of the air-cooled cluster's server."""
    from tests.engine.test_liquid_cooling import _lcc
    from wizard.app.io import design_from_dict
    from wizard.engine import plan

    doc = _lcc()
    two = copy.deepcopy(doc)
    two["clusters"] = [{"name": "Liquid", "role": "gpu-cluster", "hardware": doc["hardware"]}]
    two["hardware"] = {**doc["hardware"], "server": "supermicro-sys-821ge-tnhr",
                       "gpu": "h100-sxm5-80gb", "nic": "cx7-ndr-1p"}  # fmt: skip
    two["workloads"][0]["cluster"] = "Liquid"
    two["workloads"].append({**doc["workloads"][0], "name": "Small", "count": 1, "cluster": None})
    e = plan(design_from_dict(two), catalog).estate
    server = catalog.servers["supermicro-sys-422ga-nbrt-lcc"]
    assert "liquid_heat_share" in server.unsettled
    assert e.cooling is not None
    assert f"share of heat to the liquid of the {server.product_name}" in e.cooling.to_confirm
    air = catalog.servers["supermicro-sys-821ge-tnhr"]
    assert not any(air.product_name in x for x in e.cooling.to_confirm)


def test_the_sn5600_and_the_q3400_ra_carry_their_models_marked_to_confirm(catalog):
    """800GbE on B300: the SN5600 line carries 920-9N42F-00RI-7C0 (the part number a Cumulus
    Linux SN5600 reports); XDR InfiniBand on the same hosts: the Q3400-RA line carries
    920-9B36F-00RX-8S0 (72 OSFP cages, 8 supplies, C2P airflow, as bills quoting NVIDIA's
    ordering table give it). Neither ordering table was read, so both say to confirm."""
    from tests.engine.test_xdr_fabric import _b300
    from wizard.app.io import design_from_dict
    from wizard.engine.size import size

    r = size(design_from_dict(_b300(fabric="800gbe", rdma="roce-v2")), catalog)
    sn = next(ln for ln in r.bom.lines if ln.item == "switch:nvidia-sn5600")
    assert sn.part_number == "920-9N42F-00RI-7C0" and "part number" in sn.to_confirm
    xdr = size(design_from_dict(_b300()), catalog)
    q = next(ln for ln in xdr.bom.lines if ln.item == "switch:nvidia-q3400-ra")
    assert q.part_number == "920-9B36F-00RX-8S0" and "part number" in q.to_confirm
    assert "to confirm with the vendor" in q.description


def test_the_nvlink_bridge_carries_nvidias_part_number_where_one_is_read(catalog):
    """A100 PCIe pairs: three bridges each, NVIDIA's Ampere 2-way 2-slot bridge
    900-53651-0000-000 (NVIDIA A100 80GB PCIe product brief PB-10577-001, as a third-party
    board survey quotes it): the number is on the line, marked to confirm as read from a third
    party. The H100 NVL's bridge number was not found: no invented number, the line says so,
    with its unsettled bridges per group (three per pair, as recalled)."""
    from tests.engine.test_topology import _sized

    r = _sized(catalog, "bert-large-25gbe", {"server": "lenovo-sr670-v2", "nvlink": True})
    a100 = next(ln for ln in r.bom.lines if ln.category is Cat.NVLINK_BRIDGE)
    assert a100.part_number == "900-53651-0000-000"
    assert a100.to_confirm == ["part number"]  # the A100's three per pair is settled
    assert a100.description.endswith("(to confirm with the vendor: part number)")
    assert a100.quantity == 4 * 2 * 3  # 4 hosts x 2 pairs x 3 bridges
    nvl = catalog.gpus["h100-nvl-94gb"]
    assert nvl.nvlink.bridge_part_number == ""
    bom = sized_bill(PROPOSED, catalog)[0]  # acme-options proposes H100 NVL pairs
    line = next(ln for ln in bom.lines if ln.category is Cat.NVLINK_BRIDGE)
    assert line.item == "nvlink-bridge:h100-nvl-94gb" and line.part_number == ""
    assert line.to_confirm == ["bridges per group", "part number"]


def test_a_licence_shipped_with_the_gpu_marks_its_years_where_they_are_read(catalog):
    """The H100 NVL's five years of NVIDIA AI Enterprise are a reseller's reading (the catalog
    marks nvaie_included_years): the included line says the years are to confirm. A design
    whose GPU ships with none (acme-two-clusters, L40S and H100 SXM) buys the subscription
    and confirms only its SKU."""
    bom = sized_bill(PROPOSED, catalog)[0]
    nvaie = next(ln for ln in bom.lines if ln.item == "licence:nvidia-ai-enterprise")
    assert nvaie.quantity == 0 and nvaie.included > 0
    assert "5-year subscription ships with each NVIDIA H100 NVL 94GB" in nvaie.description
    assert nvaie.to_confirm == ["part number", "years included with the GPU"]
    two = sized_bill("acme-two-clusters", catalog)[0]
    bought = [ln for ln in two.lines if ln.item == "licence:nvidia-ai-enterprise"]
    assert bought and all(ln.to_confirm == ["part number"] and ln.quantity for ln in bought)


def test_the_sr8_breakout_fibre_names_no_vendor_and_meets_the_sr4_upc_end():
    """NVIDIA's SN4000 FAQ pairs the 400GBASE-SR8 MMA1U50-WS (MPO-16) and breaks a 400GbE port
    into 2 x 200GbE only over copper (MCP7H60): the fibre from the SR8 to two MMA1T00-VS is a
    third-party part given by type, with the UPC the MMA1T00-VS takes (NVIDIA's cable guide:
    'Male MPO/UPC (with pins)' on the 200G SR4 QSFP)."""
    switch_end, host_end, fibre = linkx.eth_optics(200, 2, 10)
    assert (switch_end.number, host_end.number) == ("MMA1U50-WS", "MMA1T00-VS")
    assert fibre.number == "" and not fibre.text.startswith("NVIDIA")
    assert "MPO-16 to 2 x MPO-12/UPC" in fibre.text and "10 m" in fibre.text
    assert "MCP7H60" in fibre.source and "not an NVIDIA part" in fibre.source


# The connector each NVIDIA module takes, from its own document: 'two MPO-12/APC' (MMA4Z00-NS,
# twin-port), 'a single, 4-channel MPO-12/APC' (MMA4Z00-NS400, MMA1Z00-NS400), '2 x MPO-12/APC'
# single-mode (MMS4A00-XM, MMS4A20-XM800); 'Male MPO/UPC' on the 100G and 200G SR4 QSFPs
# (MMA1B00, MMA1T00) and 'Duplex LC/UPC' on the 25G and 10G SR SFPs (NVIDIA's cable guide).
CONNECTOR = {"MMA4Z00-NS": "MPO-12/APC", "MMA4Z00-NS-FLT": "MPO-12/APC",
             "MMA4Z00-NS400": "MPO-12/APC", "MMA1Z00-NS400": "MPO-12/APC",
             "MMS4A00-XM": "MPO-12/APC", "MMS4A20-XM800": "MPO-12/APC",
             "MMA1B00-C100D": "MPO-12/UPC", "MMA1T00-VS": "MPO-12/UPC",
             "MMA2P00-AS": "LC/UPC", "MFM1T02A-SR": "LC/UPC"}  # fmt: skip


@pytest.mark.parametrize("speed,breakout", [(800, 1), (200, 2), (200, 1), (100, 1), (25, 1),
                                            (10, 1)])  # fmt: skip
def test_each_ethernet_fibre_takes_the_connector_of_its_host_module(speed, breakout):
    """The fibre the bill orders fits the module at its host end: APC to APC, UPC to UPC, a
    duplex LC to an SFP; a polish mismatch is a link that does not come up."""
    _, host, fibre = linkx.eth_optics(speed, breakout, 10)
    want = CONNECTOR[host.number]
    assert want in fibre.text.replace("duplex ", "").replace("female to female", ""), fibre.text
    other = {"MPO-12/APC": "UPC", "MPO-12/UPC": "APC", "LC/UPC": "MPO"}[want]
    assert other not in fibre.text


@pytest.mark.parametrize("pair", [ib_parts.NDR, ib_parts.XDR], ids=["NDR", "XDR"])
def test_each_infiniband_fibre_takes_the_connector_and_mode_of_its_modules(pair):
    """NDR's multimode modules (MMA…) take the multimode MFP7E10, XDR's single-mode ones
    (MMS…) the single-mode MFP7E30; both MPO-12/APC at every end."""
    modules = (pair.switch_module, pair.host_module(True))
    assert all(CONNECTOR[m] == "MPO-12/APC" for m in modules)
    assert "MPO-12/APC" in pair.fibre_text
    mode = "single-mode" if all(m.startswith("MMS") for m in modules) else "multimode"
    assert mode in pair.fibre_text
    assert pair.fibre_number(10).startswith("MFP7E30" if mode == "single-mode" else "MFP7E10")
