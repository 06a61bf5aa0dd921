"""Slips a reviewer would plant where the figures come from, each pinned by hand arithmetic:
LoRA's gradient all-reduce carries the adapters only; full recomputation repeats the forward
pass's tensor-parallel all-reduces; a MIG instance gets its memory slices' share of the
bandwidth; a time-sliced vGPU its time slice; a mixed-size vGPU GPU its mixed-size maxima."""

from __future__ import annotations

import pytest

from tests.engine.conftest import calc
from wizard.app.io import design_from_dict
from wizard.engine.basis.slices import slices
from wizard.engine.basis.slices import vgpu_share as share
from wizard.engine.placement.vgpu import VgpuState
from wizard.engine.size import size
from wizard.model.design import Assumptions, SharingMode

H100 = {"gpu": "h100-sxm5-80gb", "server": "dell-xe9680", "gpus_per_host": 8, "nvlink": True}


def _lora_70b(**parallelism) -> dict:
    """MLPerf's Llama 2 70B LoRA shape: rank 16 on the attention projections, TP 4 x DP 2."""
    return {
        "workloads": [{
            "name": "Llama 2 70B LoRA", "kind": "fine-tuning",
            "model": {"preset": "llama-2-70b"}, "precision": "bf16",
            "micro_batch_size": 1, "global_batch_size": 8, "sequence_length": 8192,
            "parallelism": {"tensor_parallel": 4, "pipeline_parallel": 1, "data_parallel": 2,
                            "sequence_parallel": True, **parallelism},
            "fine_tuning": {"method": "lora", "lora_rank": 16, "lora_targets": "attention"},
            "training": {"dataset_samples": 3072, "epochs": 1},
        }],
        "hardware": H100,
    }  # fmt: skip


def test_lora_all_reduces_the_adapters_not_the_model(catalog):
    """Llama 2 70B: hidden 8,192, 8 KV heads of 128 (1,024 wide), 80 layers. Rank 16 on q, k, v,
    o adds r x (in + out) each: (8,192 + 8,192) + 2 x (8,192 + 1,024) + (8,192 + 8,192) =
    51,200 per layer, 16 x 80 x 51,200 = 65,536,000 trainable parameters; each GPU all-reduces
    its tensor-parallel quarter of their gradients: 65.5 M x bytes / 4 — 0.07 GB at 4 bytes,
    not the 70 GB of the whole model's."""
    r = size(design_from_dict(_lora_70b()), catalog)
    trainable = 16 * 80 * (2 * (8192 + 8192) + 2 * (8192 + 1024))
    assert calc(r, "workloads[0].trainable_parameters").value == trainable
    grad = calc(r, "workloads[0].gradient_gb_per_gpu")
    bytes_ = 4  # PEFT's FP32 adapters: FP32 gradients
    assert Assumptions().gradient_bytes is None  # the stack's, not an override
    assert grad.inputs["trainable_parameters"] == trainable
    assert grad.value == pytest.approx(trainable * bytes_ / 4 / 1e9)


@pytest.mark.parametrize(("recompute", "allreduces"), [("full", 6), ("none", 4)])
def test_recomputation_repeats_the_tensor_parallel_all_reduces(catalog, recompute, allreduces):
    """Megatron's tensor parallelism all-reduces twice per layer forward and twice backward;
    recomputing the forward pass repeats its two (Korthikanti et al., arXiv:2205.05198, section
    4): 6 per layer with full recomputation, 4 without."""
    doc = _lora_70b()
    doc["workloads"][0]["recompute"] = recompute
    r = size(design_from_dict(doc), catalog)
    tp = calc(r, "workloads[0].tensor_parallel_seconds_per_iteration")
    assert tp.inputs["tp_allreduces"] == allreduces


def test_a_mig_instance_gets_its_memory_slices_bandwidth(catalog):
    """MIG user guide: each memory slice is an eighth of the memory and its bandwidth. The H100's
    3g.40gb: 3 of 7 compute slices, 4 of 8 memory slices: half the bandwidth, 3/7 of the
    compute; 1g.10gb: 1/7 and 1/8."""
    gpu = catalog.gpus["h100-sxm5-80gb"]
    got = {s.profile: (s.compute, s.bandwidth) for s in slices(gpu, SharingMode.MIG)}
    assert got["3g.40gb"] == pytest.approx((3 / 7, 4 / 8))
    assert got["1g.10gb"] == pytest.approx((1 / 7, 1 / 8))


def test_a_time_sliced_vgpu_takes_its_time_slice(catalog):
    """H100 NVL: NVIDIA allows at most 4 H100L-23C per GPU, so each gets a quarter of the
    GPU's time (0.25) although its framebuffer is 23 of 94 GB (0.245); the smallest type,
    H100L-4C, 23 per GPU: 1/23 against 4/94."""
    gpu = catalog.gpus["h100-nvl-94gb"]
    types = {p.name: p for p in gpu.vgpu.profiles}
    assert share(gpu, types["H100L-23C"]) == pytest.approx(1 / 4)
    assert share(gpu, types["H100L-4C"]) == pytest.approx(1 / 23)
    got = {s.profile: s.compute for s in slices(gpu, SharingMode.VGPU)}
    assert got["H100L-23C"] == pytest.approx(1 / 4)


def test_mixed_sizes_are_held_to_the_mixed_size_maxima(catalog):
    """H100 SXM5 80GB: H100XM-8C is 10 per GPU at one size, 8 in mixed-size mode (the catalog's
    vGPU table). Beside one H100XM-4C, eight 8C fit (68 GB); a ninth (76 GB, within the 80 GB)
    is refused by the mixed-size maximum. At one size, nine are allowed."""
    gpu = catalog.gpus["h100-sxm5-80gb"]
    types = {p.name: p for p in gpu.vgpu.profiles}
    c8, c4 = types["H100XM-8C"], types["H100XM-4C"]
    assert (c8.max_per_gpu, c8.max_per_gpu_mixed) == (10, 8)
    state: VgpuState | None = VgpuState().place(gpu, c4, 0.0, mixed=True)
    for _ in range(8):
        assert state is not None
        state = state.place(gpu, c8, 0.0, mixed=True)
    assert state is not None and state.framebuffer_gb == 68
    assert state.place(gpu, c8, 0.0, mixed=True) is None
    one_size: VgpuState | None = VgpuState()
    for _ in range(9):
        assert one_size is not None
        one_size = one_size.place(gpu, c8, 0.0, mixed=True)
    assert one_size is not None
