"""Storage nodes for capacity at the boundary: a need that is a whole number of nodes' usable
capacity takes exactly that many nodes, even where floating point leaves the quotient a hair
above the whole number; a GB more takes one more node. By hand, on the enterprise design (its
Isilon F800: 185 TB usable a node, no checkpoints or model files), one dataset version and
10 % growth headroom: capacity = dataset GB x 1.1 / 1000."""

from __future__ import annotations

import pytest

from tests.engine.conftest import calc, design_dict
from wizard.app.io import design_from_dict
from wizard.engine.fitout.storage import _reason
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


@pytest.mark.parametrize(
    ("by_cap", "by_read", "reason"),
    [
        (
            None,
            None,
            "the system's minimum of 4 nodes (no capacity or read throughput need is known to "
            "size nodes for)",
        ),
        (
            33,
            None,
            "the larger of the system's minimum of 4 nodes and 33 nodes for capacity (no read "
            "throughput need is known to size nodes for)",
        ),
        (
            None,
            1,
            "the larger of the system's minimum of 4 nodes and 1 node for read throughput (no "
            "capacity need is known to size nodes for)",
        ),
        (
            33,
            2,
            "the larger of the system's minimum of 4 nodes, 33 nodes for capacity and 2 nodes "
            "for read throughput",
        ),
    ],
)
def test_the_node_count_names_each_of_its_terms_once(catalog, by_cap, by_read, reason):
    """The decision's reason lists the F800's minimum (4 nodes) alone where no need is known,
    joined to each known need by "the larger of ... and ...", and never repeats a term."""
    f800 = catalog.storage["dell-isilon-f800"]
    assert f800.min_nodes == 4
    assert _reason(f800, by_cap, by_read) == reason


def test_the_storage_decision_gives_the_node_counts_reason(catalog):
    """On the enterprise design with a 5,550,000 GB dataset, one version, 10 % headroom and
    no read rate (0 GB/s a GPU): 6,105 TB / 185 TB = 33 nodes for capacity, larger than the minimum of 4."""
    doc = design_dict("enterprise")
    doc["data"] = {
        "dataset_gb": 5_550_000,
        "dataset_versions": 1,
        "growth_headroom": 0.1,
        "read_gbs_per_gpu": 0,
    }
    r = size(design_from_dict(doc), catalog)
    (storage,) = [d for d in r.decisions if d.text.startswith("Shared storage")]
    assert storage.reason.split(";")[0] == (
        "The node count is the larger of the system's minimum of 4 nodes and 33 nodes for "
        "capacity (no read throughput need is known to size nodes for)"
    )
