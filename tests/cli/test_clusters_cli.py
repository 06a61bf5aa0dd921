"""A design of several clusters on the command line: sized, summarized and billed; the proposal
and the wizard, which show one cluster, say so instead of sizing part of it."""

from __future__ import annotations

import csv
import io
import json

from tests.conftest import run_cli
from tests.engine.test_estate import acme


def _file(tmp_path, doc=None):
    path = tmp_path / "acme.json"
    path.write_text(json.dumps(doc or acme()), encoding="utf-8")
    return str(path)


def test_size_summarizes_every_cluster_and_the_totals(tmp_path):
    proc = run_cli("size", _file(tmp_path))
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.startswith("3 clusters: ")
    assert "Notebook cluster [GPU cluster]: 4 hosts x Lenovo" in out
    assert "Management domain [management domain]: 4 hosts" in out
    assert "Data scientists' notebooks -> Notebook cluster: as the design says" in out
    assert "=== HGX cluster ===" in out and "=== Notebook cluster ===" in out


def test_size_json_is_the_estate(tmp_path):
    proc = run_cli("size", _file(tmp_path), "--json")
    assert proc.returncode == 0, proc.stderr
    e = json.loads(proc.stdout)
    assert [c["name"] for c in e["clusters"]] == [
        "Notebook cluster", "HGX cluster", "Management domain",
    ]  # fmt: skip
    assert e["totals"]["hosts"] == sum(c["hosts"] for c in e["clusters"])


def test_the_bill_of_materials_names_each_lines_cluster(tmp_path):
    out = tmp_path / "bom.csv"
    proc = run_cli("bom", _file(tmp_path), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert rows[0][:2] == ["cluster", "category"]
    servers = {r[0]: int(r[5]) for r in rows[1:] if r[1] == "server"}
    assert servers == {"Notebook cluster": 4, "HGX cluster": 3, "Management domain": 4}
    assert {r[0] for r in rows[1:] if r[1] == "switch"} == {"shared"}


def test_the_proposal_covers_every_cluster(tmp_path):
    from pypdf import PdfReader

    out = tmp_path / "r.pdf"
    proc = run_cli("report", _file(tmp_path), "-o", str(out), "--date", "2026-11-23")
    assert proc.returncode == 0, proc.stderr
    text = "\n".join(page.extract_text() for page in PdfReader(out).pages)
    assert "Where each workload group runs" in text
    for cluster in ("Notebook cluster: sizing per workload", "HGX cluster: sizing per workload"):
        assert cluster in text
    assert "Each network is sized once for the host ports of every cluster on it" in text
    # the cover: 46.7 kW and the four racks' out-of-band switches (4 x 100 W) = 47.1 kW
    assert "3 clusters: 11 hosts, 40 GPUs, 47.1 kW" in text


def test_mig_config_asks_which_gpu_cluster_then_says_why_it_has_nothing_to_write(tmp_path):
    """Three clusters, two of them GPU clusters (the management domain has no GPUs): the command
    names the two and the option; the cluster named runs no group on MIG, and says so."""
    design = _file(tmp_path)
    proc = run_cli("mig-config", design)
    assert proc.returncode == 2
    assert "this design has 2 GPU clusters (Notebook cluster, HGX cluster)" in proc.stderr
    assert "--cluster" in proc.stderr and "Traceback" not in proc.stderr
    proc = run_cli("mig-config", design, "--cluster", "HGX cluster")
    assert proc.returncode == 2
    assert "no workload group in this design runs on MIG instances" in proc.stderr


def test_validate_checks_every_cluster(tmp_path):
    doc = acme()
    doc["clusters"][1]["server"] = "no-such-server"
    proc = run_cli("validate", _file(tmp_path, doc))
    assert proc.returncode != 0
    assert "clusters[1].server: unknown server 'no-such-server'" in proc.stderr


def test_the_estate_has_a_schema():
    proc = run_cli("schema", "estate")
    assert proc.returncode == 0, proc.stderr
    schema = json.loads(proc.stdout)
    assert {"clusters", "placements", "network", "bom", "totals"} <= set(schema["properties"])


def test_cost_of_a_design_of_several_clusters_from_a_price_list(tmp_path):
    prices = tmp_path / "p.toml"
    prices.write_text('currency = "EUR"\n[prices]\n"server:dell-xe9680" = 100000\n')
    doc = acme()
    doc["project"]["currency"] = "EUR"
    doc["costs"] = {"years": 2}
    proc = run_cli("cost", _file(tmp_path, doc), "--prices", str(prices), "--json")
    assert proc.returncode == 0, proc.stderr
    c = json.loads(proc.stdout)
    # 3 HGX hosts x 100,000, nothing else priced, nothing per year: 300,000 over 2 years
    assert c["hardware"] == 300_000 and c["total"] == 300_000 and c["years"] == 2
    assert "server:lenovo-sr675-v3" in c["unpriced_items"]
    assert len(c["unpriced_items"]) == len(set(c["unpriced_items"]))
