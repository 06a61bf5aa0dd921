"""A model that fits no layout is told the remedies of its own kind: a service keeps no
gradients or optimizer state, so it is not told to use ZeRO or recomputation; a training job
is. The message names the layout in words, not as TP/PP abbreviations."""

from __future__ import annotations

import json

from wizard.base.bundled import example_text
from wizard.engine import plan
from wizard.model.design import Design


def _not_fitting(catalog, kind: str) -> str:
    d = json.loads(example_text("llm-serving"))
    g = d["workloads"][0]
    # Llama 3 70B in BF16: 70.6 x 10^9 x 2 bytes = 141 GB of weights, more than one 80 GB GPU
    g["parallelism"] = {"tensor_parallel": 1, "pipeline_parallel": 1}
    if kind == "fine-tuning":
        g.update(kind="fine-tuning", inference=None, training={"dataset_samples": 1000},
                 sharing_mode="vgpu")  # fmt: skip
    p = plan(Design.model_validate(d), catalog)
    (message,) = [e.message for e in p.errors if "no layout found" in e.message]
    return message


def test_a_service_that_does_not_fit_is_told_a_services_remedies(catalog):
    msg = _not_fitting(catalog, "inference")
    assert "with tensor parallelism 1 and 1 pipeline stage" in msg
    assert "more tensor parallelism" in msg
    assert "ZeRO" not in msg and "recomputation" not in msg and "TP 1" not in msg


def test_a_training_job_that_does_not_fit_is_told_trainings_remedies(catalog):
    assert "use ZeRO, recomputation" in _not_fitting(catalog, "fine-tuning")
