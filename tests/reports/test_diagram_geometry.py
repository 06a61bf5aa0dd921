"""Every figure of every bundled example, at the widths the product draws them (A4 and US Letter
text widths in the proposal, the wizard's 480 points): each shape lies inside the drawing, and
each label is either inside a box or clear of it, never across a box's edge (a label across an
edge is cut by the box's fill or reads as belonging to two things)."""

from __future__ import annotations

import pytest
from reportlab.graphics.shapes import Drawing, Rect, String

from reports.diagrams import DIAGRAMS
from tests.reports.drawing_parts import SLACK, bundled_figures, leaf_shapes, text_box


@pytest.fixture(scope="module")
def drawings(catalog) -> list[tuple[str, str, int, Drawing]]:
    found = bundled_figures(catalog, DIAGRAMS)
    assert {key for _, key, _, _ in found} == set(DIAGRAMS)  # every figure is drawn somewhere
    return found


def test_every_shape_lies_inside_its_drawing(drawings):
    for name, key, width, d in drawings:
        assert d.width <= width + SLACK, (name, key, width)
        for shape in leaf_shapes(d):
            if isinstance(shape, String):
                x0, y0, x1, y1 = text_box(shape) if shape.text else (0, 0, 0, 0)
            else:
                x0, y0, x1, y1 = shape.getBounds()
            inside = x0 >= -SLACK and y0 >= -SLACK
            inside = inside and x1 <= d.width + SLACK and y1 <= d.height + SLACK
            assert inside, (name, key, width, type(shape).__name__, (x0, y0, x1, y1))


def test_no_label_lies_across_the_edge_of_a_box(drawings):
    for name, key, width, d in drawings:
        leaves = list(leaf_shapes(d))
        boxes = [
            (r.x, r.y, r.x + r.width, r.y + r.height)
            for r in leaves
            if isinstance(r, Rect) and r.width > 0 and r.height > 0
        ]
        for s in leaves:
            if not isinstance(s, String) or not s.text:
                continue
            a = text_box(s)
            for b in boxes:
                meets = a[0] < b[2] - SLACK and b[0] < a[2] - SLACK
                meets = meets and a[1] < b[3] - SLACK and b[1] < a[3] - SLACK
                within = a[0] >= b[0] - SLACK and a[2] <= b[2] + SLACK
                within = within and a[1] >= b[1] - SLACK and a[3] <= b[3] + SLACK
                assert within or not meets, (name, key, width, s.text, a, b)
