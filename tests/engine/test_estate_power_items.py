"""A design of several clusters states its power line by line, as one cluster's does: the lines
add up to the estate's total, and a line whose catalog figure is unsettled says so.

acme-two-clusters by hand (catalog figures): the Notebook cluster's 4 Lenovo SR675 V3 at 4 x 350
W (L40S TDP) + 1,500 W baseline = 2,900 W; the HGX cluster's 3 Dell XE9680 at 8 x 700 W (H100
SXM5) + 4,000 W = 9,600 W; the management domain's 4 Dell R760xa at 1,000 W; one SN4700 (630 W),
one QM9700 (747 W), two SN4600C (466 W each) and four SN2201 (100 W each, one per rack):
11,600 + 28,800 + 4,000 + 630 + 747 + 932 + 400 = 47,109 W."""

from __future__ import annotations

import json

import pytest

from tests.conftest import ROOT
from wizard.app.io import design_from_dict
from wizard.engine import plan

MARK = "(power to confirm with the vendor)"
KINDS = ("servers", "switches", "storage", "cooling")


def _plan(name: str, catalog):
    doc = json.loads((ROOT / "docs" / name).read_text(encoding="utf-8"))
    return plan(design_from_dict(doc), catalog)


def test_the_lines_of_two_clusters_add_up_to_the_total(catalog):
    e = _plan("acme-two-clusters.json", catalog).estate
    lines = {i.item.removesuffix(" " + MARK): i.watts_total for i in e.power_items}
    assert lines["Lenovo ThinkSystem SR675 V3 (8-DW GPU model) with 4 x NVIDIA L40S "
                 "(Notebook cluster)"] == 4 * (4 * 350 + 1500)  # fmt: skip
    assert lines["Dell PowerEdge XE9680 with 8 x NVIDIA H100 SXM5 80GB (HGX cluster)"] == 3 * (
        8 * 700 + 4000
    )
    assert lines["NVIDIA Spectrum SN2201 (out-of-band switch, one per rack)"] == 4 * 100
    assert sum(lines.values()) == pytest.approx(47_109)
    assert sum(lines.values()) == pytest.approx(e.totals.total_kw * 1000)


def test_a_line_is_marked_exactly_where_its_catalog_figure_is_unsettled(catalog):
    """The Lenovo server's baseline is settled in the catalog, the XE9680's is not: one line
    marked, the other not (the negative case); every switch line follows its switch entry."""
    e = _plan("acme-two-clusters.json", catalog).estate
    for item in e.power_items:
        name = item.item.removesuffix(" " + MARK)
        # the entry whose product name the line starts with, the longest that matches
        entry = max(
            (x for kind in KINDS for x in getattr(catalog, kind).values()
             if name.startswith(x.product_name)),
            key=lambda x: len(x.product_name), default=None,
        )  # fmt: skip
        assert entry is not None, name
        kind = next(k for k in KINDS if entry.id in getattr(catalog, k))
        field = {"servers": "baseline_power_w", "switches": "power_w"}.get(kind)
        assert item.item.endswith(MARK) == (field in entry.unsettled), name
    marked = {i.item.split(" (")[0].split(",")[0] for i in e.power_items if i.item.endswith(MARK)}
    assert "Dell PowerEdge XE9680 with 8 x NVIDIA H100 SXM5 80GB" in marked
    assert not any(m.startswith("Lenovo") for m in marked)


def test_one_cluster_states_its_own_lines(catalog):
    """A design of one cluster: the estate's lines are the cluster's, as its power section
    gives them."""
    p = _plan("acme-options.json", catalog)
    (c,) = p.clusters
    assert p.estate.power_items == c.result.power.items
