"""One number per concept: every count of GPUs, hosts or racks the proposal states, in its
sentences and tables, is one of the Result's own figures for that concept. A number the report
makes up (a total of slots called GPUs, a rack limit that differs from the calculation) fails.

Left out, each for its reason: chart axis ticks (a run of numbers before the unit), "host ports",
"rack units" (other units), decimal "n.m GPU", which is a section number ("4.2 GPU layouts") or
a PCIe root complex ("Root complex 0.1 GPU 1") where a real share of GPUs reads "0.5 GPUs";
a diagram's labels ("host 3 host 4", "leaf 2 hosts:"), and a table row's value read into the
next row's label ("Hosts in all 3 | GPUs in all 12")."""

from __future__ import annotations

import re

import pytest

from tests.reports.conftest import page_texts
from wizard.engine import MANAGEMENT_MIN_HOSTS
from wizard.model.result import Result

PAT = re.compile(
    r"(?P<before>(?:\d[\d,.]*\s+){0,3})(?<![\w.,-])(?P<n>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<dec>\d+))?"
    r"\s+(?P<unit>GPUs?|hosts?|racks?)\b(?P<after>(?:\s+[A-Za-z]+){0,2})"
)
LABELS = {"host", "hosts", "GPU", "leaf", "NIC", "switch", "complex", "CPU", "rack"}


def stated(text: str) -> list[tuple[str, float, str]]:
    """(unit, value, context) of every count the text states, the left-outs above removed."""
    out = []
    for m in PAT.finditer(text):
        unit = m.group("unit").rstrip("s")
        after = (m.group("after") or "").split()
        if len(m.group("before").split()) >= 2:  # an axis: "0 5 10 15 GPUs"
            continue
        if after[:1] in (["ports"], ["port"], ["units"], ["unit"]) or after == ["in", "all"]:
            continue
        if m.group("unit") == "GPU" and after[:1] == ["pool"]:  # the mode "GPU pool", a layout
            continue
        if m.group("dec") and m.group("unit") == "GPU":
            continue
        previous = text[: m.start("n")].split()[-1:]
        if previous and previous[0].rstrip(":") in LABELS:  # "host 3 host 4", "leaf 2 hosts:"
            continue
        number = m.group("n").replace(",", "") + (f".{m.group('dec')}" if m.group("dec") else "")
        out.append((unit, float(number), text[max(0, m.start("n") - 60) : m.end() + 20]))
    return out


def figures(r: Result) -> dict[str, set[float]]:
    """The Result's figures for each concept, and the small counts any sentence may say."""
    c = r.cluster
    spare = c.hosts_for_ha + c.hosts_for_maintenance
    gpus = {0, 1, c.gpus_total, c.gpus_demand, c.gpus_after_failures,
            c.gpus_after_failures_and_maintenance, c.gpus_per_host,
            c.gpus_total - c.gpus_per_host, spare * c.gpus_per_host}  # fmt: skip
    hosts = {0, 1, c.hosts_total, c.hosts_for_capacity, c.hosts_for_ha,
             c.hosts_for_maintenance, spare, c.host_failures_tolerated,
             r.racks.hosts_per_rack,
             c.hosts_total - max(1, c.host_failures_tolerated)}  # fmt: skip
    racks = {0, 1, len(r.racks.racks), r.racks.host_racks, r.racks.network_racks}
    for w in r.workloads:
        gpus |= {w.gpus_total, w.gpus_per_replica, round(w.sharing.gpus_allocated, 1)}
        if w.training and w.training.gpus_for_target_time:
            gpus.add(w.training.gpus_for_target_time)
    for o in r.sharing_comparison:
        gpus.add(o.gpus)
        hosts |= {o.hosts_total, o.hosts_for_capacity}
    for rack in r.racks.racks:
        hosts.add(len(rack.hosts))
    layouts: dict[str, int] = {}
    for h in r.packing.hosts:  # "5 GPUs as 1g.10gb + ..." in the partition decision
        for g in h.gpus:
            layouts[g.layout] = layouts.get(g.layout, 0) + 1
    gpus |= set(layouts.values())
    for calc in r.calculations:  # the calculation log states its own values with their units
        unit = calc.unit.rstrip("s")
        if unit in ("GPU", "host", "rack"):
            {"GPU": gpus, "host": hosts, "rack": racks}[unit].add(round(calc.value, 2))
    return {"GPU": set(map(float, gpus)), "host": set(map(float, hosts)),
            "rack": set(map(float, racks))}  # fmt: skip


@pytest.mark.parametrize(
    "name",
    ["enterprise", "starter", "mig-shared", "llm-serving", "bert-large-25gbe", "rtx-pro-vsphere",
     "hgx-h200-llm", "gpt3-175b", "imagenet-resnet50"],
)  # fmt: skip
def test_every_count_the_proposal_states_is_a_figure_of_the_result(name, example_pdf, example_data):
    data = example_data(name)
    r = data.result
    _, reader = example_pdf(name)
    text = " ".join(" ".join(page_texts(reader)).split())
    known = figures(r)
    known["GPU"] |= {float(data.gpu.nvlink.max_gpus_bridged)}  # the GPU's spec: "bridge for 2 GPUs"
    # VMware's minimum management domain, which a VCF design without one is told it needs
    known["host"] |= {float(MANAGEMENT_MIN_HOSTS)}
    wrong = [f"{v:g} {u}s: …{ctx}…" for u, v, ctx in stated(text) if v not in known[u]]
    assert not wrong, "\n".join(wrong)


def test_the_check_catches_a_made_up_total():
    """A sentence saying 42 GPUs where the Result has 7 is caught; axes and ports are not."""
    text = (
        "the groups total 42 GPUs here. 0 10 20 30 GPUs axis. 16 host ports. 4.2 GPU layouts. "
        "host 3 host 4. Hosts in all 3 GPUs in all 12. 16 GPUs in 4 hosts."
    )
    found = stated(text)
    assert [(u, v) for u, v, _ in found] == [("GPU", 42.0), ("GPU", 16.0), ("host", 4.0)]


def test_every_count_of_a_design_of_several_clusters_is_a_figure_of_its_estate():
    """The Acme design: the estate's totals, each cluster's counts, and each GPU cluster's own
    figures are the only GPU, host and rack counts its proposal may state."""
    import io
    import json

    from pypdf import PdfReader

    from reports.proposal import proposal_pdf
    from tests.conftest import ROOT
    from wizard.app.catalog_loader import load_catalog
    from wizard.app.io import design_from_dict
    from wizard.engine import plan
    from wizard.engine.decide.estate import size_estate

    doc = json.loads((ROOT / "docs" / "acme-two-clusters.json").read_text(encoding="utf-8"))
    catalog = load_catalog(include_user=False)
    design = design_from_dict(doc)
    e = size_estate(design, catalog)
    pdf = proposal_pdf(plan(design, catalog))
    text = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages).split())
    known: dict[str, set[float]] = {"GPU": set(), "host": set(), "rack": set()}
    for c in e.clusters:
        if c.result is not None:
            for unit, values in figures(c.result).items():
                known[unit] |= values
            known["GPU"].add(float(catalog.gpus[c.result.gpu].nvlink.max_gpus_bridged))
        known["host"].add(float(c.hosts))
        known["GPU"] |= {float(c.gpus), float(c.gpus_demand), float(c.gpus_idle)}
        known["rack"].add(float(c.host_racks))
    for calc in e.calculations:  # the estate's own log states its values with their units
        unit = calc.unit.rstrip("s")
        if unit in known:
            known[unit].add(float(round(calc.value, 2)))
    t = e.totals
    known["host"].add(float(t.hosts))
    known["GPU"] |= {float(t.gpus), float(t.gpus_demand), float(t.gpus_idle)}
    known["rack"] |= {float(t.host_racks), float(t.network_racks),
                      float(t.host_racks + t.network_racks)}  # fmt: skip
    wrong = [f"{v:g} {u}s: …{ctx}…" for u, v, ctx in stated(text) if v not in known[u]]
    assert not wrong, "\n".join(wrong)
