"""Compute and communication formulas against the seeds' worked numbers."""

import pytest

from wizard.engine import comms, compute
from wizard.model.design import Recompute


def test_imagenet_iterations_per_epoch():
    """Multi-GPU deep dive: 1.28 M images / batch 32 = 40,000 iterations."""
    assert compute.iterations_per_epoch(1_280_000, 32) == 40_000
    assert compute.iterations_per_epoch(1_281_167, 32) == 40_037  # the exact ImageNet-1K size


def test_training_flops_6nd_and_8nd():
    """Kaplan et al. 2020: C = 6ND; Narayanan et al. 2021: 8ND with full recomputation."""
    assert compute.training_flops(175e9, 300e9, Recompute.NONE) == pytest.approx(3.15e23)
    assert compute.training_flops(175e9, 300e9, Recompute.FULL) == pytest.approx(4.2e23)


def test_time_and_gpus_for_target_are_inverse():
    flops = 3.15e23
    seconds = compute.seconds_for_flops(flops, 1024, 312, 0.5)
    assert compute.gpus_for_target(flops, seconds / 3600, 312, 0.5) == pytest.approx(1024)


def test_narayanan_gpt3_on_1024_a100():
    """Narayanan et al. 2021, section 5.1: GPT-3 175B on 300B tokens with 1024 A100 at 140
    TFLOP/s each takes about 34 days."""
    days = compute.seconds_for_flops(8 * 175e9 * 300e9, 1024, 140, 1.0) / 86400
    assert days == pytest.approx(34, abs=1)


def test_ring_allreduce_factor():
    assert comms.ring_allreduce_factor(1) == 0
    assert comms.ring_allreduce_factor(2) == 1
    assert comms.ring_allreduce_factor(4) == 1.5
    assert comms.ring_allreduce_factor(1_000_000) == pytest.approx(2, rel=1e-5)
    assert comms.ring_allreduce_factor(4, zero_stage=3) == 2.25


def test_bert_large_over_25gbe_seed_numbers():
    """Multi-GPU deep dive: 340 M FP32 gradients = 1.36 GB; about 2.72 GB per GPU per iteration;
    21.76 Gb / 25 Gb/s = 870 ms; 30,000 iterations x 100 epochs = 725 hours."""
    gradient_gb = 340e6 * 4 / 1e9
    assert gradient_gb == pytest.approx(1.36)
    per_iteration_gb = 2 * gradient_gb  # large-ring limit of 2(N-1)/N
    assert per_iteration_gb == pytest.approx(2.72)
    link = comms.Link("25 GbE", 25 / 8, "seed")
    seconds = comms.allreduce_seconds(per_iteration_gb, link, 1.0)
    assert seconds == pytest.approx(0.870, abs=0.001)
    assert 30_000 * 100 * seconds / 3600 == pytest.approx(725, abs=1)


def test_decode_is_memory_bound_at_small_batch_and_compute_bound_at_large():
    """70B in BF16 on one GPU (140 GB, 3,350 GB/s, 989 TFLOPS), context 0 for clarity: one
    sequence reads 140 GB per token; a batch of 100,000 needs 2 x 70e9 FLOPs per token."""
    from wizard.engine import serving_physics as sp

    common = dict(
        weights_read_gb=140,
        tp=1,
        pp=1,
        context=0,
        kv_gb_per_token=0,
        kv_shards=1,
        bandwidth_gbs=3350,
        mbu=1.0,
    )
    flops = dict(
        active_parameters=70e9,
        layers=80,
        context=0,
        hidden=8192,
        tp=1,
        pp=1,
        peak_tflops=989,
        mfu=0.4,
    )
    one_mem = sp.DECODE_MEMORY_S(batch=1, **common)
    one_cmp = sp.DECODE_COMPUTE_S(batch=1, **flops)
    assert one_mem == pytest.approx(140 / 3350) and one_mem > one_cmp
    big_mem = sp.DECODE_MEMORY_S(batch=100_000, **common)
    big_cmp = sp.DECODE_COMPUTE_S(batch=100_000, **flops)
    assert big_cmp > big_mem
    assert 100_000 / big_cmp == pytest.approx(989e12 * 0.4 / (2 * 70e9))


def test_pcie_bandwidth_by_generation():
    assert comms.PCIE_X16_GBS[4] == pytest.approx(16 * 16 * 128 / 130 / 8, rel=0.01)
    assert comms.PCIE_X16_GBS[5] == pytest.approx(2 * comms.PCIE_X16_GBS[4])
