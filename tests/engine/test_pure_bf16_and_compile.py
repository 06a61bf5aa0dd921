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
