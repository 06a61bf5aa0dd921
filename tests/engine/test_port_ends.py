"""Every cable has its two ends on the bill: for every bundled example and the two Acme
proposals, each end the port map lands a cable on is a port of a billed part: a host's GPU
fabric NIC, its service network adapter or its BMC (the server line), a billed switch's port
within the switch's count, or the management port of a billed device."""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict

import pytest

from tests.conftest import ROOT
from wizard.app.io import design_from_dict, design_from_text
from wizard.base.bundled import example_names, example_text
from wizard.engine.decide.estate import estate_port_map, size_estate
from wizard.engine.fitout import linkx
from wizard.engine.fitout.bom import OOB_ITEM, service_nic_lines
from wizard.engine.fitout.fabric import service_adapter
from wizard.engine.fitout.portmap import SITE, result_port_map
from wizard.engine.size import size
from wizard.model import buildout as bo
from wizard.model.catalog import OnboardPorts

PROPOSED = "acme-options, as proposed"  # the option its proposal bills: H100 NVL, R760xa
ACME = ("acme-options", "acme-two-clusters", PROPOSED)


def design_of(name: str):
    """A bundled example, an Acme design as it stands, or the option its proposal proposes."""
    if name not in ACME:
        return design_from_text(example_text(name))
    stem = name.split(",")[0]
    doc = json.loads((ROOT / "docs" / f"{stem}.json").read_text(encoding="utf-8"))
    d = design_from_dict(doc)
    return d.proposal() if name == PROPOSED else d


def _sized(name: str, catalog):
    """(bill, port map, planes, switch names numbered by kind, racks) of one design."""
    d = design_of(name)
    if d.clusters:
        e = size_estate(d, catalog)
        return e.bom, estate_port_map(d, catalog, e), e.network, True, e.racks
    r = size(d, catalog)
    return r.bom, result_port_map(d, catalog, r), r.topology.fabric.planes, False, r.racks.racks


CASES = [*example_names(), *ACME]


def _switch_of(planes: list[bo.Plane], numbered: bool) -> dict[str, str]:
    """Switch name as the port map writes it -> catalog switch id."""
    out = {}
    for p, named in zip(planes, linkx.switch_names(planes, numbered), strict=True):
        for t in p.tiers:
            for n in named.get(t.role, []):
                out[n] = t.switch
    return out


def _port_number(port: str) -> tuple[str, int]:
    """('cage', 3) for 'cage 3, port 2'; ('port', 50) for 'port 50, breakout 1 of 2'."""
    m = re.match(r"(cage|port) (\d+)", port)
    assert m, port
    return m.group(1), int(m.group(2))


@pytest.mark.parametrize("name", CASES)
def test_every_cable_end_is_a_billed_port(name, catalog):
    bom, links, planes, numbered, racks = _sized(name, catalog)
    assert links, name
    billed = Counter()
    for ln in bom.lines:
        billed[ln.item] += ln.quantity + ln.included
    switch_of = _switch_of(planes, numbered)
    # switch ends: every switch named in the map is billed, within the billed count
    used: dict[str, set[str]] = defaultdict(set)
    ports: dict[str, set[tuple[str, int]]] = defaultdict(set)
    hosts_by_kind = {i.name: i.kind for r in racks for i in r.items}
    for ln in links:
        ends = ((ln.to_device, ln.to_port),) + (
            ((ln.device, ln.port),) if ln.between in ("leaf-spine", "peer-link") else ()
        )
        if ln.between == "oob-uplink":  # the far end is the site's network, said in words
            assert ln.to_device == SITE and ln.to_rack == "site", (name, ln)
            ends = ((ln.device, "port 49"),)  # the first of the SN2201's 4 uplink ports
        for device, port in ends:
            sw = OOB_ITEM.split(":")[1] if device.startswith("oob-") else switch_of.get(device)
            assert sw is not None, f"{name}: {device} is no billed switch"
            used[sw].add(device)
            ports[device].add(_port_number(port))
    for sw, devices in used.items():
        assert len(devices) <= billed[f"switch:{sw}"], f"{name}: {sw} {len(devices)} in the map"
    for device, taken in ports.items():
        sw_id = OOB_ITEM.split(":")[1] if device.startswith("oob-") else switch_of[device]
        sw = catalog.switches[sw_id]
        cap = sw.ports + (sw.uplink_ports or 0)
        for kind, n in taken:
            limit = sw.ports // 2 if kind == "cage" else cap  # an NDR/XDR cage holds 2 ports
            assert 1 <= n <= limit, f"{name}: {device} {kind} {n} of {limit}"
    # host ends: each network's host ports are ports of billed adapters (the BMC: the server)
    ends: Counter[str] = Counter()
    for ln in links:
        if ln.between not in ("host-leaf", "host-oob"):
            continue
        kind = hosts_by_kind.get(ln.device)
        if ln.between == "host-oob":
            assert kind in ("server", "switch", "storage", "cdu"), (name, ln.device)
            if kind == "server":
                ends["bmc"] += 1
            continue
        assert kind == "server", (name, ln.device)
        ends[ln.network.split(".")[0]] += 1
    nic_ports: Counter[str] = Counter()
    servers = 0
    for ln in bom.lines:
        if ln.category == "server":
            servers += ln.quantity
        if ln.category != "nic":
            continue
        nic = catalog.nics[ln.item.split(":")[1]]
        net = "service" if ln.item.endswith(":service") else "compute"
        nic_ports[net] += (ln.quantity + ln.included) * nic.ports
    assert ends["bmc"] == servers, name
    for net in ("compute", "service"):
        assert ends[net] <= nic_ports[net], (
            f"{name}: {ends[net]} {net} ends, {nic_ports[net]} billed"
        )
        if ends[net]:
            assert nic_ports[net], f"{name}: {net} cables with no billed adapter"


def test_the_service_ports_have_an_adapter_line(catalog):
    """mig-shared: two 25 GbE service ports per host; the server states no onboard ports, so
    one dual-port 25 GbE card per host is billed (the catalog's NVIDIA ConnectX-5 EN, MCX512A-ACAT)."""
    d = design_from_text(example_text("mig-shared"))
    r = size(d, catalog)
    line = next(ln for ln in r.bom.lines if ln.item.endswith(":service"))
    assert line.part_number == "MCX512A-ACAT"
    assert line.quantity == r.topology.totals.hosts * 1  # 2 ports / 2 per card


def test_onboard_ports_of_the_speed_take_no_adapter(catalog):
    """Negative case: a server whose catalog entry states 2 x 25 GbE onboard needs no card for
    two 25 GbE service ports, but still one for two 100 GbE ports."""
    onboard = OnboardPorts(ports=2, speed_gbps=25, source="a test's stated ports")
    server = catalog.servers["dell-r760xa"].model_copy(update={"onboard_ports": [onboard]})
    assert service_adapter(catalog, server, 25, 2) == (None, 0)
    nic, cards = service_adapter(catalog, server, 100, 2)
    assert nic is not None and nic.port_speed_gbps == 100 and cards == 1
    nic, cards = service_adapter(catalog, server, 25, 4)  # more ports than onboard
    assert nic is not None and cards == 2


def test_no_service_line_without_service_ports(catalog):
    net = bo.NetworkFabric(rdma_technology="none", rdma_note="", nic_roles=[], planes=[])
    assert service_nic_lines(catalog, net, 4) == []
