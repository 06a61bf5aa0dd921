"""The proposal of a design of several clusters: its logical architecture draws every cluster
with what runs on it and joins each to the networks its hosts are on; its sections are numbered
in order, the appendix's subsections under the appendix's own number."""

from __future__ import annotations

import json
import re

from reports.diagrams import estate as estate_diagram
from tests.conftest import ROOT
from tests.reports.test_diagrams import _strings, assert_labels_fit
from wizard.app.catalog_loader import load_catalog
from wizard.app.io import design_from_dict
from wizard.engine.decide.estate import size_estate


def _acme():
    doc = json.loads((ROOT / "docs" / "acme-two-clusters.json").read_text(encoding="utf-8"))
    catalog = load_catalog(include_user=False)
    return design_from_dict(doc), catalog, size_estate(design_from_dict(doc), catalog)


def test_each_cluster_joins_the_networks_its_hosts_are_on():
    """The L40S hosts are on 200 GbE, the HGX hosts on InfiniBand NDR; every cluster is on the
    100 GbE service network and the out-of-band ports; the management hosts on no GPU fabric."""
    _, _, e = _acme()
    on = {
        c.name: sorted(p.technology for p in e.network if c.name in p.clusters) for c in e.clusters
    }
    eth200, ndr, eth100, oob = "200 GbE", "InfiniBand NDR (400 Gb/s)", "100 GbE", "Ethernet 1 GbE"
    assert on["Notebook cluster"] == sorted([eth200, eth100, oob])
    assert on["HGX cluster"] == sorted([ndr, eth100, oob])
    assert on["Management domain"] == sorted([eth100, oob])


def test_the_diagram_names_every_cluster_and_what_runs_on_it():
    design, catalog, e = _acme()
    names = {g: catalog.gpus[g].name for g in catalog.gpus}
    drawing = estate_diagram.draw(e, names, 480)
    assert_labels_fit(drawing)
    texts = [s.text for s in _strings(drawing)]
    text = " ".join(texts)
    for c in e.clusters:
        assert c.name in texts
    for g in design.workloads:
        assert f"• {g.name}" in texts
    assert "24 GPUs (NVIDIA H100 SXM5 80GB), 10 used" in text.replace("\n", " ")
    assert "…" not in text, "a label was cut"
    assert min(s.fontSize for s in _strings(drawing)) >= 7


def test_the_estate_proposal_numbers_the_appendix_subsections_under_the_appendix(monkeypatch):
    """Sections built before their heading once took the previous section's number."""
    import reports.story
    from reports.proposal import proposal_pdf
    from wizard.engine import plan

    seen: list[str] = []
    real = reports.story.Heading

    def recording(level, title, number="", key=""):
        seen.append(f"{number}  {title}")
        return real(level, title, number, key)

    monkeypatch.setattr(reports.story, "Heading", recording)
    design, catalog, _e = _acme()
    proposal_pdf(plan(design, catalog))
    (appendix,) = [h for h in seen if re.fullmatch(r"\d+  Appendix", h)]
    number = appendix.split()[0]
    subs = [h for h in seen if re.match(r"\d+\.\d+  (Assumptions|Sources|Glossary)$", h)]
    assert subs and {h.split(".")[0] for h in subs} == {number}


def test_a_clusters_own_decisions_leave_the_shared_network_power_and_racks_out():
    """Sized alone, the HGX cluster decides its GPU fabric, service network, out-of-band ports,
    cabling, power and racks (6 decisions); in the estate proposal those are the shared
    sections', so its decisions there are the rest, numbered from D1 without gaps."""
    from reports.data import _own
    from wizard.model.result import DecisionTopic

    _, _, e = _acme()
    r = next(c.result for c in e.clusters if c.name == "HGX cluster")
    topics = [d.topic for d in r.decisions]
    assert topics.count(DecisionTopic.NETWORK) == 4
    assert topics.count(DecisionTopic.POWER) == 1 and topics.count(DecisionTopic.RACKS) == 1
    own = _own(r).decisions
    assert len(own) == len(r.decisions) - 6
    assert [d.id for d in own] == list(range(1, len(own) + 1))
    assert not any("GPU fabric is" in d.text or "draws up to" in d.text for d in own)
    assert any(
        "NVSwitch" in d.text or "joined by" in d.text for d in own
    )  # a design decision stays


def test_the_estate_opens_with_an_executive_summary_over_every_cluster():
    """The summary page of the two-cluster proposal states every target of the design file (the
    chat service's 2,000 ms to first token and 50 ms between tokens on the HGX cluster, the
    fine-tuning's 24 h) with a verdict, the cost sentence, the risks and the decisions to take,
    each decision once."""
    import io

    from pypdf import PdfReader

    from reports.document import ReportOptions
    from reports.proposal import proposal_pdf
    from wizard.engine import plan

    design, catalog, _e = _acme()
    pdf = proposal_pdf(plan(design, catalog), ReportOptions())
    pages = [p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages]
    page = " ".join(next(t for t in pages if "Performance against the targets" in t).split())
    assert "Executive summary" in page
    assert "time to first token at most 2,000 ms" in page
    assert "time between tokens at most 50 ms" in page
    assert "time to train at most 24 h" in page
    for heading in ("Performance against the targets", "Top risks", "Decisions for you to take"):
        assert heading in page
    assert "Cost: no price list was given" in page
    assert page.count("The rack power limit of 40 kW") == 1


def test_the_several_cluster_proposal_draws_its_racks_power_and_networks():
    """acme-two-clusters: 4 L40S hosts, 3 HGX hosts and 4 management hosts, each cluster in a
    rack of its own at 40 kW, then one rack for the shared switches: four rack elevations, a
    bar per rack against the limit, and a panel per network (200 GbE, InfiniBand NDR, 100 GbE
    service, out-of-band) in the physical network drawing, each with its figure caption."""
    import io

    from pypdf import PdfReader

    from reports.document import ReportOptions
    from reports.proposal import proposal_pdf
    from tests.reports.conftest import FIXED_DATE
    from wizard.engine import plan

    design, catalog, e = _acme()
    # the QM9700 serves only the HGX hosts: it stands on top of their rack (R02)
    assert [r.role for r in e.racks] == ["hosts", "hosts+network", "hosts", "network"]
    assert [len(r.hosts) for r in e.racks] == [4, 3, 4, 0]
    assert e.totals.host_racks + e.totals.network_racks == len(e.racks) == 4
    switches = sum(t.count for p in e.network for t in p.tiers)
    racked = sum(1 for r in e.racks for i in r.items if i.kind == "switch")
    assert racked == switches
    names = {i.name for r in e.racks for i in r.items if i.kind == "switch"}
    assert len(names) == switches  # each switch by its own name
    pdf = proposal_pdf(plan(design, catalog), ReportOptions(date=FIXED_DATE))
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf)).pages)
    captions = re.findall(r"Figure \d+\. (Rack elevations|Power per rack|Physical networks)", text)
    assert sorted(set(captions)) == ["Physical networks", "Power per rack", "Rack elevations"]
    assert len(captions) == 3
    from reports.diagrams import fabric

    hosts = {p.name: p.hosts for p in e.network}  # as the plan counts them for each network
    assert sorted(hosts.values()) == [3, 4, 11, 11]  # NDR: HGX; 200 GbE: L40S; service, OOB: all
    drawing = fabric.draw_planes([(p, hosts[p.name]) for p in e.network], None, 480)
    assert drawing is not None
    assert_labels_fit(drawing)
