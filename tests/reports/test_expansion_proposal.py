"""The proposal of an expansion (tests/data/estate/expansion.json: three kept R750xa hosts with
four A100 PCIe 80GB each running the notebooks on MIG-backed vGPU, and new HGX H200 hosts for a
70B FP8 chat service and LoRA fine-tuning) shows existing (kept), to add and to change side by
side; its bill and cost carry only what is bought, its kept hosts apart; the kept cluster's
vSphere steps and checklist hold only what changes."""

from __future__ import annotations

import io
import json

import pytest
from pypdf import PdfReader

from reports.document import ReportOptions
from reports.proposal import proposal_pdf
from tests.conftest import ROOT
from tests.reports.conftest import FIXED_DATE
from wizard.app.io import design_from_dict
from wizard.app.pricing import load_prices
from wizard.engine import plan

SAMPLE = ROOT / "tests" / "data" / "estate" / "expansion.json"
PRICES = ROOT / "resources" / "examples" / "prices-sample.toml"


@pytest.fixture(scope="module")
def expansion(catalog):
    design = design_from_dict(json.loads(SAMPLE.read_text(encoding="utf-8")))
    p = plan(design, catalog, load_prices(PRICES))
    pdf = proposal_pdf(p, ReportOptions(date=FIXED_DATE))
    pages = [" ".join(x.extract_text().split()) for x in PdfReader(io.BytesIO(pdf)).pages]
    return p, pages


def _page(pages: list[str], heading: str) -> str:
    return next(t for t in pages if heading in t)


def test_the_delta_table_shows_kept_added_and_changed(expansion):
    _, pages = expansion
    text = _page(pages, "Cluster Existing (kept) To add To change")
    # 3 kept hosts x 4 GPUs; 3 added (2 for the demand, 1 for N+1) x 8 GPUs
    assert "The customer runs 3 GPU hosts today and keeps them; the plan adds 3 hosts" in text
    assert "3 hosts (Dell PowerEdge R750xa, 12 GPUs)" in text
    assert "3 hosts (Dell PowerEdge XE9680, 24 GPUs)" in text
    # the one change: the NVIDIA host driver, one reboot per kept host
    assert "in 1 step (3 host reboots in all)" in text
    assert "NVIDIA host driver of NVIDIA AI Enterprise 9 (branch R620)" in text
    assert "driver 535.230.02" in text


def test_the_bill_buys_only_the_new_hosts_and_lists_the_kept_apart(expansion):
    p, pages = expansion
    kept = _page(pages, "not priced and not in the totals")
    assert "NVIDIA A100 PCIe 80GB" in kept
    bought = {ln.item: ln.quantity for ln in p.priced.lines}
    assert "server:dell-r750xa" not in bought and "gpu:a100-pcie-80gb" not in bought
    assert bought["server:dell-xe9680"] == 3
    # the hardware the cost counts is the bill's: the kept hosts cost nothing
    assert p.cost is not None
    server_lines = [ln for ln in p.priced.lines if ln.item.startswith("server:")]
    assert {ln.cluster for ln in server_lines} == {"GPU cluster"}


def test_power_counts_the_kept_hosts(expansion):
    p, _ = expansion
    kept = next(c for c in p.estate.clusters if c.existing_hosts)
    assert p.estate.totals.hosts_kw == pytest.approx(sum(c.hosts_kw for c in p.estate.clusters))
    assert kept.hosts_kw == pytest.approx(3 * kept.host_w / 1000)


def test_the_kept_cluster_sets_only_what_changes(expansion):
    p, _ = expansion
    sw = next(c for c in p.estate.clusters if c.existing_hosts).result.software
    assert [s.action for s in sw.vsphere_steps.hosts] == ["driver"]
    host_settings = [c.setting for c in sw.checklist if c.scope in ("host-bios", "esxi-host")]
    assert host_settings == ["NVIDIA AI Enterprise host driver (NVD-AIE VIB)"]
    # the new cluster keeps its whole list
    new = next(c for c in p.estate.clusters if not c.existing_hosts).result.software
    assert any(c.scope == "host-bios" for c in new.checklist)


def test_the_kept_clusters_powercli_steps_touch_only_the_driver(expansion):
    from reports.exports.powercli import powercli_script

    p, _ = expansion
    kept = p.cluster("Notebooks A100")
    script = powercli_script(kept.result, "x", kept.name, p.catalog)
    (call,) = [ln for ln in script.splitlines() if ln.strip().startswith("Set-GpuHost -VMHost")]
    # the driver changes; graphics, vGPU mode and MIG mode are as the hosts have them
    assert "-Driver ([Text.Encoding]" in call
    assert "-Graphics $false -VgpuMode '' -MigTypes @() -MigStep '' -MigReboots $false" in call
    new = p.cluster("GPU cluster")
    script = powercli_script(new.result, "x", new.name, p.catalog)
    assert "-Graphics $true" in script


def test_the_workbook_keeps_the_existing_hosts_on_a_sheet_of_their_own(expansion):
    from openpyxl import load_workbook

    from reports.bom_export import bom_xlsx

    p, _ = expansion
    wb = load_workbook(io.BytesIO(bom_xlsx(p.priced, p.port_map, p.estate.kept)))
    assert wb.sheetnames == ["Bill of materials", "Port map", "Existing (kept)"]
    bill = " ".join(str(c.value) for r in wb["Bill of materials"].iter_rows() for c in r)
    assert "R750xa" not in bill and "A100" not in bill
    kept = {(r[1].value, r[3].value.split(",")[0]): r[4].value
            for r in wb["Existing (kept)"].iter_rows(min_row=2)}  # fmt: skip
    assert kept[("Server", "Dell PowerEdge R750xa")] == 3
    assert kept[("GPU", "NVIDIA A100 PCIe 80GB")] == 3 * 4
    # a design that starts from nothing has no such sheet
    assert (
        "Existing (kept)" not in load_workbook(io.BytesIO(bom_xlsx(p.priced, None, []))).sheetnames
    )


def test_a_cluster_kept_as_it_is_is_in_the_delta_and_the_power_not_the_bill(catalog):
    """Two existing HGX H200 hosts running MIG-backed vGPU (outside NVIDIA's support, so nothing
    is planned on them) stay as they are: the delta lists them as kept with nothing to add or
    change, the power table counts them (by hand: 8 x 700 W + 4,000 W = 9.6 kW a host, 19.2 kW)
    and says the existing hosts' share (the three kept R750xa at 4 x 300 + 800 = 2.0 kW each,
    6.0 kW, plus 19.2 kW = 25.2 kW), and the bill carries none of them. Negative case: the
    sample without them has no such row."""
    doc = json.loads(SAMPLE.read_text(encoding="utf-8"))
    doc["existing"]["clusters"].append(
        {"name": "HGX today", "hosts": [
            {"name": f"hgx{i}", "server": "dell-xe9680", "gpu": "h200-sxm-141gb", "gpus": 8,
             "sharing_mode": "mig", "in_use": [{"vm": f"vm{i}", "vgpu_type": "H200X-3-71C"}]}
            for i in range(2)
        ]}
    )  # fmt: skip
    p = plan(design_from_dict(doc), catalog)
    pdf = proposal_pdf(p, ReportOptions(date=FIXED_DATE))
    text = " ".join(" ".join(x.extract_text().split()) for x in PdfReader(io.BytesIO(pdf)).pages)
    assert "HGX today 2 hosts (16 GPUs) nothing nothing: kept as it is" in text
    assert "HGX today (existing, kept as it is) 2 19.2 1" in text
    assert "the existing hosts draw 25.2 kW" in text
    # 3 kept R750xa and 2 kept HGX hosts
    assert "The customer runs 5 GPU hosts today" in text
    assert "HGX today" not in {ln.cluster for ln in p.estate.bom.lines}
    plain = plan(design_from_dict(json.loads(SAMPLE.read_text(encoding="utf-8"))), catalog)
    plain_pdf = proposal_pdf(plain, ReportOptions(date=FIXED_DATE))
    plain_text = " ".join(
        " ".join(x.extract_text().split()) for x in PdfReader(io.BytesIO(plain_pdf)).pages
    )
    assert "kept as it is" not in plain_text
    assert "The customer runs 3 GPU hosts today" in plain_text
