"""The estate's shared build from its own facts: the hosts without GPUs and their lines of the
bill read the assumptions, the service fabric, the licensing and the clusters as the design
states them, so they are tested from facts built by hand (no design). The management domain
here is Dell R760xa hosts without GPUs: 2 U, a 1,000 W baseline, two sockets."""

from __future__ import annotations

import json
import math

import pytest

from tests.conftest import ROOT, acme_with_more_clusters
from wizard.app.io import design_from_dict
from wizard.engine.basis.expr import evaluate
from wizard.engine.basis.record import Recorder
from wizard.engine.decide.cpu_clusters import MANAGEMENT_MIN_HOSTS, cpu_cluster, cpu_lines
from wizard.engine.decide.estate import SharedFacts, size_estate
from wizard.model.catalog import CduPlacement
from wizard.model.design import (
    Assumptions,
    ClusterRole,
    ClusterSpec,
    Fabric,
    Licensing,
)

MGMT = ClusterSpec(name="Mgmt", role=ClusterRole.MANAGEMENT, server="dell-r760xa", hosts=2)


def _facts(**update) -> SharedFacts:
    base = {
        "assumptions": Assumptions(),
        "service_fabric": Fabric.GBE_25,
        "licensing": Licensing(cores_per_socket=24),
        "cpu_clusters": (MGMT,),
        "nics": {},
    }
    return SharedFacts(**(base | update))


def _cluster(catalog, facts: SharedFacts):
    rec = Recorder()
    c = cpu_cluster(facts.assumptions, catalog, MGMT, rec)
    (spec,) = facts.cpu_clusters
    lines = cpu_lines(facts.service_fabric, facts.licensing, spec, catalog, c, rec)
    for calc in rec.calculations:
        assert evaluate(calc.formula, calc.inputs) == pytest.approx(calc.value), calc.id
    return c, lines


@pytest.mark.parametrize(("units", "kw", "per_rack"), [(42, 15, 15), (42, 3, 3), (10, 15, 5)])
def test_the_management_domain_is_racked_by_the_assumed_height_and_power(
    catalog, units, kw, per_rack
):
    """Two hosts stated, raised to the domain's minimum of 4. Hosts a rack: the fewer of the
    rack's units over 2 U and its power over 1,000 W: 42 U and 15 kW: min(21, 15) = 15, one
    rack; 3 kW: 3, two racks; 10 U: 5, one rack."""
    c, _ = _cluster(
        catalog, _facts(assumptions=Assumptions(rack_units=units, max_rack_power_kw=kw))
    )
    assert c.hosts == MANAGEMENT_MIN_HOSTS == 4
    assert c.host_racks == math.ceil(4 / per_rack)


def test_its_bill_lines_follow_the_licensing_and_the_service_fabric(catalog):
    """Per-core VCF for 4 hosts of 2 sockets at the stated 24 cores: 4 x 2 x 24 = 192; at 8
    cores the 16-core minimum: 4 x 2 x 16 = 128. Its service ports run at the service fabric's
    speed: 25 GbE, or 100 GbE when the facts say so."""
    _, lines = _cluster(catalog, _facts())
    (vcf,) = [ln for ln in lines if ln.item == "licence:vmware-vcf"]
    assert vcf.quantity == 4 * 2 * 24
    _, lines = _cluster(catalog, _facts(licensing=Licensing(cores_per_socket=8)))
    (vcf,) = [ln for ln in lines if ln.item == "licence:vmware-vcf"]
    assert vcf.quantity == 4 * 2 * 16
    _, lines = _cluster(catalog, _facts(licensing=Licensing(platform=None)))
    assert not [ln for ln in lines if ln.item.startswith("licence:")]
    for fabric, words in ((Fabric.GBE_25, "2 x 25 GbE"), (Fabric.GBE_100, "2 x 100 GbE")):
        _, lines = _cluster(catalog, _facts(service_fabric=fabric))
        (nic,) = [ln for ln in lines if ln.item.endswith(":service")]
        assert words in nic.description


def test_the_shared_facts_of_a_design_are_its_own(catalog):
    """The docs' design of two clusters: its management domain is its one cluster without
    GPUs; the fabric NICs are the notebook cluster's dual-port 200 GbE ConnectX-7 and the HGX
    cluster's single-port NDR one; the service fabric, assumptions and licensing are the
    design's."""
    design = design_from_dict(_docs_design())
    facts = SharedFacts.of(design)
    assert [c.name for c in facts.cpu_clusters] == ["Management domain"]
    assert facts.nics == {"Notebook cluster": "cx7-200g-2p", "HGX cluster": "cx7-ndr-1p"}
    assert facts.service_fabric is design.hardware.service_fabric
    assert (facts.assumptions, facts.licensing) == (design.assumptions, design.licensing)


def _docs_design() -> dict:
    return json.loads((ROOT / "docs" / "acme-two-clusters.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("spares", [0, 1, 2])
def test_the_estates_in_row_units_add_the_assumed_spares(catalog, spares):
    """The docs' design with its HGX cluster on liquid-cooled B200 hosts, and only in-row units
    in the catalog: its 27 kW of coolant take one Liebert XDU1350 (1,368 kW), plus the spares
    the assumptions state."""
    in_row = {k: u for k, u in catalog.cooling.items() if u.placement is CduPlacement.IN_ROW}
    doc = _docs_design()
    hgx = next(c for c in doc["clusters"] if c["name"] == "HGX cluster")
    hgx["hardware"].update(gpu="b200-sxm", server="supermicro-sys-422ga-nbrt-lcc")
    doc.setdefault("assumptions", {})["cdu_spares"] = spares
    e = size_estate(design_from_dict(doc), catalog.model_copy(update={"cooling": in_row}))
    assert e.cooling is not None and e.cooling.cdu == "vertiv-liebert-xdu1350"
    assert e.cooling.units == math.ceil(e.cooling.liquid_kw / 1_368) + spares == 1 + spares


@pytest.mark.parametrize(("ratio", "leaves", "down", "up"), [(1, 4, 30, 30), (2, 3, 40, 20)])
def test_the_shared_fabric_is_oversubscribed_as_assumed(catalog, ratio, leaves, down, up):
    """The docs' design with four more HGX clusters: 120 NDR host ports on 64-port leaves. At
    1:1 a leaf takes at most 32 hosts and as many uplinks: ceil(120 / 32) = 4 leaves of 30 down
    and 30 up. At 2:1 at most 42 hosts (64 x 2 / 3): 3 leaves of 40 down and 20 up."""
    doc = acme_with_more_clusters(4)
    doc.setdefault("assumptions", {})["fabric_oversubscription"] = ratio
    e = size_estate(design_from_dict(doc), catalog)
    (ndr,) = [p for p in e.network if p.name.startswith("compute.ib-ndr")]
    assert ndr.host_ports == 120
    (leaf,) = [t for t in ndr.tiers if t.role == "leaf"]
    assert (leaf.count, leaf.downlinks, leaf.uplinks) == (leaves, down, up)
