"""Network fabric: for each network (the GPU compute fabric, the service network, out-of-band
management) its spine and leaf switches and the hosts below them. Rows of more than eight
switches are summarized (the first few, an ellipsis, the last) with the count written out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reportlab.graphics.shapes import Drawing, Line

from reports.data import ReportData
from reports.diagrams.common import box, label, new_drawing
from reports.fonts import SANS_BOLD
from reports.styles import ACCENT, ACCENT_LIGHT, INK, MUTED, RULE, ZEBRA
from wizard.numbers import num
from wizard.present import labels

if TYPE_CHECKING:
    from wizard.model.buildout import Plane

MAX_BOXES = 8
SW_W, SW_H = 46, 16


def _row(d: Drawing, y: float, count: int, name: str, width: float, x_off: float, fill):
    """A row of switch boxes; more than MAX_BOXES become the first few, an ellipsis and the
    last. Returns the centres of the boxes drawn."""
    shown: list[int | None] = list(range(1, count + 1))
    if count > MAX_BOXES:
        shown = [*range(1, MAX_BOXES - 1), None, count]
    step = width / max(len(shown), 1)
    w = min(SW_W, step - 4)
    centres = []
    for i, n in enumerate(shown):
        x = x_off + step * (i + 0.5)
        if n is None:
            d.add(label(x, y + 5, "…", step, 8, "middle", color=MUTED))
            continue
        d.add(box(x - w / 2, y, w, SW_H, fill, stroke=RULE, radius=2))
        d.add(label(x, y + 5, f"{name} {n}", w - 3, 6.5, "middle"))
        centres.append(x)
    return centres


ROW = 28


def _notes(plane: Plane) -> list[str]:
    notes = [
        f"{t.count} × {t.model} ({t.role}): {t.downlinks} down"
        + (f", {t.uplinks} up" if t.uplinks else "")
        + f" at {num(t.port_speed_gbps)} Gb/s"
        for t in plane.tiers
    ]
    return notes + [f"{c.count} × {c.description}" for c in plane.cables][:3]


def _height(plane: Plane) -> float:
    tiers = sum(1 for t in plane.tiers if t.role in ("leaf", "spine"))
    return max(24 + ROW * (tiers + 1), 30 + 11 * len(_notes(plane))) + 6


def _plane(d: Drawing, plane: Plane, y: float, height: float, width: float) -> None:
    name = labels.NETWORK_SHORT.get(plane.name, plane.name.capitalize())
    title = f"{name}: {plane.technology}, {num(plane.speed_gbps)} Gb/s"
    if plane.rdma and plane.rdma != "none":
        title += f", RDMA: {labels.name(labels.RDMA_SHORT, plane.rdma)}"
    d.add(box(0, y, width, height - 6, ZEBRA, stroke=RULE))
    top = y + height - 6
    d.add(label(6, top - 12, title, width * 0.6, 7.5, font=SANS_BOLD, min_size=7.5))
    over = (
        f"oversubscription {plane.oversubscription:g}:1 (target {plane.oversubscription_target:g}:1)"
        if plane.oversubscription is not None
        else "one switch tier"
    )
    d.add(label(width - 6, top - 12, over, width * 0.36, 6.5, "end", color=MUTED, min_size=6.5))
    spine = next((t for t in plane.tiers if t.role == "spine"), None)
    leaf = next((t for t in plane.tiers if t.role == "leaf"), None)
    tiers_w = width * 0.6
    y_hosts = y + 6
    y_leaf = y_hosts + ROW
    y_spine = y_leaf + (ROW if leaf else 0)
    leaves = _row(d, y_leaf, leaf.count, "leaf", tiers_w, 6, ACCENT_LIGHT) if leaf else []
    spines = _row(d, y_spine, spine.count, "spine", tiers_w, 6, ACCENT_LIGHT) if spine else []
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
    x_notes = tiers_w + 14
    for i, text in enumerate(_notes(plane)):
        d.add(label(x_notes, top - 28 - i * 11, text, width - x_notes - 6, 6.5, color=INK,
                    min_size=6.5))  # fmt: skip


def draw(data: ReportData, width: float = 480) -> Drawing | None:
    topo = getattr(data.result, "topology", None)
    if topo is None or not topo.fabric.planes:
        return None
    heights = [_height(p) for p in topo.fabric.planes]
    d = new_drawing(width, sum(heights))
    y = sum(heights)
    for plane, h in zip(topo.fabric.planes, heights, strict=True):
        y -= h
        _plane(d, plane, y, h, width)
    return d
