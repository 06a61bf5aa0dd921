"""Host internal topology as vendors draw it: each CPU with its root complexes, the PCIe switches,
GPUs and NICs beneath, the CPU interconnect between the CPUs, and NVLink as links (GPUs to an
NVSwitch box, GPU-to-GPU mesh links on a board without NVSwitch, a bridge per bridged pair).
Every link carries its bandwidth on the figure or in the legend beneath it; labels wrap or are
summarized in a key line, never cut and never below 7 pt."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING

from reportlab.graphics.shapes import Drawing, Group, Line, PolyLine
from reportlab.lib import colors

from reports.data import ReportData
from reports.diagrams.common import box, label, new_drawing, wrap
from reports.fonts import SANS, SANS_BOLD, text_width
from reports.styles import ACCENT, ACCENT_LIGHT, INK, MUTED, RULE, ZEBRA
from wizard.base.numbers import num
from wizard.model.unsettled import tagged

if TYPE_CHECKING:
    from wizard.model.buildout import Device, HostTopology, Link

NVLINK = colors.HexColor("#9b51e0")
CPU_LINK = colors.HexColor("#f2994a")
FILLS = {
    "socket": colors.HexColor("#dfe7f2"),
    "root-complex": ZEBRA,
    "pcie-switch": colors.HexColor("#e9f3fb"),
    "gpu": ACCENT_LIGHT,
    "nic": colors.HexColor("#fdebd3"),
}
PCIE_DASH: list[list[float] | None] = [None, [4, 2], [1.5, 1.5], [6, 2, 1.5, 2]]
SIZE = 7.0  # every label; the floor the proposal's figures keep
LEAD = 8.5
GAP = 58.0  # between CPUs: room for the interconnect's name and bandwidth
EMPTY_W = 96.0  # a CPU with nothing attached
TITLE_H = 14.0
RC_H = 2 * LEAD + 5
SWITCH_H = 2 * LEAD + 5
LINK_H = 20.0
PAD = 2.0


class NvlinkLinks(Group):
    """The NVLink links drawn, one shape each (a GPU's drop to the NVSwitch box, a mesh pair's
    or a bridge's bracket), kept apart from the legend's samples so they can be counted."""


@dataclass
class _Node:
    dev: Device
    x0: float
    x1: float

    @property
    def cx(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def w(self) -> float:
        return self.x1 - self.x0


def _head_detail(name: str) -> tuple[str, str]:
    """'GPU 0 (H200 SXM 141GB)' -> ('GPU 0', 'H200 SXM 141GB')."""
    head, _, rest = name.partition(" (")
    return head, rest.removesuffix(")")


def _fits(lines: list[str], w: float, font: str = SANS) -> bool:
    return all(text_width(t, font, SIZE) <= w for t in lines)


def _text(d: Drawing, cx: float, top: float, lines: list[str], w: float, color=INK,
          font: str = SANS) -> None:  # fmt: skip
    for i, t in enumerate(lines):
        d.add(label(cx, top - (i + 1) * LEAD + 1.5, t, w, SIZE, "middle", font, color, SIZE))


def _leaves(dev: Device, children: dict[str, list[Device]]) -> list[Device]:
    if dev.kind.value in ("gpu", "nic"):
        return [dev]
    return [leaf for k in children.get(dev.id, []) for leaf in _leaves(k, children)]


def _legend_lines(text: str, width: float) -> list[str]:
    return wrap(text, width, SIZE)


def draw_layout(
    host: HostTopology, width: float = 480, marks: Mapping[str, Sequence[str]] | None = None
) -> Drawing:
    """One host layout; ``marks``: by link kind ('cpu-interconnect', 'nvlink'), the catalog
    figures its legend states that are to confirm with the vendor."""
    tree = [d for d in host.devices if d.kind.value in FILLS]
    ids = {d.id for d in tree}
    children: dict[str, list[Device]] = {}
    for dev in tree:
        if dev.parent in ids:
            children.setdefault(dev.parent, []).append(dev)
    sockets = [d for d in tree if d.kind.value == "socket"]
    by_id = {d.id: d for d in host.devices}

    # horizontal: each CPU spans its leaves (GPUs, NICs), a CPU with none a fixed width
    counts = [len(_leaves(s, children)) for s in sockets]
    empty_w = min(EMPTY_W, width / 3)
    gaps = GAP * max(len(sockets) - 1, 0)
    leaves = sum(counts)
    free = width - gaps - empty_w * counts.count(0)
    col = free / leaves if leaves else 0
    nodes: dict[str, _Node] = {}
    x = 0.0
    for s, count in zip(sockets, counts, strict=True):
        span = count * col if count else empty_w
        nodes[s.id] = _Node(s, x, x + span)
        lx = x

        def place(dev: Device) -> None:
            nonlocal lx
            start = lx
            if dev.kind.value in ("gpu", "nic"):
                lx += col
            for k in children.get(dev.id, []):
                if _leaves(k, children):
                    place(k)
            nodes[dev.id] = _Node(dev, start, lx)

        for k in children.get(s.id, []):
            if _leaves(k, children):
                place(k)
        x += span + GAP

    # leaf labels: name and model wrapped in the box; where a model does not fit, one key line
    # beneath the figure gives it for all boxes of that kind
    leaf_nodes = [nodes[d.id] for d in tree if d.kind.value in ("gpu", "nic") and d.id in nodes]
    inner = col - 2 * PAD - 2
    heads: dict[str, list[str]] = {}
    details: dict[str, list[str]] = {}
    keys: dict[str, str] = {}
    for kind in ("gpu", "nic"):
        mine = [n for n in leaf_nodes if n.dev.kind.value == kind]
        detail = {
            n.dev.id: [
                line
                for part in _head_detail(n.dev.name)[1].split(", ")
                for line in wrap(part, inner, SIZE)
            ]
            for n in mine
        }
        keep = all(_fits(v, inner) and len(v) <= 3 for v in detail.values())
        for n in mine:
            head, rest = _head_detail(n.dev.name)
            lines = wrap(head, inner, SIZE)
            if not _fits(lines, inner):
                lines = [head.split()[-1]]  # the number alone; the key line names the kind
            heads[n.dev.id] = lines
            details[n.dev.id] = detail[n.dev.id] if keep else []
            if not keep and rest:
                keys[kind] = rest
    leaf_lines = max((len(heads[i]) + len(details[i]) for i in heads), default=1)
    leaf_h = leaf_lines * LEAD + 5

    # vertical bands, top down
    has_rc = any(d.kind.value == "root-complex" and d.id in nodes for d in tree)
    has_sw = any(d.kind.value == "pcie-switch" and d.id in nodes for d in tree)
    cpu_h = TITLE_H + (RC_H + 4 if has_rc else 2 * LEAD)
    nv_links = [lk for lk in host.links if lk.kind.value == "nvlink"]
    nv_zone, nv_draw = _nvlink_plan(host, nodes, nv_links, width)

    link_groups = _pcie_groups(host, by_id)
    legend = _legend(host, link_groups, width, keys, marks or {})
    legend_h = sum(len(lines) * LEAD + 2 for _, lines in legend) + 4
    height = cpu_h + LINK_H + (SWITCH_H + LINK_H if has_sw else 0) + leaf_h + nv_zone + legend_h
    d = new_drawing(width, height)
    top = height
    y_cpu = top - cpu_h
    y_sw = y_cpu - LINK_H - SWITCH_H
    y_leaf = (y_sw if has_sw else y_cpu) - LINK_H - leaf_h
    rows = {"socket": (y_cpu, cpu_h), "pcie-switch": (y_sw, SWITCH_H), "gpu": (y_leaf, leaf_h)}
    rows["nic"] = rows["gpu"]
    rows["root-complex"] = (y_cpu + 3, RC_H)

    # PCIe links first, under the boxes
    for lk in host.links:
        if lk.kind.value != "pcie":
            continue
        child, parent = (lk.a, lk.b) if by_id[lk.a].parent == lk.b else (lk.b, lk.a)
        if child not in nodes or parent not in nodes:
            continue
        c, p = nodes[child], nodes[parent]
        cy = rows[c.dev.kind.value][0] + rows[c.dev.kind.value][1]
        py = rows[p.dev.kind.value][0]
        dash = link_groups[(lk.label, lk.gbs)][0]
        d.add(Line(c.cx, cy, p.cx, py, strokeColor=ACCENT, strokeWidth=1, strokeDashArray=dash))

    # CPUs, their root complexes inside them, and the interconnect between them
    cpu_link = next((lk for lk in host.links if lk.kind.value == "cpu-interconnect"), None)
    for s in sockets:
        n = nodes[s.id]
        d.add(box(n.x0 + PAD, y_cpu, n.w - 2 * PAD, cpu_h, FILLS["socket"], stroke=RULE,
                  radius=3))  # fmt: skip
        _text(d, n.cx, top - 1, [s.name], n.w - 2 * PAD - 4, font=SANS_BOLD)
        if not _leaves(s, children):
            note = wrap("no GPUs or NICs attached", n.w - 2 * PAD - 6, SIZE)
            _text(d, n.cx, top - TITLE_H, note, n.w - 2 * PAD - 6, color=MUTED)
    for rc in (d_ for d_ in tree if d_.kind.value == "root-complex" and d_.id in nodes):
        n = nodes[rc.id]
        w = n.w - 4 * PAD
        d.add(box(n.x0 + 2 * PAD, y_cpu + 3, w, RC_H, FILLS["root-complex"], stroke=RULE,
                  radius=2))  # fmt: skip
        _text(d, n.cx, y_cpu + 3 + RC_H - 1.5, _fitted(rc.name, w - 4, "Root complex", "RC"), w - 4)
    if cpu_link is not None:
        for s1, s2 in pairwise(sockets):
            a, b = nodes[s1.id], nodes[s2.id]
            y = y_cpu + cpu_h / 2
            d.add(Line(a.x1 - PAD, y, b.x0 + PAD, y, strokeColor=CPU_LINK, strokeWidth=2.5))
            name = cpu_link.label.removeprefix("CPU interconnect (").removesuffix(")")
            lines = [*wrap(name, GAP - 6, SIZE), f"{num(cpu_link.gbs)} GB/s"]
            mid = (a.x1 + b.x0) / 2
            _text(d, mid, y + len(lines) * LEAD + 1, lines, GAP - 4, color=INK)
    # PCIe switches
    for sw in (d_ for d_ in tree if d_.kind.value == "pcie-switch" and d_.id in nodes):
        n = nodes[sw.id]
        d.add(box(n.x0 + PAD, y_sw, n.w - 2 * PAD, SWITCH_H, FILLS["pcie-switch"], stroke=RULE,
                  radius=2))  # fmt: skip
        _text(d, n.cx, y_sw + SWITCH_H - 1.5, _fitted(sw.name, n.w - 2 * PAD - 4, "PCIe switch",
                                                       "Switch"), n.w - 2 * PAD - 4)  # fmt: skip
    # GPUs and NICs
    for n in leaf_nodes:
        kind = n.dev.kind.value
        d.add(box(n.x0 + PAD, y_leaf, n.w - 2 * PAD, leaf_h, FILLS[kind], stroke=RULE, radius=2))
        _text(d, n.cx, y_leaf + leaf_h - 1.5, heads[n.dev.id], inner + 2, font=SANS_BOLD)
        top_d = y_leaf + leaf_h - 1.5 - len(heads[n.dev.id]) * LEAD
        _text(d, n.cx, top_d, details[n.dev.id], inner + 2)

    nv_draw(d, y_leaf)

    # legend and key lines
    ly = y_leaf - nv_zone - 2
    for sample, lines in legend:
        if sample is not None:
            color, dash, w = sample
            d.add(Line(0, ly - 5.5, 16, ly - 5.5, strokeColor=color, strokeWidth=w,
                       strokeDashArray=dash))  # fmt: skip
        for i, t in enumerate(lines):
            d.add(label(20, ly - (i + 1) * LEAD + 1.5, t, width - 20, SIZE, min_size=SIZE))
        ly -= len(lines) * LEAD + 2
    return d


def _fitted(name: str, w: float, long: str, short: str) -> list[str]:
    """A box name wrapped to ``w``; 'Root complex 0.1' becomes 'RC 0.1' where even wrapped it
    would not fit (the legend spells the short form out)."""
    lines = wrap(name, w, SIZE)
    if _fits(lines, w) and len(lines) <= 2:
        return lines
    lines = wrap(name.replace(long, short), w, SIZE)
    return lines if _fits(lines, w) else [name.split()[-1]]


def _pcie_groups(host: HostTopology, by_id: dict[str, Device]) -> dict[tuple[str, float], tuple]:
    """Each distinct PCIe link (generation, width, bandwidth) with its dash pattern and the hops
    it is used for, e.g. 'root complex to PCIe switch'."""
    names = {"root-complex": "root complex", "pcie-switch": "PCIe switch", "gpu": "GPU",
             "nic": "NIC"}  # fmt: skip
    out: dict[tuple[str, float], tuple] = {}
    hops: dict[tuple[str, float], list[str]] = {}
    for lk in host.links:
        if lk.kind.value != "pcie":
            continue
        child, parent = (lk.a, lk.b) if by_id[lk.a].parent == lk.b else (lk.b, lk.a)
        hop = f"{names[by_id[parent].kind.value]} to {names[by_id[child].kind.value]}"
        key = (lk.label, lk.gbs)
        hops.setdefault(key, [])
        if hop not in hops[key]:
            hops[key].append(hop)
    for i, key in enumerate(hops):
        out[key] = (PCIE_DASH[i % len(PCIE_DASH)], hops[key])
    return out


def _legend(
    host: HostTopology, pcie: dict, width: float, keys: dict[str, str], marks: Mapping
) -> list[tuple]:
    """(line sample or None, wrapped lines) per entry: every kind of link with its bandwidth one
    way, then the key lines for models left out of narrow boxes."""
    w = width - 20
    out: list[tuple] = []
    for (text, gbs), (dash, hops) in pcie.items():
        entry = f"{text}, {num(gbs)} GB/s one way: {', '.join(hops)}"
        out.append(((ACCENT, dash, 1.2), _legend_lines(entry, w)))
    seen: set[tuple[str, float]] = set()
    for lk in host.links:
        key = (lk.label, lk.gbs)
        if lk.kind.value in ("pcie",) or key in seen:
            continue
        seen.add(key)
        if lk.kind.value == "cpu-interconnect":
            entry = f"{lk.label}: {num(lk.gbs)} GB/s one way between the CPUs"
            entry = tagged(entry, marks.get(lk.kind.value, ()))
            out.append(((CPU_LINK, None, 2.5), _legend_lines(entry, w)))
        elif lk.kind.value == "nvlink":
            entry = tagged(_nvlink_entry(host, lk), marks.get(lk.kind.value, ()))
            out.append(((NVLINK, None, 1.5), _legend_lines(entry, w)))
        elif lk.kind.value == "network":
            entry = (
                f"Each NIC to the GPU fabric: {lk.label}, {num(lk.gbs)} GB/s one way (drawn in "
                "the network figure)"
            )
            out.append((None, _legend_lines(entry, w)))
    names = {"gpu": "GPUs", "nic": "NICs"}
    for kind, detail in keys.items():
        out.append((None, _legend_lines(f"{names[kind]}: {detail}", w)))
    return out


def _nvlink_entry(host: HostTopology, lk: Link) -> str:
    n = sum(1 for x in host.links if (x.label, x.gbs) == (lk.label, lk.gbs))
    if lk.b == "nvswitch":
        return f"{lk.label}: each GPU to the NVSwitch chips, {num(lk.gbs)} GB/s one way"
    board = next((d for d in host.devices if d.kind.value == "nvlink-mesh"), None)
    if board is not None:
        return (
            f"{lk.label}: {num(lk.gbs)} GB/s one way per GPU pair, {n} pairs on the "
            f"{board.name}; every GPU reaches each other one directly"
        )
    return f"{lk.label}: {num(lk.gbs)} GB/s one way between each bridged pair"


def _nvlink_plan(host: HostTopology, nodes: dict[str, _Node], links: list[Link], width: float):
    """The height the NVLink drawing needs below the GPUs and a function drawing it there."""
    gpu_links = [lk for lk in links if lk.a in nodes and (lk.b in nodes or lk.b == "nvswitch")]
    if not gpu_links:
        return 0.0, lambda d, y: None
    switch = next((d for d in host.devices if d.kind.value == "nvswitch"), None)
    if switch is not None:
        drop, box_h = 14.0, 2 * LEAD + 5
        xs = [nodes[lk.a].cx for lk in gpu_links]
        x0 = min(nodes[lk.a].x0 for lk in gpu_links) + PAD
        x1 = max(nodes[lk.a].x1 for lk in gpu_links) - PAD
        gbs = gpu_links[0].gbs

        def draw_switch(d: Drawing, y_leaf: float) -> None:
            yb = y_leaf - drop
            drawn = NvlinkLinks()
            for x in xs:
                drawn.add(Line(x, y_leaf, x, yb, strokeColor=NVLINK, strokeWidth=1.5))
            d.add(drawn)
            d.add(box(x0, yb - box_h, x1 - x0, box_h, NVLINK, stroke=None, radius=2))
            lines = wrap(f"{switch.name}: each GPU link {num(gbs)} GB/s one way", x1 - x0 - 6,
                         SIZE)  # fmt: skip
            _text(d, (x0 + x1) / 2, yb - 1.5, lines[:2], x1 - x0 - 6, color=colors.white,
                  font=SANS_BOLD)  # fmt: skip

        return drop + box_h + 6, draw_switch
    # GPU-to-GPU links (a mesh board's pairs, a bridge's pairs): one bracket each, nearest first
    pairs = sorted(gpu_links, key=lambda lk: (abs(nodes[lk.a].cx - nodes[lk.b].cx), nodes[lk.a].cx))
    ends: dict[str, list[tuple[float, int]]] = {}
    for i, lk in enumerate(pairs):
        a, b = sorted((nodes[lk.a], nodes[lk.b]), key=lambda n: n.cx)
        ends.setdefault(a.dev.id, []).append((b.cx, i))
        ends.setdefault(b.dev.id, []).append((a.cx, i))
    slot: dict[tuple[str, int], float] = {}
    for dev_id, peers in ends.items():
        n = nodes[dev_id]
        peers.sort()
        for k, (_, i) in enumerate(peers):
            slot[(dev_id, i)] = n.x0 + PAD + (n.w - 2 * PAD) * (k + 1) / (len(peers) + 1)
    step = 6.0
    level: list[int] = []  # the lowest level where a pair's span meets no other pair's
    spans: list[tuple[float, float]] = []
    for lk in pairs:
        lo, hi = sorted((nodes[lk.a].cx, nodes[lk.b].cx))
        taken = {lv for lv, (a, b) in zip(level, spans, strict=True) if a <= hi and lo <= b}
        level.append(next(lv for lv in range(len(pairs) + 1) if lv not in taken))
        spans.append((lo, hi))
    levels = max(level) + 1
    board = next((d for d in host.devices if d.kind.value == "nvlink-mesh"), None)
    labelled = board is None  # bridges: the bandwidth beside each bridge where it fits
    zone = levels * step + 6 + (LEAD if labelled else 0)

    def draw_pairs(d: Drawing, y_leaf: float) -> None:
        drawn = NvlinkLinks()
        d.add(drawn)
        for i, lk in enumerate(pairs):
            yb = y_leaf - 6 - level[i] * step
            pa, pb = slot[(lk.a, i)], slot[(lk.b, i)]
            drawn.add(PolyLine([pa, y_leaf, pa, yb, pb, yb, pb, y_leaf], strokeColor=NVLINK,
                           strokeWidth=1.5 if board is not None else 2.5))  # fmt: skip
            if labelled:
                room = max(nodes[lk.a].x1, nodes[lk.b].x1) - min(nodes[lk.a].x0, nodes[lk.b].x0)
                text = f"{num(lk.gbs)} GB/s"
                if text_width(text, SANS, SIZE) <= room - 2 * PAD:
                    d.add(label((pa + pb) / 2, yb - LEAD + 1, text, room - 2 * PAD, SIZE,
                                "middle", min_size=SIZE))  # fmt: skip

    return zone, draw_pairs


def draw(data: ReportData, width: float = 480) -> Drawing | None:
    topo = getattr(data.result, "topology", None)
    if topo is None or not topo.hosts:
        return None
    return draw_layout(topo.hosts[0], width)
