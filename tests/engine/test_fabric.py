"""The network fabric: NIC roles, leaf/spine counts at a stated oversubscription, cables.

Worked examples follow the two-tier folded Clos arithmetic (Al-Fares et al., SIGCOMM 2008):
a leaf of radix k gives k/2 ports down and k/2 up at 1:1, and a two-tier fabric of k-port
switches reaches at most k x k/2 host ports.
"""

import pytest

from tests.engine.conftest import calc, design_dict
from wizard.app.io import design_from_dict
from wizard.engine.basis.record import Recorder
from wizard.engine.fitout import fabric
from wizard.engine.size import size
from wizard.model.catalog import SwitchKind


def _plane(catalog, ports, speed, kind=SwitchKind.INFINIBAND, redundant=False, oversub=1.0):
    rec = Recorder()
    plane = fabric.size_plane(
        "compute", ports, speed, kind, redundant, oversub, catalog, rec, "test", "none"
    )
    return plane, rec


def test_ndr_fat_tree_worked_example(catalog):
    """64 hosts x 8 NDR ports on 64-port QM9700s at 1:1: 32 down / 32 up per leaf,
    512 / 32 = 16 leaves, 16 x 32 / 64 = 8 spines, 512 + 512 cables, 1024 optics."""
    plane, rec = _plane(catalog, 64 * 8, 400)
    leaf, spine = plane.tiers
    assert (leaf.switch, leaf.count, leaf.downlinks, leaf.uplinks) == ("nvidia-qm9700", 16, 32, 32)
    assert (spine.switch, spine.count, spine.downlinks) == ("nvidia-qm9700", 8, 64)
    assert plane.oversubscription == pytest.approx(1.0)
    cables = {c.between: c for c in plane.cables}
    assert cables["host-leaf"].count == 512 and cables["leaf-spine"].count == 512
    assert cables["leaf-spine"].transceivers == 1024
    assert [c.value for c in rec.calculations if c.id == "fabric.compute.leaves"] == [16]


def test_oversubscription_trades_uplinks_for_host_ports(catalog):
    """At 3:1 a 64-port leaf takes 48 hosts and 16 uplinks (48 x 400 = 3 x 16 x 400); 480 host
    ports need 10 leaves. Their 160 uplinks need ceil(160 / 64) = 3 spines, and every leaf
    reaches every spine equally: ceil(16 / 3) = 6 links each, 18 uplinks, 2.67:1 as built."""
    plane, _ = _plane(catalog, 480, 400, oversub=3.0)
    leaf, spine = plane.tiers
    assert (leaf.downlinks, leaf.uplinks, leaf.count, spine.count) == (48, 18, 10, 3)
    assert plane.oversubscription == pytest.approx(48 / 18)


def test_dedicated_uplinks_and_a_redundant_pair(catalog):
    """SN3420: 48 x 25 GbE down, 12 x 100 GbE up (1:1 at 48 x 25 = 12 x 100). 100 hosts with
    2 service ports: ceil(200 / 48) = 5 leaves, made even for pairs = 6, 34 hosts ports on the
    busiest leaf, ceil(34 x 25 / 100) = 9 uplinks, spread over two 64-port SN4600C spines."""
    plane, _ = _plane(catalog, 200, 25, SwitchKind.ETHERNET, redundant=True)
    leaf, spine = plane.tiers
    assert (leaf.switch, leaf.count, leaf.downlinks, leaf.uplinks) == ("nvidia-sn3420", 6, 34, 10)
    assert (spine.switch, spine.count) == ("nvidia-sn4600c", 2)
    assert plane.oversubscription == pytest.approx(34 * 25 / (10 * 100))


def test_small_fabric_is_one_switch_and_a_pair_gets_a_peer_link(catalog):
    plane, _ = _plane(catalog, 16, 25, SwitchKind.ETHERNET, redundant=True)
    assert [(t.role, t.count) for t in plane.tiers] == [("leaf", 2)]
    assert {c.between: c.count for c in plane.cables} == {"host-leaf": 16, "peer-link": 2}
    assert plane.oversubscription is None


def test_200g_hosts_use_400g_ports_with_breakout_cables(sized):
    """llm-serving: 4 hosts (20 GPUs, five TP 4 replicas for its 2,000 tokens/s, at 8 per host,
    plus one for N+1) x 2 ports at 200 GbE on an SN4700 (32 x 400 GbE, 2 x 200 each)."""
    compute = next(p for p in sized["llm-serving"].topology.fabric.planes if p.name == "compute")
    (leaf,) = compute.tiers
    assert (leaf.switch, leaf.breakout, leaf.count) == ("nvidia-sn4700", 2, 1)
    assert sized["llm-serving"].cluster.gpus_demand == 20
    assert sized["llm-serving"].cluster.hosts_total == 4
    assert compute.cables[0].count == 4  # eight host ports on four breakout cables


def test_nic_roles_cover_gpu_traffic_management_vmotion_storage_and_bmc(sized):
    roles = {r.role: r for r in sized["enterprise"].topology.fabric.nic_roles}
    assert set(roles) == {"gpu-rdma", "management", "vmotion", "storage", "oob"}
    assert roles["gpu-rdma"].adapter == "cx5-100g-2p" and roles["gpu-rdma"].speed_gbps == 100
    assert roles["vmotion"].network == "service" and roles["vmotion"].speed_gbps == 25
    assert sized["enterprise"].topology.fabric.rdma_technology == "pvrdma"


def test_fabric_figures_are_in_the_calculation_log(sized):
    r = sized["gpt3-175b"]
    assert calc(r, "fabric.compute.host_ports").value == 3 * 8
    assert calc(r, "fabric.compute.leaves").value == 1


# ------------------------------------------------------------------------ warnings raised


def _training_over_hosts(catalog, **assumptions):
    doc = design_dict("bert-large-25gbe")
    doc["assumptions"] = assumptions
    return size(design_from_dict(doc), catalog)


def test_oversubscribed_fabric_for_training_is_warned(catalog):
    assert "fabric-oversubscribed-training" not in {
        w.code for w in _training_over_hosts(catalog).warnings
    }
    r = _training_over_hosts(catalog, fabric_oversubscription=3)
    assert "fabric-oversubscribed-training" in {w.code for w in r.warnings}


def test_no_switch_for_the_speed_is_warned(catalog):
    bare = catalog.model_copy(update={"switches": {}})
    rec = Recorder()
    plane = fabric.size_plane(
        "compute", 8, 100, SwitchKind.ETHERNET, False, 1.0, bare, rec, "t", "none"
    )
    assert plane.tiers == [] and plane.cables[0].count == 8
    assert [w.code for w in rec.warnings] == ["no-switch-for-speed"]


def test_more_leaves_than_spine_ports_needs_a_third_tier(catalog):
    """64-port switches reach 64 x 32 = 2048 host ports in two tiers; 4096 do not fit."""
    plane, rec = _plane(catalog, 4096, 400)
    assert plane.tiers[0].count == 128
    assert "fabric-exceeds-two-tiers" in {w.code for w in rec.warnings}
    assert "fabric-exceeds-two-tiers" not in {
        w.code for w in _plane(catalog, 2048, 400)[1].warnings
    }


def test_nic_slower_than_the_fabric_is_an_error(catalog):
    doc = design_dict("imagenet-resnet50")
    doc["hardware"]["nic"] = "cx5-25g-2p"  # 25 GbE ports on a 100 GbE fabric
    r = size(design_from_dict(doc), catalog)
    (w,) = [w for w in r.warnings if w.code == "nic-slower-than-fabric"]
    assert w.severity == "error"


def test_a_network_without_a_catalog_switch_keeps_its_host_cables_on_the_bill(catalog):
    """hgx-h200-llm with a switch catalog holding only the out-of-band SN2201: neither its NDR
    GPU fabric nor its 100 GbE service network gets a switch, each is warned, and the design
    still sizes: with no switch to place them against, their host cables stay on the bill as
    counted, 3 hosts x 8 NICs = 24 and 3 hosts x 2 service ports = 6."""
    doc = design_dict("hgx-h200-llm")
    assert (doc["hardware"]["nics_per_host"], doc["hardware"]["fabric"]) == (8, "ib-ndr")
    oob = {k: s for k, s in catalog.switches.items() if k == "nvidia-sn2201"}
    r = size(design_from_dict(doc), catalog.model_copy(update={"switches": oob}))
    assert r.cluster.hosts_total == 3
    assert [w.code for w in r.warnings].count("no-switch-for-speed") == 2
    planes = {p.name: p for p in r.topology.fabric.planes}
    assert planes["compute"].tiers == [] and planes["service"].tiers == []
    billed = {ln.item: ln.quantity for ln in r.bom.lines}
    assert billed["cable:compute.ib-ndr.host-leaf.400g"] == 3 * 8
    assert billed["cable:service.100gbe.host-leaf.100g"] == 3 * 2
    assert not [i for i in billed if i.startswith("switch:") and i != "switch:nvidia-sn2201"]
