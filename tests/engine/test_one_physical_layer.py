"""One source for the physical layer: the network's words (each cable run's description, its
count and optics), the cabling decision and the bill read copper, fibre and optical modules from
the same placed parts, for every bundled example and the two Acme proposals. The Acme cases
are the ones a reviewer found contradicting themselves: acme-options said 'direct-attach copper
… no optical modules' while billing MMA1U50-WS, MMA1T00-VS and breakout fibre; acme-two-clusters
said '24 x 400 Gb/s host-to-leaf fibre across racks, one optical module at each end' while
billing 12 MCP7Y00 copper splitters."""

from __future__ import annotations

import re

import pytest

from tests.engine.test_port_ends import CASES, design_of
from tests.engine.test_port_ends import _sized as sized_bill
from wizard.engine.decide.estate import size_estate
from wizard.engine.fitout.media import is_fibre
from wizard.engine.size import size


def _planes_and_decisions(name, catalog):
    d = design_of(name)
    if d.clusters:
        e = size_estate(d, catalog)
        return e.network, e.decisions
    r = size(d, catalog)
    return r.topology.fabric.planes, r.decisions


@pytest.mark.parametrize("name", CASES)
def test_words_and_bill_count_the_same_cables_and_optics(name, catalog):
    bom, _, _, _, _ = sized_bill(name, catalog)
    planes, decisions = _planes_and_decisions(name, catalog)
    modules = sum(ln.quantity for ln in bom.lines if ln.category == "transceiver")
    cables = sum(ln.quantity for ln in bom.lines if ln.category == "cable")
    fibres = sum(ln.quantity for ln in bom.lines if is_fibre(ln))
    assert sum(c.transceivers for p in planes for c in p.cables) == modules, name
    assert sum(c.count for p in planes for c in p.cables) == cables, name
    words = " ".join(c.description for p in planes for c in p.cables)
    said = sum(int(n.replace(",", "")) for n in re.findall(r"([\d,]+) optical modules?\b", words))
    assert said == modules, (name, words)
    said = sum(int(n.replace(",", "")) for n in re.findall(r"([\d,]+) fibres?\b", words))
    assert said == fibres, (name, words)
    cabling = [x for x in decisions if "Host-to-leaf links" in x.text]
    assert len(cabling) <= 1
    for x in cabling:
        if modules:
            assert "No optical modules" not in x.implication, name
            assert f"{modules:,} optical module" in x.implication, (name, x.implication)
        host = " ".join(c.description for p in planes for c in p.cables if c.between == "host-leaf")
        if re.search(r"\d fibres?\b", host):
            assert "fibre" in x.text, (name, x.text)
        else:
            assert "direct-attach copper" in x.text and "fibre" not in x.text, (name, x.text)


def test_acme_options_names_its_optics(catalog):
    """acme-options: the GPU fabric's 200 Gb/s host ports on 400 G SN4700 ports split in two
    cannot reach by copper (NVIDIA's MCP7H60 splitter is listed up to 2 m), so its run is fibre
    and says so, with the bill's MMA1U50-WS and MMA1T00-VS, never 'no optical modules'."""
    planes, decisions = _planes_and_decisions("acme-options", catalog)
    run = next(c for p in planes if p.name.startswith("compute") for c in p.cables
               if c.between == "host-leaf")  # fmt: skip
    assert "MMA1U50-WS" in run.description and "MMA1T00-VS" in run.description
    assert "no optical modules" not in run.description
    cabling = next(x for x in decisions if "Host-to-leaf links" in x.text)
    assert "No optical modules" not in cabling.implication


def test_acme_two_clusters_calls_its_in_rack_splitters_copper(catalog):
    """acme-two-clusters: the QM9700 stands at the top of the HGX hosts' rack, so its 24 NDR
    host ports take 24 / 2 = 12 MCP7Y00 splitter cables and no optical module."""
    planes, _ = _planes_and_decisions("acme-two-clusters", catalog)
    run = next(c for p in planes if p.name == "compute.ib-ndr" for c in p.cables
               if c.between == "host-leaf")  # fmt: skip
    assert run.count == 24 // 2 and run.transceivers == 0
    assert "12 direct-attach copper cables, no optical modules" in run.description
    assert "fibre" not in run.description


@pytest.mark.parametrize("name", CASES)
def test_the_out_of_band_switches_are_quoted_everywhere(name, catalog):
    """The design quotes its out-of-band switches (NVIDIA BasePOD's SN2201): each one billed
    stands at the top of a rack, counts in its units and power, has an uplink on the bill, and
    no decision or note calls them the data centre's."""
    bom, links, planes, _, racks = sized_bill(name, catalog)
    _, decisions = _planes_and_decisions(name, catalog)
    billed = sum(ln.quantity for ln in bom.lines if ln.item == "switch:nvidia-sn2201")
    placed = [(r, i) for r in racks for i in r.items if i.kind == "oob"]
    assert billed == len(placed) == len(racks), name
    sn2201 = catalog.switches["nvidia-sn2201"]
    for r, i in placed:
        assert i.u_position + i.height_u - 1 == r.height_u  # at the top
        assert (i.height_u, i.power_w) == (sn2201.rack_units, sn2201.power_w)
        assert r.used_u == sum(x.height_u for x in r.items)
        assert r.power_w == pytest.approx(sum(x.power_w for x in r.items))
    uplinks = [ln for ln in links if ln.between == "oob-uplink"]
    assert sorted(ln.device for ln in uplinks) == sorted(i.name for _, i in placed)
    # one module per uplink, on the part's one line (the service network may order more)
    assert all(p.number == "MMA1B00-C100D" for ln in uplinks for p in ln.parts[:1])
    modules = sum(ln.quantity for ln in bom.lines if ln.part_number == "MMA1B00-C100D")
    assert modules >= billed
    words = " ".join([x.text + " " + x.implication for x in decisions] + [p.note for p in planes])
    assert "not quoted" not in words and "data centre's" not in words, name
