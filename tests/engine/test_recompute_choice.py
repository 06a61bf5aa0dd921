"""Recomputation is chosen by memory, and sequence parallelism is on wherever tensor parallelism
is unless the design turns it off (Korthikanti et al., arXiv:2205.05198, Table 2: with sequence
parallelism the activations a layer keeps under selective recomputation are divided by t)."""

from __future__ import annotations

import pytest

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


def test_with_tensor_parallelism_the_engine_splits_the_sequence_and_keeps_every_activation(
    catalog,
):
    """Fused attention (FlashAttention / SDPA) stores no score matrix, so selective
    recomputation, which recomputes exactly those, would save nothing: the engine keeps every
    activation with the sequence split over the tensor-parallel GPUs."""
    w = size(design_from_dict(llama70b(None)), catalog).workloads[0]
    assert w.layout.tensor_parallel == 8 and w.layout.recompute == "none"
    assert w.memory_gb.total <= 80


def test_with_eager_attention_the_score_matrices_are_recomputed_selectively(catalog):
    """Negative case: with the score matrices kept (2 a s bytes per token per layer without
    dropout: Llama 3 70B at 4,096 tokens, 80 x 4,096 x 2 x 64 x 4,096 / 8 = 21.5 GB more per GPU
    at TP 8, beside 70 B x 18 bytes of model states over 8 x 3 GPUs, 52.5 GB) the same layout no longer fits and the engine recomputes the attention
    core (Korthikanti et al., section 4.1)."""
    doc = llama70b(None)
    doc["workloads"][0]["attention"] = "eager"
    w = size(design_from_dict(doc), catalog).workloads[0]
    assert pytest.approx(21.47, abs=0.01) == 80 * 4096 * 2 * 64 * 4096 / 8 / 1e9
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
