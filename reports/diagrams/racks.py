"""Rack elevations as a data-centre drawing shows them: each rack's units numbered from the
bottom, the hosts, switches and storage in the units they occupy, the two power distribution
units (A and B feeds) down the sides, and the rack's power against its limit. As many racks as
fit side by side are drawn; beyond that the first ones, an ellipsis and the last, with the count
written out."""

from __future__ import annotations

from reportlab.graphics.shapes import Drawing, Rect
from reportlab.lib.colors import HexColor

from reports.data import ReportData
from reports.diagrams.common import box, label, new_drawing
from reports.fonts import SANS, SANS_BOLD, text_width
from reports.styles import ACCENT_LIGHT, ERROR, INK, MUTED, RULE
from wizard.model.buildout import Rack
from wizard.present.risk_register import power_not_counted

SWITCH_FILL = HexColor("#fdebd3")  # a Color: the SVG renderer takes no strings
STORAGE_FILL = HexColor("#e4e9f7")
CDU_FILL = HexColor("#d7eef2")
PDU_FILL = HexColor("#d9d9d9")
FILLS = {
    "server": ACCENT_LIGHT,
    "switch": SWITCH_FILL,
    "storage": STORAGE_FILL,
    "cdu": CDU_FILL,
}
NUMBERS_W = 12  # the unit numbers left of each rack
PDU_W = 4  # a 0U PDU strip inside each side of the frame
RACK_W = 92
GAP = 10
U_H = 8.0  # one rack unit: room for a 7 pt label
SIZE = 7.0
LEGEND_H = 14


def _every(units: int) -> int:
    """Number every unit when the rack is short, else every fifth."""
    return 1 if units <= 12 else 5


def draw(data: ReportData, width: float = 480) -> Drawing | None:
    racks = getattr(data.result, "racks", None)
    if racks is None:
        return None
    return draw_racks(racks.racks, width)


def draw_racks(all_racks: list[Rack], width: float = 480) -> Drawing | None:
    """The elevations of ``all_racks``: one cluster's, or every rack of a design of several."""
    if not all_racks:
        return None
    pitch = NUMBERS_W + RACK_W + GAP
    per_row = max(1, int((width + GAP) // pitch))
    shown: list[Rack | None] = list(all_racks)
    more = 0
    if len(shown) > per_row:
        more = len(shown) - per_row + 1
        shown = [*shown[: per_row - 2], None, shown[-1]]
    units = max(r.height_u for r in all_racks)
    rack_h = units * U_H
    # a rack whose kW leaves out storage of unpublished power: a line below the legend says so
    starred = any(power_not_counted(r) for r in shown if r is not None)
    note_h = 11 if starred else 0
    y0 = 26 + LEGEND_H + note_h
    height = y0 + rack_h + 14
    used_w = len(shown) * pitch - GAP
    d = new_drawing(max(min(width, used_w), 260), height)
    for i, rack in enumerate(shown):
        x = i * pitch + NUMBERS_W
        if rack is None:
            d.add(label(x + RACK_W / 2, y0 + rack_h / 2, f"… {more} more racks", RACK_W, SIZE,
                        "middle", color=MUTED, min_size=SIZE))  # fmt: skip
            continue
        _rack(d, rack, x, y0)
    cdus = any(i.kind == "cdu" for r in shown if r is not None for i in r.items)
    _legend(d, 0, 4 + note_h, cdus)
    if starred:
        text = "* the rack's kW leaves out storage without a published power figure"
        d.add(label(0, 4, text, d.width, SIZE, min_size=SIZE))
    return d


def _rack(d: Drawing, rack: Rack, x: float, y0: float) -> None:
    h = rack.height_u * U_H
    d.add(Rect(x, y0, RACK_W, h, fillColor=None, strokeColor=INK, strokeWidth=0.8))
    step = _every(rack.height_u)
    for u in range(1, rack.height_u + 1):
        if u == 1 or u % step == 0:
            d.add(label(x - 2, y0 + (u - 1) * U_H + 1.5, str(u), NUMBERS_W - 2, SIZE, "end",
                        color=MUTED, min_size=SIZE))  # fmt: skip
    # the two PDUs, A feed on the left and B on the right, 0U along the rear posts
    for px in (x + 1, x + RACK_W - 1 - PDU_W):
        d.add(box(px, y0 + 1, PDU_W, h - 2, PDU_FILL, stroke=RULE, radius=1, stroke_width=0.3))
    inner_x, inner_w = x + PDU_W + 3, RACK_W - 2 * PDU_W - 6
    for item in rack.items:
        iy = y0 + (item.u_position - 1) * U_H
        ih = item.height_u * U_H
        d.add(box(inner_x, iy + 0.4, inner_w, ih - 0.8, FILLS.get(item.kind, SWITCH_FILL),
                  stroke=RULE, radius=1, stroke_width=0.3))  # fmt: skip
        d.add(label(inner_x + inner_w / 2, iy + ih / 2 - 2.4, item.name, inner_w - 4, SIZE,
                    "middle", min_size=SIZE))  # fmt: skip
    d.add(label(x + 1 + PDU_W / 2, y0 + h + 3, "A", 10, SIZE, "middle", color=MUTED,
                min_size=SIZE))  # fmt: skip
    d.add(label(x + RACK_W - 1 - PDU_W / 2, y0 + h + 3, "B", 10, SIZE, "middle", color=MUTED,
                min_size=SIZE))  # fmt: skip
    d.add(label(x + RACK_W / 2, y0 + h + 3, rack.name, RACK_W - 24, 7.5, "middle",
                font=SANS_BOLD, min_size=SIZE))  # fmt: skip
    over = rack.power_w > rack.power_limit_w
    d.add(label(x + RACK_W / 2, y0 - 10,
                f"{rack.power_w / 1000:.1f} of {rack.power_limit_w / 1000:g} kW"
                + (" *" if power_not_counted(rack) else ""), RACK_W, SIZE,
                "middle", color=ERROR if over else INK, min_size=SIZE))  # fmt: skip
    d.add(label(x + RACK_W / 2, y0 - 19, f"{rack.used_u} of {rack.height_u} U", RACK_W, SIZE,
                "middle", color=MUTED, min_size=SIZE))  # fmt: skip


def _legend(d: Drawing, x: float, y: float, cdus: bool = False) -> None:
    entries = [
        (ACCENT_LIGHT, "host"),
        (SWITCH_FILL, "switch"),
        (STORAGE_FILL, "storage"),
        *([(CDU_FILL, "coolant distribution unit")] if cdus else []),
        (PDU_FILL, "PDU, A and B feeds (0U)"),
    ]
    for fill, text in entries:
        d.add(box(x, y, 8, 7, fill, stroke=RULE, radius=1, stroke_width=0.3))
        w = text_width(text, SANS, SIZE) + 1
        d.add(label(x + 11, y + 1, text, w, SIZE, min_size=SIZE))
        x += 11 + w + 8
