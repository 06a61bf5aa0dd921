"""The sample expansion through the inventory script's CSV: the estate read enters the design,
the notebook VMs are named as the design's notebooks group (the import never names them itself),
and the plan keeps the three hosts, places the notebooks there and buys only the new hosts."""

from __future__ import annotations

import json

from tests.conftest import ROOT
from wizard.app.io import design_from_dict
from wizard.engine import plan
from wizard.estate_import import read_estate
from wizard.estate_import.to_design import existing_estate

from .test_existing_in_design import _notebook_estate

SAMPLE = ROOT / "tests" / "data" / "estate" / "expansion.json"


def _design(tmp_path, catalog, name_them: bool):
    estate = existing_estate(read_estate([_notebook_estate(tmp_path)], catalog)).model_dump()
    for h in estate["clusters"][0]["hosts"]:
        for u in h["in_use"]:
            u["workload"] = "Notebooks" if name_them else None
    d = json.loads(SAMPLE.read_text(encoding="utf-8")) | {"existing": estate}
    return design_from_dict(d)


def test_the_csv_estate_with_its_notebooks_named_plans_as_the_sample(tmp_path, catalog):
    p = plan(_design(tmp_path, catalog, name_them=True), catalog)
    kept = next(c for c in p.estate.clusters if c.existing_hosts)
    assert (kept.name, kept.hosts, kept.existing_hosts, kept.workloads) == (
        "Notebooks", 3, 3, ["Notebooks"]
    )  # fmt: skip
    bought = {ln.item for ln in p.estate.bom.lines}
    assert "server:dell-r750xa" not in bought and "server:dell-xe9680" in bought
    # the CSV has no nvidia-smi report: the driver was not read, so confirming it is the work
    (w,) = p.estate.work
    assert "not read" in w.why


def test_unnamed_vgpus_in_use_hold_their_capacity(tmp_path, catalog):
    """Left unnamed, the six A100D-3-40C vGPUs (40 of 80 GB: half a GPU each, 3 GPUs) hold one
    host of four GPUs; the design's notebooks (3 GPUs: 1 host, N+1, VCF minimum 3) then need 3
    hosts besides it, more than the 3 there, so they are not put on the existing hosts."""
    design = _design(tmp_path, catalog, name_them=False)
    d = design.model_dump(mode="json")
    d["workloads"] = [w for w in d["workloads"] if w["name"] == "Notebooks"]
    d["hardware"] = {"gpu": "a100-pcie-80gb", "server": "dell-r750xa", "gpus_per_host": 4}
    p = plan(design_from_dict(d), catalog)
    placed = next(x for x in p.estate.placements if x.workload == "Notebooks")
    assert placed.cluster == "GPU cluster"
    why = next(x for x in p.estate.decisions if x.text == "'Notebooks' runs on new hosts.")
    assert "besides 1 held by vGPUs in use" in why.reason
