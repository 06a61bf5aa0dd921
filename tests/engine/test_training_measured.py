"""The training model against published measurements it was not fitted on: step times
(tests/engine/data/training_time_measured.toml: llm-foundry, torchtitan, torchtune,
Megatron-Bridge, FlashAttention's GPT runs) and memory peaks
(tests/engine/data/training_memory_measured.toml). Each row is rebuilt from the settings its
source states (tests/engine/training_measured.py); the errors are reported in docs/model.md."""

from __future__ import annotations

import pytest

from tests.engine.training_measured import load
from wizard.app.io import design_from_dict
from wizard.engine.size import size

TIME = load("training_time_measured.toml")
TIMED = [m for m in TIME if m.why_not() is None]


def measured_step_s(row: dict) -> float:
    """The published step, or the global batch's tokens over the published throughput."""
    if row["step_s"]:
        return float(row["step_s"])
    batch = row["global_batch"] or row["micro_batch"] * row["gpus"]
    return batch * row["sequence"] / (row["tokens_per_s_per_gpu"] * row["gpus"])


def engine_step_s(m, catalog) -> float:
    w = size(design_from_dict(m.design()), catalog).workloads[0]
    assert w.gpus_total == m.row["gpus"]
    return float(w.training.iteration_seconds)


def test_the_time_table_is_broad_and_sourced():
    """At least 20 timed rows the engine can rebuild, over three GPU generations, BF16 and FP8,
    with and without recomputation, each with its source and published row."""
    assert len(TIMED) >= 20
    assert {m.gpu() for m in TIMED} >= {"a100-sxm4-80gb", "h100-sxm5-80gb", "h200-sxm-141gb"}
    assert {m.row["recompute"] for m in TIMED} >= {"none", "full"}
    assert all(m.row["source"] and m.row["quote"] for m in TIME)
    # a row the engine cannot rebuild says why, in words
    assert all(m.why_not() for m in TIME if m not in TIMED)


def test_step_times_against_the_published_runs(catalog):
    """The share of rows within 25 % of the published step: 46 of the 50 rows (92 %).
    docs/model.md names each of the four misses with its cause (MPT-70B at micro-batch 8 on 64
    H100, MPT-13B's recomputation at micro-batch 10 on H100, MPT-7B's at micro-batch 12 on A100
    40GB: a share of peak that rises with the micro-batch beyond what the engine models; a 125M
    model that reaches less of it)."""
    within = [
        m for m in TIMED if abs(engine_step_s(m, catalog) / measured_step_s(m.row) - 1) <= 0.25
    ]
    assert len(within) >= 46, [m.id for m in TIMED if m not in within]


def test_zero3_exchanges_parameters_and_gradients_in_every_micro_batch(catalog):
    """llm-foundry's MPT-13B on 8 H100 at 4,096 tokens, FULL_SHARD, micro-batch 10 and 240
    sequences a step: 240 / (10 x 8) = 3 micro-batches, each gathering the parameters and
    reduce-scattering the FP32 gradients, 3 x 7/8 x 12,864,440,320 x 4 B = 135.07 GB a GPU; 405.2
    GB a step over NVLink 4's 450 GB/s at 0.8 = 1.126 s, hidden under the compute, which it slows
    by 0.19 of its time: 0.214 s added (Lee et al., arXiv:2507.03114). Negative cases: with
    overlap free the step is the compute alone; Megatron-Core's distributed optimizer (ZeRO
    stage 1) reduces its 16 micro-batches' gradients once a step (Llama 3 8B: 8,030,261,248 x 4 B
    = 32.1 GB, in the switch)."""
    from tests.engine.conftest import calc

    m = next(m for m in TIMED if m.id == "llmfoundry-mpt13b-h100bf16-8gpu-s4096")
    per_micro = 3 * 7 / 8 * 12_864_440_320 * 4 / 1e9
    assert per_micro == pytest.approx(135.07, abs=0.01)
    r = size(design_from_dict(m.design()), catalog)
    t = r.workloads[0].training
    assert calc(r, "workloads[0].micro_batches").value == 3
    assert t.allreduce_gb_per_gpu_per_iteration == pytest.approx(3 * per_micro, rel=1e-6)
    ring_s = 3 * per_micro / (450 * 0.8)
    assert ring_s == pytest.approx(1.126, abs=1e-3)
    assert t.allreduce_seconds_per_iteration == pytest.approx(ring_s, rel=1e-6)
    compute = t.compute_seconds_per_iteration
    assert compute > ring_s
    assert t.iteration_seconds == pytest.approx(compute + 0.19 * ring_s, rel=1e-9)

    doc = m.design()
    doc["assumptions"] = {"overlap_slowdown": 0}
    free = size(design_from_dict(doc), catalog).workloads[0].training
    assert free.iteration_seconds == pytest.approx(compute, rel=1e-9)

    mb = next(m for m in TIMED if m.id == "megatron-bridge-llama3-8b-h100-8gpu-fp8cs-2511")
    r = size(design_from_dict(mb.design()), catalog)
    assert calc(r, "workloads[0].micro_batches").value == 16
    assert r.workloads[0].training.allreduce_gb_per_gpu_per_iteration == pytest.approx(
        8_030_261_248 * 4 / 1e9, rel=1e-6
    )


def test_pytorch_stacks_lose_share_of_peak_as_the_gpu_outgrows_its_bandwidth(catalog):
    """llm-foundry's MPT-13B on 8 GPUs at 2,048 tokens (README tables): 5.43 s a step on A100
    80GB, 0.85 s on H100 (a BF16 peak 989 / 312 = 3.17 times higher) - the same model on the
    same stack. The engine's share of peak by ridge point, 1.26 x 0.5 x (153 / ridge) ^ 0.56:
    on the A100 0.63, on the H100 0.63 x (153 / 295) ^ 0.56 = 0.44. Negative case: Megatron-Core
    keeps the design's 0.5 on both."""
    from tests.engine.conftest import calc

    a100 = next(m for m in TIMED if m.id == "llmfoundry-mpt13b-a100_80-8gpu-s2048")
    h100 = next(m for m in TIMED if m.id == "llmfoundry-mpt13b-h100bf16-8gpu-s2048")
    # dense BF16 peak over memory bandwidth, as the catalog's datasheet figures give them
    ridge = {
        key: catalog.gpus[gpu].tflops.bf16 * 1000 / catalog.gpus[gpu].memory_bandwidth_gbs
        for key, gpu in (("a100", "a100-sxm4-80gb"), ("h100", "h100-sxm5-80gb"))
    }
    assert ridge["a100"] == pytest.approx(153, abs=0.1)
    assert ridge["h100"] == pytest.approx(295, abs=0.5)
    for m, key in ((a100, "a100"), (h100, "h100")):
        r = size(design_from_dict(m.design()), catalog)
        u = calc(r, "workloads[0].training_utilization").value
        assert u == pytest.approx(0.5 * 1.26 * (312 / 2.039 / ridge[key]) ** 0.56, rel=1e-6)
        assert u == pytest.approx({"a100": 0.63, "h100": 0.436}[key], abs=1e-3)
        doc = m.design()
        doc["workloads"][0]["training_stack"] = "megatron-core"
        r = size(design_from_dict(doc), catalog)
        assert not [c for c in r.calculations if c.id == "workloads[0].training_utilization"]


MEMORY = load("training_memory_measured.toml")
PEAKS = [m for m in MEMORY if m.why_not() is None and m.row["peak_kind"] != "fits"]
FITS = [m for m in MEMORY if m.why_not() is None and m.row["peak_kind"] == "fits"]
# Rows the memory model misses today, each with its cause (docs/model.md, "Training memory")
MEMORY_GAPS = {
    "titan-trainy-l31-8b-h200-4node": "torchtitan's per-operator selective checkpointing "
    "(selective_ac_option 'op') recomputes most of each layer; the engine's selective "
    "recomputation drops only score matrices, which fused attention never keeps, so it counts "
    "every activation (73 GB); what the policy keeps under float8 and compile is not derivable "
    "from the config (a count from its save list plans below the peak)",
    "titan-trainy-l31-8b-h200-8node": "as over 32 GPUs: torchtitan's per-operator selective "
    "checkpointing keeps far fewer activations than the engine counts",
}
# Rows whose published peak is below what any run with the settings the source states must hold
# at once; the figure belongs to a shorter run, so it cannot judge the plan of the stated one
# (test_a_peak_below_its_own_runs_floor_is_not_that_runs_peak shows the arithmetic).
NOT_THE_STATED_RUN = {
    "tt-l2-70b-lora-8xa100": "the checkpointed layer inputs and the base shard alone exceed the "
    "published peak at the stated 4 x 4,096 tokens; the README's sequence length is the recipe's "
    "cap, and its unpacked Alpaca samples are padded only to the longest in the batch",
}


def test_a_peak_below_its_own_runs_floor_is_not_that_runs_peak():
    """torchtune's early Llama 2 70B LoRA row (8 A100, 'Batch Size = 4, Seq Length = 4096',
    26.4 GB). Under full recomputation every layer keeps its input until the backward pass
    reaches it: 80 layers x 4 x 4,096 tokens x 8,192 x 2 B = 21.47 GB; FSDP holds an eighth of
    the BF16 base, 68.98e9 x 2 B / 8 = 17.25 GB. Those two alone are 38.7 GB, 1.47 times the
    published figure, whatever else the run keeps (the logits, the layer being recomputed, the
    gathered layer, the allocator's blocks). At most (26.4 - 17.25) / (80 x 4 x 8,192 x 2 B) =
    1,746 tokens a sequence fit beside the base shard: the figure is a run of shorter samples
    (the recipe pads unpacked Alpaca samples to the longest in the batch), so the row is listed,
    not judged. Negative case: every other row of the same README table lies above its own
    floor, so the rule does not excuse a row the model merely misses."""
    rows = {m.id: m.row for m in MEMORY}
    r = rows["tt-l2-70b-lora-8xa100"]
    inputs = r["layers"] * r["micro_batch"] * r["sequence"] * r["hidden"] * 2 / 1e9
    base = r["params"] * 2 / r["gpus"] / 1e9
    assert inputs == pytest.approx(80 * 4 * 4_096 * 8_192 * 2 / 1e9) == pytest.approx(21.47, 0.01)
    assert base == pytest.approx(17.245, abs=1e-3)
    assert (inputs + base) / r["peak"] == pytest.approx(1.467, abs=1e-3)
    longest = (r["peak"] - base) * 1e9 / (r["layers"] * r["micro_batch"] * r["hidden"] * 2)
    assert 1_740 < longest < 1_750
    assert set(NOT_THE_STATED_RUN) == {"tt-l2-70b-lora-8xa100"}
    table = r["source"].split(";")[0]
    same_table = [
        m.row
        for m in MEMORY
        if m.row["source"].split(";")[0] == table and m.id not in NOT_THE_STATED_RUN
    ]
    assert len(same_table) == 3
    for row in same_table:
        held = row["params"] * (0.5 if row["method"] == "qlora" else 2) / row["gpus"] / 1e9
        floor = (
            held + row["layers"] * row["micro_batch"] * row["sequence"] * row["hidden"] * 2 / 1e9
        )
        assert floor < row["peak"], row["id"]


def test_the_optimizer_in_the_backward_pass_holds_only_the_largest_gradient(catalog):
    """torchtune's Llama 3.2 3B with optimizer_in_bwd (README 'Optimization flags', 23.1 GiB
    active at its peak): each gradient is freed once its parameter is stepped, so at most the
    largest one is held, the tied embedding's 128,256 x 3,072 = 394,002,432 BF16 values, 0.79
    GB, not 3.21e9 x 2 B = 6.42 GB. Negative case: a global batch of 4 sequences at micro-batch
    2 on one GPU accumulates two micro-batches, which the option cannot do: every gradient is
    kept and the plan says why."""
    from tests.engine.conftest import calc

    m = next(m for m in PEAKS if m.id == "tt-l32-3b-optbwd")
    r = size(design_from_dict(m.design()), catalog)
    assert 128_256 * 3_072 == 394_002_432
    assert r.workloads[0].memory_gb.gradients == pytest.approx(394_002_432 * 2 / 1e9, rel=1e-9)
    assert calc(r, "workloads[0].memory.gradients").inputs["largest_tensor"] == 394_002_432
    assert not [w for w in r.warnings if w.code == "optimizer-in-backward-accumulates"]

    doc = m.design()
    doc["workloads"][0]["global_batch_size"] = 4
    r = size(design_from_dict(doc), catalog)
    assert r.workloads[0].memory_gb.gradients == pytest.approx(3.21e9 * 2 / 1e9, rel=1e-9)
    assert [w for w in r.warnings if w.code == "optimizer-in-backward-accumulates"]


def planned_gb(m, catalog) -> float:
    return size(design_from_dict(m.design()), catalog).workloads[0].memory_gb.total


@pytest.mark.parametrize(
    "m",
    [
        pytest.param(m, marks=pytest.mark.xfail(strict=True, reason=MEMORY_GAPS[m.id]))
        if m.id in MEMORY_GAPS
        else m
        for m in PEAKS
        if m.id not in NOT_THE_STATED_RUN
    ],
    ids=[m.id for m in PEAKS if m.id not in NOT_THE_STATED_RUN],
)
def test_planned_memory_holds_the_measured_peak(m, catalog):
    """Planned memory per GPU within -5 % / +30 % of the published peak: never below what the
    run needed (beyond the rounding of a published figure), never a third more."""
    ratio = planned_gb(m, catalog) / m.peak_gb()
    assert 0.95 <= ratio <= 1.30, f"{ratio:.2f}"


@pytest.mark.parametrize("m", FITS, ids=[m.id for m in FITS])
def test_runs_that_fit_a_gpu_are_not_planned_far_beyond_it(m, catalog):
    """llm-foundry's runs state only that they fit the GPU: the plan stays within 30 % of its
    memory (a plan far above it would buy GPUs the run did not need)."""
    assert planned_gb(m, catalog) <= 1.30 * m.peak_gb()


def test_the_memory_table_is_sourced_and_says_what_it_measured():
    assert len(MEMORY) >= 30
    assert all(m.row["source"] and m.row["quote"] for m in MEMORY)
    assert {m.row["peak_kind"] for m in MEMORY} <= {
        "reserved", "allocated", "nvidia-smi", "unknown", "fits"
    }  # fmt: skip
    assert len(PEAKS) >= 10


def test_the_vgpu_a_one_gpu_run_is_planned_on_holds_its_peak(catalog):
    """For every one-GPU tabled run with a measured peak, time-sliced vGPU with a loose target:
    the profile the plan picks holds the published peak (a plan that picks a profile the job
    does not fit in is the error this table guards against)."""
    checked = 0
    for m in PEAKS:
        if m.row["gpus"] != 1 or m.id in MEMORY_GAPS:
            continue
        doc = m.design()
        doc["workloads"][0]["sharing_mode"] = "vgpu"
        doc["workloads"][0]["training"]["target_hours"] = 1e6
        w = size(design_from_dict(doc), catalog).workloads[0]
        profile = w.planned_slice
        gpu = catalog.gpus[m.gpu()]
        held = gpu.memory_gb  # no fractional profile holds it: the whole GPU
        if profile is not None:
            held = next(p.framebuffer_gb for p in gpu.vgpu.profiles if p.name == profile)
        assert held >= m.peak_gb(), (m.id, profile, held, m.peak_gb())
        checked += 1
    assert checked >= 4
