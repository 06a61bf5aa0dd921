"""Charts drawn from the Result: memory per GPU by component for each workload (stacked bars),
and GPUs and utilization per sharing mode. Hand-built bars rather than reportlab's chart widgets,
so every label goes through the fitting helper and none can overlap another."""

from __future__ import annotations

import math

from reportlab.graphics.shapes import Drawing, Line, Rect

from reports.data import ReportData
from reports.diagrams.common import WHITE, label, new_drawing, wrap
from reports.fonts import SANS, SANS_BOLD, text_width
from reports.styles import ERROR, INK, MUTED, RULE, SERIES
from wizard.base.numbers import count, num, pct
from wizard.model.buildout import Rack
from wizard.present.risk_register import power_not_counted

MAX_BARS = 30
COMPONENTS = [
    ("weights", "weights"),
    ("gradients", "gradients"),
    ("optimizer", "optimizer states"),
    ("activations", "activations"),
    ("kv_cache", "KV cache"),
    ("overhead", "overhead"),
    ("workspace", "whole GPU / per-user need"),
]


def nice_step(span: float, ticks: int = 5) -> float:
    raw = span / ticks
    mag = 10 ** math.floor(math.log10(raw))
    return next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)


def _axis(d: Drawing, x0: float, x1: float, y0: float, y1: float, top: float, unit: str):
    # as many ticks as their labels (up to about 30 pt wide, e.g. "0.250") leave room for
    step = nice_step(top, max(1, min(5, int((x1 - x0) // 32))))
    v = 0.0
    while v <= top + 1e-9:
        x = x0 + (x1 - x0) * v / top
        d.add(Line(x, y0, x, y1, strokeColor=RULE, strokeWidth=0.4))
        d.add(label(x, y0 - 9, num(v), 40, 7, "middle", color=MUTED))
        v += step
    d.add(label(x1, y0 - 18, unit, 120, 7, "end", color=MUTED))


def memory(data: ReportData, width: float = 480) -> Drawing | None:
    """Memory per GPU of each workload, stacked by component, against the GPU's memory."""
    rows = [
        w
        for w in data.result.workloads
        if w.memory_gb.total > 0 and w.sized_from != "gpus_per_member"
    ]
    if not rows:
        return None
    note = ""
    if len(rows) > MAX_BARS:
        note = f"The {MAX_BARS} largest of {len(rows)} workload groups are shown."
        rows = sorted(rows, key=lambda w: -w.memory_gb.total)[:MAX_BARS]
    used = [
        (key, name) for key, name in COMPONENTS if any(getattr(w.memory_gb, key) > 0 for w in rows)
    ]
    bar_h, bar_gap = 12, 6
    legend_h = 14 * math.ceil(len(used) / 4)
    plot_h = len(rows) * (bar_h + bar_gap) + bar_gap
    height = 12 + plot_h + 28 + legend_h + (12 if note else 0) + 6
    d = new_drawing(width, height)
    name_w = width * 0.28
    x0, x1 = name_w + 6, width - 42
    y0 = height - plot_h - 12
    capacity = data.gpu.memory_gb
    top = max(capacity, max(w.memory_gb.total for w in rows)) * 1.05
    _axis(d, x0, x1, y0, y0 + plot_h, top, "GB per GPU")
    scale = (x1 - x0) / top
    for i, w in enumerate(rows):
        y = y0 + plot_h - (i + 1) * (bar_h + bar_gap)
        d.add(label(name_w, y + 3, w.name, name_w, 7, "end"))
        x = x0
        for n, (key, _) in enumerate(COMPONENTS):
            part = getattr(w.memory_gb, key)
            if part <= 0:
                continue
            d.add(Rect(x, y, part * scale, bar_h, fillColor=SERIES[n], strokeColor=None))
            x += part * scale
        over = w.memory_gb.total > capacity
        d.add(label(x + 3, y + 3, num(w.memory_gb.total), 40, 7, color=ERROR if over else INK))
    cx = x0 + capacity * scale
    d.add(Line(cx, y0, cx, y0 + plot_h, strokeColor=ERROR, strokeWidth=0.8, strokeDashArray=[3, 2]))
    cap_text = f"{data.gpu.name}: {num(capacity)} GB"
    anchor = "end" if cx + text_width(cap_text, size=7) / 2 > width else "middle"
    d.add(label(cx, y0 + plot_h + 2, cap_text, cx if anchor == "end" else width, 7, anchor,
                color=ERROR))  # fmt: skip
    # legend, four to a line
    slot = width / 4
    for i, (key, name) in enumerate(used):
        n = [k for k, _ in COMPONENTS].index(key)
        row, col = divmod(i, 4)
        lx, ly = col * slot, y0 - 32 - row * 14
        d.add(Rect(lx, ly, 8, 8, fillColor=SERIES[n], strokeColor=None))
        d.add(label(lx + 11, ly + 1, name, slot - 14, 7))
    if note:
        d.add(label(0, 2, note, width, 7, color=MUTED))
    return d


def _two_lines(d: Drawing, x: float, y: float, h: float, text: str, width: float, anchor: str,
               font: str, color) -> None:  # fmt: skip
    """``text`` wrapped over at most two 7 pt lines centred on a bar of height ``h``; a text
    longer than two lines keeps its first clause, so nothing is cut mid-word."""
    lines = wrap(text, width, 7, font)
    cuts = [i for i, ch in enumerate(text) if ch in ";,("]
    while len(lines) > 2 and cuts:  # drop trailing clauses, never a part of a word
        text = text[: cuts.pop()].strip()
        lines = wrap(text, width, 7, font)
    lines = lines[:2]
    mid = y + h / 2
    ys = [mid - 2.5] if len(lines) == 1 else [mid + 1.5, mid - 6.5]
    for line, ly in zip(lines, ys, strict=False):
        d.add(label(x, ly, line, width, 7, anchor, font=font, color=color))


def sharing(data: ReportData, width: float = 480) -> Drawing | None:
    """GPUs each sharing mode would need for this design, with the mean share of them allocated."""
    options = data.result.sharing_comparison
    if not options:
        return None
    bar_h, bar_gap = 18, 8
    plot_h = len(options) * (bar_h + bar_gap) + bar_gap
    height = plot_h + 40
    d = new_drawing(width, height)
    name_w = width * 0.26
    x0, x1 = name_w + 6, width - 150
    y0 = 36
    top = max([o.gpus for o in options if o.available] + [1]) * 1.1
    _axis(d, x0, x1, y0, y0 + plot_h, top, "GPUs")
    scale = (x1 - x0) / top
    for i, o in enumerate(options):
        y = y0 + plot_h - (i + 1) * (bar_h + bar_gap)
        font = SANS_BOLD if o.mode == "as-designed" else SANS
        _two_lines(d, name_w, y, bar_h, o.label, name_w - 2, "end", font, INK)
        if not o.available:
            d.add(Rect(x0, y, width - x0, bar_h, fillColor=WHITE, strokeColor=None))
            _two_lines(d, x0 + 2, y, bar_h, f"not available: {o.reason}", width - x0 - 4,
                       "start", SANS, MUTED)  # fmt: skip
            continue
        w = o.gpus * scale
        d.add(Rect(x0, y, w, bar_h, fillColor=SERIES[0], strokeColor=None))
        util = Rect(x0, y, w * o.mean_utilization, 3, fillColor=SERIES[2], strokeColor=None)
        d.add(util)
        text = (
            f"{count(o.gpus, 'GPU')}, {count(o.hosts_total, 'host')}, "
            f"{pct(o.mean_utilization)} allocated"
        )
        d.add(label(x0 + w + 4, y + 4, text, width - (x0 + w + 4), 7))
    d.add(Rect(0, 2, 8, 8, fillColor=SERIES[0], strokeColor=None))
    d.add(label(11, 3, "GPUs needed", 80, 7))
    d.add(Rect(100, 2, 8, 3, fillColor=SERIES[2], strokeColor=None))
    d.add(label(111, 3, "mean share of them allocated to the workloads", width - 113, 7))
    return d


def power_per_rack(data: ReportData, width: float = 480) -> Drawing | None:
    """Power per rack against the rack limit. Racks with the same role and load share one bar
    ("rack-01 … rack-48, each"), so hundreds of racks stay readable."""
    racks = getattr(data.result, "racks", None)
    if racks is None:
        return None
    return power_chart(racks.racks, width)


def power_chart(all_racks: list[Rack], width: float = 480) -> Drawing | None:
    """Power per rack of ``all_racks`` against the rack limit."""
    if not all_racks:
        return None
    groups: list[tuple[str, float, float, int, int]] = []  # label, watts, limit, count, unknown
    run: list = []

    def key(r: Rack) -> tuple:
        return (r.role, round(r.power_w), r.power_limit_w, power_not_counted(r))

    for rack in [*all_racks, None]:
        if run and (rack is None or key(rack) != key(run[0])):
            name = run[0].name if len(run) == 1 else f"{run[0].name} … {run[-1].name}"
            groups.append((name, run[0].power_w, run[0].power_limit_w, len(run),
                           power_not_counted(run[0])))  # fmt: skip
            run = []
        if rack is not None:
            run.append(rack)
    cut = len(groups) - MAX_BARS
    groups = groups[:MAX_BARS]
    # racks whose total leaves out storage of unpublished power: a star and a note below
    notes = [
        f"* {g[0]}: the total leaves out {count(g[4], 'storage node')} without a published "
        "power figure"
        for g in groups
        if g[4]
    ]
    if cut > 0:  # said, never dropped silently: the bill's per-rack table lists every rack
        notes.append(
            f"The first {MAX_BARS} of {MAX_BARS + cut} groups of racks are shown; the per-rack "
            "table lists every rack."
        )
    bar_h, bar_gap = 12, 6
    plot_h = len(groups) * (bar_h + bar_gap) + bar_gap
    height = 12 + plot_h + 28 + 11 * len(notes)
    d = new_drawing(width, height)
    for k, note in enumerate(reversed(notes)):
        d.add(label(0, 2 + 11 * k, note, width, 7))
    name_w = width * 0.3
    x0, x1 = name_w + 6, width - 90
    y0 = 22 + 11 * len(notes)
    limit = max(g[2] for g in groups)
    top = max(limit, max(g[1] for g in groups)) * 1.08 / 1000
    _axis(d, x0, x1, y0, y0 + plot_h, top, "kW per rack")
    scale = (x1 - x0) / top
    values: list[tuple[float, float, str]] = []
    for i, (name, watts, lim, limit_count, unknown) in enumerate(groups):
        y: float = y0 + plot_h - (i + 1) * (bar_h + bar_gap)
        d.add(label(name_w, y + 3, name, name_w, 7, "end"))
        over = watts > lim
        d.add(Rect(x0, y, watts / 1000 * scale, bar_h, fillColor=ERROR if over else SERIES[0],
                   strokeColor=None))  # fmt: skip
        # several racks alike: the bar's label names the first and last of them
        text = f"{watts / 1000:.1f} kW" + (" each" if limit_count > 1 else "")
        if unknown:
            text += " *"
        end = x0 + watts / 1000 * scale + 3
        values.append((end, y, text))
    cx = x0 + limit / 1000 * scale
    d.add(Line(cx, y0, cx, y0 + plot_h, strokeColor=ERROR, strokeWidth=0.8, strokeDashArray=[3, 2]))
    for end, y, text in values:  # on a white ground, so the limit line does not cross them
        shown = label(end, y + 3, text, width - end, 7)
        w = text_width(shown.text, size=shown.fontSize)
        d.add(Rect(end - 1, y + 1, w + 2, bar_h - 2, fillColor=WHITE, strokeColor=None))
        d.add(shown)
    limit_text = f"limit {limit / 1000:g} kW"
    anchor = "end" if cx + text_width(limit_text, size=7) / 2 > width else "middle"
    d.add(label(cx, y0 + plot_h + 2, limit_text, cx if anchor == "end" else width, 7, anchor,
                color=ERROR))  # fmt: skip
    return d
