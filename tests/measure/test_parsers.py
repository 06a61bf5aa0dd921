"""Benchmark files read into points: every sample in docs/measurements checked against the
published figures it was built from (written here by hand, never copied from the parser's
output), damaged and foreign input refused with one line naming the file, and the format told
from the content whatever the file is called."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from wizard.base.errors import UserError
from wizard.measure.parsers import parse
from wizard.measure.points import CollectivePoint, ServingPoint, TrainingPoint

SAMPLES = Path(__file__).resolve().parents[2] / "docs" / "measurements"
FILES = sorted(p.name for p in SAMPLES.iterdir() if p.is_file() and p.suffix != ".md")

# NVIDIA NIM for LLMs 1.8.0, Llama-3.3-70B-Instruct on 2 x H100 80G, fp8 TP2,
# 5000 input / 500 output tokens (docs/measurements/README.md): TTFT ms, ITL ms, tokens/s.
PUBLISHED = {
    1: (406.77, 18.58, 51.67),
    5: (546.7, 21.83, 218.48),
    25: (688.69, 38.75, 623.4),
    50: (834.51, 59.73, 814.37),
}


def _sample(name: str) -> str:
    return (SAMPLES / name).read_text(encoding="utf-8")


def _read(name: str):
    return parse(_sample(name), name)


def _published_point(concurrency: int) -> ServingPoint:
    ttft, itl, tokens_per_s = PUBLISHED[concurrency]
    return ServingPoint(
        concurrency=concurrency,
        input_tokens=5000,
        output_tokens=500,
        ttft_ms=ttft,
        itl_ms=itl,
        tokens_per_s=tokens_per_s,
        requests=100,
    )


# ---------------------------------------------------------------------------------------------
# The samples, against the published figures


@pytest.mark.parametrize("concurrency", [1, 5])
def test_aiperf_exports_give_the_published_rows(concurrency):
    run = _read(f"nim-70b-h100-tp2-c{concurrency}.aiperf.json")
    assert run.kind == "serving"
    assert run.tool == "AIPerf"
    assert run.model == "meta/llama-3.3-70b-instruct"
    assert run.points == (_published_point(concurrency),)


@pytest.mark.parametrize("concurrency", [25, 50])
def test_vllm_save_result_json_gives_the_published_rows(concurrency):
    run = _read(f"nim-70b-h100-tp2-c{concurrency}.vllm.json")
    assert run.kind == "serving"
    assert run.tool == "vLLM bench serve"
    assert run.model == "meta/llama-3.3-70b-instruct"
    assert run.points == (_published_point(concurrency),)


def test_vllm_block_gives_the_published_row():
    run = _read("nim-70b-h100-tp2-c1.vllm.txt")
    assert run.tool == "vLLM bench serve"
    assert run.points == (_published_point(1),)


def test_aiperf_and_vllm_block_of_one_run_give_equal_points():
    (aiperf,) = _read("nim-70b-h100-tp2-c1.aiperf.json").points
    (vllm,) = _read("nim-70b-h100-tp2-c1.vllm.txt").points
    assert aiperf == vllm
    assert (aiperf.concurrency, aiperf.input_tokens, aiperf.output_tokens) == (1, 5000, 500)
    assert (aiperf.ttft_ms, aiperf.itl_ms, aiperf.tokens_per_s) == (406.77, 18.58, 51.67)


def test_the_inconsistent_sample_reads_as_written():
    """Made up on purpose (README): the parser reads it; the fit is what must flag it."""
    (point,) = _read("inconsistent-70b.vllm.txt").points
    assert point == ServingPoint(
        concurrency=1,
        input_tokens=5000,
        output_tokens=500,
        ttft_ms=400.0,
        itl_ms=4.0,
        tokens_per_s=240.0,
        requests=100,
    )


def test_nccl_all_reduce_on_eight_a100():
    run = _read("nccl-a100-8gpu.all_reduce.txt")
    assert run.kind == "collective"
    assert run.tool == "nccl-tests"
    assert run.gpu == "NVIDIA A100-SXM4-40GB"
    assert run.gpus == 8
    assert len(run.points) == 28  # 64 B to 8 GiB, doubling
    assert {p.operation for p in run.points} == {"all_reduce"}
    # Published rows (out of place): size, time (us), busbw (GB/s).
    by_size = {p.size_bytes: p for p in run.points}
    assert by_size[64] == CollectivePoint("all_reduce", 64, 32.01, 0.00)
    assert by_size[1048576] == CollectivePoint("all_reduce", 1048576, 76.71, 23.92)
    assert by_size[1073741824] == CollectivePoint("all_reduce", 1073741824, 8166.8, 230.08)
    assert by_size[8589934592] == CollectivePoint("all_reduce", 8589934592, 63929, 235.14)
    assert any("in-place" in n for n in run.notes)


def test_mlperf_bert_log():
    run = _read("mlperf-bert.mllog.txt")
    assert run.kind == "training"
    assert run.tool == "MLPerf Training"
    assert run.model == "bert"
    assert run.gpu == "NVIDIA H100-SXM5-80GB"
    assert run.gpus == 64  # 8 nodes x 8 accelerators
    assert run.date == "2023-05-07T01:37:28+00:00"  # run_start 1683423448955 ms
    # run_stop 1683423505070 ms - run_start 1683423448955 ms; 3004416 samples, 4608 a step
    assert run.points == (
        TrainingPoint(
            step_s=56.115 / (3004416 / 4608),
            time_to_train_s=56.115,
            samples=3004416,
            global_batch=4608,
        ),
    )
    assert 3004416 / 4608 == 652  # the steps the log's tracked_stats counts


@pytest.mark.parametrize("name", FILES)
def test_every_sample_parses(name):
    run = parse(_sample(name), name)
    assert run.points


# ---------------------------------------------------------------------------------------------
# Telling the format from the content


def test_a_vllm_block_saved_as_json_still_parses():
    run = parse(_sample("nim-70b-h100-tp2-c1.vllm.txt"), "result.json")
    assert run.tool == "vLLM bench serve"
    assert run.points == (_published_point(1),)


def test_a_save_result_file_named_txt_still_parses():
    run = parse(_sample("nim-70b-h100-tp2-c25.vllm.json"), "notes.txt")
    assert run.points == (_published_point(25),)


def test_the_block_amid_other_log_text():
    log = "INFO server up\n" + _sample("nim-70b-h100-tp2-c1.vllm.txt") + "INFO shutting down\n"
    assert parse(log, "run.log").points == (_published_point(1),)


def test_vllm_old_block_takes_concurrency_from_the_lines_before_it():
    """benchmark_serving.py before the in-block line printed the setting ahead of the run."""
    text = (
        "Namespace(backend='vllm', model='meta-llama/Llama-3.1-8B-Instruct', num_prompts=50)\n"
        "Traffic request rate: inf\n"
        "Maximum request concurrency: 8\n"
        "============ Serving Benchmark Result ============\n"
        "Successful requests:                     50\n"
        "Benchmark duration (s):                  20.00\n"
        "Total input tokens:                      51200\n"
        "Total generated tokens:                  6400\n"
        "Output token throughput (tok/s):         320.00\n"
        "---------------Time to First Token----------------\n"
        "Mean TTFT (ms):                          80.00\n"
        "---------------Inter-token Latency----------------\n"
        "Mean ITL (ms):                           12.00\n"
        "==================================================\n"
    )
    run = parse(text, "old.log")
    assert run.model == "meta-llama/Llama-3.1-8B-Instruct"
    assert run.points == (ServingPoint(8, 1024, 128, 80.0, 12.0, 320.0, 50),)


def _rate_block() -> str:
    text = _sample("nim-70b-h100-tp2-c1.vllm.txt")
    text = text.replace("Maximum request concurrency: 1\n", "Maximum request concurrency: None\n")
    return "\n".join(
        line for line in text.splitlines() if not line.startswith("Maximum request concurrency:  ")
    )


def test_a_request_rate_block_takes_its_load_from_littles_law():
    """No concurrency stated: requests in flight = 0.10 requests/s x (406.77 ms + 18.58 ms x
    499 gaps = 9,678.19 ms) = 0.968 (hand arithmetic on the block's own lines)."""
    run = parse(_rate_block() + "\n", "rate.txt")
    (point,) = run.points
    assert point.concurrency == pytest.approx(0.10 * (406.77 + 18.58 * 499) / 1000)
    assert "Little's law" in point.load
    assert any("request-rate run" in n for n in run.notes)


def test_a_block_with_no_request_throughput_has_no_load_and_says_so():
    text = "\n".join(
        line for line in _rate_block().splitlines() if not line.startswith("Request throughput")
    )
    run = parse(text + "\n", "rate.txt")
    assert run.points[0].concurrency is None
    assert any("the load is not known" in n for n in run.notes)


def test_tpot_is_preferred_and_itl_taken_without_it():
    lines = _sample("nim-70b-h100-tp2-c1.vllm.txt").splitlines()
    lines = [
        "Mean ITL (ms):                           17.00     "
        if line.startswith("Mean ITL")
        else line
        for line in lines
    ]
    with_both = parse("\n".join(lines) + "\n", "a.txt")
    assert with_both.points[0].itl_ms == 18.58  # Mean TPOT, the first token left out
    no_tpot = "\n".join(line for line in lines if not line.startswith("Mean TPOT")) + "\n"
    assert parse(no_tpot, "b.txt").points[0].itl_ms == 17.0  # Mean ITL


def test_vllm_append_result_lines_give_one_point_each():
    lines = [_sample(f"nim-70b-h100-tp2-c{c}.vllm.json").strip() for c in (25, 50)]
    run = parse("\n".join(lines) + "\n", "sweep.jsonl")
    assert run.points == (_published_point(25), _published_point(50))


def test_genai_perf_json_with_flat_input_config():
    doc = {
        "request_throughput": {"unit": "requests/sec", "avg": 0.1},
        "time_to_first_token": {"unit": "ms", "avg": 406.77, "p99": 500.0, "p50": 400.0},
        "inter_token_latency": {"unit": "ms", "avg": 18.58, "p99": 20.0},
        "output_token_throughput": {"unit": "tokens/sec", "avg": 51.67},
        "output_sequence_length": {"unit": "tokens", "avg": 500, "p50": 500},
        "input_sequence_length": {"unit": "tokens", "avg": 5000, "p50": 5000},
        "input_config": {"model": ["llama-3.3-70b"], "concurrency": 1, "subcommand": "profile"},
    }
    run = parse(json.dumps(doc), "profile_export_genai_perf.json")
    assert run.tool == "GenAI-Perf"
    assert run.model == "llama-3.3-70b"
    assert run.points == (ServingPoint(1, 5000, 500, 406.77, 18.58, 51.67, None),)
    assert "percentiles read, the means used" in run.notes


def test_early_aiperf_records_layout_with_seconds():
    doc = {
        "records": {
            "ttft": {"tag": "ttft", "unit": "s", "avg": 0.5},
            "inter_token_latency": {"tag": "inter_token_latency", "unit": "ms", "avg": 20.0},
            "input_sequence_length": {"unit": "tokens", "avg": 550.0},
            "output_sequence_length": {"unit": "tokens", "avg": 243.0},
            "request_count": {"unit": "requests", "avg": 89.0},
        },
        "input_config": {
            "endpoint": {"model_names": ["openai/gpt-oss-20b"]},
            "loadgen": {"concurrency": 100},
        },
        "start_time": "2025-10-03T13:13:39.146443",
    }
    run = parse(json.dumps(doc), "profile_export_aiperf.json")
    assert run.tool == "AIPerf"
    assert run.date == "2025-10-03T13:13:39.146443"
    assert run.points == (ServingPoint(100, 550, 243, 500.0, 20.0, None, 89),)


AIPERF_CSV = """Metric,avg,min,max,p1,p5,p25,p50,p75,p90,p95,p99,std
Input Sequence Length (tokens),"5,000.00",5000.00,5000.00,5000.00,5000.00,5000.00,5000.00,5000.00,5000.00,5000.00,5000.00,0.00
Inter Token Latency (ms),18.58,,,,,,,,,,,
Output Sequence Length (tokens),500.00,500.00,500.00,500.00,500.00,500.00,500.00,500.00,500.00,500.00,500.00,0.00
Time to First Token (ms),406.77,,,,,,,,,,,

Metric,Value
Output Token Throughput (tokens/sec),51.67
Request Count,100.00
"""


def test_aiperf_csv_export():
    run = parse(AIPERF_CSV, "profile_export_aiperf.csv")
    assert run.tool == "AIPerf"
    # no request throughput in this CSV: the load cannot be derived
    assert run.points == (ServingPoint(None, 5000, 500, 406.77, 18.58, 51.67, 100, load="unknown"),)
    assert any("does not say the concurrency" in n for n in run.notes)


def test_genai_perf_csv_export_has_falling_percentiles():
    text = (
        "Metric,avg,min,max,p99,p95,p90,p75,p50,p25\n"
        "Time To First Token (ms),406.77,1,1,1,1,1,1,1,1\n"
        "Inter Token Latency (ms),18.58,1,1,1,1,1,1,1,1\n"
        "Output Sequence Length,500.00,1,1,1,1,1,1,1,1\n"
        "Input Sequence Length,5000.00,1,1,1,1,1,1,1,1\n"
        "\n"
        "Metric,Value\n"
        "Output Token Throughput (tokens/sec),51.67\n"
        "Request Throughput (per sec),0.10\n"
        "Request Count (count),100.00\n"
    )
    run = parse(text, "profile_export_genai_perf.csv")
    assert run.tool == "GenAI-Perf"
    (point,) = run.points
    # no concurrency in a CSV: 0.10 requests/s x (406.77 + 18.58 x 499) ms = 0.968 in flight
    assert point.concurrency == pytest.approx(0.10 * (406.77 + 18.58 * 499) / 1000)
    assert (point.input_tokens, point.output_tokens, point.ttft_ms, point.itl_ms) == (
        5000, 500, 406.77, 18.58
    )  # fmt: skip
    assert (point.tokens_per_s, point.requests) == (51.67, 100)


def test_a_throughput_in_an_unknown_unit_is_not_used():
    text = AIPERF_CSV.replace(
        "Output Token Throughput (tokens/sec)", "Output Token Throughput (MB/s)"
    )
    run = parse(text, "odd.csv")
    assert run.points[0].tokens_per_s is None
    assert any("'MB/s'" in n for n in run.notes)


NCCL_NO_NAME = """# nThread 1 nGpus 1 minBytes 1048576 maxBytes 1048576 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0
#
# Using devices
#  Rank  0 Group  0 Pid   1000 on node device  0 [0x07] NVIDIA H100 80GB HBM3
#  Rank  1 Group  0 Pid   1001 on node device  1 [0x0a] NVIDIA H100 80GB HBM3
#  Rank  2 Group  0 Pid   1002 on node device  2 [0x45] NVIDIA H100 80GB HBM3
#  Rank  3 Group  0 Pid   1003 on node device  3 [0x4b] NVIDIA H100 80GB HBM3
#
#                                                              out-of-place                       in-place
#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
     {size}        {count}     float     sum      -1    30.00   34.95   {busbw}      0    30.00   34.95   52.43      0
"""


def test_nccl_operation_told_from_the_table_when_no_binary_is_named():
    all_reduce = parse(NCCL_NO_NAME.format(size=1048576, count=262144, busbw=52.43), "a.txt")
    assert all_reduce.points == (CollectivePoint("all_reduce", 1048576, 30.0, 52.43),)
    assert all_reduce.gpus == 4 and all_reduce.gpu == "NVIDIA H100 80GB HBM3"
    # reduce_scatter prints the same redop and root, but its count is per rank
    scatter = parse(NCCL_NO_NAME.format(size=1048576, count=65536, busbw=52.43), "b.txt")
    assert scatter.points[0].operation == "reduce_scatter"


def test_nccl_operation_from_the_collective_test_starting_line():
    text = "# nccl-tests version 2.17.6 nccl-headers=22705 nccl-library=22705\n"
    text += "# Collective test starting: all_gather_perf\n"
    text += NCCL_NO_NAME.format(size=1048576, count=65536, busbw=52.43).replace("sum ", "none")
    run = parse(text, "c.txt")
    assert run.version == "2.17.6"
    assert run.points[0].operation == "all_gather"


def test_nccl_oldest_layout_reports_milliseconds():
    text = (
        "# Using devices\n"
        "# Rank 0 on host device 0 [0x00] Tesla V100-SXM2-16GB\n"
        "# Rank 1 on host device 1 [0x00] Tesla V100-SXM2-16GB\n"
        "#   bytes    N    type      op     time  algbw  busbw      res     time  algbw  busbw      res\n"
        " 1048576 262144  float     sum    2.059   0.51   0.51      N/A    3.314   0.32   0.32      N/A\n"
    )
    (point,) = parse(text, "old.txt").points
    assert point.time_us == pytest.approx(2059.0)
    assert point.busbw_gbs == 0.51


def test_mlperf_log_with_rank_prefixes_and_no_system_description():
    lines = [
        line
        for line in _sample("mlperf-bert.mllog.txt").splitlines()
        if not line.startswith(":::SYSJSON")
    ]
    run = parse("\n".join(f"0: {line}" for line in lines), "slurm.out")
    # no system description: the GPU is read off the submission platform, the count is unknown
    assert run.gpu == "NVIDIA DGX H100" and run.gpus is None
    assert run.points[0].global_batch == 4608


# ---------------------------------------------------------------------------------------------
# Refusals: one line, naming the file


def _refusal(text: str, name: str = "bench/result-7.json") -> str:
    with pytest.raises(UserError) as info:
        parse(text, name)
    (line,) = info.value.problems
    assert line.startswith(f"{name}: ")
    assert "\n" not in line
    return line


@pytest.mark.parametrize("text", ["", "   \n\t\n", "\ufeff"])
def test_empty_text_is_refused(text):
    assert "empty" in _refusal(text)


def test_json_of_another_tool_is_refused():
    other = json.dumps({"name": "resnet50", "images_per_second": 2900.5, "batch": 256})
    line = _refusal(other)
    assert "neither a vLLM --save-result file nor an AIPerf or GenAI-Perf" in line


def test_a_json_list_or_number_is_refused():
    _refusal("[1, 2, 3]")
    _refusal("42")


def test_broken_json_is_refused_with_its_place():
    line = _refusal('{"completed": 100, "total_input_tokens": ')
    assert "not valid JSON" in line


def test_a_truncated_vllm_block_is_refused():
    text = _sample("nim-70b-h100-tp2-c1.vllm.txt")
    cut = text[: text.index("Total generated tokens")]
    assert "cut short" in _refusal(cut, "run.txt")


def test_a_vllm_block_lacking_the_totals_is_refused():
    text = _sample("nim-70b-h100-tp2-c1.vllm.txt")
    text = "\n".join(line for line in text.splitlines() if not line.startswith("Total input"))
    assert "'Total input tokens'" in _refusal(text + "\n", "run.txt")


def test_an_nccl_table_with_non_numeric_busbw_is_refused():
    text = NCCL_NO_NAME.format(size=1048576, count=262144, busbw="n/a??")
    line = _refusal(text, "nccl.txt")
    assert "busbw 'n/a??' is not a number" in line


def test_an_nccl_header_without_rows_is_refused():
    text = _sample("nccl-a100-8gpu.all_reduce.txt")
    cut = text[: text.index("          64 ")]
    assert "no result rows" in _refusal(cut, "nccl.txt")


def test_an_mlperf_log_without_run_stop_is_refused():
    text = "\n".join(
        line for line in _sample("mlperf-bert.mllog.txt").splitlines() if '"run_stop"' not in line
    )
    assert "no run_stop" in _refusal(text, "bert.log")


def test_plain_prose_is_refused():
    assert "not a benchmark result" in _refusal("Throughput was great, about 50 tokens/s.\n")


def test_nan_and_words_are_not_numbers():
    doc = json.loads(_sample("nim-70b-h100-tp2-c25.vllm.json"))
    doc["completed"] = "many"
    _refusal(json.dumps(doc))
    doc["completed"] = 100
    doc["mean_ttft_ms"] = float("nan")
    (point,) = parse(json.dumps(doc), "nan.json").points
    assert point.ttft_ms is None


@pytest.mark.parametrize("name", FILES)
def test_any_cut_of_a_sample_parses_or_is_refused_in_one_line(name):
    """Never a traceback: a file cut anywhere either still reads or is refused by name."""
    text = _sample(name)
    for end in range(0, len(text), max(1, len(text) // 60)):
        try:
            parse(text[:end], name)
        except UserError as exc:
            (line,) = exc.problems
            assert line.startswith(f"{name}: ")


@pytest.mark.parametrize("name", FILES)
def test_a_damaged_sample_parses_or_is_refused_in_one_line(name):
    """Characters changed, dropped and added at random (seeded): a Run or one line, no traceback."""
    rng = random.Random(name)
    text = _sample(name)
    for _ in range(100):
        chars = list(text)
        for _ in range(rng.randint(1, 8)):
            at = rng.randrange(len(chars))
            change = rng.random()
            if change < 0.4:
                chars[at] = rng.choice(DAMAGE)
            elif change < 0.7:
                del chars[at]
            else:
                chars.insert(at, rng.choice(DAMAGE))
        try:
            parse("".join(chars), name)
        except UserError as exc:
            (line,) = exc.problems
            assert line.startswith(f"{name}: ") and "\n" not in line


DAMAGE = '0123456789.,-eE: {}[]"\n\t#=/abcNaN'
