"""Two training choices that set how many bytes a job keeps: pure BF16 (weights, gradients and
the optimizer's states in BF16, no FP32 master copy) and torch.compile (fused kernels that keep
fewer tensors for the backward pass). Each is checked on a published run of the measured table
(tests/engine/data/training_memory_measured.toml) with hand arithmetic, and against the
layout it replaces."""

from __future__ import annotations

import pytest

from tests.engine.conftest import calc
from tests.engine.training_measured import load
from wizard.app.io import design_from_dict
from wizard.base.errors import DesignError
from wizard.engine.size import size

ROWS = {m.id: m for m in load("training_memory_measured.toml")}
PARAMS = 3_210_000_000  # Llama 3.2 3B as the rows state it


def _sized(doc: dict, catalog):
    return size(design_from_dict(doc), catalog)


def test_pure_bf16_keeps_eight_bytes_a_parameter(catalog):
    """PEFT's MetaMathQA full fine-tune of Llama 3.2 3B on an L40S: the model loaded in bfloat16,
    no autocast, torch AdamW (its states in the parameters' dtype). Weights 3.21e9 x 2 B = 6.42
    GB, gradients 6.42 GB, two BF16 moments 3.21e9 x 4 B = 12.84 GB, no master copy. Negative
    case: the same run as Hugging Face's mixed precision keeps FP32 weights with their BF16
    autocast copies (4 + 2 B), FP32 gradients (4 B) and FP32 moments (8 B): 19.26 + 12.84 +
    25.68 GB."""
    m = ROWS["peft-mmqa-l32-3b-full-l40s"]
    doc = m.design()
    assert doc["workloads"][0]["pure_bf16"] is True
    r = _sized(doc, catalog)
    mem = r.workloads[0].memory_gb
    assert mem.weights == pytest.approx(PARAMS * 2 / 1e9, rel=1e-9)
    assert mem.gradients == pytest.approx(PARAMS * 2 / 1e9, rel=1e-9)
    assert mem.optimizer == pytest.approx(PARAMS * 4 / 1e9, rel=1e-9)
    weights = calc(r, "workloads[0].memory.weights")
    assert weights.inputs["weight_bytes"] == 2 and weights.inputs["cast_copy_bytes"] == 0
    assert "pure BF16" in weights.source
    assert "in pure BF16 (no FP32 master weights)" in r.workloads[0].layout.reason

    doc["workloads"][0]["pure_bf16"] = False
    mixed = _sized(doc, catalog).workloads[0].memory_gb
    assert mixed.weights == pytest.approx(PARAMS * 6 / 1e9, rel=1e-9)
    assert mixed.gradients == pytest.approx(PARAMS * 4 / 1e9, rel=1e-9)
    assert mixed.optimizer == pytest.approx(PARAMS * 8 / 1e9, rel=1e-9)


def test_pure_bf16_needs_bf16(catalog):
    """Pure BF16 with FP16 matrix products is a contradiction: the design says so in words,
    naming the setting by its wizard label and the precision given."""
    doc = ROWS["peft-mmqa-l32-3b-full-l40s"].design()
    doc["workloads"][0]["precision"] = "fp16"
    with pytest.raises(DesignError, match=r"pure BF16 .*\(no FP32 master weights\).* not FP16"):
        design_from_dict(doc)


def _stored(layers: int, tokens: int, h: int, q: int, kv: int, ffn: int, norm: int, mlp: int):
    """Korthikanti's per-layer count (bytes per token): the norms' and projections' inputs (8 h),
    the stack's norm copies, Q and the attention output (4 q), K and V (4 kv), the MLP's
    tensors."""
    return layers * tokens * ((8 + norm) * h + 4 * q + 4 * kv + mlp * ffn) / 1e9


def test_compile_keeps_the_norm_input_and_three_swiglu_tensors(catalog):
    """torchtune's Llama 3.2 3B at 2 x 4,096 packed tokens, with and without torch.compile
    (README 'Optimization flags': 60.0 -> 51.0 GiB, 64.4 -> 54.8 GB). Eager PyTorch keeps each
    RMSNorm's FP32 input and normalised copy (8 B per hidden unit, two norms) and the SwiGLU's
    gate, up, activation and product (8 B per MLP unit): 28 x 8,192 x 131,072 B = 30.06 GB.
    Compiled, the norms keep their 16-bit input only and the SwiGLU gate, up and product (6 B):
    28 x 8,192 x 90,112 B = 20.67 GB, 9.40 GB less; the run measured 9.6 GB less."""
    eager = _stored(28, 8192, 3072, 3072, 1024, 8192, norm=8, mlp=8)
    fused = _stored(28, 8192, 3072, 3072, 1024, 8192, norm=0, mlp=6)
    assert eager == pytest.approx(30.06, abs=0.01)
    assert fused == pytest.approx(20.67, abs=0.01)
    m = ROWS["tt-l32-3b-compile"]
    base = ROWS["tt-l32-3b-packed"]
    measured_saving = base.peak_gb() - m.peak_gb()
    assert measured_saving == pytest.approx(9.6, abs=0.1)
    assert eager - fused == pytest.approx(measured_saving, rel=0.05)

    doc = m.design()
    assert doc["workloads"][0]["compiled"] is True
    r = _sized(doc, catalog)
    stored = calc(r, "workloads[0].memory.stored_activations")
    assert stored.value == pytest.approx(fused, rel=1e-9)
    assert stored.inputs["norm_extra"] == 0 and stored.inputs["mlp_bytes"] == 6
    assert "torch.compile" in stored.source
    assert "compiled with torch.compile" in r.workloads[0].layout.reason

    doc["workloads"][0]["compiled"] = False
    r = _sized(doc, catalog)
    assert calc(r, "workloads[0].memory.stored_activations").value == pytest.approx(eager, rel=1e-9)


def test_compile_changes_nothing_megatron_already_fuses(catalog):
    """Negative case: Megatron-Core's Transformer Engine kernels already keep the 16-bit norm
    input and three SwiGLU tensors, so the choice leaves its plan as it was."""
    doc = ROWS["tt-l32-3b-compile"].design()
    g = doc["workloads"][0]
    g.update(training_stack="megatron-core", pure_bf16=False)
    totals = []
    for compiled in (False, True):
        g["compiled"] = compiled
        totals.append(_sized(doc, catalog).workloads[0].memory_gb.total)
    assert totals[0] == pytest.approx(totals[1], rel=1e-12)


def test_the_loss_over_the_whole_vocabulary_or_in_chunks(catalog):
    """torchtune's table before and after '+ Chunked Cross Entropy' (compiled Llama 3.2 3B, 2 x
    4,096 tokens, a 128,256 vocabulary: 1.051e9 logits). PyTorch's cross-entropy on the FP32
    output keeps the log-probabilities and, at the start of the backward pass, their gradient
    and the logits' gradient: 12 B a logit, 12.61 GB; the chunked loss keeps the
    log-probabilities and one chunk of 8's two gradients, 4 + 2 x 4 / 8 = 5 B, 5.25 GB: 7.36 GB
    less; the runs measured 8.7 GB less. Negative case: a torchtune group that does not say
    keeps torchtune's default, the chunked loss."""
    logits = 2 * 4096 * 128_256
    plain, chunked = logits * 12 / 1e9, logits * 5 / 1e9
    assert plain == pytest.approx(12.61, abs=0.01) and chunked == pytest.approx(5.25, abs=0.01)
    measured = ROWS["tt-l32-3b-compile"].peak_gb() - ROWS["tt-l32-3b-chunkedce"].peak_gb()
    assert measured == pytest.approx(8.7, abs=0.1)
    assert plain - chunked < measured  # never more saved than the run saw

    doc = ROWS["tt-l32-3b-compile"].design()
    assert doc["workloads"][0]["chunked_loss"] is False
    r = _sized(doc, catalog)
    assert calc(r, "workloads[0].memory.logits").value == pytest.approx(plain, rel=1e-9)
    doc = ROWS["tt-l32-3b-chunkedce"].design()
    doc["workloads"][0]["chunked_loss"] = None
    r = _sized(doc, catalog)
    logit = calc(r, "workloads[0].memory.logits")
    assert logit.value == pytest.approx(chunked, rel=1e-9)
    assert "CEWithChunkedOutputLoss" in logit.source


def test_gradients_are_allocated_as_the_backward_pass_frees_the_activations(catalog):
    """torchtune's Llama 3.2 3B with activation checkpointing (24.9 GiB = 26.7 GB allocated):
    BF16 weights 6.42 GB and moments 12.84 GB; at the start of the backward pass no gradient
    yet beside the checkpointed inputs (28 x 8,192 x 3,072 x 2 B = 1.41 GB), the layer recomputed
    (8,192 x 90,112 B = 0.74 GB) and the chunked loss (5.25 GB): 7.40 GB; at its end every
    gradient (6.42 GB) and one layer's working set (0.74 GB): 7.16 GB. The peak is the larger,
    19.26 + 7.40 = 26.66 GB of tensors, not 19.26 + 6.42 + 7.40 = 33.08 GB. Negative cases: a
    global batch of 4 at micro-batch 2 accumulates two micro-batches, so the gradients sit beside
    the activations; so do Megatron-Core's persistent gradient buffer and DDP's buckets (two
    replicas, unsharded)."""
    stored = 28 * 8192 * 3072 * 2 / 1e9
    working = 8192 * (8 * 3072 + 4 * 3072 + 4 * 1024 + 6 * 8192) / 1e9
    logits = 2 * 4096 * 128_256 * 5 / 1e9
    start = stored + working + logits
    assert start == pytest.approx(7.40, abs=0.01)
    states = PARAMS * (2 + 4) / 1e9
    grads = PARAMS * 2 / 1e9
    m = ROWS["tt-l32-3b-ac"]
    r = _sized(m.design(), catalog)
    assert calc(r, "workloads[0].memory.tensors").value == pytest.approx(
        states + max(start, grads + working), rel=1e-6
    )
    beside = calc(r, "workloads[0].memory.activations_beside_gradients")
    assert beside.value == pytest.approx(start - grads, rel=1e-6)
    assert "set_to_none" in beside.source
    assert r.workloads[0].memory_gb.total / m.peak_gb() <= 1.30

    summed = states + grads + start
    for change in (
        {"global_batch_size": 4},
        {"training_stack": "megatron-core", "pure_bf16": False},
    ):
        doc = m.design()
        doc["workloads"][0].update(change)
        r = _sized(doc, catalog)
        assert not [c for c in r.calculations if "activations_beside_gradients" in c.id]
        if "global_batch_size" in change:
            tensors = calc(r, "workloads[0].memory.tensors").value
            assert tensors == pytest.approx(summed, rel=1e-6)
    doc = m.design()
    doc["workloads"][0]["parallelism"].update(data_parallel=2, zero_stage=0)
    doc["workloads"][0]["global_batch_size"] = 4
    doc["hardware"]["gpus_per_host"] = 2
    r = _sized(doc, catalog)
    assert not [c for c in r.calculations if "activations_beside_gradients" in c.id]


def test_pure_bf16_leaves_a_lora_plan_as_peft_keeps_it(catalog):
    """Negative case: PEFT's LoRA of the same model keeps its adapters in FP32 over a BF16 base
    whatever the setting, so the plan and its words do not change."""
    doc = ROWS["peft-mmqa-l32-3b-lora-r32-l40s"].design()
    plans = []
    for pure in (False, True):
        doc["workloads"][0]["pure_bf16"] = pure
        plans.append(_sized(doc, catalog).workloads[0])
    assert plans[0].memory_gb.total == pytest.approx(plans[1].memory_gb.total, rel=1e-12)
    assert "pure BF16" not in plans[1].layout.reason
