"""The bandwidth landscape's log scale spans whole decades from the slowest tier's down to the
fastest tier's up: tiers of one speed still get a decade (that speed to ten times it), so the
bars stand on a readable scale rather than a zero-width one."""

from __future__ import annotations

from itertools import pairwise
from types import SimpleNamespace

from reportlab.graphics.shapes import Line, String

from reports.diagrams import bandwidth
from reports.fonts import register_fonts
from tests.reports.drawing_parts import leaf_shapes

WIDTH = 468


def _draw(*gbs: float):
    register_fonts()
    tiers = [SimpleNamespace(name=f"tier {i}", kind="network", gbs=v) for i, v in enumerate(gbs)]
    data = SimpleNamespace(result=SimpleNamespace(topology=SimpleNamespace(bandwidth=tiers)))
    return bandwidth.draw(data, WIDTH)  # type: ignore[arg-type]


def _gridlines(d) -> dict[str, float]:
    """Each gridline's label and the x it stands at (labels centred under their lines)."""
    lines = [s for s in leaf_shapes(d) if isinstance(s, Line) and s.x1 == s.x2]
    xs = {round(s.x1, 3) for s in lines}
    return {
        s.text: s.x
        for s in leaf_shapes(d)
        if isinstance(s, String) and s.text[:1].isdigit() and round(s.x, 3) in xs
    }


def test_tiers_of_one_speed_get_the_decade_above_it():
    """One tier at 100 GB/s: the scale runs 100 to 1,000 GB/s, the 1,000 line at the plot's
    right end (width - 70 = 398 points), the 100 line at its left (0.3 x 468 + 6 = 146.4)."""
    grid = _gridlines(_draw(100.0))
    assert set(grid) == {"100", "1,000"}
    assert abs(grid["1,000"] - (WIDTH - 70)) < 0.01
    assert abs(grid["100"] - (0.3 * WIDTH + 6)) < 0.01


def test_the_scale_spans_the_decades_around_the_tiers():
    """Tiers at 25 and 3,350 GB/s: from 10 to 10,000, four lines a decade apart, each a
    third of the plot's 251.6 points (398 - 146.4) from the last."""
    grid = _gridlines(_draw(25.0, 3350.0))
    assert list(grid) == ["10", "100", "1,000", "10,000"]
    step = (WIDTH - 70 - (0.3 * WIDTH + 6)) / 3
    xs = list(grid.values())
    for a, b in pairwise(xs):
        assert abs((b - a) - step) < 0.01
