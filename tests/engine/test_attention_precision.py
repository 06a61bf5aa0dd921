"""The attention core computes at its KV cache's precision, never in FP4: NVFP4 quantizes the
linear layers; TensorRT-LLM's attention kernels run FP8 (with an FP8 KV cache) or 16-bit.

B200 dense peaks from the GPU catalog: FP4 9,000, FP8 4,500, BF16 2,250 TFLOPS."""

from __future__ import annotations

from tests.engine.serving_runs import HELD_BACK
from wizard.app.io import design_from_dict
from wizard.engine.size import size

RUN = next(r for r in HELD_BACK if r.id == "70B-B200-FP4-1k1k")


def _inputs(doc, catalog, name: str) -> dict:
    r = size(design_from_dict(doc), catalog)
    return next(c.inputs for c in r.calculations if c.id.endswith(name))


def test_fp4_weights_take_fp4_linear_layers_and_fp8_attention(catalog):
    doc = RUN.design()
    assert _inputs(doc, catalog, "decode.linear_s")["peak_tflops"] == 9000
    assert _inputs(doc, catalog, "decode.attention_s")["attention_tflops"] == 4500  # FP8 KV
    prefill = _inputs(doc, catalog, "prefill.compute_s")
    assert (prefill["peak_tflops"], prefill["attention_tflops"]) == (9000, 4500)


def test_a_16_bit_kv_cache_makes_attention_16_bit(catalog):
    doc = RUN.design()
    doc["workloads"][0]["inference"]["kv_cache_precision"] = "bf16"
    assert _inputs(doc, catalog, "decode.attention_s")["attention_tflops"] == 2250


def test_fp8_weights_keep_fp8_attention(catalog):
    doc = RUN.design()
    doc["workloads"][0]["precision"] = "fp8"
    assert _inputs(doc, catalog, "decode.linear_s")["peak_tflops"] == 4500
    assert _inputs(doc, catalog, "decode.attention_s")["attention_tflops"] == 4500
