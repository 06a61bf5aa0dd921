"""A serving replica too big for one host is split into pipeline stages, the fewest that hold
it, and never more stages than the model has layers (a stage holds whole layers: vLLM's and
TensorRT-LLM's pipeline parallelism assign layers to stages)."""

from __future__ import annotations

from wizard.app.io import design_from_dict
from wizard.engine.size import size


def served(catalog, layers: int):
    """700 B parameters in BF16: 1,400 GB of weights on 80 GB H100s, 8 a host."""
    custom = {"parameters": 700e9, "layers": layers, "hidden_size": 8192, "heads": 64,
              "kv_heads": 8}  # fmt: skip
    doc = {
        "workloads": [{"name": "Chat", "kind": "inference", "model": {"custom": custom},
                       "precision": "bf16",
                       "inference": {"input_tokens": 1000, "output_tokens": 200}}],
        "hardware": {"gpu": "h100-sxm5-80gb", "server": "dell-xe9680", "gpus_per_host": 8,
                     "nvlink": True},
    }  # fmt: skip
    return size(design_from_dict(doc), catalog)


def test_a_two_layer_model_gets_at_most_two_stages(catalog):
    """1,400 GB over 2 stages x 8 GPUs = 87.5 GB a GPU, more than 80 GB: it does not fit, and a
    third stage (58.3 GB a GPU) would hold it but a two-layer model has none, so the plan stays
    at 2 stages and says it does not fit."""
    r = served(catalog, 2)
    w = r.workloads[0]
    assert (w.layout.tensor_parallel, w.layout.pipeline_parallel) == (8, 2)
    assert "model-does-not-fit" in {x.code for x in r.warnings}


def test_a_three_layer_model_takes_the_third_stage(catalog):
    """Negative case: with three layers, 3 stages x 8 GPUs hold 1,400 / 24 = 58.3 GB a GPU."""
    r = served(catalog, 3)
    w = r.workloads[0]
    assert (w.layout.tensor_parallel, w.layout.pipeline_parallel) == (8, 3)
    assert "model-does-not-fit" not in {x.code for x in r.warnings}
