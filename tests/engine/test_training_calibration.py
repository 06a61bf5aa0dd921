"""Published training results, each rebuilt as a design a user would enter: formulas within 1 %,
measurements within 15 %.

Sources:
- Narayanan et al., "Efficient Large-Scale Language Model Training on GPU Clusters Using
  Megatron-LM", SC21, arXiv:2104.04473: Eq. 2 (parameters), Eq. 3 (FLOPs per iteration with
  recomputation), Eq. 4 and section 5.1 (GPT-3: 34 days on 1,024 A100 at 140 TFLOP/s), section
  2.2.1 (bubble (p - 1) / m), Table 1 (weak scaling on DGX A100, 8 x HDR 200 Gb/s per node,
  V = 51,200, s = 2,048, end-to-end TFLOP/s per GPU).
- Korthikanti et al., arXiv:2205.05198, Table 5: Megatron-LM's kernels reach 51-56 % of peak end
  to end at 175 B-1 T, so the Table 1 designs state 0.5 of peak for compute (the default, 0.4,
  is for less tuned stacks).
- NCCL all-reduce bus bandwidth, maintainers' figures: 8 x A100 NVSwitch about 230 GB/s
  (NVIDIA/nccl-tests issue 149), 8 x H100 NVSwitch 370 GB/s with the ring algorithm
  (nccl-tests issue 212), DGX A100 over 8 x HDR 200 Gb/s 192 GB/s (NVIDIA/nccl issue 812).
- Dettmers et al., QLoRA, arXiv:2305.14314, abstract: a 65 B model fine-tunes on one 48 GB GPU;
  16-bit fine-tuning of it needs more than 780 GB.
"""

from __future__ import annotations

import pytest

from tests.engine.conftest import calc
from wizard.app.io import design_from_dict
from wizard.engine.size import size

A100 = {"gpu": "a100-sxm4-80gb", "server": "dell-xe9680", "gpus_per_host": 8, "nvlink": True,
        "nic": "cx6-hdr-1p", "nics_per_host": 8, "fabric": "ib-hdr", "rdma": "infiniband",
        "gpudirect_rdma": True}  # fmt: skip
H100 = {**A100, "gpu": "h100-sxm5-80gb", "nic": "cx7-ndr-1p", "fabric": "ib-ndr"}
V, S = 51_200, 2_048


def gpt(h: int, layers: int, heads: int) -> dict:
    """A Table 1 model; parameters by Eq. 2: 12 l h^2 (1 + 13/(12h) + (V + s)/(12 l h))."""
    params = 12 * layers * h**2 * (1 + 13 / (12 * h) + (V + S) / (12 * layers * h))
    return {"custom": {"parameters": params, "layers": layers, "hidden_size": h, "heads": heads,
                       "vocab_size": V, "tied_embeddings": True}}  # fmt: skip


def job(model: dict, tp: int, pp: int, dp: int, batch: int, hardware: dict = A100, **extra):
    group = {
        "name": "GPT",
        "kind": "training",
        "model": model,
        "precision": "bf16",
        "micro_batch_size": 1,
        "global_batch_size": batch,
        "sequence_length": S,
        "recompute": "full",
        "parallelism": {
            "tensor_parallel": tp,
            "pipeline_parallel": pp,
            "data_parallel": dp,
            "zero_stage": 0,
        },
        "training": {"iterations_per_epoch": 10, "epochs": 1},
    }
    group.update(extra.pop("group", {}))
    return {"workloads": [group], "hardware": hardware, **extra}


def sized(doc: dict, catalog):
    return size(design_from_dict(doc), catalog)


def test_flops_per_iteration_is_eq_3(catalog):
    """Eq. 3: F = 96 B s l h^2 (1 + s/(6h) + V/(16 l h)), for the 145.6 B row (B = 2,304)."""
    h, layers, B = 12288, 80, 2304
    r = sized(job(gpt(h, layers, 96), 8, 8, 24, B), catalog)
    eq3 = 96 * B * S * layers * h**2 * (1 + S / (6 * h) + V / (16 * layers * h))
    assert calc(r, "workloads[0].flops_per_iteration").value == pytest.approx(eq3, rel=0.01)


def test_without_recomputation_it_is_three_forward_passes(catalog):
    """Korthikanti et al. Appendix A: 72 B s l h^2 (1 + s/(6h) + V/(12 l h)). Selective
    recomputation runs the attention core's forward again: 4 B s^2 h l more."""
    h, layers, B = 12288, 80, 2304
    doc = job(gpt(h, layers, 96), 8, 8, 24, B)
    doc["workloads"][0]["recompute"] = "none"
    none = calc(sized(doc, catalog), "workloads[0].flops_per_iteration").value
    assert none == pytest.approx(
        72 * B * S * layers * h**2 * (1 + S / (6 * h) + V / (12 * layers * h)), rel=0.01
    )
    doc["workloads"][0]["recompute"] = "selective"
    sel = calc(sized(doc, catalog), "workloads[0].flops_per_iteration").value
    assert sel - none == pytest.approx(4 * B * S**2 * h * layers, rel=1e-9)


def test_pipeline_bubble_of_the_145b_row(catalog):
    """p = 8 stages, m = B / (d b) = 2,304 / (24 x 1) = 96 micro-batches: (p - 1)/m = 7/96."""
    w = sized(job(gpt(12288, 80, 96), 8, 8, 24, 2304), catalog).workloads[0]
    assert w.training.pipeline_bubble_share == pytest.approx(7 / 96)


def test_a_short_pipeline_idles_three_quarters_of_its_compute(catalog):
    """Section 2.2.1: with p = 4 stages and m = B / (d b) = 4 / (1 x 1) = 4 micro-batches the
    stages idle (p - 1) / m = 3/4 of the ideal time, and the time to train counts it: 10
    iterations of at least 1 + 3/4 times the compute."""
    r = sized(job(gpt(4096, 36, 32), 4, 4, 1, 4), catalog)
    compute = calc(r, "workloads[0].compute_seconds_per_iteration").value
    assert calc(r, "workloads[0].micro_batches").value == 4
    assert calc(r, "workloads[0].pipeline_bubble_seconds").value == pytest.approx(compute * 3 / 4)
    assert r.workloads[0].training.time_to_train_hours * 3600 >= 10 * compute * (1 + 3 / 4)


def test_gpt3_takes_about_34_days_on_1024_a100(catalog):
    """Section 5.1: 300 B tokens on 1,024 A100 at a measured 140 TFLOP/s: 8 T P / (n X) = 34 days.
    The measured figure is end to end, so nothing is added to it; Eq. 3's attention and logit
    terms make the engine's figure 3 % longer than 8 T P."""
    model = gpt(12288, 96, 96)
    doc = job(model, 8, 8, 16, 1536,
              group={"training": {"dataset_tokens": 300e9, "epochs": 1}},
              assumptions={"achievable_utilization": 140 / 312,
                           "utilization_includes_communication": True})  # fmt: skip
    w = sized(doc, catalog).workloads[0]
    assert w.gpus_total == 1024
    days = w.training.time_to_train_hours / 24
    assert days == pytest.approx(34, rel=0.15)
    p = model["custom"]["parameters"]
    eq4 = 8 * 300e9 * p / (1024 * 140e12) / 86400 * (1 + S / (6 * 12288) + V / (16 * 96 * 12288))
    assert days == pytest.approx(eq4, rel=0.01)


def test_gpt3_at_megatrons_settings_takes_34_days_with_the_defaults(catalog):
    """Section 5.1's 34 days for GPT-3 (300 B tokens, 1,024 A100, TP 8 x PP 8, batch 1,536,
    full recomputation) with every assumption at its default, within 10 %: the compute at the
    default 0.5 of peak is 8 T P (1 + s/6h + V/16lh) / (n x 312e12 x 0.5) = 31.3 days; the
    engine adds what the layout costs, the bubble 7 / 96 of it and the tensor-parallel
    all-reduces, to 36 days (the paper's 140 TFLOP/s per GPU is that time end to end)."""
    model = gpt(12288, 96, 96)
    doc = job(model, 8, 8, 16, 1536, group={"training": {"dataset_tokens": 300e9, "epochs": 1}})
    w = sized(doc, catalog).workloads[0]
    assert w.gpus_total == 1024
    p = model["custom"]["parameters"]
    terms = 1 + S / (6 * 12288) + V / (16 * 96 * 12288)
    compute_days = 8 * 300e9 * p * terms / (1024 * 312e12 * 0.5) / 86400
    assert compute_days == pytest.approx(31.3, abs=0.1)
    days = w.training.time_to_train_hours / 24
    assert days > compute_days * (1 + 7 / 96)  # the bubble and the all-reduces are added
    assert days == pytest.approx(34, rel=0.10)


def test_interleaving_divides_the_bubble(catalog):
    """Section 2.2.2: v model chunks per stage make the bubble (p - 1) / (v m); GPT-3's 7 / 96
    becomes 7 / 192 with v = 2, and the time falls by the difference."""
    model = gpt(12288, 96, 96)
    doc = job(model, 8, 8, 16, 1536, group={"training": {"dataset_tokens": 300e9, "epochs": 1}})
    one = sized(doc, catalog).workloads[0].training
    doc["workloads"][0]["parallelism"]["virtual_pipeline_stages"] = 2
    two = sized(doc, catalog).workloads[0].training
    assert (one.pipeline_bubble_share, two.pipeline_bubble_share) == pytest.approx(
        (7 / 96, 7 / 192)
    )
    saved = one.compute_seconds_per_iteration * (7 / 96 - 7 / 192)
    assert one.iteration_seconds - two.iteration_seconds == pytest.approx(saved, rel=1e-9)


def test_an_overlapped_share_of_the_tensor_parallel_all_reduces_is_hidden(catalog):
    """With 60 % of the tensor-parallel all-reduces stated as overlapped, 40 % of them remain in
    the iteration; 0 (the default) keeps them all."""
    model = gpt(12288, 96, 96)
    doc = job(model, 8, 8, 16, 1536)
    full = sized(doc, catalog).workloads[0].training
    doc["assumptions"] = {"tensor_parallel_overlap": 0.6}
    part = sized(doc, catalog).workloads[0].training
    assert part.tensor_parallel_seconds_per_iteration == pytest.approx(
        0.4 * full.tensor_parallel_seconds_per_iteration, rel=1e-9
    )


TABLE_1 = [
    # params (B), heads, hidden, layers, TP, PP, GPUs, batch, measured TFLOP/s per GPU
    (1.7, 24, 2304, 24, 1, 1, 32, 512, 137),
    (3.6, 32, 3072, 30, 2, 1, 64, 512, 138),
    (7.5, 32, 4096, 36, 4, 1, 128, 512, 142),
    (18.4, 48, 6144, 40, 8, 1, 256, 1024, 135),
    (39.1, 64, 8192, 48, 8, 2, 512, 1536, 138),
    (76.1, 80, 10240, 60, 8, 4, 1024, 1792, 140),
    (145.6, 96, 12288, 80, 8, 8, 1536, 2304, 148),
]


@pytest.mark.parametrize("row", TABLE_1, ids=[f"{r[0]}B" for r in TABLE_1])
def test_megatron_table_1_throughput(row, catalog):
    """End-to-end TFLOP/s per GPU within 15 %: Eq. 3 FLOPs over (compute at the default 0.5 of
    312 TFLOPS + pipeline bubble + tensor-parallel all-reduces + the gradient reduction the
    backward pass does not hide) on DGX A100 nodes. Micro-batch 1 (the paper does not give
    it). These rows set the default: the mean of the engine's figures over the measured ones
    is within 1 % of 1."""
    params, heads, h, layers, tp, pp, gpus, batch, measured = row
    d = gpus // (tp * pp)
    doc = job(gpt(h, layers, heads), tp, pp, d, batch)
    r = sized(doc, catalog)
    w = r.workloads[0]
    assert w.gpus_total == gpus
    # Eq. 2 against the table's parameter count, which is rounded to 0.1 B
    assert gpt(h, layers, heads)["custom"]["parameters"] == pytest.approx(params * 1e9, abs=0.05e9)
    flops = calc(r, "workloads[0].flops_per_iteration").value
    tflops = flops / (w.training.iteration_seconds * gpus) / 1e12
    assert tflops == pytest.approx(measured, rel=0.15)


def _bus_bandwidth(doc: dict, catalog) -> float:
    """NCCL's bus bandwidth of the job's gradient all-reduce, as nccl-tests reports it:
    2 (n - 1)/n x the gradient bytes / time, whatever the algorithm moves."""
    r = sized(doc, catalog)
    w = r.workloads[0]
    n = w.gpus_total
    gradient = calc(r, "workloads[0].gradient_gb_per_gpu").value
    return 2 * (n - 1) / n * gradient / w.training.allreduce_seconds_per_iteration


@pytest.mark.parametrize(
    ("hardware", "gpus", "measured"),
    [(A100, 8, 230), (H100, 8, 480), (A100, 16, 192)],
    ids=["8xA100-NVSwitch", "8xH100-NVSwitch-NVLS", "2xDGX-A100-HDR"],
)
def test_nccl_allreduce_bus_bandwidth(hardware, gpus, measured, catalog):
    """A data-parallel job whose gradient all-reduce stays in one NVSwitch host or spans two
    hosts over 8 x HDR 200 Gb/s each. On the H100's third-generation NVSwitch NCCL reduces in
    the switch (NVLS): 'peak busBw of ~480GB/s (algbw ~275GB/s)' (NCCL maintainer,
    nccl-tests issue 212); the A100's NVSwitch has no NVLink SHARP, so its ring's 230."""
    doc = job({"preset": "llama-3-8b"}, 1, 1, gpus, gpus, hardware=hardware)
    doc["workloads"][0]["recompute"] = "full"
    assert _bus_bandwidth(doc, catalog) == pytest.approx(measured, rel=0.15)


def test_the_ring_without_nvls_is_the_h100s_370(catalog):
    """Negative case: the same H100 job under ZeRO-3 needs reduce-scatter and all-gather, which
    the engine keeps on the ring: 2 x 7/8 of the data at 0.8 of 450 GB/s is the ring's
    360 GB/s bus bandwidth (NCCL: 370 GB/s measured)."""
    doc = job({"preset": "llama-3-8b"}, 1, 1, 8, 8, hardware=H100)
    doc["workloads"][0]["parallelism"]["zero_stage"] = 3
    w = sized(doc, catalog).workloads[0]
    busbw = (
        w.training.allreduce_gb_per_gpu_per_iteration / w.training.allreduce_seconds_per_iteration
    )
    # ZeRO-3 moves 3 (n - 1)/n of the gradients: its per-GPU bytes over time is the ring's rate
    assert busbw == pytest.approx(450 * 0.8, rel=1e-6)


def _llama65b_qlora(method: str) -> dict:
    """LLaMA 65B (Touvron et al. 2023, Table 2: 8,192 hidden, 64 heads, 80 layers, 22,016 MLP)
    with QLoRA's settings: rank 64 on every linear layer, gradient checkpointing."""
    model = {"custom": {"parameters": 65.2e9, "layers": 80, "hidden_size": 8192, "heads": 64,
                        "vocab_size": 32_000, "ffn_hidden_size": 22016}}  # fmt: skip
    return {
        "workloads": [{
            "name": "QLoRA", "kind": "fine-tuning", "model": model, "precision": "bf16",
            "micro_batch_size": 1, "sequence_length": 512, "recompute": "full",
            "parallelism": {"tensor_parallel": 1, "pipeline_parallel": 1, "data_parallel": 1},
            "fine_tuning": {"method": method, "lora_rank": 64},
            "training": {"dataset_samples": 10_000},
        }],
        "hardware": {"gpu": "a40", "server": "dell-r750xa", "gpus_per_host": 1},
    }  # fmt: skip


def test_qlora_fits_a_65b_model_near_one_48_gb_gpu(catalog):
    """The 4-bit base alone is 65.2e9 x 4.127 / 8 = 33.6 GB; the adapters, their gradients and
    Adam states (kept on the GPU here, FP32 master copy included: QLoRA pages them out) bring
    the plan within 15 % of the paper's 48 GB."""
    w = sized(_llama65b_qlora("qlora"), catalog).workloads[0]
    assert w.memory_gb.weights > 65.2e9 * 4.127 / 8 / 1e9
    assert w.memory_gb.total == pytest.approx(48, rel=0.15)


def test_16_bit_fine_tuning_of_65b_needs_more_than_780_gb(catalog):
    doc = _llama65b_qlora("full")
    del doc["workloads"][0]["fine_tuning"]
    w = sized(doc, catalog).workloads[0]
    assert w.memory_gb.total * w.gpus_per_replica > 780 or w.memory_gb_per_replica > 780


def test_a_measured_zero3_throughput_is_not_charged_communication_again(catalog):
    """Table 2, ZeRO-3 without model parallelism: 174.6 B parameters on 384 GPUs, batch 1,536,
    micro-batch 4, a measured 144 TFLOP/s per GPU: 90 days for 300 B tokens. The figure is end
    to end, so the engine adds no all-reduce to it (8 T P / (n X) x Eq. 3's terms = 90.4 days)."""
    model = gpt(12288, 96, 96)
    doc = job(model, 1, 1, 384, 1536,
              group={"micro_batch_size": 4,
                     "parallelism": {"tensor_parallel": 1, "pipeline_parallel": 1,
                                     "data_parallel": 384, "zero_stage": 3},
                     "training": {"dataset_tokens": 300e9, "epochs": 1}},
              assumptions={"achievable_utilization": 144 / 312,
                           "utilization_includes_communication": True})  # fmt: skip
    w = sized(doc, catalog).workloads[0]
    assert w.gpus_total == 384 and w.layout.zero_stage == 3 and w.layout.shard_group == 384
    assert w.training.time_to_train_hours / 24 == pytest.approx(90, rel=0.15)
    assert w.training.iteration_seconds == pytest.approx(w.training.compute_seconds_per_iteration)


def test_table_1_sets_the_default_utilization(catalog):
    """The default 0.5 is the fit to Table 1: the engine's end-to-end TFLOP/s over the measured,
    averaged over the seven rows, is within 2 % of 1 (it was 0.4 before the bubble and the
    communication were counted apart from the utilization, which read 20 % slow)."""
    ratios = []
    for _params, heads, h, layers, tp, pp, gpus, batch, measured in TABLE_1:
        r = sized(job(gpt(h, layers, heads), tp, pp, gpus // (tp * pp), batch), catalog)
        flops = calc(r, "workloads[0].flops_per_iteration").value
        ratios.append(flops / (r.workloads[0].training.iteration_seconds * gpus) / 1e12 / measured)
    assert sum(ratios) / len(ratios) == pytest.approx(1, abs=0.02)
