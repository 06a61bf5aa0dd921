"""The smallest numbers JSON can hold (5e-324, a subnormal) are either refused naming their field
or sized and rendered: never an internal error."""

from __future__ import annotations

import json

import pytest

from reports.data import build_data
from reports.document import ReportOptions, build_pdf
from tests.conftest import ROOT
from wizard.app.io import design_from_dict
from wizard.base.errors import DesignError
from wizard.engine.size import size

TINY = 5e-324
FIELDS = [
    ("workloads.0.training.target_hours", "bert-large-25gbe"),
    ("workloads.0.training.epochs", "bert-large-25gbe"),
    ("assumptions.achievable_utilization", "bert-large-25gbe"),
    ("assumptions.link_efficiency", "bert-large-25gbe"),
    ("assumptions.decode_bandwidth_efficiency", "llm-serving"),
    ("assumptions.framework_overhead_gb", "llm-serving"),
    ("assumptions.collective_latency_us", "llm-serving"),
    ("workloads.0.inference.itl_target_ms", "llm-serving"),
    ("data.read_gbs_per_gpu", "enterprise"),
    ("data.growth_headroom", "enterprise"),
]


def _set(doc: dict, path: str, value: float) -> None:
    *parents, leaf = path.split(".")
    node = doc
    for p in parents:
        node = node[int(p)] if p.isdigit() else node.setdefault(p, {})
    node[leaf] = value


@pytest.mark.parametrize(("path", "example"), FIELDS, ids=[f[0] for f in FIELDS])
def test_a_subnormal_is_refused_by_name_or_rendered(path, example, catalog):
    doc = json.loads((ROOT / "resources" / "examples" / f"{example}.json").read_text())
    _set(doc, path, TINY)
    try:
        design = design_from_dict(doc, "d.json")
    except DesignError as exc:
        field = path.replace(".0.", "[0].")
        assert any(field in line for line in exc.problems), exc.problems
        return
    result = size(design, catalog)
    assert build_pdf(build_data(design, catalog), ReportOptions())[:4] == b"%PDF"
    assert result.cluster.gpus_total >= 0
