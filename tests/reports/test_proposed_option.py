"""The proposal is the proposed option: with ``proposed`` set, the cover, the summary, every
section and the bill of materials describe that option, and the other designs appear only in
Options considered; one price list gives one cost in `cost`, `compare`, the summary and the
options table."""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile

import pytest
from pypdf import PdfReader

from reports.data import build_data
from reports.document import ReportOptions, build_pdf
from tests.conftest import ROOT, run_cli
from tests.reports.conftest import FIXED_DATE, squash
from wizard.app.io import load_design
from wizard.engine import compare

ACME = ROOT / "docs" / "acme-options.json"
# A price for every kind of line the three designs of acme-options buy (made-up round figures;
# the check is that one list gives one cost everywhere, not the figures themselves).
PRICES = """currency = "EUR"
[prices]
"server:dell-r760xa" = 40000
"server:lenovo-sr675-v3" = 38000
"server:dell-xe9680" = 250000
"gpu:h100-nvl-94gb" = 25000
"gpu:l40s" = 8000
"gpu:h100-sxm5-80gb" = 0
"nic:cx7-200g-2p" = 1500
"nic:cx7-ndr-1p" = 1300
"nvlink-bridge:h100-nvl-94gb" = 500
"cable:compute.200gbe.host-leaf.200g" = 300
"cable:service.100gbe.host-leaf.100g" = 150
"cable:service.100gbe.peer-link.100g" = 150
"transceiver:compute.200gbe.host-leaf.200g" = 700
"transceiver:service.100gbe.host-leaf.100g" = 400
"cable:oob.host-oob.1g" = 5
"licence:nvidia-ai-enterprise" = 4500
"licence:vmware-paif" = 300
"""


@pytest.fixture(scope="module")
def acme():
    return load_design(str(ACME))


def _pdf_text(design, catalog, prices=None) -> str:
    pdf = build_pdf(build_data(design, catalog, prices), ReportOptions(date=FIXED_DATE))
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)


def test_the_document_describes_the_proposed_option(acme, catalog):
    """The design file proposes 'H100 NVL with MIG' (Dell R760xa with H100 NVL, from the file's
    option); the design as it stands is L40S on Lenovo SR675 V3. Cover and summary give the
    option's hosts and GPUs as `compare` counts them; after Options considered no page names the
    L40S or the SR675 (the appendix's catalog entries included); the BOM buys the option."""
    assert acme.proposed == "H100 NVL with MIG"
    rows = {r.name: r for r in compare(acme, catalog)}
    chosen = rows["H100 NVL with MIG"]
    assert chosen.proposed and chosen.hosts != rows["As designed"].hosts
    text = _pdf_text(acme, catalog)
    cover = text[: text.index("Contents")]
    assert squash(f"{chosen.hosts} × Dell PowerEdge R760xa, {chosen.gpus} × NVIDIA H100 NVL") in (
        squash(cover)
    )
    summary = text[text.rindex("1  Executive summary") :]
    assert squash(f"The design provides {chosen.gpus} NVIDIA H100 NVL") in squash(summary)
    assert squash(f"in {chosen.hosts} Dell PowerEdge R760xa hosts") in squash(summary)
    after = text[text.rindex("3  Requirements") :]
    assert "L40S" not in after and "SR675" not in after
    data = build_data(acme, catalog)
    bom = {ln.item: ln.quantity for ln in data.result.bom.lines}
    assert bom["server:dell-r760xa"] == chosen.hosts
    assert bom["gpu:h100-nvl-94gb"] == chosen.gpus
    assert not [k for k in bom if "l40s" in k or "sr675" in k]


def test_the_word_copy_describes_the_proposed_option(acme, tmp_path):
    out = tmp_path / "acme.docx"
    proc = run_cli("report", str(ACME), "-o", str(out), "--date", "2026-11-23")
    assert proc.returncode == 0, proc.stderr
    with zipfile.ZipFile(out) as z:
        xml = z.read("word/document.xml").decode()
    words = re.sub(r"<[^>]+>", " ", xml)
    body = words[words.index("Requirements", words.rindex("Options considered")) :]
    assert "R760xa" in words and "H100 NVL" in body
    assert "L40S" not in body and "SR675" not in body


def test_the_order_and_the_steps_are_for_the_proposed_option(acme, tmp_path):
    """`bom` writes the option's servers and GPUs and says which option it is."""
    out = tmp_path / "bom.csv"
    proc = run_cli("bom", str(ACME), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "note: for the proposed option, H100 NVL with MIG" in proc.stderr
    items = {r["item"] for r in csv.DictReader(out.open(encoding="utf-8"))}
    assert "server:dell-r760xa" in items and "server:lenovo-sr675-v3" not in items


def test_one_price_list_gives_one_cost_everywhere(acme, catalog, tmp_path):
    """The proposed option's cost of ownership is the same to the unit in `cost --json`, in
    `compare --json`, in the PDF summary's sentence and in the options table; so is every other
    option's between `compare` and the options table."""
    prices_path = tmp_path / "prices.toml"
    prices_path.write_text(PRICES, encoding="utf-8")
    proc = run_cli("cost", str(ACME), "--prices", str(prices_path), "--json")
    assert proc.returncode == 0, proc.stderr
    cost = json.loads(proc.stdout)["total"]
    proc = run_cli("compare", str(ACME), "--prices", str(prices_path), "--json")
    assert proc.returncode == 0, proc.stderr
    rows = {r["name"]: r for r in json.loads(proc.stdout)}
    assert rows["H100 NVL with MIG"]["cost"]["total"] == pytest.approx(cost, abs=0.005)
    from wizard.app.pricing import load_prices

    text = squash(_pdf_text(acme, catalog, load_prices(str(prices_path))))
    assert squash(f"Cost of ownership over 3 years: EUR {round(cost):,}") in text
    for r in rows.values():
        assert squash(f"{r['cost']['total']:,.0f}") in text
