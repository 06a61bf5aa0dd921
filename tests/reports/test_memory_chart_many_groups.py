"""A design with more workload groups than the memory chart shows (30) gets a note under the
chart naming how many are shown of how many; the note has its own line, clear of the legend and
of every other label, at the product's figure widths."""

from __future__ import annotations

import pytest
from reportlab.graphics.shapes import Rect, String
from reportlab.pdfbase.pdfmetrics import stringWidth

from reports.data import build_data
from reports.diagrams import DIAGRAMS
from reports.fonts import register_fonts
from tests.reports.drawing_parts import WIDTHS, leaf_shapes
from wizard.app.io import design_from_text
from wizard.base.bundled import example_text

GROUPS = 36  # more than the chart's 30 bars


def _extent(shape) -> tuple[float, float, float, float]:
    if isinstance(shape, String):
        w = stringWidth(shape.text, shape.fontName, shape.fontSize)
        x = {"start": shape.x, "middle": shape.x - w / 2, "end": shape.x - w}[shape.textAnchor]
        return x, shape.y - shape.fontSize * 0.2, x + w, shape.y + shape.fontSize * 0.8
    return shape.x, shape.y, shape.x + shape.width, shape.y + shape.height


def _meet(a, b) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


@pytest.fixture(scope="module")
def many(catalog):
    """mig-shared's three groups (each sized from memory) repeated as 36 named groups."""
    register_fonts()
    design = design_from_text(example_text("mig-shared"))
    groups = [
        design.workloads[i % len(design.workloads)].model_copy(update={"name": f"group {i:02d}"})
        for i in range(GROUPS)
    ]
    return build_data(design.model_copy(update={"workloads": groups}), catalog)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_shown_of_all_note_is_clear_of_the_legend_and_every_label(many, width):
    d = DIAGRAMS["memory"].draw(many, width)
    leaves = [s for s in leaf_shapes(d) if not isinstance(s, String) or s.text]
    notes = [s for s in leaves if isinstance(s, String) and s.text.startswith("The 30 largest")]
    assert [s.text for s in notes] == [f"The 30 largest of {GROUPS} workload groups are shown."]
    note = _extent(notes[0])
    assert note[1] >= -0.5, note
    for shape in leaves:
        if shape is notes[0] or not isinstance(shape, String | Rect):
            continue
        assert not _meet(note, _extent(shape)), getattr(shape, "text", "a swatch or bar")
    strings = [s for s in leaves if isinstance(s, String)]
    for i, a in enumerate(strings):
        for b in strings[i + 1 :]:
            assert not _meet(_extent(a), _extent(b)), (a.text, b.text)


def test_a_chart_of_few_groups_has_no_note(example_data):
    """The negative case: mig-shared's three groups are all drawn, so no note."""
    d = DIAGRAMS["memory"].draw(example_data("mig-shared"), 480)
    texts = [s.text for s in leaf_shapes(d) if isinstance(s, String)]
    assert not [t for t in texts if "largest" in t]
