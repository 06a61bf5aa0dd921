"""JSON benchmark results: vLLM's --save-result and AIPerf / GenAI-Perf profile exports."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from wizard.measure.parse_base import (
    AIPERF,
    GENAI_PERF,
    VLLM,
    _count,
    _dig,
    _fail,
    _find_key,
    _listed,
    _num,
    _serving_point,
    _vllm_date,
)
from wizard.measure.points import Run, ServingPoint

# --------------------------------------------------------------------------------------------
# JSON: vLLM --save-result, AIPerf and GenAI-Perf exports

_VLLM_JSON_KEYS = ("completed", "total_input_tokens", "total_output_tokens")
_SERVING_METRICS = (
    "time_to_first_token",
    "ttft",
    "inter_token_latency",
    "output_token_throughput",
    "input_sequence_length",
    "output_sequence_length",
    "request_latency",
)


def _parse_json(docs: list[Any], name: str) -> Run:
    if all(isinstance(d, Mapping) and all(k in d for k in _VLLM_JSON_KEYS) for d in docs):
        return _parse_vllm_json(docs, name)
    if len(docs) == 1 and isinstance(docs[0], Mapping):
        doc = docs[0]
        metrics = _export_metrics(doc)
        if any(tag in metrics for tag in _SERVING_METRICS):
            return _parse_export(doc, metrics, name)
        keys = _listed(sorted(str(k) for k in doc), 8) or "none"
        _fail(
            name,
            "a JSON file, but neither a vLLM --save-result file nor an AIPerf or GenAI-Perf "
            f"profile export (its top-level keys: {keys})",
        )
    _fail(name, "JSON, but not a vLLM --save-result file nor an AIPerf or GenAI-Perf export")


_VLLM_JSON_USED = {
    "completed",
    "total_input_tokens",
    "total_output_tokens",
    "output_throughput",
    "mean_ttft_ms",
    "mean_tpot_ms",
    "mean_itl_ms",
    "max_concurrency",
    "model_id",
    "date",
    "failed",
    "request_rate",
    "request_throughput",
    "mean_e2el_ms",
    "ttfts",
    "itls",
    "output_lens",
    "max_num_seqs",
    *("gpu", "gpu_type", "gpu_name", "gpu_model", "accelerator", "device_name"),
    *("decode_replicas", "replicas", "num_replicas", "data_parallel_size"),
}


def _parse_vllm_json(docs: list[Any], name: str) -> Run:
    points: list[ServingPoint] = []
    notes: list[str] = []
    models: list[str] = []
    dates: list[str] = []
    gpus: list[str] = []
    replicas: list[int] = []
    for index, doc in enumerate(docs, 1):
        where = f"result {index}: " if len(docs) > 1 else ""
        completed = _count(doc.get("completed"))
        if not completed:
            _fail(name, f"{where}'completed' is {doc.get('completed')!r}, no completed requests")
        totals = []
        for key in ("total_input_tokens", "total_output_tokens"):
            value = _num(doc.get(key))
            if value is None or value < 0:
                _fail(name, f"{where}'{key}' is {doc.get(key)!r}, not a token count")
            totals.append(value)
        tpot, itl = _num(doc.get("mean_tpot_ms")), _num(doc.get("mean_itl_ms"))
        concurrency = _vllm_concurrency(doc.get("max_concurrency"), name, where)
        rate = _num(doc.get("request_rate"))
        e2el, how = _num(doc.get("mean_e2el_ms")), "the file's mean end-to-end latency"
        if e2el is None:
            e2el, how = _e2el_from_requests(doc), "each request's first token and token gaps"
        failed = _count(doc.get("failed"))
        if failed:
            notes.append(f"{where}{failed} failed requests left out of the means")
        if tpot is not None and itl is not None:
            notes.append(f"{where}time between tokens from mean_tpot_ms; mean_itl_ms not used")
        point, more = _serving_point(
            name, where, completed=completed, input_total=totals[0], output_total=totals[1],
            ttft=_num(doc.get("mean_ttft_ms")), itl=tpot if tpot is not None else itl,
            tokens_per_s=_num(doc.get("output_throughput")), stated=concurrency,
            rate_finite=rate is not None, request_rate=_num(doc.get("request_throughput")),
            e2el_ms=e2el, e2el_how=how, max_seqs=_num(doc.get("max_num_seqs")),
        )  # fmt: skip
        points.append(point)
        notes.extend(more)
        unused = sorted(str(k) for k in doc if k not in _VLLM_JSON_USED)
        if unused:
            notes.append(f"{where}read, not used: {_listed(unused)}")
        if isinstance(doc.get("model_id"), str):
            models.append(doc["model_id"])
        date = _vllm_date(doc.get("date"))
        if date:
            dates.append(date)
        gpu = next((doc[k] for k in _GPU_KEYS if isinstance(doc.get(k), str) and doc[k]), None)
        if gpu:
            gpus.append(gpu)
        count = next((_count(doc[k]) for k in _REPLICA_KEYS if _count(doc.get(k))), None)
        if count:
            replicas.append(count)
    if len(set(models)) > 1:
        notes.append(f"the results name several models: {_listed(sorted(set(models)))}")
    return Run(
        kind="serving",
        tool=VLLM,
        points=tuple(points),
        date=dates[0] if dates else None,
        model=models[0] if models else None,
        gpu=gpus[0] if gpus else None,
        replicas=max(replicas) if replicas else None,
        notes=tuple(notes),
    )


# Keys benchmark harnesses add to a --save-result file (vLLM's --metadata KEY=VALUE, llm-d's and
# the nightly suite's wrappers): the GPU the server ran on and the replicas the load was spread
# over.
_GPU_KEYS = ("gpu", "gpu_type", "gpu_name", "gpu_model", "accelerator", "device_name")
_REPLICA_KEYS = ("decode_replicas", "replicas", "num_replicas", "data_parallel_size")


def _e2el_from_requests(doc: Mapping[str, Any]) -> float | None:
    """The mean time in the system of a run's requests, in ms, from the per-request first-token
    times and token gaps (seconds) vLLM writes with --save-result; None when it has none."""
    ttfts, itls, lengths = doc.get("ttfts"), doc.get("itls"), doc.get("output_lens")
    if not (isinstance(ttfts, list) and isinstance(itls, list) and len(ttfts) == len(itls)):
        return None
    total, counted = 0.0, 0
    for index, (first, gaps) in enumerate(zip(ttfts, itls, strict=True)):
        first_s = _num(first)
        produced = lengths[index] if isinstance(lengths, list) and index < len(lengths) else 1
        if first_s is None or first_s <= 0 or not isinstance(gaps, list) or not produced:
            continue  # a failed request
        spent = first_s + sum(g for g in (_num(x) for x in gaps) if g is not None and g > 0)
        if not math.isfinite(spent):
            return None
        total, counted = total + spent, counted + 1
    return total / counted * 1000 if counted else None


def _vllm_concurrency(raw: object, name: str, where: str) -> float | None:
    if raw is None or (isinstance(raw, str) and raw.strip().lower() in ("", "none", "null")):
        return None
    value = _num(raw)
    if value is None or value <= 0:
        _fail(name, f"{where}max_concurrency is {raw!r}, not a number of requests")
    return value


def _export_metrics(doc: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """The metric objects of an AIPerf or GenAI-Perf export (``{"unit": ..., "avg": ...}``):
    at the top level, or under ``records`` as early AIPerf versions wrote them."""
    source = doc.get("records") if isinstance(doc.get("records"), Mapping) else doc
    assert isinstance(source, Mapping)
    return {
        str(tag): value
        for tag, value in source.items()
        if isinstance(value, Mapping) and "avg" in value and "unit" in value
    }


# Early AIPerf tags, later renamed to GenAI-Perf's.
_TAG_ALIASES = {"ttft": "time_to_first_token", "ttst": "time_to_second_token"}
_TIME_TO_MS = {"ms": 1.0, "s": 1000.0, "sec": 1000.0, "us": 1e-3, "µs": 1e-3, "ns": 1e-6}


def _export_tool(doc: Mapping[str, Any], config: Mapping[str, Any]) -> str | None:
    """Which of the two wrote an export: they share the metric layout by design, so the rest of
    the file decides; None when nothing in it says."""
    command = config.get("cli_command")
    if (
        "aiperf_version" in doc
        or isinstance(doc.get("records"), Mapping)
        or ("schema_version" in doc and "benchmark_id" in doc)
        or isinstance(config.get("loadgen"), Mapping)
        or (isinstance(command, str) and command.lstrip().startswith("aiperf"))
    ):
        return AIPERF
    if any(k in config for k in ("perf_analyzer", "subcommand", "formatted_model_name")) or (
        "genai_perf" in str(config.get("profile_export_file", ""))
    ):
        return GENAI_PERF
    return None


_CONCURRENCY_PATHS = (
    ("loadgen", "concurrency"),  # AIPerf
    ("perf_analyzer", "stimulus", "concurrency"),  # GenAI-Perf with a config file
    ("concurrency",),  # GenAI-Perf command-line arguments
)
_MODEL_PATHS = (("endpoint", "model_names"), ("model_names",), ("model",))


def _config_value(
    config: Mapping[str, Any], paths: Sequence[Sequence[str]], key: str
) -> tuple[str, object] | None:
    for path in paths:
        value = _dig(config, path)
        if value is not None:
            return ".".join(path), value
    return _find_key(config, key)


def _parse_export(
    doc: Mapping[str, Any], metrics: Mapping[str, Mapping[str, Any]], name: str
) -> Run:
    config = doc.get("input_config") if isinstance(doc.get("input_config"), Mapping) else {}
    assert isinstance(config, Mapping)
    tool = _export_tool(doc, config)
    notes: list[str] = []
    if tool is None:
        notes.append("the file does not say whether AIPerf or GenAI-Perf wrote it")
    concurrency: float | None = None
    found = _config_value(config, _CONCURRENCY_PATHS, "concurrency")
    if found is not None:
        path, raw = found
        if isinstance(raw, list) and len(raw) == 1:
            raw = raw[0]
        concurrency = _num(raw)
        if concurrency is None or concurrency <= 0:
            notes.append(f"input_config.{path} is {raw!r}: the concurrency is left unknown")
            concurrency = None
    rate = _find_key(config, "request_rate")
    rate_driven = rate is not None and _num(rate[1]) is not None
    if found is None:
        said = f"request rate {rate[1]!r}" if rate else "no concurrency nor request rate"
        notes.append(f"input_config gives {said}, so the concurrency is derived where it can be")
    model = None
    found = _config_value(config, _MODEL_PATHS, "model_names")
    if found is not None:
        raw = found[1]
        listed: list[object] = [raw] if isinstance(raw, str) else []
        if isinstance(raw, list):
            listed = list(raw)
        names = [n for n in listed if isinstance(n, str) and n]
        if names:
            model = names[0]
            if len(names) > 1:
                notes.append(f"several models named, the first taken: {_listed(names)}")
    point, more = _serving_from_metrics(metrics, concurrency, name, rate_driven)
    notes.extend(more)
    gpu, gpus = _export_gpus(doc, notes)
    version = doc.get("aiperf_version")
    date = doc.get("start_time")
    return Run(
        kind="serving",
        tool=tool or f"{AIPERF} or {GENAI_PERF}",
        points=(point,),
        version=str(version) if isinstance(version, str | int | float) else None,
        date=date if isinstance(date, str) and date else None,
        model=model,
        gpu=gpu,
        gpus=gpus,
        notes=tuple(notes),
    )


def _export_gpus(doc: Mapping[str, Any], notes: list[str]) -> tuple[str | None, int | None]:
    """GPU name and count from an AIPerf export's GPU telemetry, when it was collected."""
    endpoints = _dig(doc, ("telemetry_data", "endpoints"))
    if not isinstance(endpoints, Mapping):
        return None, None
    names: list[str] = []
    for endpoint in endpoints.values():
        gpus = endpoint.get("gpus") if isinstance(endpoint, Mapping) else None
        if isinstance(gpus, Mapping):
            names.extend(str(g.get("gpu_name")) for g in gpus.values() if isinstance(g, Mapping))
    if not names:
        return None, None
    distinct = sorted(set(names))
    if len(distinct) > 1:
        notes.append(f"GPU telemetry names several GPU models: {_listed(distinct)}")
    notes.append("GPU telemetry statistics read, not used")
    return distinct[0], len(names)


def _metric_avg(
    metrics: Mapping[str, Mapping[str, Any]], tag: str
) -> tuple[float | None, str | None]:
    entry = metrics.get(tag)
    if entry is None:
        return None, None
    unit = entry.get("unit")
    return _num(entry.get("avg")), unit.strip() if isinstance(unit, str) else None


_PER_SECOND = ("requests/sec", "requests/s", "per sec", "req/s")


def _serving_from_metrics(
    metrics: Mapping[str, Mapping[str, Any]],
    concurrency: float | None,
    name: str,
    rate_driven: bool = False,
) -> tuple[ServingPoint, list[str]]:
    """One serving point from an export's metric means (AIPerf and GenAI-Perf share the tags,
    the JSON and the CSV the values)."""
    table = {_TAG_ALIASES.get(tag, tag): value for tag, value in metrics.items()}
    notes: list[str] = []
    lengths = []
    for tag in ("input_sequence_length", "output_sequence_length"):
        value, _unit = _metric_avg(table, tag)
        if value is None or value < 0:
            _fail(name, f"the export has no usable mean {tag.replace('_', ' ')}")
        lengths.append(value)

    def milliseconds(tag: str) -> float | None:
        value, unit = _metric_avg(table, tag)
        if value is None:
            return None
        scale = _TIME_TO_MS.get((unit or "ms").lower())
        if scale is None:
            notes.append(f"{tag} is in {unit!r}, a unit not known here: not used")
            return None
        return value * scale

    tokens_per_s, unit = _metric_avg(table, "output_token_throughput")
    if tokens_per_s is not None and unit and unit.lower() not in ("tokens/sec", "tokens/s"):
        notes.append(f"output_token_throughput is in {unit!r}, not tokens/sec: not used")
        tokens_per_s = None
    requests, _unit = _metric_avg(table, "request_count")
    rate, rate_unit = _metric_avg(table, "request_throughput")
    if rate is not None and rate_unit and rate_unit.lower() not in _PER_SECOND:
        notes.append(f"request_throughput is in {rate_unit!r}, not requests/sec: not used")
        rate = None
    used = {
        "input_sequence_length",
        "output_sequence_length",
        "time_to_first_token",
        "inter_token_latency",
        "output_token_throughput",
        "request_count",
        "request_throughput",
        "request_latency",
    }
    unused = sorted(tag for tag in table if tag not in used)
    if unused:
        notes.append(f"read, not used: {_listed(unused)}")
    if any(re.fullmatch(r"p\d+", str(k)) for v in metrics.values() for k in v):
        notes.append("percentiles read, the means used")
    point, more = _serving_point(
        name, "", completed=1, input_total=lengths[0], output_total=lengths[1],
        ttft=milliseconds("time_to_first_token"), itl=milliseconds("inter_token_latency"),
        tokens_per_s=tokens_per_s, stated=concurrency, rate_finite=rate_driven,
        request_rate=rate, e2el_ms=milliseconds("request_latency"),
        e2el_how="the file's mean request latency",
    )  # fmt: skip
    notes.extend(more)
    point = replace(point, requests=_count(requests) if requests is not None else None)
    return point, notes
