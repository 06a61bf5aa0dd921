"""Rack elevations: each rack's units with the hosts and switches in them and the rack's power
against its limit. As many racks as fit side by side are drawn; beyond that the first ones,
an ellipsis and the last, with the count written out."""

from __future__ import annotations

from reportlab.graphics.shapes import Drawing, Rect
from reportlab.lib.colors import HexColor

from reports.data import ReportData
from reports.diagrams.common import box, label, new_drawing
from reports.fonts import SANS_BOLD
from reports.styles import ACCENT_LIGHT, ERROR, INK, MUTED, RULE
from wizard.model.buildout import Rack

SWITCH_FILL = HexColor("#fdebd3")  # a Color: the SVG renderer takes no strings
RACK_W = 74
GAP = 10
U_H = 7.0


def draw(data: ReportData, width: float = 480) -> Drawing | None:
    racks = getattr(data.result, "racks", None)
    if racks is None or not racks.racks:
        return None
    per_row = max(1, int((width + GAP) // (RACK_W + GAP)))
    shown: list[Rack | None] = list(racks.racks)
    more = 0
    if len(shown) > per_row:
        more = len(shown) - per_row + 1
        shown = [*shown[: per_row - 2], None, shown[-1]]
    units = max(r.height_u for r in racks.racks)
    rack_h = units * U_H
    height = rack_h + 40
    used_w = len(shown) * (RACK_W + GAP) - GAP
    d = new_drawing(min(width, used_w), height)
    y0 = 26
    for i, rack in enumerate(shown):
        x = i * (RACK_W + GAP)
        if rack is None:
            d.add(label(x + RACK_W / 2, y0 + rack_h / 2, f"… {more} more racks", RACK_W, 7,
                        "middle", color=MUTED))  # fmt: skip
            continue
        d.add(Rect(x, y0, RACK_W, rack.height_u * U_H, fillColor=None, strokeColor=INK,
                   strokeWidth=0.8))  # fmt: skip
        for item in rack.items:
            iy = y0 + (item.u_position - 1) * U_H
            ih = item.height_u * U_H
            fill = ACCENT_LIGHT if item.kind == "server" else SWITCH_FILL
            d.add(box(x + 2, iy + 0.3, RACK_W - 4, ih - 0.6, fill, stroke=RULE, radius=1,
                      stroke_width=0.3))  # fmt: skip
            if ih >= 6:
                d.add(label(x + RACK_W / 2, iy + ih / 2 - 2, item.name, RACK_W - 8, min(6, ih - 1),
                            "middle", min_size=4))  # fmt: skip
        d.add(label(x + RACK_W / 2, y0 + rack.height_u * U_H + 4, rack.name, RACK_W, 7,
                    "middle", font=SANS_BOLD))  # fmt: skip
        over = rack.power_w > rack.power_limit_w
        d.add(label(x + RACK_W / 2, y0 - 10,
                    f"{rack.power_w / 1000:.1f} of {rack.power_limit_w / 1000:.0f} kW", RACK_W, 6.5,
                    "middle", color=ERROR if over else INK))  # fmt: skip
        d.add(label(x + RACK_W / 2, y0 - 19, f"{rack.used_u} of {rack.height_u} U", RACK_W, 6.5,
                    "middle", color=MUTED))  # fmt: skip
    return d
