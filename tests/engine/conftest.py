import copy
import json

import pytest

from wizard.app.io import design_from_text
from wizard.base.bundled import example_names, example_text
from wizard.engine.size import size


@pytest.fixture(scope="session")
def sized(catalog):
    """Every bundled example, sized once."""
    return {name: size(design_from_text(example_text(name)), catalog) for name in example_names()}


def calc(result, key):
    matches = [c for c in result.calculations if c.id == key]
    assert matches, f"no calculation {key}"
    return matches[0]


def design_dict(name: str) -> dict:
    return json.loads(example_text(name))


def hgx_training(count: int, target_hours: float, rack_kw: float, hardware: dict) -> dict:
    """A 70B pretraining group on time-sliced vGPU, 8 GPUs and 8 NICs per HGX host, over the
    hgx-h200-llm example's project and platform: the shape the fabric and cooling tests size on
    other boards (``hardware`` names the board, server, NIC and fabric)."""
    doc = copy.deepcopy(design_dict("hgx-h200-llm"))
    doc["workloads"] = [
        {"name": "Pretraining", "kind": "training", "count": count,
         "model": {"preset": "llama-3.1-70b"}, "precision": "bf16", "optimizer": "adamw",
         "micro_batch_size": 1, "global_batch_size": 64, "sequence_length": 8192,
         "training": {"dataset_tokens": 200_000_000_000, "epochs": 1,
                      "target_hours": target_hours},
         "sharing_mode": "vgpu"}
    ]  # fmt: skip
    doc["hardware"].update(
        {"gpus_per_host": 8, "nics_per_host": 8, "rdma": "infiniband", "gpudirect_rdma": False,
         "nvlink": True, **hardware}
    )  # fmt: skip
    doc.setdefault("assumptions", {})["max_rack_power_kw"] = rack_kw
    return doc


def chat_design(precision: str, kv: str | None, gpu: str = "h100-sxm5-80gb") -> dict:
    """A Llama 3.1 8B chat service (1,000 tokens in, 200 out) on an 8-GPU XE9680, with the KV
    cache in ``kv`` where given (else the serving stack's default)."""
    inference: dict = {"input_tokens": 1000, "output_tokens": 200}
    if kv:
        inference["kv_cache_precision"] = kv
    return {
        "workloads": [{"name": "Chat", "kind": "inference",
                       "model": {"preset": "llama-3.1-8b"}, "precision": precision,
                       "inference": inference}],
        "hardware": {"gpu": gpu, "server": "dell-xe9680", "gpus_per_host": 8, "nvlink": True},
    }  # fmt: skip
