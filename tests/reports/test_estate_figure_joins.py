"""The estate figure's joins: each cluster box drops one link to every network its hosts are on,
the links spread evenly across the box's width (one apart from the other, none at the box's
edge), so a reader counts a cluster's networks at a glance. Checked on the two-cluster example
(and the same estate with more GPU clusters) at the product's widths."""

from __future__ import annotations

from reportlab.graphics.shapes import Group, Line, Rect, String

from reports.diagrams import estate as estate_diagram
from reports.fonts import register_fonts
from tests.conftest import acme_with_more_clusters
from tests.reports.drawing_parts import SLACK, WIDTHS
from wizard.app.catalog_loader import load_catalog
from wizard.app.io import design_from_dict
from wizard.engine.decide.estate import size_estate


def _estates():
    """The two-cluster example as shipped, and with three more GPU clusters like its own."""
    doc, bigger = acme_with_more_clusters(0), acme_with_more_clusters(3)
    catalog = load_catalog(include_user=False)
    names = {g: catalog.gpus[g].name for g in catalog.gpus}
    return [(size_estate(design_from_dict(d), catalog), names) for d in (doc, bigger)]


def _holds(r: Rect, s: String) -> bool:
    return r.x <= s.x <= r.x + r.width and r.y <= s.y <= r.y + r.height


def test_each_cluster_joins_its_networks_with_links_spread_across_its_box():
    """n links under a box of width w sit at w/(n+1), 2w/(n+1), ... from its left edge: one per
    network the cluster is on (as the estate's networks list it), all different, evenly spaced
    and inside the box."""
    register_fonts()
    checked = 0
    for e, names in _estates():
        nets = [p for p in e.network if p.host_ports or p.tiers]
        for width in WIDTHS:
            d = estate_diagram.draw(e, names, width)
            rects = [
                g.contents[0]
                for g in d.contents
                if isinstance(g, Group) and g.contents and isinstance(g.contents[0], Rect)
            ]
            lines = [s for s in d.contents if isinstance(s, Line) and abs(s.x1 - s.x2) < 0.01]
            for c in e.clusters:
                (title,) = [s for s in d.contents if isinstance(s, String) and s.text == c.name]
                (box,) = [r for r in rects if _holds(r, title)]
                n = sum(1 for p in nets if c.name in p.clusters)
                assert n >= 2  # every cluster is on the service network and out-of-band
                drops = sorted(
                    ln.x1
                    for ln in lines
                    if abs(max(ln.y1, ln.y2) - box.y) < 0.01
                    and box.x - SLACK <= ln.x1 <= box.x + box.width + SLACK
                )
                step = box.width / (n + 1)
                expected = [box.x + step * (k + 1) for k in range(n)]
                where = f"{c.name} at {width}"
                assert len(drops) == n, where
                assert all(abs(a - b) <= SLACK for a, b in zip(drops, expected, strict=True)), where
                checked += 1
    assert checked
