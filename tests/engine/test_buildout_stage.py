"""The build-out as a stage of its own: it reads the cluster's name, its hardware answers and
NIC, the assumptions, the HA policy, the licensing and Private AI Foundation (and the catalog's
hardware kinds, whose entries each bill line is checked against), so it is tested from facts
built by hand with no design and no sizing: four hosts of two L40S on a 25 GbE fabric. Each
figure is worked out here and each logged formula gives its value."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict
from wizard.engine.basis.expr import evaluate
from wizard.engine.basis.record import Recorder
from wizard.engine.fitout.buildout import BuildFacts, build_out
from wizard.model.design import (
    Assumptions,
    FailureDomain,
    HaLevel,
    HaPolicy,
    Hardware,
    Licensing,
)
from wizard.model.result import Cluster

HOSTS = 4
HARDWARE = Hardware(gpu="l40s", server="dell-r760xa", gpus_per_host=2, nic="cx5-25g-2p")


def _build(catalog, parts=None, **update):
    base = {
        "cluster_name": "Lab cluster",
        "hardware": HARDWARE,
        "nic": catalog.nics["cx5-25g-2p"],
        "assumptions": Assumptions(),
        "ha": HaPolicy(level=HaLevel.N1),
        "licensing": Licensing(cores_per_socket=32),
        "private_ai_foundation": False,
    }
    facts = BuildFacts(**(base | update))
    cluster = Cluster(
        gpus_demand=6, gpus_per_host=2, hosts_for_capacity=3, hosts_for_ha=1,
        hosts_for_maintenance=0, hosts_total=HOSTS, gpus_total=8, host_failures_tolerated=1,
        gpus_after_failures=6, gpus_after_failures_and_maintenance=4,
        capacity_after_failures_ok=True,
    )  # fmt: skip
    rec = Recorder()
    gpu, server = catalog.gpus["l40s"], catalog.servers["dell-r760xa"]
    built = build_out(facts, parts or catalog, gpu, server, cluster, [], rec)
    for c in rec.calculations:
        assert evaluate(c.formula, c.inputs) == pytest.approx(c.value), c.id
    return built, rec


def _quantity(built, item: str) -> int | None:
    return next((ln.quantity for ln in built.bom.lines if ln.item == item), None)


def test_per_core_licences_follow_the_stated_cores_and_the_16_core_minimum(catalog):
    """VMware Cloud Foundation is licensed per core, at least 16 a CPU: 4 hosts x 2 sockets x
    32 cores = 256; stated at 8 cores a socket, 4 x 2 x 16 = 128."""
    built, _ = _build(catalog)
    assert _quantity(built, "licence:vmware-vcf") == HOSTS * 2 * 32
    built, _ = _build(catalog, licensing=Licensing(cores_per_socket=8))
    assert _quantity(built, "licence:vmware-vcf") == HOSTS * 2 * 16


def test_private_ai_foundation_adds_its_core_licences_only_when_licensed(catalog):
    """Private AI Foundation is licensed per core on the GPU hosts too: 256 beside the
    platform's; without it no such line."""
    built, _ = _build(catalog, private_ai_foundation=True)
    assert _quantity(built, "licence:vmware-paif") == HOSTS * 2 * 32
    built, _ = _build(catalog)
    assert _quantity(built, "licence:vmware-paif") is None


def test_the_networks_count_the_cluster_by_its_name(catalog):
    """Each network's host count is logged with one input per cluster, named for it: here the
    4 hosts of "Lab cluster"."""
    _, rec = _build(catalog)
    (calc,) = [c for c in rec.calculations if c.id == "fabric.compute.hosts"]
    assert calc.inputs == {"lab_cluster_hosts": HOSTS}


def test_the_oversubscription_is_the_assumptions(catalog):
    """The GPU fabric's decision states the assumed oversubscription: 1:1 by default, 3:1 when
    the assumptions say so."""
    _, rec = _build(catalog)
    assert any("at 1:1 oversubscription" in d.text for d in rec.decisions)
    _, rec = _build(catalog, assumptions=Assumptions(fabric_oversubscription=3))
    assert any("at 3:1 oversubscription" in d.text for d in rec.decisions)


def test_a_rack_failure_domain_of_one_host_puts_each_host_in_its_own_rack(catalog):
    """HA by rack with one host a rack: 4 racks of hosts, one each. Negative case: HA by host
    packs the 4 hosts of 2 U into one rack."""
    one = HaPolicy(level=HaLevel.N1, failure_domain=FailureDomain.RACK, hosts_per_rack=1)
    built, _ = _build(catalog, ha=one)
    holding = [r.hosts for r in built.racks.racks if r.hosts]
    assert sorted(len(h) for h in holding) == [1, 1, 1, 1]
    built, _ = _build(catalog)
    assert [len(r.hosts) for r in built.racks.racks if r.hosts] == [HOSTS]


def test_hosts_per_rack_limits_racks_only_under_the_rack_failure_domain(catalog):
    """Hosts per rack is the rack failure domain's answer: left set to 1 under HA by host, the
    4 hosts of 2 U still share one rack, and the logged hosts-per-rack formula has no failure
    domain term. Under HA by rack with 8 hosts a rack, more than the 4 that fit (10 U racks,
    less the out-of-band switch's 1 U: (10 - 1) // 2 = 4), the rack's space is the limit and
    the formula names no failure domain either; at 2 a rack it does."""
    stale = HaPolicy(level=HaLevel.N1, failure_domain=FailureDomain.HOST, hosts_per_rack=1)
    built, rec = _build(catalog, ha=stale)
    assert [len(r.hosts) for r in built.racks.racks if r.hosts] == [HOSTS]
    (calc,) = [c for c in rec.calculations if c.id == "racks.hosts_per_rack"]
    assert "hosts_per_failure_domain" not in calc.inputs
    short = Assumptions(rack_units=10)
    wide = HaPolicy(level=HaLevel.N1, failure_domain=FailureDomain.RACK, hosts_per_rack=8)
    built, rec = _build(catalog, ha=wide, assumptions=short)
    (calc,) = [c for c in rec.calculations if c.id == "racks.hosts_per_rack"]
    assert calc.value == (10 - 1) // 2
    assert "hosts_per_failure_domain" not in calc.inputs
    two = HaPolicy(level=HaLevel.N1, failure_domain=FailureDomain.RACK, hosts_per_rack=2)
    built, rec = _build(catalog, ha=two, assumptions=short)
    (calc,) = [c for c in rec.calculations if c.id == "racks.hosts_per_rack"]
    assert (calc.value, calc.inputs["hosts_per_failure_domain"]) == (2, 2)


@pytest.mark.parametrize("units", [42, 10])
def test_racks_hold_what_the_assumed_rack_height_allows(catalog, units):
    """No rack holds more units than the assumed height; 10 U racks take more racks for the
    same 4 hosts of 2 U than 42 U racks."""
    built, _ = _build(catalog, assumptions=Assumptions(rack_units=units))
    assert all(sum(i.height_u for i in r.items) <= units for r in built.racks.racks)
    assert all(r.height_u == units for r in built.racks.racks)
    tall, _ = _build(catalog)
    if units < 42:
        assert len(built.racks.racks) > len(tall.racks.racks)


def test_the_facts_of_a_design_are_its_own(catalog):
    """The facts read from the enterprise example renamed "Research cluster", with Private AI
    Foundation and rack failure domains: its name, hardware and its NIC, assumptions, HA policy,
    licensing and Private AI Foundation, each as the design states it."""
    doc = design_dict("enterprise")
    doc["cluster_name"] = "Research cluster"
    doc.setdefault("platform", {})["private_ai_foundation"] = True
    doc.setdefault("ha", {})["failure_domain"] = "rack"
    design = design_from_dict(doc)
    facts = BuildFacts.of(design, catalog)
    assert facts.cluster_name == "Research cluster"
    assert facts.private_ai_foundation is True
    assert facts.ha.failure_domain is FailureDomain.RACK
    assert (facts.hardware, facts.assumptions, facts.licensing) == (
        design.hardware, design.assumptions, design.licensing,
    )  # fmt: skip
    assert facts.nic == (catalog.nics[design.hardware.nic] if design.hardware.nic else None)


def test_the_build_out_reads_no_model_presets_or_software_releases(catalog):
    """Given the catalog's hardware kinds and licences alone, without its model presets and
    software releases, the build-out builds the same topology, racks, power and bill."""
    kinds = ("gpus", "servers", "storage", "nics", "switches", "licences", "cooling")
    parts = SimpleNamespace(**{k: getattr(catalog, k) for k in kinds})
    alone, _ = _build(catalog, parts)
    whole, _ = _build(catalog)
    assert alone == whole
