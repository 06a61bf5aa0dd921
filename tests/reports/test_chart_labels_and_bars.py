"""The bar charts (memory per GPU, sharing modes, power per rack, bandwidth landscape) read
cleanly: every label is set at the charts' one 7 pt text size (a value or tick no larger than
the names beside it), each bar's name ends at least a space's width before its bar starts,
never touching it, and the gridlines share one light weight. Checked on every bundled example at the product's figure widths."""

from __future__ import annotations

import pytest
from reportlab.graphics.shapes import Drawing, Line, Rect, String
from reportlab.pdfbase.pdfmetrics import stringWidth

from reports.diagrams.common import label, new_drawing
from reports.fonts import SANS, register_fonts
from reports.styles import ERROR, RULE
from tests.reports.drawing_parts import bundled_figures, leaf_shapes, text_box

CHARTS = ("memory", "sharing", "power", "bandwidth")
TEXT_SIZE = 7.0  # the charts' text size: names, values, ticks, legends
MIN_BAR_H = 12  # bars are 12 to 18 pt tall; legend swatches (8 pt) and marks (3 pt) are not bars


@pytest.fixture(scope="module")
def charts(catalog) -> list[tuple[str, str, int, Drawing]]:
    found = bundled_figures(catalog, CHARTS)
    assert {key for _, key, _, _ in found} == set(CHARTS)  # each chart is drawn somewhere
    return found


def test_every_chart_label_is_set_at_the_charts_text_size(charts):
    """No label is larger than 7 pt (a label may only shrink to fit its room), and the bar
    names, tick values and value labels of a chart share that size when they have room."""
    for name, key, width, d in charts:
        strings = [s for s in leaf_shapes(d) if isinstance(s, String) and s.text]
        assert strings, (name, key, width)
        for s in strings:
            assert s.fontSize <= TEXT_SIZE, (name, key, width, s.text, s.fontSize)


def names_touching_bars(d: Drawing) -> list[tuple[str, float]]:
    """(label, gap) for each label on a bar's row that ends at or before the bar's left end
    with less than a space's width (at the label's size) between them."""
    leaves = list(leaf_shapes(d))
    bars = [r for r in leaves if isinstance(r, Rect) and r.height >= MIN_BAR_H and r.width > 0]
    found = []
    for s in leaves:
        if not isinstance(s, String) or not s.text:
            continue
        _, _, right, _ = text_box(s)
        bottom, top = s.y - s.fontSize * 0.2, s.y + s.fontSize * 0.8
        for bar in bars:
            same_row = bottom < bar.y + bar.height and bar.y < top
            if same_row and right <= bar.x + 0.5:
                gap = bar.x - right
                if gap < stringWidth(" ", s.fontName, s.fontSize):
                    found.append((s.text, gap))
    return found


def test_each_bar_name_ends_clear_of_its_bar(charts):
    for name, key, width, d in charts:
        assert names_touching_bars(d) == [], (name, key, width)


def test_a_name_ending_where_its_bar_starts_is_flagged():
    """The negative case: a name right-aligned at x = 100 and a bar from x = 100 touch (gap
    0 pt, under a 7 pt space of about 2.2 pt); a bar from x = 106 leaves 6 pt and is clear."""
    register_fonts()
    for bar_x, touching in ((100, True), (106, False)):
        d = new_drawing(300, 40)
        d.add(label(100, 13, "rack-01", 100, TEXT_SIZE, "end", font=SANS))
        d.add(Rect(bar_x, 10, 80, 12))
        assert bool(names_touching_bars(d)) is touching, bar_x


def test_every_chart_draws_its_gridlines_at_one_light_weight(charts):
    """Gridlines (the rule-coloured vertical lines behind the bars) have one weight across all
    four charts, so the charts read alike side by side, and are lighter than the dashed capacity
    or limit line a chart marks, which must stand out from the grid."""
    grid, marks = set(), set()
    for name, key, width, d in charts:
        lines = [s for s in leaf_shapes(d) if isinstance(s, Line)]
        assert any(s.strokeColor == RULE for s in lines), (name, key, width)
        grid |= {s.strokeWidth for s in lines if s.strokeColor == RULE}
        marks |= {s.strokeWidth for s in lines if s.strokeColor == ERROR}
    assert len(grid) == 1, grid
    assert marks and max(grid) < min(marks), (grid, marks)
