"""Whatever `validate` accepts exports everywhere: a design at the schema's bounds (the longest
names and notes, text of every class the text gate lets through, the most options) either is
refused by `validate`, or `size`, `report` (PDF and Word), `bom` (CSV and XLSX), `compare` and
`cost` all write it (exit 0), and `mig-config` refuses it by name (a vSphere design partitions
its GPUs through vSphere) or writes it. Exit 1, an internal error, is never acceptable.

It lives with the reports (the core environment has no PDF or Word writer). CI draws a few
designs (each writes eight outputs); ``HYPOTHESIS_PROFILE=deep`` draws 2,000."""

from __future__ import annotations

import copy
import json
import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import ROOT
from tests.hardening.strategies import _TEXT, designs
from wizard.cli import main

PRICES = ROOT / "resources" / "examples" / "prices-sample.toml"
DEEP = os.environ.get("HYPOTHESIS_PROFILE") == "deep"
EXAMPLES = int(os.environ.get("GPUWIZARD_EXPORT_EXAMPLES", 0)) or (2000 if DEEP else 4)


def _text(size: int):
    return st.text(_TEXT, min_size=1, max_size=size)


@st.composite
def at_the_bounds(draw) -> dict:
    """A bundled design of options and clusters with its texts drawn up to their maxima."""
    name = draw(st.sampled_from(["acme-options", "acme-two-clusters"]))
    doc = json.loads((ROOT / "docs" / f"{name}.json").read_text(encoding="utf-8"))
    doc = copy.deepcopy(doc)
    doc["project"]["customer"] = draw(_text(200))
    doc["project"]["notes"] = draw(st.text(_TEXT, max_size=20_000))
    renames = {}
    for i, g in enumerate(doc["workloads"]):
        new = f"{i} " + draw(_text(190))
        renames[g["name"]] = new
        g["name"] = new
    for o in doc.get("options", []):
        o["note"] = draw(st.text(_TEXT, max_size=2000))
        for change in o.get("groups", []):
            change["group"] = renames.get(change["group"], change["group"])
    return doc


def _run(*argv: str) -> int:
    return main(["--no-user-catalog", *argv])


@settings(max_examples=EXAMPLES, deadline=None, derandomize=not DEEP, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])  # fmt: skip
@given(st.one_of(at_the_bounds(), designs(buildable_only=False)))
def test_whatever_validates_exports(doc):
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        path = d / "d.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        valid = _run("validate", str(path))
        assert valid in (0, 2)
        if valid == 2:
            return
        outputs = {
            "size": ("size", str(path), "--json"),
            "pdf": ("report", str(path), "-o", str(d / "p.pdf")),
            "docx": ("report", str(path), "-o", str(d / "p.docx")),
            "csv": ("bom", str(path), "-o", str(d / "b.csv")),
            "xlsx": ("bom", str(path), "-o", str(d / "b.xlsx")),
            "compare": ("compare", str(path), "--prices", str(PRICES)),
            "cost": ("cost", str(path), "--prices", str(PRICES)),
        }
        codes = {key: _run(*argv) for key, argv in outputs.items()}
        assert codes == dict.fromkeys(outputs, 0), codes
        assert _run("mig-config", str(path), "-o", str(d / "m.yaml")) in (0, 2)
