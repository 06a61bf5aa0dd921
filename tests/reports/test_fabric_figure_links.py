"""The network figure read as a cabling plan, for every bundled example (and the large and
two-tier cases) at the product's widths: each row numbers its boxes 1..n with none missing (or
the first six, an ellipsis and the last), every host is cabled to a leaf (to both leaves of its
pair on a redundant network), no link runs through a box, and the 'peer link' label sits above
the line it names rather than being struck through by it."""

from __future__ import annotations

import re
from functools import cache

from reportlab.graphics.shapes import Line, Rect, String
from reportlab.pdfbase.pdfmetrics import stringWidth

from reports.data import build_data
from reports.diagrams import fabric
from reports.fonts import register_fonts
from tests.reports.drawing_parts import SLACK, WIDTHS, leaf_shapes
from wizard.app.catalog_loader import load_catalog
from wizard.app.io import design_from_text
from wizard.base.bundled import example_names, example_text


def _scaled(catalog, name: str, factor: int):
    design = design_from_text(example_text(name))
    groups = [g.model_copy(update={"count": g.count * factor}) for g in design.workloads]
    return build_data(design.model_copy(update={"workloads": groups}), catalog)


def _two_tiers(catalog):
    """gpt3-175b at 2 requests a second needs spines above its leaves."""
    design = design_from_text(example_text("gpt3-175b"))
    groups = [
        g.model_copy(
            update={"inference": g.inference.model_copy(update={"target_requests_per_s": 2})}
        )
        for g in design.workloads
    ]
    return build_data(design.model_copy(update={"workloads": groups}), catalog)


@cache
def _panels():
    """(case, width, plane, hosts, drawing of that one network) for every case and width."""
    register_fonts()
    catalog = load_catalog(include_user=False)
    cases = [(n, build_data(design_from_text(example_text(n)), catalog)) for n in example_names()]
    cases += [("starter x25", _scaled(catalog, "starter", 25))]
    cases += [("enterprise x28", _scaled(catalog, "enterprise", 28))]
    cases += [("gpt3-175b at 2/s", _two_tiers(catalog))]
    out = []
    for name, data in cases:
        topo = data.result.topology
        hosts = data.result.cluster.hosts_total
        storage = "storage" if data.storage is not None else None
        for p in topo.fabric.planes:
            for width in WIDTHS:
                on = storage if p.name.split(".")[0] == "service" else None
                out.append((name, width, p, hosts, fabric.draw_planes([(p, hosts)], on, width)))
    return out


def _tier(p, role):
    return next((t for t in p.tiers if t.role == role), None)


def _rows(d):
    """The device boxes (hosts, switches, storage) by row, bottom row first: each a list of
    (rect, label text) left to right."""
    rects = [
        s for s in leaf_shapes(d) if isinstance(s, Rect) and abs(s.height - fabric.SW_H) < 0.01
    ]
    texts = [s for s in leaf_shapes(d) if isinstance(s, String)]
    rows: dict[float, list] = {}
    for r in rects:
        inside = [
            t.text
            for t in texts
            if r.x <= t.x <= r.x + r.width and r.y <= t.y <= r.y + r.height and t.text != "…"
        ]
        rows.setdefault(round(r.y, 2), []).append((r, inside[0] if inside else ""))
    return [sorted(rows[y], key=lambda b: b[0].x) for y in sorted(rows)]


def _numbers(row) -> list[int]:
    return [int(re.search(r"(\d+)$", text).group(1)) for _, text in row if text != "storage"]


def _expected(n: int) -> list[int]:
    """A row of n boxes: all of them up to eight; more, the first six and the last (the figure
    writes an ellipsis for the rest)."""
    return list(range(1, n + 1)) if n <= 8 else [1, 2, 3, 4, 5, 6, n]


def test_the_row_helper_keeps_every_box_up_to_eight():
    """1..8 boxes: all drawn; 9 or more: six, a gap, the last."""
    assert fabric.shown(1) == [1]
    assert fabric.shown(2) == [1, 2]
    assert fabric.shown(8) == [1, 2, 3, 4, 5, 6, 7, 8]
    assert fabric.shown(9) == [1, 2, 3, 4, 5, 6, None, 9]  # negative: not all nine
    assert fabric.shown(0) == []


def test_each_row_numbers_its_boxes_with_none_missing():
    """The hosts row counts the hosts the plan puts on the network, the leaf and spine rows the
    switch counts of its tiers; the last box always carries the count."""
    seen_spines = False
    for name, width, p, hosts, d in _panels():
        rows = _rows(d)
        assert _numbers(rows[0]) == _expected(hosts), (name, width, p.name)
        leaf, spine = _tier(p, "leaf"), _tier(p, "spine")
        if leaf is not None:
            assert _numbers(rows[1]) == _expected(leaf.count), (name, width, p.name)
        if spine is not None:
            seen_spines = True
            assert _numbers(rows[2]) == _expected(spine.count), (name, width, p.name)
    assert seen_spines  # the two-tier case is among them


def _host_links(d):
    """For each host number drawn, the leaf numbers its links reach."""
    rows = _rows(d)
    drawn = [r for r, t in rows[0] if t != "storage"]
    host_x = {r.x + r.width / 2: n for r, n in zip(drawn, _numbers(rows[0]), strict=True)}
    leaf_x = {r.x + r.width / 2: n for (r, _), n in zip(rows[1], _numbers(rows[1]), strict=True)}
    top, bottom = rows[0][0][0].y + fabric.SW_H, rows[1][0][0].y
    out: dict[int, set[int]] = {n: set() for n in host_x.values()}
    for line in (s for s in leaf_shapes(d) if isinstance(s, Line)):
        (xa, ya), (xb, yb) = sorted([(line.x1, line.y1), (line.x2, line.y2)], key=lambda q: q[1])
        if abs(ya - top) < 0.01 and abs(yb - bottom) < 0.01:
            h = next((n for x, n in host_x.items() if abs(x - xa) < 0.01), None)
            leaf = next((n for x, n in leaf_x.items() if abs(x - xb) < 0.01), None)
            assert h is not None and leaf is not None, "a link starts and ends at a box"
            out[h].add(leaf)
    return out


def test_every_host_is_cabled_and_a_redundant_pair_takes_each_host_twice():
    """Every host drawn has a link up to a leaf. On a redundant network each host goes to both
    leaves of one pair (leaves 1 and 2, 3 and 4, ...), never to one leaf alone (a leaf summed
    up in a long row's ellipsis has no box to reach)."""
    checked = 0
    for name, width, p, _hosts, d in _panels():
        leaf = _tier(p, "leaf")
        if leaf is None:
            continue
        links = _host_links(d)
        drawn = set(_numbers(_rows(d)[1]))
        for h, on in links.items():
            assert on, f"{name} {p.name} at {width}: host {h} has no link"
            if p.redundant and leaf.count >= 2:
                first = min(on) - (min(on) + 1) % 2  # the odd leaf of the pair
                pair = {first, first + 1}
                assert on == pair & drawn, (name, p.name, width, h, on)  # both, where drawn
                checked += 1
    assert checked  # every bundled service network is a redundant pair


def test_the_pair_rule_at_its_boundary():
    """Two leaves are the smallest pair: 4 hosts with 2 ports each on a redundant pair sit on
    both leaves; the same hosts on two leaves that are not a pair split their 8 ports 4 and 4
    (hosts 1-2 on leaf 1, hosts 3-4 on leaf 2); one leaf alone takes every host."""
    hosts_of_leaf = fabric._hosts_of_leaf
    assert hosts_of_leaf(4, 2, 2, redundant=True) == [{1, 2, 3, 4}, {1, 2, 3, 4}]
    assert hosts_of_leaf(4, 2, 2, redundant=False) == [{1, 2}, {3, 4}]
    assert hosts_of_leaf(4, 2, 1, redundant=True) == [{1, 2, 3, 4}]


def _inside(px: float, py: float, r: Rect) -> bool:
    return r.x + SLACK < px < r.x + r.width - SLACK and r.y + SLACK < py < r.y + r.height - SLACK


def test_no_link_runs_through_a_box():
    """A link up the figure leaves a box at its top edge and reaches the next at its bottom
    edge, and the level peer link between a pair's leaves runs from one leaf's side to the
    other's: no point of a link lies inside a host, switch or storage box (an uplink drawn from
    a leaf's bottom would cross the leaf and its name; a peer link measured from boxes wider
    than a crowded row draws would run back through both leaves)."""
    seen_uplinks = False
    for name, width, p, _hosts, d in _panels():
        boxes = [r for row in _rows(d) for r, _ in row]
        lines = [s for s in leaf_shapes(d) if isinstance(s, Line)]
        for line in lines:
            for i in range(1, 20):
                t = i / 20
                px, py = line.x1 + t * (line.x2 - line.x1), line.y1 + t * (line.y2 - line.y1)
                hit = [r for r in boxes if _inside(px, py, r)]
                assert not hit, f"{name} {p.name} at {width}: a link crosses a box"
        seen_uplinks |= _tier(p, "spine") is not None
    assert seen_uplinks


def test_the_peer_link_label_sits_above_its_line():
    """'peer link' names the line between the two leaves of a pair: the text sits above that
    line, between the two leaves, and the line does not run through its letters."""
    seen = 0
    for name, width, p, _hosts, d in _panels():
        labels = [s for s in leaf_shapes(d) if isinstance(s, String) and s.text == "peer link"]
        flat = [s for s in leaf_shapes(d) if isinstance(s, Line) and abs(s.y1 - s.y2) < 0.01]
        for s in labels:
            w = stringWidth(s.text, s.fontName, s.fontSize)
            x0, x1 = s.x - w / 2, s.x + w / 2  # drawn centred
            under = [ln for ln in flat if min(ln.x1, ln.x2) <= s.x <= max(ln.x1, ln.x2)]
            assert len(under) == 1, (name, p.name, width)
            line = under[0]
            assert min(line.x1, line.x2) - SLACK <= x0 and x1 <= max(line.x1, line.x2) + SLACK
            descent = s.y - s.fontSize * 0.2
            assert descent >= line.y1, f"{name} {p.name} at {width}: the line strikes the label"
            seen += 1
    assert seen  # every bundled service network draws its pair's peer link
