"""'To confirm' travels: every bill line stating a figure its catalog entry marks unsettled
carries the mark (in its words and its ``to_confirm``), and no other catalog line does. The
catalog's own lists are the reference: the SN4600C's part number is unsettled (its OPN is read
from third-party inventories), the QM9700's is not (NVIDIA's MQM9700-NS2F), only its power."""

from __future__ import annotations

import pytest

from tests.engine.test_port_ends import CASES
from tests.engine.test_port_ends import _sized as sized_bill
from wizard.engine.fitout.confirm import entry_of, words


@pytest.mark.parametrize("name", CASES)
def test_an_unsettled_figure_is_marked_where_it_reaches_the_bill(name, catalog):
    bom = sized_bill(name, catalog)[0]
    for ln in bom.lines:
        found = entry_of(catalog, ln.item)
        if found is None:
            continue
        entry, shown = found
        expected = list(
            dict.fromkeys(words(f) for f in entry.unsettled if f.split(".")[0] in shown)
        )
        # the licence a GPU ships with states the GPU's years too (marked where unsettled)
        gpu = next((g for g in catalog.gpus.values()
                    if f"ships with each {g.name}," in ln.description), None)  # fmt: skip
        if gpu is not None and "nvaie_included_years" in gpu.unsettled:
            expected.append("years included with the GPU")
        assert ln.to_confirm == expected, (name, ln.item)
        assert ("to confirm with the vendor" in ln.description) == bool(expected), ln.item


def test_a_settled_part_number_is_not_marked(catalog):
    """acme-two-clusters bills the QM9700: MQM9700-NS2F is NVIDIA's own ordering number and
    only its power is unsettled, which the bill line does not state: no mark."""
    bom = sized_bill("acme-two-clusters", catalog)[0]
    qm = next(ln for ln in bom.lines if ln.item == "switch:nvidia-qm9700")
    assert "power_w" in catalog.switches["nvidia-qm9700"].unsettled
    assert qm.to_confirm == [] and "to confirm" not in qm.description
    sn = next(ln for ln in bom.lines if ln.item == "switch:nvidia-sn4600c")
    assert sn.to_confirm == ["part number"]


def test_a_cabling_part_read_from_a_third_party_is_marked(catalog):
    """The 100 GbE SR4 module's order code, MMA1B00-C100D, comes from third-party lists (its
    source says to confirm it); NVIDIA's MMA1T00-VS has its own specification page: unmarked."""
    bom = sized_bill("acme-two-clusters", catalog)[0]
    by_part = {ln.part_number: ln for ln in bom.lines if ln.part_number}
    assert by_part["MMA1B00-C100D"].to_confirm == ["part number"]
    assert by_part["MMA1T00-VS"].to_confirm == []


@pytest.mark.parametrize("name", [c for c in CASES if not c.startswith("acme-two")])
def test_an_unsettled_power_is_marked_in_the_power_table(name, catalog):
    """Each power item whose catalog entry marks its power unsettled (a switch's typical power,
    a storage node's, a host's platform baseline) says so; an item with a settled figure does
    not."""
    from tests.engine.test_plain_words_50 import _results
    from wizard.engine.fitout.confirm import POWER_FIELDS, POWER_MARK, power_entry

    for r in _results(name, catalog):
        for it in r.power.items:
            entry = power_entry(catalog, it.item)
            assert entry is not None, it.item
            kind = next(k for k in POWER_FIELDS if entry.id in getattr(catalog, k))
            unsettled = any(f in entry.unsettled for f in POWER_FIELDS[kind])
            assert it.item.endswith(POWER_MARK) == unsettled, (name, it.item)


def test_a_board_the_vendor_does_not_show_is_marked(catalog):
    """Cisco's pages show the UCS C885A M8 with HGX H200; the catalog marks its other boards
    (hgx_gpus) unsettled, so a server line built on it says to confirm the GPUs it takes."""
    from wizard.model.buildout import BomCategory, BomLine

    line = BomLine(category=BomCategory.SERVER, item="server:cisco-ucs-c885a-m8", part_number="",
                   description="Cisco UCS C885A M8, configured for 8 x NVIDIA B200", quantity=1,
                   unit="each", source="catalog servers/cisco-ucs-c885a-m8")  # fmt: skip
    from wizard.engine.fitout.confirm import marked

    assert "GPUs its board takes" in marked(line, catalog).to_confirm


def test_the_liquid_share_the_catalog_estimates_is_marked(catalog):
    """The liquid-cooled B200 server's 0.63 share of heat to the liquid is the project's own
    estimate (its catalog entry lists liquid_heat_share as unsettled): the cooling figures built
    on it say so, and the unit's capacity and power exactly where its entry marks them."""
    from tests.engine.test_liquid_cooling import _lcc
    from wizard.app.io import design_from_dict
    from wizard.engine.size import size

    r = size(design_from_dict(_lcc()), catalog)
    server = catalog.servers["supermicro-sys-422ga-nbrt-lcc"]
    assert "liquid_heat_share" in server.unsettled
    c = r.racks.cooling
    assert c is not None
    assert f"share of heat to the liquid of the {server.product_name}" in c.to_confirm
    unit = catalog.cooling[c.cdu]
    assert any("capacity" in x for x in c.to_confirm) == ("capacity_kw" in unit.unsettled)
    assert any("power of" in x for x in c.to_confirm) == ("power_w" in unit.unsettled)
