"""Recomputation is chosen by memory, and sequence parallelism is on wherever tensor parallelism
is unless the design turns it off (Korthikanti et al., arXiv:2205.05198, Table 2: with sequence
parallelism the activations a layer keeps under selective recomputation are divided by t)."""

from __future__ import annotations

from wizard.app.io import design_from_dict
from wizard.engine.size import size

H100 = {"gpu": "h100-sxm5-80gb", "server": "dell-xe9680", "gpus_per_host": 8, "nvlink": True,
        "nic": "cx7-ndr-1p", "nics_per_host": 8, "fabric": "ib-ndr", "rdma": "infiniband"}  # fmt: skip


def llama70b(sequence_parallel: bool | None) -> dict:
    par: dict = {"data_parallel": 8}
    if sequence_parallel is not None:
        par["sequence_parallel"] = sequence_parallel
    return {
        "workloads": [{"name": "Pretrain", "kind": "training", "model": {"preset": "llama-3-70b"},
                       "precision": "bf16", "micro_batch_size": 1, "global_batch_size": 128,
                       "sequence_length": 4096, "parallelism": par,
                       "training": {"dataset_tokens": 1e10}}],
        "hardware": H100,
    }  # fmt: skip


def test_with_tensor_parallelism_the_engine_splits_the_sequence_and_recomputes_selectively(
    catalog,
):
    w = size(design_from_dict(llama70b(None)), catalog).workloads[0]
    assert w.layout.tensor_parallel == 8 and w.layout.recompute == "selective"
    assert w.memory_gb.total <= 80


def test_sequence_parallelism_turned_off_costs_full_recomputation(catalog):
    """Negative case: without it the selective layout's activations no longer fit 80 GB at the
    same tensor and pipeline degrees, so the forward pass is recomputed in full."""
    on = size(design_from_dict(llama70b(None)), catalog).workloads[0]
    off = size(design_from_dict(llama70b(False)), catalog).workloads[0]
    assert off.layout.recompute == "full"
    assert (off.layout.tensor_parallel, off.layout.pipeline_parallel) == (
        on.layout.tensor_parallel,
        on.layout.pipeline_parallel,
    )
    assert off.training.time_to_train_hours > on.training.time_to_train_hours
