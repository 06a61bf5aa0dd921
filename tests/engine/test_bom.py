"""The bill of materials: quantities equal the topology's counts for every bundled example;
licences by their unit; prices only from a price list."""

import pytest

from tests.engine.conftest import design_dict
from wizard.app.catalog_loader import load_catalog as catalog
from wizard.app.io import design_from_dict
from wizard.base.bundled import example_names
from wizard.engine.fitout import linkx
from wizard.engine.fitout.bom import OOB_ITEM, apply_prices
from wizard.engine.platform.compat import check_design
from wizard.engine.size import size
from wizard.model.catalog import CpuOption
from wizard.model.prices import PriceList


def _qty(result, category: str) -> dict[str, int]:
    return {ln.item: ln.quantity for ln in result.bom.lines if ln.category == category}


@pytest.mark.parametrize("name", example_names())
def test_bom_quantities_equal_topology_counts(sized, name):
    r = sized[name]
    c, t, host = r.cluster, r.topology.totals, r.topology.hosts[0]
    devices = {
        k: sum(1 for d in host.devices if d.kind == k) for k in ("gpu", "nic", "nvlink-bridge")
    }
    assert _qty(r, "server") == {f"server:{r.server}": c.hosts_total}
    servers = _qty(r, "server-part")
    # each server's configuration: memory, boot, rails per host; a supply and a cord per PSU
    psus = c.hosts_total * catalog().servers[r.server].psu_count
    for part in ("memory", "boot", "rails"):
        assert servers[f"server-{part}:{r.server}"] == c.hosts_total
    assert servers[f"server-psu:{r.server}"] == psus
    assert sum(v for k, v in servers.items() if k.startswith("server-cord:")) == psus
    assert t.hosts == host.hosts == c.hosts_total
    gpb = r.topology.hosts[0].gpus // r.topology.hosts[0].gpu_boards
    assert _qty(r, "gpu") == {f"gpu:{r.gpu}": c.gpus_total // gpb}
    assert devices["gpu"] * c.hosts_total == c.gpus_total == t.gpus
    nics = {k: v for k, v in _qty(r, "nic").items() if not k.endswith(":service")}
    assert sum(nics.values()) == devices["nic"] * c.hosts_total
    assert nics == {f"nic:{k}": v for k, v in t.nics.items()}
    # the service network's adapter: one card per host for its two ports (every example keeps
    # the default two service ports, no example's server states onboard ports, and the
    # catalog's cards at those speeds are dual-port)
    service = {k: v for k, v in _qty(r, "nic").items() if k.endswith(":service")}
    assert sum(service.values()) == c.hosts_total
    bridges = sum(_qty(r, "nvlink-bridge").values())
    assert bridges == devices["nvlink-bridge"] * c.hosts_total == t.nvlink_bridges
    planes = r.topology.fabric.planes
    tiers = [x for p in planes for x in p.tiers]
    # the data networks' switches; the out-of-band switches and the subnet manager beside them
    fabric = {k: v for k, v in _qty(r, "switch").items() if k != OOB_ITEM}
    assert sum(v for k, v in fabric.items() if k != "switch:ib-subnet-manager") == sum(
        x.count for x in tiers
    )
    racked_ports = sum(1 for rack in r.racks.racks for i in rack.items if i.kind != "oob")
    assert _qty(r, "switch")[OOB_ITEM] >= -(-racked_ports // 48)
    # one out-of-band switch at the top of every rack, each racked, powered and uplinked
    oob = [i for rack in r.racks.racks for i in rack.items if i.kind == "oob"]
    assert len(oob) == _qty(r, "switch")[OOB_ITEM] == len(r.racks.racks)
    assert all(i.u_position + i.height_u - 1 == rack.height_u for rack in r.racks.racks
               for i in rack.items if i.kind == "oob")  # fmt: skip
    assert _qty(r, "transceiver").get("transceiver:mma1b00-c100d", 0) >= len(oob)
    # InfiniBand NDR planes are billed as NVIDIA pairs the parts (tests/engine/test_linkx.py):
    # every host port on a splitter leg or a host module, at most one leg per leaf left free
    ndr = [p for p in planes if linkx.is_ndr(p)]
    rest = [p for p in planes if p not in ndr]
    # Ethernet planes are billed from the port map (tests/engine/test_portmap.py): a cable per
    # switch port facing hosts (a splitter serves its legs), per uplink and per peer link; at
    # most one leg per leaf left free; a patch cord per racked device's management port
    ndr_parts = ("MCP7Y", "MFP7E", "MCP4Y", "MMA4Z", "MMA1Z")
    eth = [p for p in rest if p.tiers]
    cables = sum(ln.quantity for ln in r.bom.lines if ln.category == "cable"
                 and not ln.part_number.startswith(ndr_parts) and "patch cord" not in ln.description
                 and "out-of-band uplink" not in ln.description)  # fmt: skip
    host_side = sum(p.host_ports / p.tiers[0].breakout for p in eth)
    fixed = sum(t.count * t.uplinks for p in eth for t in p.tiers if t.role == "leaf")
    fixed += sum(cb.count for p in eth for cb in p.cables if cb.between == "peer-link")
    leaves = sum(t.count for p in eth for t in p.tiers if t.role == "leaf")
    assert host_side + fixed <= cables <= host_side + fixed + leaves
    cords = sum(ln.quantity for ln in r.bom.lines if "patch cord" in ln.description)
    assert cords == racked_ports
    for p in ndr:
        legs = 2 * sum(ln.quantity for ln in r.bom.lines if ln.part_number[:7] in
                       ("MCP7Y00", "MCP7Y10"))  # fmt: skip
        modules = sum(ln.quantity for ln in r.bom.lines if ln.part_number.endswith("-NS400"))
        leaves = sum(t.count for t in p.tiers if t.role == "leaf")
        assert p.host_ports <= legs + modules <= p.host_ports + leaves
    racked = [i for rack in r.racks.racks for i in rack.items]
    assert sum(i.kind == "server" for i in racked) == c.hosts_total
    assert sum(i.kind == "switch" for i in racked) == sum(x.count for x in tiers)
    # the storage the design sizes is billed and racked, node for node
    nodes = r.storage.nodes if r.storage.system else 0
    assert sum(_qty(r, "storage").values()) == (nodes or 0)
    assert sum(i.kind == "storage" for i in racked) == (nodes or 0)
    (nvaie,) = [x for x in r.bom.lines if x.item == "licence:nvidia-ai-enterprise"]
    assert nvaie.quantity + nvaie.included == c.gpus_total


def test_size_json_carries_the_build_out_for_every_example(sized):
    for r in sized.values():
        doc = r.model_dump(mode="json")
        assert all(doc[k] for k in ("topology", "power", "racks", "bom", "decisions"))
        assert doc["topology"]["fabric"]["planes"]


def test_nvlink_bridges_counted_per_pair(catalog):
    """Four A100 PCIe per host in two bridged pairs, three bridges each: 6 per host."""
    doc = design_dict("bert-large-25gbe")
    doc["hardware"]["nvlink"] = True
    r = size(design_from_dict(doc), catalog)
    assert _qty(r, "nvlink-bridge") == {"nvlink-bridge:a100-pcie-80gb": 6 * r.cluster.hosts_total}


def _with_cpus(catalog, server_id: str, cpus: list[tuple[str, int]]):
    """The catalog with one server's processor list replaced, so a test states its own CPUs."""
    server = catalog.servers[server_id].model_copy(
        update={"cpu_options": [CpuOption(name=n, cores=c) for n, c in cpus]}
    )
    return catalog.model_copy(update={"servers": {**catalog.servers, server_id: server}})


# The enterprise example: 8 two-socket Dell C4140 hosts on VCF, per core with a 16-core minimum
# per CPU (Broadcom KB 313548).
@pytest.mark.parametrize(
    ("cpu", "override", "per_cpu"),
    [
        (None, None, 28),  # no processor named: the server's usual build, the first listed
        ("Xeon Gold 6230", None, 20),  # the processor named
        ("Xeon Silver 4210", None, 16),  # 10 cores still count as 16
        ("Xeon Gold 6230", 24, 24),  # a stated core count overrides the processor
    ],
)
def test_per_core_platform_licences_follow_the_processor(catalog, cpu, override, per_cpu):
    cat = _with_cpus(
        catalog,
        "dell-c4140",
        [("Xeon Platinum 8280", 28), ("Xeon Gold 6230", 20), ("Xeon Silver 4210", 10)],
    )
    doc = design_dict("enterprise")
    doc["hardware"]["cpu"] = cpu
    if override:
        doc["licensing"] = {"cores_per_socket": override}
    r = size(design_from_dict(doc), cat)
    assert _qty(r, "licence")["licence:vmware-vcf"] == 8 * 2 * per_cpu
    assert "licence-cores-assumed" not in {w.code for w in r.warnings}
    (server,) = [ln for ln in r.bom.lines if ln.item.startswith("server:")]
    assert ("Xeon Platinum 8280 (28 cores)" in server.description) == (cpu is None)


def test_per_core_licences_without_a_known_processor_assume_32_and_say_so(catalog):
    cat = _with_cpus(catalog, "dell-c4140", [])
    r = size(design_from_dict(design_dict("enterprise")), cat)
    assert _qty(r, "licence")["licence:vmware-vcf"] == 8 * 2 * 32
    assert "licence-cores-assumed" in {w.code for w in r.warnings}


def test_a_processor_the_server_is_not_sold_with_is_refused(catalog):
    cat = _with_cpus(catalog, "dell-c4140", [("Xeon Platinum 8280", 28)])
    doc = design_dict("enterprise")
    doc["hardware"]["cpu"] = "Xeon Platinum 8490H"
    problems = check_design(design_from_dict(doc), cat)
    assert [p.field for p in problems] == ["hardware.cpu"]
    assert "Xeon Platinum 8490H" in problems[0].message
    assert "Xeon Platinum 8280" in problems[0].message


def test_licences_can_be_left_out_or_changed(catalog):
    doc = design_dict("enterprise")
    doc["licensing"] = {"gpu_software": None, "platform": "vmware-vvf"}
    r = size(design_from_dict(doc), catalog)
    assert set(_qty(r, "licence")) == {"licence:vmware-vvf"}


def test_prices_by_item_or_part_number_with_totals_per_category(catalog):
    doc = design_dict("enterprise")
    doc["licensing"] = {"cores_per_socket": 32}  # 8 hosts x 2 sockets x 32 cores = 512
    bom = size(design_from_dict(doc), catalog).bom
    prices = PriceList(
        currency="EUR",
        prices={"server:dell-c4140": 10.0, "MCX516A-CCAT": 2.5, "licence:vmware-vcf": 1.0},
    )
    priced = apply_prices(bom, prices)
    by_item = {ln.item: ln for ln in priced.lines}
    assert by_item["server:dell-c4140"].total_price == 80.0
    assert by_item["nic:cx5-100g-2p"].unit_price == 2.5  # matched by its part number
    assert priced.totals_by_category == {"server": 80.0, "nic": 20.0, "licence": 512.0}
    assert priced.total == 612.0
    assert "gpu:v100-sxm2-32gb" in priced.unpriced_items
    assert bom.currency is None and all(ln.unit_price is None for ln in bom.lines)


@pytest.mark.parametrize(
    ("licensing", "message"),
    [
        (
            {"gpu_software": "vmware-vcf"},
            "licensing.gpu_software: 'vmware-vcf' is licensed per-core",
        ),
        ({"platform": "nope"}, "licensing.platform: unknown licence 'nope'"),
    ],
)
def test_licence_choices_are_checked(catalog, licensing, message):
    from wizard.engine.platform.compat import check_design

    doc = design_dict("enterprise")
    doc["licensing"] = licensing
    problems = [str(p) for p in check_design(design_from_dict(doc), catalog)]
    assert any(p.startswith(message) for p in problems), problems


def test_bridge_count_is_in_the_calculation_log(catalog):
    from tests.engine.conftest import calc

    doc = design_dict("bert-large-25gbe")
    doc["hardware"]["nvlink"] = True
    c = calc(size(design_from_dict(doc), catalog), "topology.nvlink_bridges_per_host")
    assert (c.value, c.inputs) == (6, {"groups": 2, "bridges_per_group": 3})


def test_no_hosts_means_nothing_to_build(catalog):
    doc = design_dict("bert-large-25gbe")  # N+0
    doc["workloads"][0]["count"] = 0
    r = size(design_from_dict(doc), catalog)
    assert r.cluster.hosts_total == 0
    assert (r.topology.fabric.planes, r.racks.racks, r.bom.lines) == ([], [], [])
    assert r.power.total_w == 0


def test_a_gpu_that_ships_with_its_subscription_buys_none(catalog):
    """The H100 PCIe is sold with a five-year NVIDIA AI Enterprise subscription: the line stays
    in the bill, with nothing to buy and every GPU counted as included. The H100 SXM is not."""
    from tests.engine.conftest import design_dict
    from wizard.app.io import design_from_dict
    from wizard.engine.size import size

    r = size(design_from_dict(design_dict("mig-shared")), catalog)  # H100 PCIe
    (line,) = [x for x in r.bom.lines if x.item == "licence:nvidia-ai-enterprise"]
    assert (line.quantity, line.included) == (0, r.cluster.gpus_total)
    assert "5-year subscription ships with each" in line.description
    r = size(design_from_dict(design_dict("llm-serving")), catalog)  # H100 SXM
    (line,) = [x for x in r.bom.lines if x.item == "licence:nvidia-ai-enterprise"]
    assert (line.quantity, line.included) == (r.cluster.gpus_total, 0)


def test_storage_is_billed_racked_and_beyond_the_racks_said(catalog):
    """Starter: the Isilon F800 minimum of 4 nodes is billed (4 nodes) and racked (4 x 1U); a
    system of 1,000 nodes is billed but planned in rows of its own, and the design says so."""
    import json

    from wizard.app.io import design_from_dict
    from wizard.base.bundled import example_text
    from wizard.engine.size import size

    doc = json.loads(example_text("starter"))
    r = size(design_from_dict(doc), catalog)
    (line,) = [ln for ln in r.bom.lines if ln.category.value == "storage"]
    assert line.quantity == 4 and line.unit == "node"
    assert sum(i.kind == "storage" for rack in r.racks.racks for i in rack.items) == 4
    doc.setdefault("data", {})["storage_nodes"] = 1000
    big = size(design_from_dict(doc), catalog)
    (line,) = [ln for ln in big.bom.lines if ln.category.value == "storage"]
    assert line.quantity == 1000
    assert not any(i.kind == "storage" for rack in big.racks.racks for i in rack.items)
    assert any(w.code == "storage-not-racked" for w in big.warnings)
