"""Network fabric: for each network (the GPU compute fabric, the service network, out-of-band
management) its spine and leaf switches and the hosts below them. Rows of more than eight
switches are summarized (the first few, an ellipsis, the last) with the count written out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reportlab.graphics.shapes import Drawing, Line

from reports.data import ReportData
from reports.diagrams.common import box, label, new_drawing
from reports.fonts import SANS_BOLD
from reports.numbers import num
from reports.styles import ACCENT, ACCENT_LIGHT, INK, MUTED, RULE, ZEBRA

if TYPE_CHECKING:
    from wizard.model.buildout import Plane

MAX_BOXES = 8
PANEL_H = 118
SW_W, SW_H = 46, 16


def _row_xs(count: int, width: float) -> list[float | None]:
    """Centres of the boxes to draw; None marks the ellipsis of a summarized row."""
    shown: list[int | None] = list(range(count))
    if count > MAX_BOXES:
        shown = [*range(MAX_BOXES - 2), None, count - 1]
    step = width / len(shown)
    return [None if s is None else step * (i + 0.5) for i, s in enumerate(shown)]


def _row(d: Drawing, y: float, count: int, name: str, width: float, x_off: float, fill):
    xs = _row_xs(count, width)
    centres = []
    for i, x in enumerate(xs):
        if x is None:
            d.add(label(x_off + (xs[i - 1] + xs[i + 1]) / 2, y + 5, "…", 20, 8, "middle",
                        color=MUTED))  # fmt: skip
            continue
        w = min(SW_W, width / len(xs) - 4)
        d.add(box(x_off + x - w / 2, y, w, SW_H, fill, stroke=RULE, radius=2))
        n = i + 1 if i < len(xs) - 1 or xs[-2] is not None else count
        d.add(label(x_off + x, y + 5, f"{name} {n}", w - 3, 6.5, "middle"))
        centres.append(x_off + x)
    return centres


def _plane(d: Drawing, plane: Plane, y: float, width: float) -> None:
    title = f"{plane.name.capitalize()} network: {plane.technology}, {num(plane.speed_gbps)} Gb/s"
    if plane.rdma and plane.rdma != "none":
        title += f", {plane.rdma}"
    d.add(box(0, y, width, PANEL_H - 6, ZEBRA, stroke=RULE))
    d.add(label(6, y + PANEL_H - 18, title, width * 0.62, 7.5, font=SANS_BOLD))
    over = (
        f"oversubscription {plane.oversubscription:g}:1 (target {plane.oversubscription_target:g}:1)"
        if plane.oversubscription is not None
        else "one switch tier"
    )
    d.add(label(width - 6, y + PANEL_H - 18, over, width * 0.36, 6.5, "end", color=MUTED))
    spine = next((t for t in plane.tiers if t.role == "spine"), None)
    leaf = next((t for t in plane.tiers if t.role == "leaf"), None)
    tiers_w = width * 0.62
    y_spine, y_leaf, y_hosts = y + 70, y + 42, y + 8
    spines = _row(d, y_spine, spine.count, "spine", tiers_w, 6, ACCENT_LIGHT) if spine else []
    leaves = _row(d, y_leaf, leaf.count, "leaf", tiers_w, 6, ACCENT_LIGHT) if leaf else []
    for lx in leaves:
        for sx in spines:
            d.add(Line(lx, y_leaf + SW_H, sx, y_spine, strokeColor=RULE, strokeWidth=0.5))
    hosts_w = tiers_w - 12
    d.add(box(6, y_hosts, hosts_w, SW_H, ACCENT_LIGHT, stroke=ACCENT, radius=2))
    redundant = ", split over a leaf pair" if plane.redundant else ""
    d.add(
        label(6 + hosts_w / 2, y_hosts + 5,
              f"hosts: {plane.host_ports} ports at {num(plane.speed_gbps)} Gb/s{redundant}",
              hosts_w - 6, 6.5, "middle")
    )  # fmt: skip
    for lx in leaves:
        d.add(Line(lx, y_leaf, lx, y_hosts + SW_H, strokeColor=ACCENT, strokeWidth=0.6))
    # the tiers in words, on the right
    notes = [
        f"{t.count} × {t.model} ({t.role}): {t.downlinks} down"
        + (f", {t.uplinks} up" if t.uplinks else "")
        + f" at {num(t.port_speed_gbps)} Gb/s"
        for t in plane.tiers
    ]
    notes += [f"{c.count} × {c.description}" for c in plane.cables][:3]
    x_notes = tiers_w + 14
    for i, text in enumerate(notes[:6]):
        d.add(label(x_notes, y + PANEL_H - 34 - i * 11, text, width - x_notes - 6, 6.5, color=INK))


def draw(data: ReportData, width: float = 480) -> Drawing | None:
    topo = getattr(data.result, "topology", None)
    if topo is None or not topo.fabric.planes:
        return None
    planes = topo.fabric.planes
    d = new_drawing(width, PANEL_H * len(planes))
    for i, plane in enumerate(planes):
        _plane(d, plane, PANEL_H * (len(planes) - 1 - i), width)
    return d
