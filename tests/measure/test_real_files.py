"""Result files real tools wrote, found in public repositories and issue threads
(docs/measurements/real, each with its source in SOURCES.md there): each calibrates a design of
the setup it was measured on, and the calibrated model reproduces the points it was not fitted on
(another load of the same run, or a second run of the same setup) within 15 %; or the file is
refused for a cause it really has, named in words.

What the tests know of each setup is what SOURCES.md quotes from the source: the GPU, the model,
the layout, the precision. The checks are of the fit against the files' own figures, never of
figures copied from this program's output."""

from __future__ import annotations

from pathlib import Path

import pytest

from wizard.app.io import design_from_dict
from wizard.base.errors import UserError
from wizard.measure.fit import MeasurementFile, calibrate
from wizard.measure.parsers import parse
from wizard.measure.points import Run

REAL = Path(__file__).resolve().parents[2] / "docs" / "measurements" / "real"
HELD_BACK = 0.15


def _file(name: str) -> MeasurementFile:
    data = (REAL / name).read_bytes()
    return MeasurementFile(name, data, parse(data.decode("utf-8"), name))


def _part(name: str, keep: list[int]) -> MeasurementFile:
    """Some of a file's points (the others held back)."""
    f = _file(name)
    points = tuple(p for k, p in enumerate(f.run.points) if k in keep)
    return MeasurementFile(name, f.data, Run(**{**f.run.__dict__, "points": points}))


def _serving(name: str, gpu: str, server: str, model: str, precision: str, tp: int,
             prompt: int, answer: int) -> dict:  # fmt: skip
    return {
        "workloads": [{
            "name": name, "kind": "inference", "model": {"preset": model},
            "precision": precision, "sharing_mode": "vgpu",  # vSphere on an NVSwitch host
            "parallelism": {"tensor_parallel": tp, "pipeline_parallel": 1, "data_parallel": 1},
            "inference": {"input_tokens": prompt, "output_tokens": answer,
                          "concurrent_sequences": 32},
        }],
        "hardware": {"gpu": gpu, "server": server, "gpus_per_host": 8, "nvlink": True},
    }  # fmt: skip


# Azure Standard_ND96asr_v4: 8 x A100 SXM4 40GB on NVSwitch; Llama 3.3 70B in BF16 at TP 8
LLAMA = "Llama 3.3 70B chat"
A100_LLAMA = _serving(LLAMA, "a100-sxm4-40gb", "hpe-apollo-6500-gen10-plus", "llama-3.3-70b",
                      "bf16", 8, 213, 212)  # fmt: skip


def _training(name: str, model: str, precision: str, gpu: str, server: str, dp: int,
              micro: int, batch: int, sequence: int, extra: dict | None = None) -> dict:  # fmt: skip
    group = {
        "name": name, "kind": "training", "model": {"preset": model}, "precision": precision,
        "micro_batch_size": micro, "global_batch_size": batch, "sequence_length": sequence,
        "sharing_mode": "vgpu",
        "parallelism": {"data_parallel": dp, "tensor_parallel": 1, "pipeline_parallel": 1},
        "training": {"dataset_tokens": 3.3e9, "epochs": 1},
        **(extra or {}),
    }  # fmt: skip
    return {
        "workloads": [group],
        "hardware": {"gpu": gpu, "server": server, "gpus_per_host": 8, "nvlink": True},
    }


BERT = "BERT pre-training"
LORA = "Llama 2 70B LoRA"
# config_DGXB200_1x8x1xtp1pp1cp1.sh: TP 1, 8 GPUs, FP8, micro batch 1; the logs: batch 8;
# NVIDIA's submission trains with NeMo, on Megatron-Core
LORA_B200 = _training(LORA, "llama-2-70b", "fp8", "b200-sxm", "nvidia-dgx-b200", 8, 1, 8, 8192,
                      {"kind": "fine-tuning", "optimizer": "adamw",
                       "training_stack": "megatron-core",
                       "fine_tuning": {"method": "lora", "lora_rank": 16}})  # fmt: skip
BERT_B200 = _training(BERT, "bert-large", "bf16", "b200-sxm", "nvidia-dgx-b200", 8, 96, 768, 512)
BERT_A100 = _training(BERT, "bert-large", "bf16", "a100-sxm4-40gb", "hpe-apollo-6500-gen10-plus",
                      8, 32, 256, 512)  # fmt: skip


def _held_back(catalog, design: dict, group: str, fit: list[MeasurementFile],
               held: list[MeasurementFile]) -> list:  # fmt: skip
    """Fit on ``fit``; the fitted points of ``held`` as the calibrated model predicts them."""
    report = calibrate(design_from_dict(design), catalog, group, fit)
    assert not report.disagreeing and not report.at_bound, (report.points, report.at_bound)
    fitted = dict(design)
    fitted["assumptions"] = {f.name: f.value for f in report.factors if f.name != "link_efficiency"}
    check = calibrate(design_from_dict(fitted), catalog, group, held)
    points = [p for p in check.points if p.fitted]
    assert points
    return points


# ---------------------------------------------------------------------------------------------
# Files that calibrate, and predict what they were not fitted on


def test_a_vllm_run_at_rate_inf_without_max_concurrency_calibrates(catalog):
    """The default of `vllm bench serve`: every request sent at once, no concurrency stated. Its
    load is Little's law's: 8.40 requests/s x 7.57 s a request, 63.6 in flight on average, not
    one saturating load; fitted on it alone, the same server's request-rate-16 run is reproduced."""
    inf = _file("llama33-70b-a100x8-tp8-qpsinf.vllm.json")
    (point,) = inf.run.points
    assert point.concurrency == pytest.approx(8.398304797910107 * 7.57, rel=0.01)
    for p in _held_back(catalog, A100_LLAMA, LLAMA, [inf],
                        [_file("llama33-70b-a100x8-tp8-qps16.vllm.json")]):  # fmt: skip
        assert abs(p.error_before) <= HELD_BACK, (p.where, p.metric, p.measured, p.before)


def test_a_vllm_run_at_a_fixed_rate_calibrates(catalog):
    """Request rate 4 (3.18 requests/s completed), fitted alone; the rate-inf run held back."""
    for p in _held_back(catalog, A100_LLAMA, LLAMA,
                        [_file("llama33-70b-a100x8-tp8-qps04.vllm.json")],
                        [_file("llama33-70b-a100x8-tp8-qpsinf.vllm.json")]):  # fmt: skip
        assert abs(p.error_before) <= HELD_BACK, (p.where, p.metric, p.measured, p.before)


def test_a_vllm_run_at_rate_16_calibrates(catalog):
    for p in _held_back(catalog, A100_LLAMA, LLAMA,
                        [_file("llama33-70b-a100x8-tp8-qps16.vllm.json")],
                        [_file("llama33-70b-a100x8-tp8-qps04.vllm.json")]):  # fmt: skip
        assert abs(p.error_before) <= HELD_BACK, (p.where, p.metric, p.measured, p.before)


def test_the_printed_blocks_of_four_rates_calibrate_on_two_and_predict_the_others(catalog):
    """The console log: blocks at request rates 1, 4, 16 and inf; fitted on 1 and inf, the 4
    and 16 blocks held back."""
    name = "llama33-70b-a100x8-tp8-run.vllm.txt"
    assert len(_file(name).run.points) == 4
    for p in _held_back(catalog, A100_LLAMA, LLAMA, [_part(name, [0, 3])],
                        [_part(name, [1, 2])]):  # fmt: skip
        assert abs(p.error_before) <= HELD_BACK, (p.where, p.metric, p.measured, p.before)


def test_the_single_host_nccl_run_calibrates_the_link_and_predicts_its_other_large_messages(
    catalog,
):
    """8 x A100-SXM4-40GB in one NVSwitch host: fitted on half of its large messages (every
    other row of 2 GiB and up), the other half held back."""
    f = _file("nccl-a100x8-1host.all_reduce.txt")
    large = [k for k, p in enumerate(f.run.points) if p.size_bytes >= 2**31]
    assert len(large) >= 2
    name = "nccl-a100x8-1host.all_reduce.txt"
    fit = _part(name, large[0::2])
    report = calibrate(design_from_dict(BERT_A100), catalog, BERT, [fit])
    (factor,) = report.factors
    assert factor.name == "link_efficiency" and not report.at_bound
    link = report.points[0].after / factor.value  # the link's rate the fit scaled
    for k in large[1::2]:
        measured = f.run.points[k].busbw_gbs
        assert abs(link * factor.value / measured - 1) <= HELD_BACK, (k, measured)


def test_the_llama2_70b_lora_log_calibrates_and_predicts_the_next_run(catalog):
    """MLPerf Training v5.0, 1 x DGX B200: the step is (run_stop - run_start) / (run_stop's
    samples_count 3,072 / batch 8) = 663.896 s / 384 = 1.7289 s; the dataset size logged before
    run_start (3,901) is not the samples trained."""
    f = _file("mlperf-llama2-70b-lora-b200x8.mllog.txt")
    (point,) = f.run.points
    assert point.step_s == pytest.approx((1745155634013 - 1745154970117) / 1000 / (3072 / 8))
    for p in _held_back(catalog, LORA_B200, LORA, [f],
                        [_file("mlperf-llama2-70b-lora-b200x8-run1.mllog.txt")]):  # fmt: skip
        assert abs(p.error_before) <= HELD_BACK, (p.measured, p.before)


def test_the_second_lora_run_calibrates_and_predicts_the_first(catalog):
    for p in _held_back(catalog, LORA_B200, LORA,
                        [_file("mlperf-llama2-70b-lora-b200x8-run1.mllog.txt")],
                        [_file("mlperf-llama2-70b-lora-b200x8.mllog.txt")]):  # fmt: skip
        assert abs(p.error_before) <= HELD_BACK, (p.measured, p.before)


def test_the_bert_log_calibrates_and_predicts_the_next_run(catalog):
    for p in _held_back(catalog, BERT_B200, BERT, [_file("mlperf-bert-b200x8.mllog.txt")],
                        [_file("mlperf-bert-b200x8-run1.mllog.txt")]):  # fmt: skip
        assert abs(p.error_before) <= HELD_BACK, (p.measured, p.before)


def test_the_second_bert_run_calibrates_and_predicts_the_first(catalog):
    for p in _held_back(catalog, BERT_B200, BERT, [_file("mlperf-bert-b200x8-run1.mllog.txt")],
                        [_file("mlperf-bert-b200x8.mllog.txt")]):  # fmt: skip
        assert abs(p.error_before) <= HELD_BACK, (p.measured, p.before)


# ---------------------------------------------------------------------------------------------
# Files refused for a cause they really have


def test_a_deepseek_run_is_refused_for_a_llama_group_as_another_model(catalog):
    with pytest.raises(UserError) as exc:
        calibrate(design_from_dict(A100_LLAMA), catalog, LLAMA,
                  [_file("deepseek-v25-tp8-pp2-qps04.vllm.json")])  # fmt: skip
    (line,) = exc.value.problems
    assert line.startswith("deepseek-v25-tp8-pp2-qps04.vllm.json: measured with "
                           "deepseek-ai/DeepSeek-V2.5")  # fmt: skip
    assert "another model family (deepseek, not llama)" in line


def test_a_two_host_nccl_run_is_refused_for_a_group_whose_all_reduce_stays_in_one_host(catalog):
    """16 ranks on nccl-allreduce-job0-mpiworker-0 and -1: the network's bandwidth, not the
    NVSwitch's the 8-GPU group's all-reduce runs over."""
    f = _file("nccl-a100x16-2hosts.all_reduce.txt")
    assert (f.run.gpus, f.run.hosts) == (16, 2)
    with pytest.raises(UserError) as exc:
        calibrate(design_from_dict(BERT_A100), catalog, BERT, [f])
    assert any("measured across 2 hosts (16 GPUs), but the group's all-reduce of 8 GPUs stays "
               "within one host" in line for line in exc.value.problems)  # fmt: skip


def test_a_genai_perf_export_with_miscounted_tokens_is_refused_as_faster_than_the_gpu(catalog):
    """GenAI-Perf 24.11-24.12 counted some five times the streamed tokens (perf_analyzer issue
    298: 2,566 output tokens for a requested 500): 2.18 ms between tokens at 100 in flight is
    more than an H100's memory bandwidth can give Llama 3.1 8B at that load."""
    design = _serving("Llama 3.1 8B chat", "h100-sxm5-80gb", "dell-xe9680", "llama-3.1-8b",
                      "fp16", 1, 200, 500)  # fmt: skip
    f = _file("genai-perf-trtllm-c100-streaming.genai_perf.json")
    assert f.run.tool == "GenAI-Perf" and f.run.points[0].concurrency == 100
    with pytest.raises(UserError) as exc:
        calibrate(design_from_dict(design), catalog, "Llama 3.1 8B chat", [f])
    lines = exc.value.problems
    assert any("time between tokens (ms) measured 2.177: faster than the GPUs' memory "
               "bandwidth allows" in line for line in lines)  # fmt: skip
    assert any("output tokens/s measured" in line and "more than the GPUs' memory bandwidth"
               in line for line in lines)  # fmt: skip


def test_every_real_file_is_listed_with_its_source():
    sources = (REAL / "SOURCES.md").read_text(encoding="utf-8")
    files = sorted(p.name for p in REAL.iterdir() if p.name != "SOURCES.md")
    assert len(files) >= 12
    assert all(f"`{name}`" in sources for name in files)
