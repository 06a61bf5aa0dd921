"""Result files that crashed calibrate, hung it, or were accepted when they should not have been
(issue 46): each is now a fit, a figure left out with its reason, or a one-line refusal naming the
field, never a traceback. The base file is the NIM sample (docs/measurements/README.md):
Llama 3.3 70B FP8 on 2 x H100, 5,000 / 500 tokens."""

from __future__ import annotations

import json

import pytest

from tests.conftest import ROOT, run_cli
from tests.measure.test_fit import GROUP, _design
from wizard.app.io import design_from_dict
from wizard.base.errors import UserError
from wizard.measure.fit import MAX_POINTS, MeasurementFile, calibrate
from wizard.measure.parsers import parse

SAMPLES = ROOT / "docs" / "measurements"


def _doc(concurrency: int = 25) -> dict:
    return json.loads((SAMPLES / f"nim-70b-h100-tp2-c{concurrency}.vllm.json").read_text())


def _aiperf(concurrency: int = 5) -> dict:
    return json.loads((SAMPLES / f"nim-70b-h100-tp2-c{concurrency}.aiperf.json").read_text())


def _fit(catalog, *docs: dict | str, names: tuple[str, ...] = (), **kwargs):
    files = []
    for k, doc in enumerate(docs):
        text = doc if isinstance(doc, str) else json.dumps(doc)
        name = names[k] if k < len(names) else f"run{k}.json"
        files.append(MeasurementFile(name, text.encode(), parse(text, name)))
    return calibrate(design_from_dict(_design()), catalog, GROUP, files, **kwargs)


# ---------------------------------------------------------------------------------------------
# Measured zeros and figures out of bounds: left out by name, not divided by


@pytest.mark.parametrize(
    ("key", "words"),
    [("mean_ttft_ms", "time to first token"), ("mean_tpot_ms", "time between tokens"),
     ("output_throughput", "output throughput")],
)  # fmt: skip
def test_a_measured_zero_is_left_out_by_name(catalog, key, words):
    doc = _doc()
    doc[key] = 0
    report = _fit(catalog, doc, _aiperf(5), _aiperf(1))
    assert any(f"{words} measured 0" in r and "no measurement" in r for r in report.refused)
    assert report.factors


@pytest.mark.parametrize("ttft", [-5.0, 0.0, 1e11, 2e12])
def test_a_time_to_first_token_no_run_gives_is_left_out(catalog, ttft):
    doc = _doc()
    doc["mean_ttft_ms"] = ttft
    (point,) = parse(json.dumps(doc), "x.json").points
    assert point.ttft_ms is None
    ((metric, why),) = point.refused
    assert metric == "ttft_ms" and "time to first token measured" in why
    report = _fit(catalog, doc, _aiperf(5), _aiperf(1))
    assert all(not (p.metric == "ttft_ms" and p.measured == ttft) for p in report.points)
    cal = report.calibration()  # the design can be written
    assert all(m.value <= 1e9 for m in cal.measured)


def test_an_nccl_table_of_zeros_is_refused_by_name_not_divided_by(catalog):
    text = (SAMPLES / "nccl-a100-8gpu.all_reduce.txt").read_text()
    rows = []
    for line in text.splitlines():
        words = line.split()
        if words and words[0].isdigit() and len(words) > 7:
            words[7] = words[11] = "0.00"
            line = "  ".join(words)
        rows.append(line)
    data = "\n".join(rows) + "\n"
    design = design_from_dict(_bert())
    run = parse(data, "zeros.txt")
    with pytest.raises(UserError) as exc:
        calibrate(design, catalog, "BERT pre-training", [MeasurementFile("zeros.txt", b"z", run)])
    assert any("bus bandwidth measured 0 GB/s" in line for line in exc.value.problems)


def _bert() -> dict:
    return {
        "workloads": [{
            "name": "BERT pre-training", "kind": "training", "model": {"preset": "bert-large"},
            "precision": "bf16", "micro_batch_size": 32, "global_batch_size": 256,
            "sequence_length": 512, "sharing_mode": "vgpu",
            "parallelism": {"data_parallel": 8, "tensor_parallel": 1, "pipeline_parallel": 1},
            "training": {"dataset_tokens": 3.3e9, "epochs": 1},
        }],
        "hardware": {"gpu": "a100-sxm4-40gb", "server": "hpe-apollo-6500-gen10-plus",
                     "gpus_per_host": 8, "nvlink": True},
    }  # fmt: skip


# ---------------------------------------------------------------------------------------------
# File text through the gate


def test_control_characters_and_long_text_in_a_file_are_left_out_with_a_note():
    doc = _aiperf(5)
    doc["aiperf_version"] = "\x1b[31m0.3.0"
    doc["start_time"] = "2025-10-03\x01T13:13"
    run = parse(json.dumps(doc), "a.json")
    assert run.version is None and run.date is None
    assert any("the tool version holds the control character U+001B" in n for n in run.notes)
    assert any("the run date holds the control character U+0001" in n for n in run.notes)
    doc["start_time"] = "2" * 500
    run = parse(json.dumps(doc), "a.json")
    assert run.date is None
    assert any("the run date is 500 characters long" in n for n in run.notes)
    assert all("\x1b" not in n and "\x01" not in n for n in run.notes)


def test_a_control_character_in_a_key_reaches_no_note():
    doc = _doc()
    doc["weird\x1b[2Jkey"] = 1
    run = parse(json.dumps(doc), "k.json")
    assert all("\x1b" not in n for n in run.notes)


def test_a_file_named_with_a_control_character_is_refused_by_name(tmp_path):
    design = tmp_path / "d.json"
    design.write_text(json.dumps(_design(1)), encoding="utf-8")
    bad = tmp_path / "run\x1b[31m.json"
    bad.write_bytes((SAMPLES / "nim-70b-h100-tp2-c1.aiperf.json").read_bytes())
    done = run_cli("--no-user-catalog", "calibrate", str(design), str(bad), "--group", GROUP,
                   "-o", str(tmp_path / "o.json"))  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "the file name holds the control character U+001B" in done.stderr
    assert "Traceback" not in done.stderr


# ---------------------------------------------------------------------------------------------
# Size: many rows, many points


def test_an_nccl_table_of_more_than_100000_rows_calibrates(catalog):
    text = (SAMPLES / "nccl-a100-8gpu.all_reduce.txt").read_text()
    lines = text.splitlines()
    row = next(line for line in lines if line.strip().startswith("8589934592"))
    header = [line for line in lines if line.startswith("#")]
    data = "\n".join(header + [row] * 100_001) + "\n"
    run = parse(data, "big.txt")
    assert len(run.points) == 100_001
    report = calibrate(design_from_dict(_bert()), catalog, "BERT pre-training",
                       [MeasurementFile("big.txt", b"big", run)])  # fmt: skip
    assert report.factors and report.sources[0].points == 100_000
    report.calibration()  # within the design's limits


def test_a_500_line_append_result_file_fits_a_bounded_sample_of_its_loads(catalog):
    """--append-result writes one run a line; 500 lines would be 500 x ~70 sizings: the fit
    takes at most MAX_POINTS loads, spread evenly, and says so."""
    lines = []
    for k in range(500):
        doc = _doc(25 if k % 2 else 50)
        doc["date"] = f"20250101-{k:06d}"
        lines.append(json.dumps(doc))
    text = "\n".join(lines) + "\n"
    report = _fit(catalog, text, _aiperf(1), names=("sweep.jsonl",))
    loads = {p.where for p in report.points}
    assert len(loads) <= MAX_POINTS
    assert any("501 serving loads in the files" in n for n in report.notes)


# ---------------------------------------------------------------------------------------------
# MLPerf: the samples trained, and times no run has


def _lora_log(stop_meta: dict, before_start: bool = True) -> str:
    def rec(key, value, time_ms, meta=None):
        return ":::MLLOG " + json.dumps({"namespace": "", "time_ms": time_ms,
                                         "event_type": "POINT_IN_TIME", "key": key,
                                         "value": value, "metadata": meta or {}})  # fmt: skip

    lines = [rec("submission_benchmark", "llama2_70b_lora", 1000),
             rec("global_batch_size", 8, 1001)]  # fmt: skip
    if before_start:
        lines.append(rec("train_samples", 3901, 1002))
    lines += [rec("run_start", None, 2000), rec("run_stop", None, 2000 + 384_000, stop_meta)]
    return "\n".join(lines) + "\n"


def test_an_llm_fine_tuning_log_takes_the_samples_trained_from_run_stop():
    """MLPerf's LoRA logs give the dataset size (train_samples 3,901) before run_start and the
    samples trained in run_stop's samples_count (3,072): 384 s / (3,072 / 8) = 1 s a step."""
    run = parse(_lora_log({"samples_count": 3072, "status": "success"}), "lora.txt")
    (point,) = run.points
    assert point.step_s == pytest.approx(384 / (3072 / 8))
    assert any("3,901 logged before run_start is the dataset's size" in n for n in run.notes)


def test_without_samples_trained_the_note_says_why():
    run = parse(_lora_log({"status": "success"}), "lora.txt")
    assert run.points[0].step_s is None
    assert any("no step time, since its run_stop has no samples_count" in n
               and "dataset's size" in n for n in run.notes)  # fmt: skip


def test_an_mlperf_log_whose_times_overflow_is_refused_by_name():
    text = _lora_log({"samples_count": 3072}).replace('"time_ms": 386000', '"time_ms": 1e308')
    with pytest.raises(UserError) as exc:
        parse(text, "huge.txt")
    (line,) = exc.value.problems
    assert line.startswith("huge.txt: line ") and "time_ms 1e+308" in line


# ---------------------------------------------------------------------------------------------
# Silent acceptance: another GPU, another model, replicas, an unknown load


@pytest.mark.parametrize(
    ("gpu", "why"),
    [("AMD Instinct MI300X", "another maker's GPU (AMD)"),
     ("NVIDIA H100 PCIe", "another form factor (PCIe, not SXM)"),
     ("NVIDIA GH200 480GB", "another GPU family (GH200, not H100)")],
)  # fmt: skip
def test_aiperf_telemetry_of_another_gpu_is_refused_naming_how_it_differs(catalog, gpu, why):
    doc = _aiperf(5)
    doc["telemetry_data"] = {"endpoints": {"http://n:9400/metrics": {"gpus": {
        "gpu_0": {"gpu_name": gpu}}}}}  # fmt: skip
    with pytest.raises(UserError) as exc:
        _fit(catalog, doc)
    (line,) = exc.value.problems
    assert f"measured on {gpu}" in line and why in line


def test_a_deepseek_v3_run_is_refused_for_a_llama_group(catalog):
    doc = _doc()
    doc["model_id"] = "deepseek-ai/DeepSeek-V3"
    with pytest.raises(UserError) as exc:
        _fit(catalog, doc)
    assert "another model family (deepseek, not llama)" in exc.value.problems[0]


def test_a_run_over_four_replicas_is_refused_by_cause(catalog):
    doc = _doc()
    doc["decode_replicas"] = 4
    report = _fit(catalog, doc, _aiperf(5), _aiperf(1))
    assert any("run0.json: every figure: the run spread its load over 4 replicas" in r
               for r in report.refused)  # fmt: skip
    assert all("run0.json" not in p.where for p in report.points)


def test_a_load_that_cannot_be_known_is_not_fitted_and_the_refusal_names_the_option(catalog):
    doc = _doc()
    for key in ("max_concurrency", "request_throughput"):
        doc.pop(key)
    doc["request_rate"] = 10
    with pytest.raises(UserError) as exc:
        _fit(catalog, doc)
    assert any("the load is not known" in line and "--concurrency N" in line
               for line in exc.value.problems)  # fmt: skip
    report = _fit(catalog, doc, concurrency=25)
    assert any("25 in flight (given with --concurrency)" in p.where for p in report.points)
    assert not report.disagreeing


def test_a_rate_run_is_described_by_its_derived_load_not_as_all_requests_at_once(catalog):
    """10 requests/s x 2 s a request: 20 in flight on average."""
    doc = _doc()
    doc.pop("max_concurrency")
    doc.update(request_rate=10, request_throughput=10, mean_e2el_ms=2000)
    (point,) = parse(json.dumps(doc), "r.json").points
    assert point.concurrency == pytest.approx(20)
    report = _fit(catalog, doc, _aiperf(5), _aiperf(1))
    assert not any("all requests at once" in p.where for p in report.points)
    assert any("20 in flight on average" in p.where for p in report.points)


# ---------------------------------------------------------------------------------------------
# What the terminal and --json say


def test_a_fit_at_a_physical_bound_is_a_caution(catalog):
    """12 ms between tokens (and the throughput it gives: 500 tokens / (0.40677 s + 499 x 12 ms)
    = 78.4 tokens/s) for 70 GB of FP8 weights on two H100s: within the tolerance of the model's
    figure at its 0.95 bandwidth bound, which the fit is pinned to."""
    assert not _fit(catalog, _aiperf(1)).at_bound
    fast = _aiperf(1)
    fast["inter_token_latency"]["avg"] = 12.0
    fast["output_token_throughput"]["avg"] = 500 / (0.40677 + 499 * 12.0 / 1000)
    report = _fit(catalog, fast)
    (caution,) = report.at_bound
    assert caution.startswith("Decode bandwidth efficiency: fitted at its upper bound")
    assert "the measurements sit at the model's limit for decode bandwidth efficiency" in caution


def test_json_never_holds_a_non_number(tmp_path):
    design = tmp_path / "d.json"
    design.write_text(json.dumps(_design(1)), encoding="utf-8")
    done = run_cli("--no-user-catalog", "calibrate", str(design),
                   str(SAMPLES / "inconsistent-70b.vllm.txt"),
                   str(SAMPLES / "nim-70b-h100-tp2-c5.aiperf.json"), "--group", GROUP,
                   "-o", str(tmp_path / "o.json"), "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr

    def refuse(constant: str) -> None:
        raise AssertionError(f"--json printed {constant}")

    data = json.loads(done.stdout, parse_constant=refuse)
    assert data["not_used"]


def test_a_trimmed_nccl_table_says_what_is_missing():
    text = (SAMPLES / "nccl-a100-8gpu.all_reduce.txt").read_text()
    trimmed = "\n".join(line for line in text.splitlines() if "Rank" not in line) + "\n"
    run = parse(trimmed, "trimmed.txt")
    assert run.gpus is None and run.hosts is None
    assert any("does not say how many GPUs nor hosts" in n
               and "keep the lines that start with '#  Rank'" in n for n in run.notes)  # fmt: skip


def test_the_derived_load_is_capped_by_the_engines_maximum_sequences():
    """Rate inf, 10 requests/s x 8 s a request = 80 in flight by Little's law, but the engine
    ran at most 16 sequences at once."""
    doc = _doc()
    doc.pop("max_concurrency")
    doc.update(request_rate="inf", request_throughput=10, mean_e2el_ms=8000, max_num_seqs=16)
    (point,) = parse(json.dumps(doc), "capped.json").points
    assert point.concurrency == 16
    assert "capped at the engine's 16 sequences" in point.load


@pytest.mark.parametrize(
    ("benchmark", "model", "family", "refused"),
    [("gpt3", "GPT-3 175B", "GPT-3", ""), ("llama31_405b", "Llama 3.1 405B", "Llama 3", ""),
     ("llama31_8b", "Llama 3.1 8B", "Llama 3", ""),
     ("gpt3", "Llama 3.1 405B", "Llama 3", "another model family (gpt-3, not llama)"),
     ("llama31_8b", "Llama 2 70B", "Llama 2", "another model generation (Llama 3, not Llama 2)")],
)  # fmt: skip
def test_mlperf_benchmark_names_are_told_apart_by_family_and_generation(benchmark, model, family,
                                                                        refused):  # fmt: skip
    from wizard.measure.consistency import model_differences

    why = model_differences(benchmark, model, family)
    assert (refused in why) if refused else not why
