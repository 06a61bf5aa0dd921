"""The logical architecture of a design of several clusters: each cluster as the design builds
it (role, hosts, GPUs and what runs on it) above the networks they share, with a dot where a
cluster joins a network. Each network is drawn once, as the engine sizes it once."""

from __future__ import annotations

from reportlab.graphics.shapes import Circle, Drawing, Rect

from reports.diagrams.common import WHITE, box, connector, label, lines_in_box, new_drawing, wrap
from reports.fonts import SANS, SANS_BOLD, text_width
from reports.styles import ACCENT, ACCENT_LIGHT, INK, MUTED, ZEBRA
from wizard.base.numbers import count, num
from wizard.model.buildout import Plane
from wizard.model.design import ClusterRole
from wizard.model.estate import Estate, EstateCluster
from wizard.present.labels import CLUSTER_ROLE

PER_ROW = 3
LEADING = 10
MAX_LINES = 9
GAP = 10
NET_GAP = 22
SIZE = 7.5  # never below 7 pt


def _network_text(p: Plane) -> str:
    kit = ", ".join(f"{t.count} × {t.model}" for t in p.tiers)
    what = {"compute": "GPU fabric", "service": "service network", "oob": "out-of-band"}
    head = f"{p.technology} {what.get(p.name.split('.', 1)[0], '')}".strip()
    return f"{head}: {count(p.host_ports, 'host port')}" + (f", {kit}" if kit else "")


def _cluster_lines(c: EstateCluster, gpu_names: dict[str, str]) -> list[str]:
    role = CLUSTER_ROLE[c.role]
    lines = [role[0].upper() + role[1:], f"{num(c.hosts)} × {c.server_name}"]
    if c.role is ClusterRole.GPU and c.result is not None:
        gpu = gpu_names.get(c.result.gpu, c.result.gpu)
        lines.append(f"{count(c.gpus, 'GPU')} ({gpu}), {num(c.gpus_demand)} used")
        lines += [f"• {w}" for w in c.workloads]
    else:
        lines.append(c.reason[0].upper() + c.reason[1:])
    return lines


def draw_pages(
    e: Estate, gpu_names: dict[str, str], width: float = 480, max_height: float = 560
) -> list[Drawing]:
    """The estate drawing in as many parts as the page needs: each part holds whole rows of
    clusters above the shared networks, so 33 clusters never make a drawing taller than a page."""
    box_h = _box_height(e.clusters, gpu_names, width)
    nets = [p for p in e.network if p.host_ports or p.tiers]
    room = max_height - len(nets) * NET_GAP - 8
    per_page = max(1, int(room // (box_h + GAP))) * PER_ROW
    chunks = [e.clusters[i : i + per_page] for i in range(0, len(e.clusters), per_page)]
    return [draw(e, gpu_names, width, chunk) for chunk in chunks]


def _box_height(clusters: list, gpu_names: dict[str, str], width: float) -> float:
    box_w = (width - (PER_ROW - 1) * GAP) / PER_ROW
    text = [
        [part for line in _cluster_lines(c, gpu_names) for part in wrap(line, box_w - 12, SIZE)]
        for c in clusters
    ]
    return 22 + LEADING * min(MAX_LINES, max(len(t) for t in text))


def draw(
    e: Estate, gpu_names: dict[str, str], width: float = 480, clusters: list | None = None
) -> Drawing:
    """``gpu_names`` maps catalog GPU ids to product names for the box text; ``clusters`` (all
    of the estate's by default) are the ones this drawing shows."""
    shown = e.clusters if clusters is None else clusters
    box_w = (width - (PER_ROW - 1) * GAP) / PER_ROW
    text = [
        [part for line in _cluster_lines(c, gpu_names) for part in wrap(line, box_w - 12, SIZE)]
        for c in shown
    ]
    box_h = _box_height(e.clusters, gpu_names, width)
    rows = (len(shown) + PER_ROW - 1) // PER_ROW
    nets = [p for p in e.network if p.host_ports or p.tiers]
    height = rows * (box_h + GAP) + len(nets) * NET_GAP + 8
    d = new_drawing(width, height)
    bars = {id(p): 4 + (len(nets) - 1 - i) * NET_GAP for i, p in enumerate(nets)}
    for i, c in enumerate(shown):
        row, col = divmod(i, PER_ROW)
        x = col * (box_w + GAP)
        y = height - (row + 1) * (box_h + GAP) + GAP
        gpu_cluster = c.result is not None
        d.add(box(x, y, box_w, box_h, ACCENT_LIGHT if gpu_cluster else ZEBRA,
                  stroke=ACCENT if gpu_cluster else MUTED))  # fmt: skip
        d.add(label(x + 6, y + box_h - 12, c.name, box_w - 12, 8.5, font=SANS_BOLD, min_size=7))
        d.add(lines_in_box(x + 6, y + box_h - 14, box_w - 12, text[i], size=SIZE,
                           leading=LEADING, max_lines=MAX_LINES))  # fmt: skip
        on = [p for p in nets if c.name in p.clusters]
        for k, p in enumerate(on):
            cx = x + box_w * (k + 1) / (len(on) + 1)
            by = bars[id(p)]
            d.add(connector(cx, y, cx, by, color=MUTED, width=0.8))
            d.add(Circle(cx, by, 2.2, fillColor=INK, strokeColor=None))
    for p in nets:
        by = bars[id(p)]
        compute = p.name.startswith("compute")
        d.add(connector(0, by, width, by, color=ACCENT if compute else MUTED,
                        width=3 if compute else 2))  # fmt: skip
        words = _network_text(p)
        backing = text_width(words, SANS, SIZE) + 6
        d.add(Rect(0, by + 2, backing, SIZE + 3, fillColor=WHITE, strokeColor=None))
        d.add(label(2, by + 4, words, width - 4, SIZE, min_size=7, color=INK))
    return d
