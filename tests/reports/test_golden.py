"""Golden test of the starter report: the text of every page and where each piece of text sits,
compared with a stored reading (not bytes, so a reportlab upgrade that reorders objects does not
fail it, while a moved heading, a lost row or a changed number does).

After an intended change, regenerate with
    GPUWIZARD_UPDATE_GOLDEN=1 python -m pytest tests/reports/test_golden.py
and review the diff of tests/reports/golden/starter.json.
"""

import json
import os

from tests.conftest import ROOT
from wizard import __version__

GOLDEN = ROOT / "tests" / "reports" / "golden" / "starter.json"
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


def test_starter_report_matches_the_golden_layout(example_pdf):
    _, reader = example_pdf("starter")
    got = layout(reader)
    if os.environ.get("GPUWIZARD_UPDATE_GOLDEN"):
        pages = [
            "[\n" + ",\n".join(json.dumps(run, ensure_ascii=False) for run in page) + "\n]"
            for page in got
        ]
        GOLDEN.write_text("[\n" + ",\n".join(pages) + "\n]\n", encoding="utf-8")
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert len(got) == len(want), "page count changed"
    for n, (g_page, w_page) in enumerate(zip(got, want, strict=True), start=1):
        assert [r[2] for r in g_page] == [r[2] for r in w_page], f"text on page {n} changed"
        for g, w in zip(g_page, w_page, strict=True):
            assert abs(g[0] - w[0]) <= TOLERANCE and abs(g[1] - w[1]) <= TOLERANCE, (
                f"page {n}: {g[2]!r} moved from ({w[0]}, {w[1]}) to ({g[0]}, {g[1]})"
            )
