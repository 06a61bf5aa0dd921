"""Reading a reportlab Drawing back in tests: its leaf shapes, its groups, and the box a label's
text takes. The figures use untransformed groups, so coordinates read off a shape are the
drawing's own; a transformed group would break every check that compares them, so it fails."""

from __future__ import annotations

from collections.abc import Iterator

from reportlab.graphics.shapes import Drawing, Group, Shape, String
from reportlab.pdfbase.pdfmetrics import stringWidth

from reports.data import build_data
from reports.diagrams import DIAGRAMS
from reports.fonts import register_fonts
from wizard.app.io import design_from_text
from wizard.base.bundled import example_names, example_text

WIDTHS = (453, 468, 480)  # A4 and US Letter text widths, the wizard's figure width
SLACK = 0.5  # points: anti-aliasing, not layout


def leaf_shapes(node: Shape) -> Iterator[Shape]:
    """Every shape that is not a group, depth first, in drawing order."""
    for item in node.contents if isinstance(node, Group) else []:
        if isinstance(item, Group):
            assert item.transform == (1, 0, 0, 1, 0, 0), "the checks assume untransformed groups"
            yield from leaf_shapes(item)
        else:
            yield item


def all_groups(node: Shape) -> Iterator[Group]:
    """Every group inside ``node``, depth first."""
    for item in node.contents if isinstance(node, Group) else []:
        if isinstance(item, Group):
            yield item
            yield from all_groups(item)


def text_box(s: String) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of a label's text: its width in its font, from a fifth of the size
    below the baseline (descenders) to four fifths above it (capitals)."""
    w = stringWidth(s.text, s.fontName, s.fontSize)
    x = {"start": s.x, "middle": s.x - w / 2, "end": s.x - w}[s.textAnchor]
    return x, s.y - s.fontSize * 0.2, x + w, s.y + s.fontSize * 0.8


def bundled_figures(catalog, keys) -> list[tuple[str, str, int, Drawing]]:
    """(example, figure, width, drawing) of the figures ``keys`` for every bundled example at
    the product's widths; an example without data for a figure has none."""
    register_fonts()
    found = []
    for name in example_names():
        data = build_data(design_from_text(example_text(name)), catalog)
        for key in keys:
            for width in WIDTHS:
                drawing = DIAGRAMS[key].draw(data, width)
                if drawing is not None:
                    found.append((name, key, width, drawing))
    return found
