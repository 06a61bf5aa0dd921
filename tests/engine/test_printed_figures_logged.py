"""Every figure a reader prints from the Plan has its line in the calculation log (the
proposal's calculation tables, the Review's Calculations tab, ``size --json``), or is an input
echoed from the design or the catalog, said here which.

The list of fields was built by grepping what the readers format (reports/sections/*.py and
wizard/gui/pages/review*.py: ``num(...)``, ``with_unit(...)``, f-strings of Plan and Result
fields). Each figure is found by its log id and must carry the field's value: a figure a
reader shows that the log does not explain, or one whose log says another number, fails here.

The rules behind the three figures logged last, worked by hand:

- out-of-band switches per rack = ceil(management ports / 48): an NVIDIA SN2201 has 48 x
  1GBASE-T RJ45 ports (NVIDIA SN2000 series brief; the catalog's switches/nvidia-sn2201);
- hosts on a network = the sum of the hosts of the clusters that join it;
- KV-cache bytes per element = bits / 8: 16 bits for a BF16 or FP16 cache, 8 for FP8 or
  INT8, 32 for FP32 (the number formats' widths)."""

from __future__ import annotations

import math

import pytest

from tests.engine.conftest import chat_design, design_dict
from tests.engine.test_estate import acme
from wizard.app.io import design_from_dict
from wizard.base.bundled import example_names
from wizard.engine import plan
from wizard.engine.basis.expr import evaluate
from wizard.engine.fitout.portmap import managed
from wizard.model.result import Calculation

# (reader's field, log id) of each cluster's figures the documents and the Review print
CLUSTER = [
    ("hosts_total", "cluster.hosts_total"),
    ("gpus_total", "cluster.gpus_total"),
    ("gpus_demand", "cluster.gpus_demand"),
    ("gpus_after_failures", "cluster.gpus_after_failures"),
    ("hosts_for_capacity", "cluster.hosts_for_capacity"),
    ("hosts_for_ha", "cluster.hosts_for_ha"),
    ("hosts_for_platform", "cluster.hosts_for_platform_minimum"),
]
POWER = [
    ("total_w", "power.total_w"),
    ("btu_per_hour", "power.btu_per_hour"),
    ("gpu_w_per_host", "power.gpu_w_per_host"),
    ("host_w", "power.host_w"),
    ("hosts_w", "power.hosts_w"),
    ("psu_installed_w", "power.supplies_installed_w"),
    ("psu_redundant_w", "power.supplies_with_half_failed_w"),
]
SERVING = ["ttft_ms", "itl_ms", "tokens_per_s_total"]
# echoed, not computed: the reader prints an input the log names as an input of a logged
# formula (field, log id, input name)
ECHOED = [
    # the catalog server's platform baseline (catalog servers/<id>)
    ("baseline_w_per_host", "power.host_w", "baseline_w"),
    # the sum of the power table's switch lines, one term of the total
    ("network_w", "power.total_w", "switches_w"),
    ("hosts", "power.total_w", "hosts"),
]
# printed from the design or a rule's constant, not derived: the PDUs per rack (two, on the A
# and B feeds: PDUS_PER_RACK, the bill's rule) and a catalog model's parameter count (the
# catalog's figure; a custom model's is counted and logged, tests/engine/test_face.py)
#
# Not yet logged as figures of their own, though readers print them (found by this walk; each
# is a count or product of logged inputs): the estate's host racks where clusters share racks,
# a group's GPUs per replica (its layout's tensor x pipeline parallel), a serving group's memory
# total per GPU (a training group's is logged, workloads[i].memory.total) and a training
# group's communication share.


def designs() -> dict[str, dict]:
    out = {name: design_dict(name) for name in example_names()}
    out["acme (two GPU clusters and a management domain)"] = acme()
    return out


PLANS: dict[str, object] = {}


def planned(name: str, catalog):
    if name not in PLANS:
        PLANS[name] = plan(design_from_dict(designs()[name]), catalog)
    return PLANS[name]


def logged(calcs: list[Calculation], key: str) -> Calculation:
    found = [c for c in calcs if c.id == key]
    assert len(found) == 1, f"{key}: {len(found)} log entries"
    c = found[0]
    # the log cannot lie: its formula with its own inputs gives its value
    assert evaluate(c.formula, c.inputs) == pytest.approx(c.value, rel=1e-12), key
    return c


def _index(design, name: str) -> int:
    """The group's index in the design its cluster was sized on (the log's workloads[i])."""
    return next(i for i, g in enumerate(design.workloads) if g.name == name)


@pytest.mark.parametrize("name", list(designs()))
def test_every_cluster_figure_a_reader_prints_is_logged_with_its_value(catalog, name):
    p = planned(name, catalog)
    assert p.clusters
    for c in p.clusters:
        r, calcs = c.result, c.result.calculations
        for field, key in CLUSTER:
            assert logged(calcs, key).value == getattr(r.cluster, field), (c.name, field)
        for field, key in POWER:
            assert logged(calcs, key).value == pytest.approx(getattr(r.power, field)), field
        for field, key, given in ECHOED:
            assert logged(calcs, key).inputs[given] == getattr(r.power, field), field
        assert logged(calcs, "racks.host_racks").value == r.racks.host_racks
        for rack in r.racks.racks:
            n = logged(calcs, f"racks.{rack.name}.oob_switches")
            assert n.value == rack.oob_switches == math.ceil(len(managed(rack)) / 48)
        for w in r.workloads:
            i = _index(c.design, w.name)
            if w.kv_cache_bytes_per_element is not None:
                kv = logged(calcs, f"workloads[{i}].kv_cache_bytes_per_element")
                assert kv.value == w.kv_cache_bytes_per_element
                assert kv.value == kv.inputs["kv_bits"] / 8
            if w.serving is not None:
                for field in SERVING:
                    key = f"workloads[{i}].serving.{field}"
                    assert logged(calcs, key).value == pytest.approx(getattr(w.serving, field))


@pytest.mark.parametrize("name", list(designs()))
def test_every_network_and_rack_of_the_estate_is_logged_with_its_value(catalog, name):
    """One cluster: its own log holds its networks' hosts and its racks' switches; several:
    the estate's log (the shared networks, the racks of every cluster)."""
    p = planned(name, catalog)
    e = p.estate
    one = len(p.clusters) == 1 and not p.clusters[0].shared
    calcs = p.clusters[0].result.calculations if one else e.calculations
    for net in e.network:
        hosts = logged(calcs, f"fabric.{net.name}.hosts")
        assert hosts.value == net.hosts
        # the sum of the hosts of the clusters that join it, each an input of its own
        assert len(hosts.inputs) == len(net.clusters)
        assert hosts.value == sum(hosts.inputs.values())
    for rack in e.racks:
        n = logged(calcs, f"racks.{rack.name}.oob_switches")
        assert n.value == rack.oob_switches
        assert n.inputs == {"management_ports": len(managed(rack)), "ports_per_switch": 48}
        placed = sum(1 for i in rack.items if i.kind == "oob")
        assert placed in (0, rack.oob_switches)  # the elevation shows what the log counts


@pytest.mark.parametrize(
    ("count", "psu_w", "installed", "redundant"),
    [(2, 2400, 4800, 2400), (6, 2800, 16800, 8400), (3, 2000, 6000, 2000)],
)  # 1+1, 3+3 and an odd count: half of three supplies failed leaves one
def test_the_power_supplies_are_logged_from_their_count_and_rating(
    catalog, count, psu_w, installed, redundant
):
    doc = design_dict("starter")
    p = plan(design_from_dict(doc), catalog)
    server = catalog.servers[p.design.hardware.server]
    shaped = server.model_copy(update={"psu_count": count, "psu_w": psu_w})
    other = catalog.model_copy(update={"servers": {**catalog.servers, server.id: shaped}})
    r = plan(design_from_dict(doc), other).clusters[0].result
    assert logged(r.calculations, "power.supplies_installed_w").value == installed
    assert logged(r.calculations, "power.supplies_with_half_failed_w").value == redundant
    assert (r.power.psu_installed_w, r.power.psu_redundant_w) == (installed, redundant)


def test_the_several_clusters_case_has_shared_networks_and_their_log(catalog):
    """Negative case: the two-cluster design really takes the estate's path (its networks are
    logged in the estate's log, not in a cluster's)."""
    p = planned("acme (two GPU clusters and a management domain)", catalog)
    assert len(p.clusters) == 2
    ids = {c.id for c in p.estate.calculations}
    assert {f"fabric.{n.name}.hosts" for n in p.estate.network} <= ids
    # the out-of-band network joins every cluster, the management domain's hosts too
    oob = next(n for n in p.estate.network if n.name == "oob")
    assert oob.hosts == sum(c.hosts for c in p.estate.clusters)


@pytest.mark.parametrize(
    ("precision", "kv", "bits"),
    [("bf16", None, 16), ("fp8", None, 8), ("fp32", None, 32), ("bf16", "fp8", 8),
     ("fp8", "bf16", 16)],
)  # fmt: skip
def test_the_kv_bytes_are_logged_as_the_rules_bits_over_eight(catalog, precision, kv, bits):
    doc = chat_design(precision, kv)
    p = plan(design_from_dict(doc), catalog)
    r = p.clusters[0].result
    c = logged(r.calculations, "workloads[0].kv_cache_bytes_per_element")
    assert c.inputs == {"kv_bits": bits}
    assert c.value == bits / 8 == r.workloads[0].kv_cache_bytes_per_element
    # the rule is in the source: the serving stack's default, or the design's choice
    assert ("default" in c.source) is (kv is None)
