"""The bandwidth landscape: GPU memory, NVLink, PCIe, the CPU link and the network on one log
scale, so the step from one tier to the next is visible at a glance."""

from __future__ import annotations

import math

from reportlab.graphics.shapes import Drawing, Line, Rect

from reports.data import ReportData
from reports.diagrams.common import label, new_drawing
from reports.styles import MUTED, RULE, SERIES
from wizard.base.numbers import num

KIND_COLOUR = {"hbm": 0, "nvlink": 3, "pcie": 1, "cpu-interconnect": 2, "network": 5}


def draw(data: ReportData, width: float = 480) -> Drawing | None:
    topo = getattr(data.result, "topology", None)
    tiers = [t for t in topo.bandwidth if t.gbs > 0] if topo is not None else []
    if not tiers:
        return None
    bar_h, gap = 13, 7
    plot_h = len(tiers) * (bar_h + gap) + gap
    height = plot_h + 26
    d = new_drawing(width, height)
    name_w = width * 0.3
    x0, x1 = name_w + 6, width - 70
    y0 = 20
    lo = 10 ** math.floor(math.log10(min(t.gbs for t in tiers)))
    hi = 10 ** math.ceil(math.log10(max(t.gbs for t in tiers)))
    if hi <= lo:
        hi = lo * 10
    span = math.log10(hi) - math.log10(lo)

    def x(v: float) -> float:
        return x0 + (x1 - x0) * (math.log10(v) - math.log10(lo)) / span

    p = lo
    while p <= hi * 1.001:
        d.add(Line(x(p), y0, x(p), y0 + plot_h, strokeColor=RULE, strokeWidth=0.4))
        d.add(label(x(p), y0 - 9, num(p), 40, 7, "middle", color=MUTED))
        p *= 10
    d.add(label(x1, y0 - 18, "GB/s, log scale", 100, 7, "end", color=MUTED))
    for i, t in enumerate(tiers):
        y = y0 + plot_h - (i + 1) * (bar_h + gap)
        d.add(label(name_w, y + 3, t.name, name_w, 7, "end"))
        colour = SERIES[KIND_COLOUR.get(t.kind, 6)]
        d.add(Rect(x0, y, max(x(t.gbs) - x0, 1), bar_h, fillColor=colour, strokeColor=None))
        d.add(label(x(t.gbs) + 3, y + 3, num(t.gbs), width - x(t.gbs) - 3, 7))
    return d
