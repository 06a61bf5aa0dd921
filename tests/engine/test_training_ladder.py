"""The training strategy ladder rung by rung (``training_plan.ladder``): what an expert tries, in
order, for a model that may not fit one GPU. Without a fixed answer a one-GPU rung keeps every
state whole (ZeRO stage 0, Rajbhandari et al., arXiv:1910.02054: stages 1-3 only mean something
with data-parallel ranks to shard over), a sharded rung is FSDP (ZeRO-3); a fixed layout is tried
without recomputation first and with full recomputation last (Korthikanti et al.,
arXiv:2205.05198: full recomputation trades a forward pass for memory)."""

from __future__ import annotations

from wizard.engine.basis import memory
from wizard.engine.basis.memory import Shape
from wizard.engine.demand.training_plan import Job, Strategy, ladder
from wizard.model.design import FineTuningMethod, LoraTargets, Optimizer, Precision, Recompute

NONE, SELECTIVE, FULL = Recompute.NONE, Recompute.SELECTIVE, Recompute.FULL


def job() -> Job:
    """An 8 B model of 4 layers, 32 heads, fused attention (no selective rung)."""
    return Job(
        params=8e9, active_params=8e9, shape=Shape(layers=4, hidden=4096, heads=32, kv_heads=8),
        vocabulary=128_256, ffn=None, experts=0, precision=Precision.BF16,
        method=FineTuningMethod.FULL, lora_rank=16, lora_targets=LoraTargets.ATTENTION_MLP,
        gradient_bytes=2, optimizer_bytes=memory.OPTIMIZER_BYTES[Optimizer.ADAMW],
        master_bytes=memory.master_copy_bytes(Precision.BF16), sequence=2048, micro_batch=1,
        overhead_gb=0.0, activation_gb_per_sample=None,
    )  # fmt: skip


def rungs(tp=None, pp=None, zero=None, recompute=None, dp=None) -> list[Strategy]:
    return ladder(job(), tp, pp, zero, recompute, dp, False, 8, 8)


def test_one_gpu_rungs_keep_zero_stage_0_and_sharded_rungs_zero_3():
    """The first rungs: one GPU without and with full recomputation, ZeRO 0; then FSDP over 2,
    4 and 8 GPUs of the host, ZeRO 3."""
    out = rungs()
    assert out[0] == Strategy(1, 1, 1, 0, NONE)
    assert out[1] == Strategy(1, 1, 2, 3, NONE)
    single = [s for s in out if s.gpus == 1]
    assert single == [Strategy(1, 1, 1, 0, NONE), Strategy(1, 1, 1, 0, FULL)]
    assert {s.zero for s in out if s.shard > 1} == {3}


def test_a_fixed_zero_stage_holds_on_every_rung():
    """Negative case: the design fixes ZeRO 2, so the one-GPU rungs carry it too."""
    out = rungs(zero=2)
    assert [s for s in out if s.gpus == 1] == [Strategy(zero=2), Strategy(zero=2, recompute=FULL)]
    assert {s.zero for s in out if s.shard > 1} == {2}


def test_a_fixed_layout_tries_full_recomputation_last():
    """Tensor parallelism 2 fixed: the layout without recomputation, then with full; a fixed
    ZeRO and data parallelism likewise. Negative case: a fixed recomputation is the one tried."""
    assert rungs(tp=2) == [Strategy(2, 1, 1, 0, NONE), Strategy(2, 1, 1, 0, FULL)]
    assert rungs(pp=2) == [Strategy(1, 2, 1, 0, NONE), Strategy(1, 2, 1, 0, FULL)]
    assert rungs(zero=3, dp=4) == [Strategy(1, 1, 4, 3, NONE), Strategy(1, 1, 4, 3, FULL)]
    assert rungs(tp=2, recompute=SELECTIVE) == [Strategy(2, 1, 1, 0, SELECTIVE)]


def test_tensor_and_pipeline_rungs_try_full_recomputation_too():
    """After sharding: tensor parallelism 2, 4 and 8 inside the 8-GPU NVLink host (32 heads
    divide by each), then pipeline stages 2 to 4 (the 4 layers) at tensor parallelism 8, each
    without and with full recomputation."""
    out = rungs()
    tensor = [s for s in out if s.tensor > 1 and s.pipeline == 1]
    assert tensor == [Strategy(t, 1, 1, 0, rc) for t in (2, 4, 8) for rc in (NONE, FULL)]
    stages = [s for s in out if s.pipeline > 1]
    assert stages == [Strategy(8, p, 1, 0, rc) for p in (2, 3, 4) for rc in (NONE, FULL)]
