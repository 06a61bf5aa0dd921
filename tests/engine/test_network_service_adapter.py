"""Which Ethernet card carries a host's service ports where the server states no onboard ports
of their speed: the fewest cards first (each card a slot and a part), then NVIDIA ConnectX (the
switches' vendor), then the newer PCIe generation, then the catalog id; and how many per host,
ceil(ports / ports per card)."""

from __future__ import annotations

from wizard.engine.fitout.fabric import service_adapter


def _with(catalog, **cards):
    """The catalog with ``cards`` added: id -> (copied from, changes)."""
    nics = dict(catalog.nics)
    for new_id, (base, changes) in cards.items():
        nics[new_id] = catalog.nics[base].model_copy(update={"id": new_id, **changes})
    return catalog.model_copy(update={"nics": nics})


def test_the_fewest_cards_come_before_the_vendor(catalog):
    """Two 25 GbE ports: a single-port NVIDIA card takes 2 per host, the dual-port Intel E810
    one; the Intel card is chosen. Four ports: a quad-port Broadcom card (1 per host) before the
    dual-port ConnectX-5 (2 per host)."""
    server = catalog.servers["dell-r760xa"]
    assert not server.onboard_ports
    one = catalog.nics["cx5-25g-2p"].model_copy(update={"id": "one", "ports": 1})
    cat = catalog.model_copy(
        update={"nics": {"intel-e810-xxvda2": catalog.nics["intel-e810-xxvda2"], "one": one}}
    )
    nic, cards = service_adapter(cat, server, 25, 2)
    assert (nic.id, cards) == ("intel-e810-xxvda2", 1)
    assert service_adapter(cat, server, 25, 1)[0].id == "one"  # one card either way: NVIDIA
    quad = _with(catalog, quad=("bcm-p225p", {"ports": 4}))
    nic, cards = service_adapter(quad, server, 25, 4)
    assert (nic.id, cards) == ("quad", 1)
    nic, cards = service_adapter(quad, server, 25, 2)  # one card of either: NVIDIA's
    assert (nic.id, cards) == ("cx5-25g-2p", 1)


def test_nvidia_then_the_newer_pcie_generation(catalog):
    """Two 25 GbE ports, one dual-port card of each: the catalog's ConnectX-5 (PCIe 3) before the
    Intel E810 (PCIe 4) and the Broadcom P225p (PCIe 3); an NVIDIA card on PCIe 4 before it."""
    server = catalog.servers["dell-r760xa"]
    assert service_adapter(catalog, server, 25, 2)[0].id == "cx5-25g-2p"
    gen4 = _with(catalog, zz=("cx5-25g-2p", {"pcie_gen": 4}))
    assert service_adapter(gen4, server, 25, 2)[0].id == "zz"
    assert service_adapter(catalog, server, 25, 0) == (None, 0)
    assert service_adapter(catalog, server, 40, 2) == (None, 0)  # no 40 GbE card in the catalog
