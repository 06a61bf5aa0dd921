"""Fine-tuning as teams run it: LoRA on one GPU, full fine-tuning sharded inside one host, never
tensor parallelism over PCIe; the strategy ladder rule by rule; MLPerf's Llama 2 70B LoRA."""

from __future__ import annotations

import pytest

from tests.engine.conftest import calc
from wizard.app.io import design_from_dict
from wizard.engine.size import size

H100 = {"gpu": "h100-sxm5-80gb", "server": "dell-xe9680", "gpus_per_host": 8, "nvlink": True}
L40S = {"gpu": "l40s", "server": "lenovo-sr675-v3", "gpus_per_host": 8}


def acme(hardware: dict, method: str | None, **group) -> dict:
    """The Acme case: Llama 3 8B on 50 M tokens of their documents, 3 epochs, in 12 h."""
    g = {
        "name": "Acme assistant tuning",
        "kind": "fine-tuning",
        "model": {"preset": "llama-3-8b"},
        "precision": "bf16",
        "micro_batch_size": 1,
        "global_batch_size": 32,
        "sequence_length": 2048,
        "training": {"dataset_tokens": 50e6, "epochs": 3, "target_hours": 12},
        **group,
    }
    if method:
        g["fine_tuning"] = {"method": method}
    return {"workloads": [g], "hardware": hardware}


def sized(doc: dict, catalog):
    return size(design_from_dict(doc), catalog)


@pytest.mark.parametrize("hardware", [H100, L40S], ids=["H100", "L40S"])
def test_acme_lora_runs_on_one_gpu_per_job(hardware, catalog):
    w = sized(acme(hardware, "lora"), catalog).workloads[0]
    assert w.gpus_per_replica == 1 and w.gpus_total == 1
    assert w.training.time_to_train_hours <= 12
    assert w.layout.reason.startswith("one GPU")
    assert w.training.fine_tuning_method == "lora"


def test_lora_trains_a_fraction_of_a_percent(catalog):
    """Llama 3 8B, rank 16 on q, k, v, o (6 x 4,096 + 2 x 1,024 wide) and the gated MLP
    (3 x (4,096 + 14,336)): 16 x 32 x (26,624 + 55,296) = 41.9 M trainable parameters."""
    r = sized(acme(H100, "lora"), catalog)
    expected = 16 * 32 * ((6 * 4096 + 2 * 1024) + 3 * (4096 + 14336))
    assert calc(r, "workloads[0].trainable_parameters").value == expected
    w = r.workloads[0]
    assert w.training.trainable_parameters / 8e9 < 0.01
    # optimizer states only for the adapters: AdamW's two FP32 moments, 8 bytes each; PEFT keeps
    # the adapters themselves in FP32 (autocast_adapter_dtype), so there is no master copy
    assert w.memory_gb.optimizer == pytest.approx(expected * 8 / 1e9)


def test_acme_full_fine_tuning_is_sharded_inside_one_host(catalog):
    """8 B parameters x 16 bytes of model state under PyTorch FSDP's BF16 mixed precision (FP32
    weights, gradients and Adam's two moments) = 128 GB: one 80 GB H100 cannot hold it, FSDP
    (ZeRO-3) over GPUs of one host can."""
    w = sized(acme(H100, None), catalog).workloads[0]
    assert 8e9 * 16 / 1e9 > 80
    assert w.layout.tensor_parallel == 1 and w.layout.pipeline_parallel == 1
    assert w.layout.zero_stage == 3 and 1 < w.layout.shard_group <= 8
    assert "FSDP" in w.layout.reason
    assert w.memory_gb.total <= 80


def test_l40s_never_uses_tensor_parallelism_over_pcie(catalog):
    w = sized(acme(L40S, None), catalog).workloads[0]
    assert w.layout.tensor_parallel == 1
    assert w.layout.zero_stage == 3 and w.layout.shard_group > 1
    assert w.memory_gb.total <= 48


def test_qlora_base_is_four_bits(catalog):
    """NF4 with double quantization: 4.127 bits per parameter (QLoRA section 3); the adapters
    in FP32 as PEFT keeps them (4 bytes)."""
    w = sized(acme(L40S, "qlora"), catalog).workloads[0]
    assert w.memory_gb.weights == pytest.approx(
        (8e9 * 4.127 / 8 + w.training.trainable_parameters * 4) / 1e9
    )


def test_lora_skips_the_frozen_weight_gradients(catalog):
    """Per token a full fine-tune costs 3 passes of 2 FLOPs per matrix parameter; LoRA 2 (no
    weight gradients for the frozen base), plus 3 passes over its adapters."""
    full = calc(sized(acme(H100, "full"), catalog), "workloads[0].flops_per_token")
    lora = calc(sized(acme(H100, "lora"), catalog), "workloads[0].flops_per_token")
    assert full.inputs["linear_passes"] - lora.inputs["linear_passes"] == 1
    assert lora.inputs["adapter_passes"] == 3 and full.inputs["adapter_passes"] == 0


def test_recomputation_is_chosen_only_when_memory_needs_it(catalog):
    short = sized(acme(H100, "lora"), catalog).workloads[0]
    assert short.layout.recompute == "none"
    long = acme(H100, "lora", sequence_length=32768, global_batch_size=8)
    w = sized(long, catalog).workloads[0]
    assert w.layout.recompute in ("selective", "full")
    assert w.memory_gb.total <= 80


def test_a_fixed_answer_is_kept(catalog):
    w = sized(acme(H100, None, recompute="none", parallelism={"zero_stage": 2}), catalog)
    lay = w.workloads[0].layout
    assert lay.recompute == "none" and lay.zero_stage == 2


def test_a_job_on_a_mig_instance_is_timed_on_it(catalog):
    """The same LoRA job under MIG on an H100 PCIe: it runs on the smallest instance that holds
    it and still meets 12 h, timed at that instance's share of compute."""
    doc = acme({"gpu": "h100-pcie-80gb", "server": "dell-r760xa", "gpus_per_host": 2}, "lora")
    doc["workloads"][0]["sharing_mode"] = "mig"
    r = sized(doc, catalog)
    w = r.workloads[0]
    assert w.planned_slice is not None and w.sharing.slot_profile == w.planned_slice
    share = calc(r, "workloads[0].slice_compute_share").value
    assert w.planned_compute_share == share < 1
    # timed at the instance's share of the H100 PCIe's 756.5 TFLOPS (dense BF16, datasheet)
    step = calc(r, "workloads[0].compute_seconds_per_iteration")
    assert step.inputs["peak_tflops"] == pytest.approx(756.5 * share)
    assert w.training.time_to_train_hours <= 12


def test_multi_gpu_replicas_are_refused_on_mig(catalog):
    doc = acme(
        {"gpu": "h100-pcie-80gb", "server": "dell-r760xa", "gpus_per_host": 2}, None,
        sharing_mode="mig", parallelism={"tensor_parallel": 2, "pipeline_parallel": 1},
    )  # fmt: skip
    from wizard.base.errors import DesignError

    with pytest.raises(DesignError) as info:
        sized(doc, catalog)
    (line,) = info.value.problems
    assert line.startswith("workloads[0].sharing_mode: ") and "peer-to-peer" in line


def test_mlperf_llama2_70b_lora_on_one_dgx_h100(catalog):
    """MLPerf Training v4.0, Llama 2 70B LoRA, NVIDIA's 1 x DGX H100 (eos_ngc24.04_nemo): 28.16
    minutes (mean of the 10 runs' MLLOG times without the fastest and slowest, x the RCP scaling
    factor 1.0034). The design is NVIDIA's configuration (config_DGXH100_1x8x4xtp4pp1cp1.sh:
    FP8, TP 4, PP 1, sequence parallel; global batch 8, micro-batch 1; 8,192-token GovReport
    sequences; LoRA rank 16 on the QKV and output projections) over the 3,072 samples a typical
    run needed to reach the target loss (run_stop at samples_count 3072 in result_0). NeMo
    trains on Megatron-Core."""
    doc = {
        "workloads": [{
            "name": "Llama 2 70B LoRA", "kind": "fine-tuning",
            "model": {"preset": "llama-2-70b"}, "precision": "fp8",
            "micro_batch_size": 1, "global_batch_size": 8, "sequence_length": 8192,
            "parallelism": {"tensor_parallel": 4, "pipeline_parallel": 1, "data_parallel": 2,
                            "sequence_parallel": True},
            "fine_tuning": {"method": "lora", "lora_rank": 16, "lora_targets": "attention"},
            "training_stack": "megatron-core",
            "training": {"dataset_samples": 3072, "epochs": 1},
        }],
        "hardware": H100,
    }  # fmt: skip
    w = sized(doc, catalog).workloads[0]
    assert w.gpus_total == 8
    assert w.training.time_to_train_hours * 60 == pytest.approx(28.16, rel=0.15)


def test_flops_per_token_term_by_term_for_full_and_lora(catalog):
    """Narayanan et al. (SC21) Eq. 3 by hand for Llama 3 8B (8.0 B in the catalog; hidden 4,096,
    32 layers, vocabulary 128,256, untied embeddings) at sequence 2,048 without recomputation.
    Matrix parameters: 8.0e9 - 2 x 128,256 x 4,096 = 6,949,326,848. Full fine-tuning runs three
    passes (forward, input gradients, weight gradients) over the matrices and the logits:
    3 x 2 x 6,949,326,848 = 41,695,961,088; attention 3 x 4 x 32 x 2,048 x 4,096 = 3,221,225,472;
    logits 3 x 2 x 4,096 x 128,256 = 3,152,019,456; in all 48,069,206,016. LoRA leaves out the
    frozen weights' gradients: 2 passes over the matrices (27,797,307,392) and the frozen output
    embedding (2,101,346,304), the same attention, plus 3 passes over the 41,943,040 adapter
    parameters (251,658,240): 33,371,537,408."""
    full = calc(
        sized(acme(H100, "full", recompute="none"), catalog), "workloads[0].flops_per_token"
    )
    lora = calc(
        sized(acme(H100, "lora", recompute="none"), catalog), "workloads[0].flops_per_token"
    )
    matrix = 8.0e9 - 2 * 128_256 * 4096
    assert matrix == 6_949_326_848
    attention = 3 * 4 * 32 * 2048 * 4096
    assert full.inputs["logit_passes"] == 3 and lora.inputs["logit_passes"] == 2
    # the log shows no adapters for full fine-tuning: no passes over no parameters
    assert full.inputs["adapter_passes"] == full.inputs["trainable_parameters"] == 0
    assert full.value == 3 * 2 * matrix + attention + 3 * 2 * 4096 * 128_256 == 48_069_206_016
    adapters = 16 * 32 * ((6 * 4096 + 2 * 1024) + 3 * (4096 + 14336))
    assert adapters == 41_943_040
    by_hand = 2 * 2 * matrix + attention + 2 * 2 * 4096 * 128_256 + 3 * 2 * adapters
    assert lora.value == by_hand == 33_371_537_408
