"""The note an option is saved with names what a customer compares: the products, the spare
capacity, the clusters, the sharing modes and precisions, in plain words and correct plurals."""

from __future__ import annotations

import json

from wizard.app.io import design_from_dict, design_from_text
from wizard.base.bundled import example_text
from wizard.present.option_note import NAMES_SHOWN, describe


def test_one_cluster_names_its_products_spare_capacity_modes_and_precision(catalog):
    # starter.json: 2 T4s per Dell R740xd host, N+1, two groups on the GPU pool, no precision
    # given (BF16, the schema's default)
    text = describe(design_from_text(example_text("starter")), catalog)
    assert text == (
        "NVIDIA T4, 2 per host, in the Dell PowerEdge R740xd, N+1. "
        "GPU pool for 2 groups. BF16 for every group."
    )


def test_a_reserve_percentage_and_one_group_read_in_the_singular(catalog):
    doc = json.loads(example_text("starter"))
    doc["ha"] = {"level": "percent", "reserve_percent": 12.5}
    doc["workloads"] = doc["workloads"][:1]
    doc["workloads"][0]["precision"] = "fp8"
    text = describe(design_from_dict(doc), catalog)
    assert text.startswith(
        "NVIDIA T4, 2 per host, in the Dell PowerEdge R740xd, 12.5 % in reserve."
    )
    assert "GPU pool for 1 group." in text and "FP8 for every group." in text


def test_each_gpu_cluster_has_its_hardware_and_further_clusters_are_named(catalog):
    doc = json.loads(example_text("starter"))
    hw = doc["hardware"]
    doc["cluster_name"] = "First"
    doc["clusters"] = [
        {"name": f"GPU {i}", "role": "gpu-cluster", "hardware": {**hw, "gpus_per_host": 1},
         "ha": {"level": "n+2"}}
        for i in range(1, NAMES_SHOWN + 2)
    ] + [{"name": "Mgmt", "role": "management-domain", "server": hw["server"], "hosts": 4}]  # fmt: skip
    text = describe(design_from_dict(doc), catalog)
    # the first cluster and three more by name (4 shown), the other two counted
    assert text.startswith("First: NVIDIA T4, 2 per host, in the Dell PowerEdge R740xd, N+1. ")
    assert "GPU 1: NVIDIA T4, 1 per host, in the Dell PowerEdge R740xd, N+2. " in text
    assert "GPU 3: " in text and "GPU 4: " not in text
    assert "And 2 further GPU clusters. " in text
    assert "With 1 further cluster: Mgmt. " in text
