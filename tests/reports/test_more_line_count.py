"""A list drawn in a box (the workloads, hosts and storage of the architecture and estate
figures) that does not fit ends with "+ N more", and N is the number of items NOT shown: the
items drawn plus N make all of them, so a reader can count the whole list."""

from __future__ import annotations

import re

from reportlab.graphics.shapes import String

from reports.diagrams.common import lines_in_box
from reports.fonts import register_fonts


def _texts(group) -> list[str]:
    return [s.text for s in group.contents if isinstance(s, String)]


def test_twelve_one_line_items_in_eight_lines_show_seven_and_five_more():
    """Eight lines hold seven items and the "+ N more" line; 12 - 7 = 5 are left out."""
    register_fonts()
    items = [f"host-{i:02d}" for i in range(1, 13)]
    texts = _texts(lines_in_box(0, 100, 200, items, max_lines=8))
    assert texts == [*items[:7], "+ 5 more"]


def test_a_list_that_fits_has_no_more_line():
    """The negative case: eight one-line items fill eight lines exactly, none is left out."""
    register_fonts()
    items = [f"host-{i:02d}" for i in range(1, 9)]
    assert _texts(lines_in_box(0, 100, 200, items, max_lines=8)) == items


def test_shown_plus_more_is_all_items_for_any_length():
    """For 1 to 30 items (some wrapping over two lines in a narrow box): every item is either
    drawn or counted in "+ N more", never both, never neither."""
    register_fonts()
    for n in range(1, 31):
        items = [f"workload {i}" + (" with a long name" * (i % 3 == 0)) for i in range(n)]
        texts = _texts(lines_in_box(0, 200, 90, items, max_lines=8))
        more = [t for t in texts if re.fullmatch(r"\+ \d+ more", t)]
        shown = sum(1 for t in texts if t.startswith("workload "))  # an item's first line
        hidden = int(more[0].split()[1]) if more else 0
        assert len(more) <= 1
        assert shown + hidden == n, (n, shown, hidden)
        assert len(texts) <= 8, n
