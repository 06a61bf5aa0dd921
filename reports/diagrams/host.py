"""Host internal topology: sockets, root complexes, PCIe switches, GPUs and NICs as a tree, with
NVLink bridges or the NVSwitch baseboard beneath the GPUs. Links are styled by kind and their
bandwidths listed in a legend, so no label sits on a line or on another label."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from reportlab.graphics.shapes import Drawing, Line, Rect
from reportlab.lib import colors

from reports.data import ReportData
from reports.diagrams.common import box, label, new_drawing
from reports.fonts import text_width
from reports.styles import ACCENT, ACCENT_LIGHT, INK, MUTED, RULE, ZEBRA
from wizard.numbers import num

if TYPE_CHECKING:
    from wizard.model.buildout import Device, HostTopology

NVLINK = colors.HexColor("#9b51e0")
CPU_LINK = colors.HexColor("#f2994a")
FILLS = {
    "socket": colors.HexColor("#dfe7f2"),
    "root-complex": ZEBRA,
    "pcie-switch": colors.HexColor("#e9f3fb"),
    "gpu": ACCENT_LIGHT,
    "nic": colors.HexColor("#fdebd3"),
}
SIDE = {"nvlink-bridge", "nvswitch", "network"}  # drawn apart from the PCIe tree
ROW_H = 40
BOX_H = 20


def _tree(host: HostTopology) -> tuple[list[Device], dict[str, list[Device]]]:
    tree = [d for d in host.devices if d.kind.value not in SIDE]
    ids = {d.id for d in tree}
    children: dict[str, list[Device]] = {}
    roots = []
    for d in tree:
        if d.parent in ids:
            children.setdefault(d.parent, []).append(d)
        else:
            roots.append(d)
    return roots, children


def _has_leaf(d: Device, children: dict[str, list[Device]]) -> bool:
    kids = children.get(d.id, [])
    return d.kind.value in ("gpu", "nic") or any(_has_leaf(k, children) for k in kids)


def draw_layout(host: HostTopology, width: float = 480) -> Drawing:
    roots, children = _tree(host)
    # columns: one per leaf (GPU or NIC), parents centred over their leaves
    spans: dict[str, tuple[int, int]] = {}
    depth: dict[str, int] = {}
    order: list[Device] = []
    leaves = 0

    def place(d: Device, level: int) -> None:
        nonlocal leaves
        depth[d.id] = level
        order.append(d)
        kids = [k for k in children.get(d.id, []) if _has_leaf(k, children)]
        first = leaves
        if not kids:
            leaves += 1
        for k in kids:
            place(k, level + 1)
        spans[d.id] = (first, leaves)

    for r in roots:
        if _has_leaf(r, children) or r.kind.value == "socket":
            place(r, 0)
    levels = max(depth.values(), default=0) + 1
    col = width / max(leaves, 1)
    links = {(lk.a, lk.b): lk for lk in host.links} | {(lk.b, lk.a): lk for lk in host.links}
    side = [d for d in host.devices if d.kind.value in ("nvlink-bridge", "nvswitch")]
    nv_h = (14 + 6 * len([d for d in side if d.kind.value == "nvlink-bridge"])) if side else 0
    kinds = sorted({(lk.kind.value, lk.label, lk.gbs) for lk in host.links})
    legend_h = 11 * len(kinds) + 6
    height = levels * ROW_H + nv_h + legend_h + 4
    d = new_drawing(width, height)

    pos: dict[str, tuple[float, float, float]] = {}  # id -> centre x, bottom y, box width
    for dev in order:
        a, b = spans[dev.id]
        cx = (a + b) / 2 * col
        w = max((b - a) * col - 4, 8)
        y: float = height - (depth[dev.id] + 1) * ROW_H + (ROW_H - BOX_H)
        pos[dev.id] = (cx, y, w)
    # PCIe edges under the boxes
    for dev in order:
        if dev.parent in pos:
            cx, y, _ = pos[dev.id]
            px, py, _ = pos[dev.parent]
            lk = links.get((dev.id, dev.parent))
            color = NVLINK if lk is not None and lk.kind.value == "nvlink" else ACCENT
            d.add(Line(cx, y + BOX_H, px, py, strokeColor=color, strokeWidth=1))
    sockets = [dev for dev in order if dev.kind.value == "socket"]
    for s1, s2 in itertools.pairwise(sockets):
        x1, y1, w1 = pos[s1.id]
        x2, _, w2 = pos[s2.id]
        d.add(
            Line(x1 + w1 / 2, y1 + BOX_H / 2, x2 - w2 / 2, y1 + BOX_H / 2, strokeColor=CPU_LINK,
                 strokeWidth=2, strokeDashArray=[3, 2])
        )  # fmt: skip
    for dev in order:
        cx, y, w = pos[dev.id]
        fill = FILLS.get(dev.kind.value, ZEBRA)
        d.add(box(cx - w / 2, y, w, BOX_H, fill, stroke=RULE, radius=2))
        name = dev.name
        if text_width(name, size=6.5) > w - 3 and " (" in name:
            name = name.split(" (")[0]  # "GPU 0 (H100 SXM5 80GB)" -> "GPU 0"; the model is above
        d.add(label(cx, y + 7, name, w - 3, 6.5, "middle", color=INK))
    # NVLink bridges and NVSwitch below the GPUs
    y_nv = height - levels * ROW_H - 4
    bridges = 0
    for dev in side:
        xs = [pos[g][0] for g in dev.connects if g in pos]
        if not xs:
            continue
        x0, x1 = min(xs), max(xs)
        if dev.kind.value == "nvswitch":
            h = 10
            d.add(Rect(x0 - col / 2 + 2, y_nv - h, x1 - x0 + col - 4, h, fillColor=NVLINK,
                       strokeColor=None))  # fmt: skip
            d.add(label((x0 + x1) / 2, y_nv - h + 2.5, dev.name, x1 - x0 + col - 8, 6.5,
                        "middle", color=colors.white))  # fmt: skip
        else:
            yb = y_nv - 4 - bridges * 6
            bridges += 1
            d.add(Line(x0, yb, x1, yb, strokeColor=NVLINK, strokeWidth=3))
            for x in xs:
                d.add(Line(x, yb, x, y_nv + ROW_H - BOX_H, strokeColor=NVLINK, strokeWidth=0.8))
    # legend: one line per kind of link with its bandwidth
    colors_by_kind = {"pcie": ACCENT, "nvlink": NVLINK, "cpu-interconnect": CPU_LINK}
    for i, (kind, text, gbs) in enumerate(kinds):
        ly = legend_h - 11 * (i + 1)
        d.add(Line(0, ly + 3, 14, ly + 3, strokeColor=colors_by_kind.get(kind, MUTED),
                   strokeWidth=2))  # fmt: skip
        d.add(label(18, ly, f"{text}: {num(gbs)} GB/s one way", width - 18, 7))
    return d


def draw(data: ReportData, width: float = 480) -> Drawing | None:
    topo = getattr(data.result, "topology", None)
    if topo is None or not topo.hosts:
        return None
    return draw_layout(topo.hosts[0], width)
