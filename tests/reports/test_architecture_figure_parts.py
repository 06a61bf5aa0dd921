"""The logical architecture read part by part, for every bundled example (and two clusters of
hundreds of hosts) at the product's widths: each host tile shows one square per GPU, side by
side inside the tile and centred in it; the '… N more' tile counts the hosts not drawn and sits
level with the tiles; each box of the top row drops its link from the middle of its bottom edge; a workload group's name, however long, stays inside the Workload groups box."""

from __future__ import annotations

import re
from functools import cache

from reportlab.graphics.shapes import Line, Rect, String

from reports.data import build_data
from reports.diagrams import architecture
from reports.fonts import register_fonts
from tests.reports.drawing_parts import SLACK, WIDTHS, all_groups, leaf_shapes, text_box
from wizard.app.catalog_loader import load_catalog
from wizard.app.io import design_from_text
from wizard.base.bundled import example_names, example_text

TOP_H = 92  # the top row's boxes: workload groups, client cluster, management cluster
LONG = "Sprachmodellbereitstellungsplattformwissensdatenbankkundendienst"  # one long word


def _scaled(catalog, name: str, factor: int, rename: bool = False):
    design = design_from_text(example_text(name))
    groups = [
        g.model_copy(update={"count": g.count * factor} | ({"name": LONG} if rename else {}))
        for g in design.workloads
    ]
    return build_data(design.model_copy(update={"workloads": groups}), catalog)


@cache
def _figures(rename: bool = False):
    """(case, width, data, drawing) for every bundled example and two very large clusters;
    with ``rename``, every workload group carries one long word as its name."""
    register_fonts()
    catalog = load_catalog(include_user=False)
    cases = [(n, 1) for n in example_names()] + [("starter", 25), ("enterprise", 28)]
    out = []
    for name, factor in cases:
        data = _scaled(catalog, name, factor, rename)
        for width in WIDTHS:
            out.append((f"{name} x{factor}", width, data, architecture.draw(data, width)))
    return out


def _tiles(d):
    """The host tiles: (tile rect, host number, the GPU squares in it)."""
    out = []
    for g in all_groups(d):
        items = list(g.contents)
        names = [s.text for s in items if isinstance(s, String) and s.text.startswith("host ")]
        if items and isinstance(items[0], Rect) and names:
            squares = [s for s in items[1:] if isinstance(s, Rect)]
            out.append((items[0], int(names[0].split()[1]), squares))
    return out


def test_each_host_tile_shows_one_square_per_gpu_inside_it():
    """gpus_per_host squares, none overlapping another (each GPU countable), all inside the
    tile and the block centred left to right (equal margins)."""
    for name, width, data, d in _figures():
        tiles = _tiles(d)
        assert tiles, (name, width)
        for tile, host, squares in tiles:
            where = f"{name} at {width}, host {host}"
            assert len(squares) == data.result.cluster.gpus_per_host, where
            for s in squares:
                assert tile.x - SLACK <= s.x and s.x + s.width <= tile.x + tile.width + SLACK, where
                assert tile.y - SLACK <= s.y and s.y + s.height <= tile.y + tile.height + SLACK
            for i, a in enumerate(squares):
                for b in squares[i + 1 :]:
                    apart = (
                        a.x + a.width <= b.x + SLACK
                        or b.x + b.width <= a.x + SLACK
                        or a.y + a.height <= b.y + SLACK
                        or b.y + b.height <= a.y + SLACK
                    )
                    assert apart, f"{where}: two GPU squares overlap"
            left = min(s.x for s in squares) - tile.x
            right = tile.x + tile.width - max(s.x + s.width for s in squares)
            # the gap after the last square of a row is part of the block's cell pitch
            pitch = sorted({round(s.x, 3) for s in squares})
            gap = (pitch[1] - pitch[0]) - squares[0].width if len(pitch) > 1 else 0
            assert abs(left - (right - gap)) <= SLACK, f"{where}: GPUs not centred"


def test_the_more_tile_sits_level_with_the_host_tiles():
    """A summarized cluster draws fewer tiles than hosts and says so in '… N more', N the hosts
    not drawn (starter x25 at 453 points: hosts 1 to 8 and 176 drawn, so 167 more), whose text
    is centred on its row's tiles (its middle within an eighth of a tile's height of theirs),
    where a host tile would be."""
    seen = 0
    for name, width, data, d in _figures():
        more = [
            s for s in leaf_shapes(d) if isinstance(s, String) and re.match(r"… \d+ more$", s.text)
        ]
        tiles = _tiles(d)
        hosts = data.result.cluster.hosts_total
        if not more:
            assert len(tiles) == hosts, (name, width)
            continue
        (s,) = more
        assert len(tiles) < hosts, (name, width)
        # the tiles drawn and the hosts the label counts are every host, once
        assert len(tiles) + int(s.text.split()[1]) == hosts, (name, width, s.text)
        _, y0, _, y1 = text_box(s)
        middle = (y0 + y1) / 2
        row = [t for t, _, _ in tiles if t.y <= middle <= t.y + t.height]
        assert row, f"{name} at {width}: the '… more' label is level with no tile"
        tile = row[0]
        assert abs(middle - (tile.y + tile.height / 2)) <= tile.height / 8, (name, width)
        seen += 1
    assert seen  # the large clusters are summarized


def _top_boxes(d):
    return [
        g
        for g in all_groups(d)
        if g.contents
        and isinstance(g.contents[0], Rect)
        and abs(g.contents[0].height - TOP_H) < 0.01
    ]


def test_each_top_box_drops_its_link_from_the_middle_of_its_bottom_edge():
    """Workload groups, the client cluster (remote GPU access) and the management cluster each
    join their network with one vertical link leaving the middle of the box's bottom edge."""
    remote = 0
    for name, width, _data, d in _figures():
        boxes = [g.contents[0] for g in _top_boxes(d)]
        assert boxes, (name, width)
        bottom = boxes[0].y
        drops = [
            s
            for s in leaf_shapes(d)
            if isinstance(s, Line)
            and abs(s.x1 - s.x2) < 0.01
            and abs(max(s.y1, s.y2) - bottom) < 0.01
        ]
        assert len(drops) == len(boxes), (name, width)
        for r in boxes:
            mid = r.x + r.width / 2
            assert [ln for ln in drops if abs(ln.x1 - mid) <= SLACK], (name, width, r.x)
        remote += len(boxes) == 3
    assert remote  # enterprise and starter reach their GPUs remotely: three boxes


def test_a_long_workload_group_name_stays_inside_its_box():
    """A name of one long word is cut with an ellipsis at the box's inner width: no line of the
    Workload groups box reaches past the box's right edge."""
    for name, width, _data, d in _figures(rename=True):
        box = next(g for g in _top_boxes(d) if g.contents[0].x < SLACK)
        r = box.contents[0]
        texts = [s for s in leaf_shapes(box) if isinstance(s, String) and s.text]
        assert any(s.text.startswith(LONG[:10]) for s in texts), (name, width)
        for s in texts:
            x0, _, x1, _ = text_box(s)
            assert r.x - SLACK <= x0 and x1 <= r.x + r.width + SLACK, (name, width, s.text)
