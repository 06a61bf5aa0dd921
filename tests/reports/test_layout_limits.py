"""Designs at the schema's limits still make a proposal: a long option note, many long group
names in the platform checklist, the most GPU clusters in the estate drawing. Each of these
stopped the PDF with a layout error while `validate` accepted the design."""

from __future__ import annotations

import copy
import json

from tests.conftest import ROOT, acme_with_more_clusters, run_cli
from tests.reports.test_diagrams import _strings
from wizard.app.catalog_loader import load_catalog
from wizard.app.io import design_from_dict
from wizard.engine.decide.estate import size_estate

FRAME_HEIGHT = 705  # points of the A4 body frame a flowable must fit


def _report(tmp_path, doc: dict) -> tuple[int, str]:
    path = tmp_path / "d.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert run_cli("validate", str(path)).returncode == 0
    proc = run_cli("report", str(path), "-o", str(tmp_path / "p.pdf"))
    return proc.returncode, proc.stderr


def test_option_notes_of_the_schemas_length_go_below_the_table(tmp_path):
    """Two options with 2,000-character notes (the schema's maximum): their table column held
    the whole note, an 845-point row; a note over 160 characters now reads in full below."""
    doc = json.loads((ROOT / "docs" / "acme-options.json").read_text(encoding="utf-8"))
    for o in doc["options"]:
        o["note"] = ("A long note about this option " * 80)[:2000]
    code, err = _report(tmp_path, doc)
    assert code == 0, err


def test_a_short_note_stays_in_its_column():
    from wizard.model.options import OptionRow
    from wizard.present import options_table

    row = OptionRow(name="B", note="GPU pools", proposed=False, error=None, clusters=1, hosts=1,
                    gpus=1, gpus_demand=1, gpus_idle=0, total_kw=1.0, racks=1, targets=[],
                    cost=None)  # fmt: skip
    long = row.model_copy(update={"name": "C", "note": "x" * 161})
    first = options_table.table([row, long])[0]
    assert first.cells == ["GPU pools", "see the note below the table"]
    assert options_table.notes([row, long]) == ["C: " + "x" * 161]


def test_seven_groups_with_the_longest_names_fit_the_platform_checklist(tmp_path):
    """Seven training groups with 200-character names: the MMIO row of the checklist listed
    every name in one cell (an 815-point row); past 80 characters of names it counts them, and the
    VM memory-mapped I/O table names each."""
    doc = json.loads((ROOT / "resources" / "examples" / "hgx-h200-llm.json").read_text("utf-8"))
    group = doc["workloads"][0]
    doc["workloads"] = [
        dict(
            copy.deepcopy(group), name=(f"Group {i} " + "very long training group name " * 10)[:200]
        )
        for i in range(7)
    ]
    code, err = _report(tmp_path, doc)
    assert code == 0, err


def test_the_estate_drawing_splits_into_parts_that_fit_a_page():
    """22 GPU clusters (the schema allows 33): one drawing was taller than the page; the parts
    each fit and together show every cluster once."""
    from reports.diagrams import estate as estate_diagram

    doc = acme_with_more_clusters(20)  # GPU clusters 3 to 22
    catalog = load_catalog(include_user=False)
    e = size_estate(design_from_dict(doc), catalog)
    names = {g: catalog.gpus[g].name for g in catalog.gpus}
    assert estate_diagram.draw(e, names, 480).height > FRAME_HEIGHT  # why it is split
    parts = estate_diagram.draw_pages(e, names, 480)
    assert len(parts) >= 2 and all(d.height <= FRAME_HEIGHT for d in parts)
    shown = [s.text for d in parts for s in _strings(d)]
    assert {c.name for c in e.clusters} <= set(shown)
    assert len(shown) > len({c.name for c in e.clusters})
