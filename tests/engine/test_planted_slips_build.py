"""Build-out slips a reviewer would plant, each pinned by hand arithmetic: storage nodes for
capacity rounded up, two PDUs per rack, the cord a supply's current needs, the ring all-reduce's
two passes, and the racks of a cluster without GPUs rounded up."""

from __future__ import annotations

import json

import pytest

from tests.conftest import ROOT
from tests.engine.conftest import calc, design_dict
from wizard.app.io import design_from_dict
from wizard.engine.decide.estate import size_estate
from wizard.engine.demand import serving_physics as sp
from wizard.engine.size import size


def test_storage_nodes_for_capacity_round_up(catalog):
    """A 300 TB dataset, one version, no checkpoints kept and no headroom, on NetApp AFF A800
    controllers of 275 TB usable: 300 / 275 = 1.09 -> 2 nodes, not 1."""
    doc = design_dict("imagenet-resnet50")
    doc["hardware"]["storage"] = "netapp-aff-a800"
    doc["data"] = {"dataset_gb": 300_000, "dataset_versions": 1, "checkpoint_copies": 0,
                   "growth_headroom": 0}  # fmt: skip
    r = size(design_from_dict(doc), catalog)
    got = calc(r, "storage.nodes_for_capacity")
    assert got.inputs["usable_tb_per_node"] == 275
    assert got.value == 2 and got.inputs["capacity_tb"] == pytest.approx(300, rel=0.01)
    assert r.storage.nodes >= 2


def test_every_rack_has_two_pdus(sized):
    """One PDU on each of the A and B feeds: the bill's PDUs are twice its racks."""
    for name, r in sized.items():
        racks = sum(ln.quantity for ln in r.bom.lines if ln.item.startswith("rack:"))
        pdus = sum(ln.quantity for ln in r.bom.lines if ln.item.startswith("pdu:"))
        assert pdus == 2 * racks == 2 * len(r.racks.racks), name


@pytest.mark.parametrize(("example", "cord"), [("starter", "c13"), ("hgx-h200-llm", "c19")])
def test_a_supply_over_10_amps_takes_a_c19_cord(sized, catalog, example, cord):
    """IEC 60320: a C13 cord is rated 10 A. The starter's R740xd supply is 1,600 W: 8 A at 200 V,
    a C13 cord; the XE9680's 3,200 W supply draws 16 A: a C19 cord."""
    r = sized[example]
    watts = catalog.servers[r.server].psu_w
    assert (watts / 200 > 10) == (cord == "c19")
    (line,) = [ln for ln in r.bom.lines if ln.item.startswith("server-cord:")]
    assert line.item == f"server-cord:{cord}-to-{'c20' if cord == 'c19' else 'c14'}"


def test_ring_all_reduce_moves_its_bytes_twice():
    """A ring all-reduce is a reduce-scatter and an all-gather: 2 (t - 1) / t of the message per
    GPU. TP 8, 4,096 tokens of an 8,192-wide model in 16 bits = 67.1 MB: 2 x 7/8 x 67.1 MB /
    (450 GB/s x 0.8) = 0.326 ms, plus 20 us of latency."""
    got = sp.ALLREDUCE_S(latency_s=20e-6, tp=8, tokens=4096, hidden=8192, link_gbs=450,
                         link_efficiency=0.8)  # fmt: skip
    assert got == pytest.approx(20e-6 + 2 * 7 / 8 * 4096 * 8192 * 2 / (450e9 * 0.8))


def test_a_cluster_without_gpus_takes_whole_racks(catalog):
    """The acme design's management domain: its hosts over the hosts a rack holds, rounded up (a
    rack holds them, so one rack, never zero)."""
    doc = json.loads((ROOT / "docs" / "acme-two-clusters.json").read_text())
    e = size_estate(design_from_dict(doc), catalog)
    cpu = [c for c in e.clusters if c.result is None]
    assert cpu, "the acme design has a cluster without GPUs"
    for c in cpu:
        got = next(x for x in e.calculations if x.id == f"clusters.{c.name}.racks")
        hosts, per_rack = got.inputs["hosts"], got.inputs["hosts_per_rack"]
        assert got.value == -(-hosts // per_rack) >= 1
        assert c.host_racks == got.value


@pytest.mark.parametrize(
    ("met", "at_risk", "word"),
    [(True, False, "met"), (True, True, "at risk"), (False, False, "missed")],
)
def test_a_target_met_only_as_estimated_reads_at_risk(met, at_risk, word):
    """The comparison's verdict: met at the estimate but missed at the pessimistic end of the
    spread is 'at risk', not 'met'."""
    from wizard.model.options import TargetStatus
    from wizard.present.options_table import verdict

    t = TargetStatus(workload="Chat", metric="itl", value=46.1, target=50, unit="ms", met=met,
                     at_risk=at_risk, pessimistic=50.8 if at_risk else None)  # fmt: skip
    assert verdict(t) == word
