"""A one-GPU training job under MIG runs on the smallest instance whose memory holds it
(``TrainingSizer._slice``), at the boundary: a job that needs exactly an instance's memory fits
it. The H100 PCIe's MIG profiles (NVIDIA MIG User Guide, H100 profiles): 1g.10gb, 1g.20gb,
2g.20gb, 3g.40gb, ... The job's memory is set to the boundary figure (the sizing's own memory
rule is tested elsewhere), and its target is generous, so memory alone picks the instance."""

from __future__ import annotations

import pytest

from wizard.app.io import design_from_dict
from wizard.engine.demand import training
from wizard.engine.size import size


def planned_slice(catalog, monkeypatch, need_gb: float, **group) -> str | None:
    monkeypatch.setattr(training, "memory_total", lambda job, st, trainable: need_gb)
    doc = {
        "workloads": [{"name": "Tune", "kind": "fine-tuning", "model": {"preset": "llama-3-8b"},
                       "precision": "bf16", "micro_batch_size": 1, "global_batch_size": 8,
                       "sequence_length": 1024, "fine_tuning": {"method": "lora"},
                       "sharing_mode": "mig",
                       "training": {"dataset_tokens": 1e6, "epochs": 1, "target_hours": 1000},
                       **group}],
        "hardware": {"gpu": "h100-pcie-80gb", "server": "dell-r760xa", "gpus_per_host": 2},
    }  # fmt: skip
    return size(design_from_dict(doc), catalog).workloads[0].planned_slice


@pytest.mark.parametrize(
    ("need_gb", "profile"),
    [
        (10.0, "1g.10gb"),  # exactly the smallest instance's 10 GB
        (10.5, "1g.20gb"),  # just over it: the next instance
        (20.0, "1g.20gb"),  # exactly 20 GB
        (20.5, "3g.40gb"),  # just over 20 GB: the 2g.20gb does not hold it either
        (40.0, "3g.40gb"),  # exactly 40 GB
    ],
)
def test_a_job_that_exactly_fills_an_instance_fits_it(catalog, monkeypatch, need_gb, profile):
    assert planned_slice(catalog, monkeypatch, need_gb) == profile


def test_a_stated_data_parallelism_plans_whole_gpus(catalog, monkeypatch):
    """The slice search is for a job the engine sizes to one GPU; a design that states its data
    parallelism (even 1) has said how many GPUs it runs on, so it gets whole GPUs. Negative
    case: the same job without it runs on the 1g.20gb."""
    fixed = planned_slice(catalog, monkeypatch, 20.0, parallelism={"data_parallel": 1})
    assert fixed is None
    assert planned_slice(catalog, monkeypatch, 20.0) == "1g.20gb"
