"""Storage nodes for capacity at the boundary: a need that is a whole number of nodes' usable
capacity takes exactly that many nodes, even where floating point leaves the quotient a hair
above the whole number; a GB more takes one more node. By hand, on the enterprise design (its
Isilon F800: 185 TB usable a node, no checkpoints or model files), one dataset version and
10 % growth headroom: capacity = dataset GB x 1.1 / 1000."""

from __future__ import annotations

import pytest

from tests.engine.conftest import calc, design_dict
from wizard.app.io import design_from_dict
from wizard.engine.size import size


@pytest.mark.parametrize(
    ("dataset_gb", "nodes"),
    [
        (5_549_999, 33),  # 6,104.9989 TB / 185 = 32.99999 -> 33
        (5_550_000, 33),  # 6,105 TB = 33 x 185 TB exactly -> 33, not 34
        (5_550_001, 34),  # 6,105.0011 TB / 185 = 33.000006 -> 34
    ],
)
def test_a_whole_number_of_nodes_of_capacity_takes_that_many(catalog, dataset_gb, nodes):
    assert catalog.storage["dell-isilon-f800"].usable_capacity_tb_per_node == 185
    doc = design_dict("enterprise")
    assert doc["hardware"]["storage"] == "dell-isilon-f800"
    doc["data"] = {"dataset_gb": dataset_gb, "dataset_versions": 1, "growth_headroom": 0.1}
    r = size(design_from_dict(doc), catalog)
    assert r.storage.capacity_needed_tb == pytest.approx(dataset_gb * 1.1 / 1000)
    assert r.storage.nodes_for_capacity == nodes
    assert calc(r, "storage.nodes_for_capacity").value == nodes
