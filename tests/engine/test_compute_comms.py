"""Compute and communication formulas against the seeds' worked numbers."""

import pytest

from wizard.engine.basis.expr import Formula
from wizard.engine.basis.links import PCIE_X16_GBS
from wizard.engine.demand import training_physics as tp_


def test_imagenet_iterations_per_epoch():
    """Multi-GPU deep dive: 1.28 M images / batch 32 = 40,000 iterations."""
    it = Formula("ceil(dataset_samples / global_batch)")
    assert it(dataset_samples=1_280_000, global_batch=32) == 40_000
    assert it(dataset_samples=1_281_167, global_batch=32) == 40_037  # the exact ImageNet-1K


def test_training_flops_6nd_and_8nd():
    """Kaplan et al. 2020: C = 6ND; Narayanan et al. 2021: 8ND with full recomputation (the
    matrix products alone: attention and logits set to nothing)."""
    common = dict(matrix_parameters=175e9, attention_passes=0, layers=96, sequence=2048,
                  attention_width=12288, hidden=12288, logit_passes=0, vocabulary=0,
                  adapter_passes=0, trainable_parameters=0)  # fmt: skip
    assert tp_.FLOPS_PER_TOKEN(linear_passes=3, **common) * 300e9 == pytest.approx(3.15e23)
    assert tp_.FLOPS_PER_TOKEN(linear_passes=4, **common) * 300e9 == pytest.approx(4.2e23)


def test_ring_allreduce_factor():
    """2 (N - 1) / N of the gradients per GPU; 3 (N - 1) / N with ZeRO-3."""
    ring = tp_.RING_GB
    assert ring(ring_factor=2, data_parallel=1, gradient_gb=1) == 0
    assert ring(ring_factor=2, data_parallel=2, gradient_gb=1) == 1
    assert ring(ring_factor=2, data_parallel=4, gradient_gb=1) == 1.5
    assert ring(ring_factor=2, data_parallel=1e6, gradient_gb=1) == pytest.approx(2, rel=1e-5)
    assert ring(ring_factor=3, data_parallel=4, gradient_gb=1) == 2.25


def test_bert_large_over_25gbe_seed_numbers():
    """Multi-GPU deep dive: 340 M FP32 gradients = 1.36 GB; about 2.72 GB per GPU per iteration;
    21.76 Gb / 25 Gb/s = 870 ms; 30,000 iterations x 100 epochs = 725 hours."""
    gradient_gb = 340e6 * 4 / 1e9
    assert gradient_gb == pytest.approx(1.36)
    per_iteration_gb = 2 * gradient_gb  # large-ring limit of 2(N-1)/N
    assert per_iteration_gb == pytest.approx(2.72)
    seconds = tp_.RING_S(ring_gb=per_iteration_gb, link_gbs=25 / 8, link_efficiency=1.0)
    assert seconds == pytest.approx(0.870, abs=0.001)
    assert 30_000 * 100 * seconds / 3600 == pytest.approx(725, abs=1)


def test_decode_is_memory_bound_at_small_batch_and_compute_bound_at_large():
    """70B in BF16 on one GPU (140 GB, 3,350 GB/s, 989 TFLOPS): one sequence reads 140 GB per
    token; a batch of 100,000 needs 2 x 70e9 FLOPs per token."""
    from wizard.engine.demand import serving_physics as sp

    reads = dict(weights_read_gb=140, tp=1, pp=1, bandwidth_gbs=3350, mbu=1.0)
    flops = dict(active_parameters=70e9, tp=1, pp=1, peak_tflops=989, mfu=0.4)
    one_mem = sp.DECODE_WEIGHTS_S(**reads)
    one_cmp = sp.DECODE_LINEAR_S(batch=1, **flops)
    assert one_mem == pytest.approx(140 / 3350) and one_mem > one_cmp
    big_cmp = sp.DECODE_LINEAR_S(batch=100_000, **flops)
    assert big_cmp > one_mem
    assert 100_000 / big_cmp == pytest.approx(989e12 * 0.4 / (2 * 70e9))


def test_the_kv_reads_add_to_the_linear_layers_not_hide_under_them():
    """The attention core is its own kernel: a step of 1,000 sequences of 1,500 tokens on a 70B
    FP8 model (70 GB of weights, 163,840 bytes of KV cache a token) on one H100 at 60 % of
    3,350 GB/s and 50 % of 1,979 TFLOPS is max(weights 34.8 ms, linear FLOPs 141.5 ms) +
    max(KV reads 122.3 ms, attention FLOPs 4.0 ms) = 263.8 ms; one roofline over all bytes and
    all FLOPs would say max(157.1, 145.5) = 157.1 ms, hiding the KV reads under the linear
    layers' FLOPs."""
    from wizard.engine.demand import serving_physics as sp

    bw, peak = 3350 * 0.6, 1979 * 0.5e12
    weights, linear = 70 / bw, 1000 * 2 * 70e9 / peak
    kv, attention = 1000 * 1500 * 163_840e-9 / bw, 1000 * 4 * 80 * 1500 * 8192 / peak
    assert (weights, linear, kv, attention) == pytest.approx(
        (0.03483, 0.14149, 0.12227, 0.003974), abs=1e-5
    )
    got = sp.DECODE_KERNELS_S(
        weights_s=sp.DECODE_WEIGHTS_S(weights_read_gb=70, tp=1, pp=1, bandwidth_gbs=3350, mbu=0.6),
        linear_s=sp.DECODE_LINEAR_S(
            batch=1000, active_parameters=70e9, tp=1, pp=1, peak_tflops=1979, mfu=0.5
        ),
        kv_s=sp.DECODE_KV_S(
            batch=1000, context=1500, kv_gb_per_token=163_840e-9, kv_shards=1, pp=1,
            bandwidth_gbs=3350, mbu=0.6,
        ),
        attention_s=sp.DECODE_ATTENTION_S(
            batch=1000, layers=80, context=1500, attention_width=8192, tp=1, pp=1, attention_tflops=1979,
            mfu=0.5,
        ),
        comm_s=0,
    )  # fmt: skip
    assert got == pytest.approx(linear + kv, rel=1e-12) == pytest.approx(0.2638, abs=1e-4)
    assert got > max(weights + kv, linear + attention) * 1.6


def test_pcie_bandwidth_by_generation():
    assert PCIE_X16_GBS[4] == pytest.approx(16 * 16 * 128 / 130 / 8, rel=0.01)
    assert PCIE_X16_GBS[5] == pytest.approx(2 * PCIE_X16_GBS[4])


def test_a_model_smaller_than_its_embeddings_logs_zero_matrix_parameters(catalog):
    """1,000 parameters with a 1 x 1 embedding table counted twice (input and output): the
    matrix parameters are max(0.001 - 2, 0) = 0, and the FLOPs formula reads that same 0, so
    the log never shows a figure the next step did not use."""
    from wizard.app.io import design_from_dict
    from wizard.engine.size import size

    doc = {
        "workloads": [
            {
                "name": "tiny",
                "kind": "training",
                "model": {
                    "custom": {
                        "parameters": 0.001,
                        "layers": 1,
                        "hidden_size": 1,
                        "heads": 1,
                        "kv_heads": 1,
                        "vocab_size": 1,
                    }
                },
                "precision": "fp32",
                "optimizer": "sgd",
                "micro_batch_size": 1,
                "sequence_length": 1,
                "training": {"dataset_samples": 1, "epochs": 1},
            }
        ],
        "hardware": {"gpu": "a10", "server": "supermicro-sys-420gp-tnr", "gpus_per_host": 1},
    }
    r = size(design_from_dict(doc), catalog)
    calcs = {c.id: c for c in r.calculations}
    assert calcs["workloads[0].matrix_parameters"].value == 0
    assert calcs["workloads[0].flops_per_token"].inputs["matrix_parameters"] == 0


def test_training_attention_is_counted_at_the_query_heads_width(catalog):
    """Qwen3 30B-A3B (config.json): 48 layers, hidden 2048, 32 query heads of width 128, so
    the attention scores and values are computed 32 x 128 = 4,096 wide, twice the hidden size.
    At 4,096 tokens a sequence, each pass of the attention core costs 4 x 48 x 4,096 x 4,096 =
    3.22e9 FLOPs per token (Narayanan et al., eq. 3, with the heads' width for h); the FLOPs
    per token add that, times the passes logged, to the matrix and logit terms."""
    from wizard.app.io import design_from_dict
    from wizard.engine.size import size

    doc = {
        "workloads": [{
            "name": "Qwen fine-tune", "kind": "training",
            "model": {"preset": "qwen3-30b-a3b"}, "precision": "bf16", "optimizer": "adamw",
            "micro_batch_size": 1, "global_batch_size": 8, "sequence_length": 4096,
            "training": {"dataset_tokens": 1_000_000_000, "epochs": 1},
        }],
        "hardware": {"gpu": "h100-sxm5-80gb", "server": "dell-xe9680", "gpus_per_host": 8,
                     "nvlink": True},
    }  # fmt: skip
    r = size(design_from_dict(doc), catalog)
    calcs = {c.id: c for c in r.calculations}
    per_token = calcs["workloads[0].flops_per_token"].inputs
    assert per_token["attention_width"] == 32 * 128
    assert per_token["hidden"] == 2048
    passes = per_token["attention_passes"]
    attention_per_token = passes * 4 * 48 * 4096 * 4096
    rest = (
        per_token["linear_passes"] * 2 * per_token["matrix_parameters"]
        + per_token["logit_passes"] * 2 * 2048 * per_token["vocabulary"]
    )
    assert calcs["workloads[0].flops_per_token"].value == pytest.approx(rest + attention_per_token)


def test_time_to_train_adds_the_all_reduce_the_backward_pass_cannot_hide(catalog):
    """ResNet-50 in FP32, 16 data-parallel GPUs, 4 per host over one 25 GbE NIC at line rate.
    Per iteration and GPU: compute 3 x 8.18e9 FLOPs x 8 images / (19.5e12 x 0.5 x 0.39) =
    51.63 ms (A100 FP32 peak 19.5 TFLOPS; ResNet-50 reaches 0.39 of the default utilization,
    NVIDIA's measured 2,470 img/s); the all-reduce moves 2 x 15/16 x 25.6e6 x 4 B = 0.192 GB at
    3.125 GB/s = 61.44 ms; DDP hides it behind the backward pass, 2/3 of the compute = 34.42 ms
    (Li et al., VLDB 2020), so 27.02 ms shows, and the compute under the hidden 34.42 ms runs
    0.19 of it slower, 6.54 ms (Lee et al., arXiv:2507.03114); 1,000 iterations of 85.19 ms =
    0.0237 h. Negative case: with overlap free (overlap_slowdown 0) 78.65 ms, 0.0218 h."""
    from wizard.app.io import design_from_dict
    from wizard.engine.size import size

    doc = {
        "workloads": [{"name": "ResNet", "kind": "training", "model": {"preset": "resnet-50"},
                       "precision": "fp32", "micro_batch_size": 8,
                       "parallelism": {"data_parallel": 16},
                       "training": {"iterations_per_epoch": 1000, "epochs": 1}}],
        "hardware": {"gpu": "a100-pcie-80gb", "server": "dell-r750xa", "gpus_per_host": 4,
                     "nic": "cx5-25g-2p", "nics_per_host": 1, "fabric": "25gbe"},
        "ha": {"level": "n+0"},
        "assumptions": {"link_efficiency": 1.0},
    }  # fmt: skip
    w = size(design_from_dict(doc), catalog).workloads[0]
    compute = 3 * 8.18e9 * 8 / (19.5e12 * 0.5 * 0.39)
    allreduce = 2 * 15 / 16 * 25.6e6 * 4 / 1e9 / (25 / 8)
    exposed = allreduce - 2 / 3 * compute
    slowed = 0.19 * 2 / 3 * compute
    assert (compute, allreduce, exposed, slowed) == pytest.approx(
        (0.05163, 0.06144, 0.02702, 0.00654), abs=1e-5
    )
    assert w.training.allreduce_seconds_per_iteration == pytest.approx(allreduce)
    assert w.training.time_to_train_hours == pytest.approx(
        1000 * (compute + exposed + slowed) / 3600, rel=1e-6
    )
    assert w.training.time_to_train_hours == pytest.approx(0.0237, abs=1e-4)
    doc["assumptions"]["overlap_slowdown"] = 0
    w = size(design_from_dict(doc), catalog).workloads[0]
    assert w.training.time_to_train_hours == pytest.approx(0.0218, abs=1e-4)
