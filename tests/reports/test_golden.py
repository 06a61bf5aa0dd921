"""Golden tests of four reports (the starter, a MIG design, a training run and the docs' design
of several clusters): the text of every page and where each piece of text sits,
compared with a stored reading (not bytes, so a reportlab upgrade that reorders objects does not
fail it, while a moved heading, a lost row or a changed number does).

After an intended change, regenerate with
    GPUWIZARD_UPDATE_GOLDEN=1 python -m pytest tests/reports/test_golden.py
and review the diff of tests/reports/golden/<example>.json. The figures the goldens carry are
pinned by source-derived tests (tests/engine/test_examples.py, tests/engine/test_sharing.py), and
the last test here checks that the goldens still hold those figures, so a regenerated golden
cannot drift from the sources unnoticed.
"""

import io
import json
import os

import pytest
from pypdf import PdfReader

from reports.data import build_data
from reports.document import ReportOptions, build_pdf
from tests.conftest import ROOT
from tests.reports.conftest import FIXED_DATE
from wizard import __version__
from wizard.app.io import design_from_text

GOLDENS = ROOT / "tests" / "reports" / "golden"
EXAMPLES = ["starter", "mig-shared", "imagenet-resnet50", "acme-two-clusters"]
DOCS = {"acme-two-clusters"}  # designs kept in docs/, not bundled: the one of several clusters
TOLERANCE = 1.5  # points


def layout(reader) -> list[list[list]]:
    """Per page: [x, y, text] of every text run, rounded to a tenth of a point."""
    pages = []
    for page in reader.pages:
        runs: list[list] = []

        def visit(text, cm, tm, font, size, runs=runs):
            if text.strip():
                x = cm[0] * tm[4] + cm[2] * tm[5] + cm[4]
                y = cm[1] * tm[4] + cm[3] * tm[5] + cm[5]
                runs.append([round(x, 1), round(y, 1), text.strip().replace(__version__, "X.Y")])

        page.extract_text(visitor_text=visit)
        pages.append(runs)
    return pages


@pytest.mark.parametrize("name", EXAMPLES)
def test_report_matches_the_golden_layout(example_pdf, catalog, name):
    if name in DOCS:
        text = (ROOT / "docs" / f"{name}.json").read_text(encoding="utf-8")
        data = build_data(design_from_text(text), catalog)
        reader = PdfReader(io.BytesIO(build_pdf(data, ReportOptions(date=FIXED_DATE))))
    else:
        _, reader = example_pdf(name)
    got = layout(reader)
    golden = GOLDENS / f"{name}.json"
    if os.environ.get("GPUWIZARD_UPDATE_GOLDEN"):
        pages = [
            "[\n" + ",\n".join(json.dumps(run, ensure_ascii=False) for run in page) + "\n]"
            for page in got
        ]
        golden.write_text("[\n" + ",\n".join(pages) + "\n]\n", encoding="utf-8")
    want = json.loads(golden.read_text(encoding="utf-8"))
    assert len(got) == len(want), "page count changed"
    for n, (g_page, w_page) in enumerate(zip(got, want, strict=True), start=1):
        assert [r[2] for r in g_page] == [r[2] for r in w_page], f"text on page {n} changed"
        for g, w in zip(g_page, w_page, strict=True):
            assert abs(g[0] - w[0]) <= TOLERANCE and abs(g[1] - w[1]) <= TOLERANCE, (
                f"page {n}: {g[2]!r} moved from ({w[0]}, {w[1]}) to ({g[0]}, {g[1]})"
            )


# Figures derived from their sources in tests/engine (the docstrings there hold the arithmetic):
# the goldens must still carry them, so a regenerated golden cannot bless a changed number.
PINNED = {
    # white paper 8.4.1 (tests/engine/test_examples.py::test_starter): 14 GPUs in 8 hosts
    "starter": ["workload groups that together need 14 GPUs", "14 GPUs, 8 hosts"],
    # 40 users on 1g.10gb at 7 per GPU plus the mixed GPU: 7 GPUs (test_sharing.py)
    "mig-shared": ["workload groups that together need 7 GPUs"],
    # 1.28e6 x 90 x 3 x 8.18e9 / (312e12 x 0.5 x 0.39) s = 12.91 h (test_examples.py)
    "imagenet-resnet50": ["12.91 h", "one epoch is 40,000 iterations", "1 host carries"],
    # tests/engine/test_estate_power_items.py: 4 SR675 V3 (4 L40S each), 3 XE9680 (8 H100 each)
    # and 4 R760xa: 11 hosts, 16 + 24 = 40 GPUs, 47,109 W in all
    "acme-two-clusters": ["11 hosts, 40 GPUs, 47.1 kW"],
}


@pytest.mark.parametrize("name", EXAMPLES)
def test_goldens_hold_the_source_derived_figures(name):
    text = " ".join(
        r[2] for page in json.loads((GOLDENS / f"{name}.json").read_text()) for r in page
    )
    text = " ".join(text.split())  # a phrase may wrap onto the next line
    for figure in PINNED[name]:
        assert figure in text, figure
