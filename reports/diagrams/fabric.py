"""Network fabric, drawn as an architect draws the physical network: for each network (the GPU
compute fabric, the service network, out-of-band management) its spines, its leaves and the hosts
below them, every host joined to its leaf (or leaf pair) with the link count and speed written on
the links, the leaves' uplinks to the spines with theirs, and the storage system where it
attaches. Rows of more than eight boxes are summarized (the first few, an ellipsis, the last)
with the count written out; notes wrap over lines rather than being cut."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reportlab.graphics.shapes import Drawing, Line

from reports.data import ReportData
from reports.diagrams.common import box, label, new_drawing, wrap
from reports.fonts import SANS, SANS_BOLD, text_width
from reports.styles import ACCENT, ACCENT_LIGHT, INK, MUTED, RULE, ZEBRA
from wizard.base.numbers import count, num, ratio
from wizard.present import labels

if TYPE_CHECKING:
    from wizard.model.buildout import Plane

MAX_BOXES = 8
SW_W, SW_H = 50, 16
ROW = 34  # vertical distance between rows of boxes
SIZE = 7.0  # the smallest text of the figure
LEADING = 9.0
STORAGE_FILL = ACCENT_LIGHT


def shown(n: int) -> list[int | None]:
    """Which of ``n`` boxes a row draws (1-based): all up to MAX_BOXES, else the first six, a
    gap (None) and the last."""
    if n <= MAX_BOXES:
        return list(range(1, n + 1))
    return [*range(1, MAX_BOXES - 1), None, n]


def _box_width(n: int, width: float) -> float:
    """The width of each box of a row of ``n`` over ``width``: SW_W, narrower where the row's
    slots are closer than that."""
    return min(SW_W, width / max(len(shown(n)), 1) - 4)


def _row(d: Drawing, y: float, n: int, name: str, width: float, x0: float) -> dict[int, float]:
    """A row of ``n`` boxes named "{name} k" (or "k" where the name does not fit; the row's
    caption names it); returns the centre x of each box drawn."""
    slots = shown(n)
    step = width / max(len(slots), 1)
    w = _box_width(n, width)
    named = text_width(f"{name} {n}", SANS, SIZE) <= w - 3
    centres: dict[int, float] = {}
    for i, k in enumerate(slots):
        x = x0 + step * (i + 0.5)
        if k is None:
            d.add(label(x, y + 5, "…", step, SIZE, "middle", color=MUTED, min_size=SIZE))
            continue
        d.add(box(x - w / 2, y, w, SW_H, ACCENT_LIGHT, stroke=RULE, radius=2))
        d.add(label(x, y + 5, f"{name} {k}" if named else f"{k}", w - 3, SIZE, "middle",
                    min_size=SIZE))  # fmt: skip
        centres[k] = x
    return centres


def _link(d: Drawing, x1: float, y1: float, x2: float, y2: float, color=ACCENT) -> None:
    d.add(Line(x1, y1, x2, y2, strokeColor=color, strokeWidth=0.6))


def _notes(plane: Plane, width: float) -> list[str]:
    """The switch tiers and cable runs of ``plane``, wrapped to ``width``."""
    items = [
        f"{t.count} × {t.model} ({t.role}): {t.downlinks} ports down"
        + (f", {t.uplinks} up" if t.uplinks else "")
        + f" at {num(t.port_speed_gbps)} Gb/s"
        for t in plane.tiers
    ]
    # a run placed in the racks says its own counts (the bill's); say a count once
    items += [
        c.description if f"{c.count:,} " in c.description else f"{c.count:,} × {c.description}"
        for c in plane.cables
        if c.count
    ]
    lines: list[str] = []
    for item in items:
        lines += wrap(item, width, SIZE)
    return lines


def _hosts_of_leaf(hosts: int, per_host: int, leaves: int, redundant: bool) -> list[set[int]]:
    """For each leaf (index 0..), the hosts (1-based) cabled to it, as the fabric sizing counts
    the ports: host ports in order over the leaves, each leaf taking its even share; with a
    redundant pair, each host on both leaves of its pair."""
    out: list[set[int]] = [set() for _ in range(leaves)]
    if not hosts or not leaves:
        return out
    if redundant and leaves >= 2:
        pairs = leaves // 2
        base, extra = divmod(hosts, pairs)
        h = 1
        for g in range(pairs):
            for _ in range(base + (1 if g < extra else 0)):
                out[2 * g].add(h)
                out[2 * g + 1].add(h)
                h += 1
        return out
    each = max(per_host, 1)
    base, extra = divmod(hosts * each, leaves)
    port = 0
    for leaf in range(leaves):
        for _ in range(base + (1 if leaf < extra else 0)):
            out[leaf].add(port // each + 1)
            port += 1
    return out


class _Plane:
    """One network's panel: measured first (its height), then drawn."""

    def __init__(self, plane: Plane, hosts: int, storage: str | None, width: float) -> None:
        self.p = plane
        self.hosts = hosts
        self.storage = storage
        self.width = width
        self.tiers_w = width * 0.6
        over = (
            f"oversubscription {ratio(plane.oversubscription)}:1 (target "
            f"{ratio(plane.oversubscription_target)}:1)"
            if plane.oversubscription is not None
            else "one switch tier"
            if plane.tiers
            else "one out-of-band switch at the top of each rack"
            if plane.name.split(".")[0] == "oob"
            else "the site's switches, not sized here"
        )
        self.notes = [over, *_notes(plane, width - self.tiers_w - 20)]
        if storage:
            self.notes += wrap(
                f"storage: {storage}, on this network (its front-end ports per the storage "
                "vendor's quote)",
                width - self.tiers_w - 20,
                SIZE,
            )
        self.leaf = next((t for t in plane.tiers if t.role == "leaf"), None)
        self.spine = next((t for t in plane.tiers if t.role == "spine"), None)
        rows = 1 + (self.leaf is not None) + (self.spine is not None)
        rows = max(rows, 2)  # the out-of-band panel draws the site's network above the hosts
        drawn = 22 + ROW * rows + 14 + (LEADING if self.spine is not None else 0)
        self.height = max(drawn, 26 + LEADING * len(self.notes)) + 8

    def title(self) -> str:
        p = self.p
        kind = p.name.split(".")[0]  # a shared network is named by kind and fabric
        name = labels.NETWORK_SHORT.get(kind, kind.capitalize())
        text = f"{name}: {p.technology}, {num(p.speed_gbps)} Gb/s"
        if p.rdma and p.rdma != "none":
            text += f", RDMA: {labels.name(labels.RDMA_SHORT, p.rdma)}"
        return text

    def draw(self, d: Drawing, y: float) -> None:
        p, w = self.p, self.width
        d.add(box(0, y, w, self.height - 8, ZEBRA, stroke=RULE))
        top = y + self.height - 8
        d.add(label(6, top - 12, self.title(), w - 12, 7.5, font=SANS_BOLD, min_size=7.5))
        x0, tw = 6.0, self.tiers_w
        y_hosts = y + 16 + (LEADING if self.spine is not None else 0)
        y_leaf = y_hosts + ROW
        y_spine = y_leaf + ROW
        per_host = -(-p.host_ports // self.hosts) if self.hosts else 0
        hosts = _row(d, y_hosts, self.hosts, "host", tw * (0.78 if self.storage else 1), x0)
        if self.storage:
            sx = x0 + tw * 0.8
            d.add(box(sx, y_hosts, tw * 0.2 - 2, SW_H, STORAGE_FILL, stroke=ACCENT, radius=2))
            d.add(label(sx + tw * 0.1 - 1, y_hosts + 5, "storage", tw * 0.2 - 6, SIZE, "middle",
                        min_size=SIZE))  # fmt: skip
        split = ", split over a leaf pair" if p.redundant else ""
        each = (
            f"{count(self.hosts, 'host')}, {per_host} × {num(p.speed_gbps)} Gb/s each{split}"
            if per_host * self.hosts == p.host_ports
            # clusters sharing the network bring different port counts per host
            else f"{count(self.hosts, 'host')}, {num(p.host_ports)} ports of "
            f"{num(p.speed_gbps)} Gb/s in all{split}"
        )
        d.add(label(x0, y_hosts - 10, each, tw, SIZE, color=INK, min_size=SIZE))
        if self.spine is not None and self.leaf is not None:
            up = self.leaf.uplinks
            per_spine = up // self.spine.count if self.spine.count else 0
            d.add(label(x0, y_hosts - 10 - LEADING,
                        f"each leaf: {up} × {num(self.spine.port_speed_gbps)} Gb/s up"
                        + (f", {per_spine} to each spine" if per_spine else ""),
                        tw, SIZE, color=INK, min_size=SIZE))  # fmt: skip
        if self.leaf is None:
            # the out-of-band switches, one per rack (quoted); else the site's own network
            oob = sum(c.count for c in p.cables if c.between == "oob-uplink")
            text = (
                f"{count(oob, 'out-of-band switch', 'out-of-band switches')}, one per rack"
                if oob
                else "the site's network (existing, not quoted)"
            )
            bw = min(tw * 0.7, 220)
            bx = x0 + (tw - bw) / 2
            d.add(box(bx, y_leaf, bw, SW_H, ACCENT_LIGHT if oob else ZEBRA,
                      stroke=RULE if oob else MUTED, radius=2))  # fmt: skip
            d.add(label(bx + bw / 2, y_leaf + 5, text, bw - 6, SIZE, "middle",
                        color=INK if oob else MUTED, min_size=SIZE))  # fmt: skip
            for hx in hosts.values():
                _link(d, hx, y_hosts + SW_H, bx + bw / 2, y_leaf, color=MUTED)
            return
        leaves = _row(d, y_leaf, self.leaf.count, "leaf", tw, x0)
        cabled = _hosts_of_leaf(self.hosts, per_host, self.leaf.count, p.redundant)
        if p.redundant:
            for k in range(1, self.leaf.count, 2):
                if k in leaves and k + 1 in leaves:
                    half = _box_width(self.leaf.count, tw) / 2  # from edge to edge
                    a, b = leaves[k] + half, leaves[k + 1] - half
                    _link(d, a, y_leaf + SW_H / 2, b, y_leaf + SW_H / 2, color=MUTED)
                    d.add(label((a + b) / 2, y_leaf + SW_H / 2 + 2, "peer link", b - a, SIZE,
                                "middle", color=MUTED, min_size=SIZE))  # fmt: skip
        for k, lx in leaves.items():
            for h in cabled[k - 1]:
                if h in hosts:
                    _link(d, hosts[h], y_hosts + SW_H, lx, y_leaf)
        if self.spine is None:
            return
        spines = _row(d, y_spine, self.spine.count, "spine", tw, x0)
        for lx in leaves.values():
            for sx in spines.values():
                _link(d, lx, y_leaf + SW_H, sx, y_spine, color=MUTED)

    def draw_notes(self, d: Drawing, y: float) -> None:
        x = self.tiers_w + 14
        top = y + self.height - 8
        for i, text in enumerate(self.notes):
            d.add(label(x, top - 28 - i * LEADING, text, self.width - x - 6, SIZE, min_size=SIZE))


def draw(data: ReportData, width: float = 480) -> Drawing | None:
    r = data.result
    topo = getattr(r, "topology", None)
    if topo is None or not topo.fabric.planes:
        return None
    hosts = r.cluster.hosts_total
    s = r.storage
    storage = None
    if s is not None and s.system is not None and s.nodes:
        storage = f"{count(s.nodes, 'node')} of {s.system_name}"
    return draw_planes([(p, hosts) for p in topo.fabric.planes], storage, width)


def draw_planes(
    planes: list[tuple[Plane, int]], storage: str | None, width: float = 480
) -> Drawing | None:
    """Each network with the hosts on it: one cluster's, or those of every cluster sharing it.
    ``storage`` is drawn on the service network."""
    if not planes:
        return None
    panels = [
        _Plane(p, hosts, storage if p.name.split(".")[0] == "service" else None, width)
        for p, hosts in planes
    ]
    d = new_drawing(width, sum(x.height for x in panels))
    y = sum(x.height for x in panels)
    for panel in panels:
        y -= panel.height
        panel.draw(d, y)
        panel.draw_notes(d, y)
    return d
