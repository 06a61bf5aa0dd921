"""The rack elevation draws each device where the rack plan puts it: centred on the rack units
the plan gives it and between the two PDU strips; the A and B PDUs sit as mirror images inside
the frame, each under its own letter. Checked on every bundled example with racks, at the
product's figure widths (A4 and US Letter text widths, the wizard's 480 points)."""

from __future__ import annotations

import pytest
from reportlab.graphics.shapes import Rect, String
from reportlab.pdfbase.pdfmetrics import stringWidth

from reports.data import build_data
from reports.diagrams import DIAGRAMS
from reports.diagrams.racks import FILLS, PDU_FILL
from reports.fonts import SANS_BOLD, register_fonts
from tests.reports.drawing_parts import WIDTHS, leaf_shapes
from wizard.app.io import design_from_text
from wizard.base.bundled import example_names, example_text

EPS = 0.05  # points: float rounding, not layout


@pytest.fixture(scope="module")
def elevations(catalog):
    """(example, width, rack plan, drawing) for every bundled example that has racks."""
    register_fonts()
    found = []
    for name in example_names():
        data = build_data(design_from_text(example_text(name)), catalog)
        racks = getattr(data.result, "racks", None)
        if racks is None or not racks.racks:
            continue
        for width in WIDTHS:
            found.append((name, width, racks.racks, DIAGRAMS["racks"].draw(data, width)))
    assert found, "no bundled example has a rack plan"
    return found


def _frames(leaves, plans):
    """Each drawn rack frame with the plan's rack it draws, matched by the bold rack name
    centred above the frame."""
    by_name = {r.name: r for r in plans}
    frames = [r for r in leaves if isinstance(r, Rect) and r.fillColor is None]
    names = [s for s in leaves if isinstance(s, String) and s.fontName == SANS_BOLD]
    out = []
    for f in frames:
        over = [
            s
            for s in names
            if abs(s.x - (f.x + f.width / 2)) < EPS and s.y >= f.y + f.height and s.text in by_name
        ]
        assert len(over) == 1, (f.x, [s.text for s in over])
        out.append((f, by_name[over[0].text]))
    return out


def _inside(r: Rect, f: Rect) -> bool:
    return f.x <= r.x and r.x + r.width <= f.x + f.width and f.y <= r.y <= f.y + f.height


def test_each_device_is_centred_on_the_rack_units_the_plan_gives_it(elevations):
    """A device of ``height_u`` units from unit ``u_position`` spans, with the frame's height
    ``H`` over ``height_u`` units of the rack (one unit = H / rack units), from
    (u_position - 1) * unit to (u_position - 1 + height_u) * unit above the frame's bottom: its
    box is centred on that span and lies within it, a little short of it so two devices in
    adjacent units read as two."""
    checked = 0
    for name, width, plans, d in elevations:
        leaves = list(leaf_shapes(d))
        for frame, rack in _frames(leaves, plans):
            unit = frame.height / rack.height_u
            boxes = [
                r
                for r in leaves
                if isinstance(r, Rect) and r.fillColor in FILLS.values() and _inside(r, frame)
            ]
            assert len(boxes) == len(rack.items), (name, width, rack.name)
            for box, item in zip(boxes, rack.items, strict=True):
                low = frame.y + (item.u_position - 1) * unit
                high = low + item.height_u * unit
                where = (name, width, rack.name, item.name)
                assert abs(box.y + box.height / 2 - (low + high) / 2) < EPS, where
                assert low < box.y and box.y + box.height < high, where
                checked += 1
    assert checked


def test_a_and_b_pdus_are_mirror_images_inside_the_frame_under_their_letters(elevations):
    """The A feed's strip is as far inside the frame's left side as the B feed's is inside its
    right side (neither drawn on the frame line), each letter is centred over its strip, and
    every device lies between the two strips."""
    for name, width, plans, d in elevations:
        leaves = list(leaf_shapes(d))
        for frame, rack in _frames(leaves, plans):
            pdus = sorted(
                (r for r in leaves if isinstance(r, Rect) and r.fillColor == PDU_FILL),
                key=lambda r: r.x,
            )
            pdus = [p for p in pdus if _inside(p, frame)]
            assert len(pdus) == 2, (name, width, rack.name)
            a, b = pdus
            left_gap = a.x - frame.x
            right_gap = frame.x + frame.width - (b.x + b.width)
            where = (name, width, rack.name)
            assert left_gap > EPS and right_gap > EPS, where
            assert abs(left_gap - right_gap) < EPS, where
            assert abs(a.width - b.width) < EPS and abs(a.height - b.height) < EPS, where
            for letter, strip in (("A", a), ("B", b)):
                over = [
                    s
                    for s in leaves
                    if isinstance(s, String)
                    and s.text == letter
                    and frame.x <= s.x <= frame.x + frame.width
                ]
                assert len(over) == 1, (where, letter)
                w = stringWidth(over[0].text, over[0].fontName, over[0].fontSize)
                x = {"start": over[0].x + w / 2, "middle": over[0].x, "end": over[0].x - w / 2}
                assert abs(x[over[0].textAnchor] - (strip.x + strip.width / 2)) < EPS, (
                    where,
                    letter,
                )
            for r in leaves:
                if isinstance(r, Rect) and r.fillColor in FILLS.values() and _inside(r, frame):
                    assert a.x + a.width <= r.x and r.x + r.width <= b.x, (where, r.x)
