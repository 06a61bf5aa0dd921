"""Benchmark result files read into the points of ``points.py``. The format is told from what a
file holds, never from its name: files get renamed, and a vLLM log saved as ``.json`` is still a
vLLM log. Whatever cannot be read is refused with one line that names the file and says what is
wrong, never a traceback; nothing in a file is ever evaluated.

Formats read (their layout checked against each tool's own source):

* vLLM ``bench serve`` / ``benchmark_serving.py``: the printed "Serving Benchmark Result" block,
  and the ``--save-result`` JSON (one object, or one per line with ``--append-result``);
* AIPerf and GenAI-Perf aggregated profile exports, JSON and CSV;
* nccl-tests output (``all_reduce_perf`` and the other ``*_perf`` tests);
* MLPerf Training result logs (``:::MLLOG`` lines).
"""

from __future__ import annotations

import csv
import json
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, NoReturn

from wizard.base.errors import UserError
from wizard.measure.points import CollectivePoint, Run, ServingPoint, TrainingPoint
from wizard.model.text import plain_text

__all__ = ["parse"]

VLLM = "vLLM bench serve"
AIPERF = "AIPerf"
GENAI_PERF = "GenAI-Perf"
NCCL_TESTS = "nccl-tests"
MLPERF = "MLPerf Training"

_KNOWN = (
    "a vLLM serving result (printed block or --save-result JSON), an AIPerf or GenAI-Perf "
    "profile export (JSON or CSV), nccl-tests output or an MLPerf Training log"
)


def parse(text: str, name: str) -> Run:
    """The run ``text`` holds, its format told from the content alone. ``name`` is only quoted in
    the one-line UserError raised for text that is empty, of no format read here, cut short or
    damaged."""
    body = text[1:] if text.startswith("\ufeff") else text
    if not body.strip():
        raise UserError(f"{name}: the file is empty")
    try:
        return _gate(_dispatch(body, name))
    except UserError:
        raise
    except (ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError) as exc:
        # A layout no check above foresaw still ends as one line naming the file.
        raise UserError(f"{name}: could not be read ({type(exc).__name__}: {exc})") from None


def _dispatch(body: str, name: str) -> Run:
    stripped = body.strip()
    json_error: str | None = None
    if stripped[0] in "{[":
        docs, json_error = _json_documents(stripped)
        if docs is not None:
            return _parse_json(docs, name)
    if ":::MLLOG" in body:
        return _parse_mllog(body, name)
    if _VLLM_HEADER.search(body):
        return _parse_vllm_text(body, name)
    if any(_nccl_columns(_strip_rank_prefix(line)) for line in body.splitlines()):
        return _parse_nccl(body, name)
    if _is_export_csv(body):
        return _parse_export_csv(body, name)
    if json_error is not None:
        raise UserError(f"{name}: not valid JSON ({json_error})")
    raise UserError(f"{name}: not a benchmark result this program reads; it reads {_KNOWN}")


def measurement_name(name: str) -> str:
    """A benchmark file's name as the design records it: plain text of at most 200 characters,
    else the file is refused by name (the name goes into the design and the proposal)."""
    try:
        plain_text(name)
    except ValueError as exc:
        raise UserError(f"{name!a}: the file name {exc}; rename the file") from None
    if len(name) > TEXT_LIMIT:
        raise UserError(f"{name[:60]}...: the file name is {len(name)} characters long, more "
                        f"than {TEXT_LIMIT}; rename the file")  # fmt: skip
    return name


def _fail(name: str, problem: str) -> NoReturn:
    raise UserError(f"{name}: {problem}")


# --------------------------------------------------------------------------------------------
# The text gate and the bounds every figure read from a file passes

TEXT_LIMIT = 200  # a tool version, a date, a model or GPU name is a few dozen characters
NOTE_LIMIT = 400


def _gated(value: object, field: str, notes: list[str]) -> str | None:
    """``value`` as plain text for the design, or None with a note saying why it was left out:
    a file's text reaches the proposal, the terminal and the design file."""
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    if len(text) > TEXT_LIMIT:
        notes.append(f"the {field} is {len(text):,} characters long, more than {TEXT_LIMIT}: "
                     "left out")  # fmt: skip
        return None
    try:
        return plain_text(text)
    except ValueError as exc:
        notes.append(f"the {field} {exc}: left out")
        return None


def _clean_note(note: str) -> str:
    """A note as the terminal may print it: characters the text gate refuses shown as U+FFFD,
    cut to NOTE_LIMIT characters."""
    try:
        clean = plain_text(note)
    except ValueError:
        clean = "".join(ch if _plain(ch) else "\ufffd" for ch in note)
    return clean if len(clean) <= NOTE_LIMIT else clean[: NOTE_LIMIT - 1] + "…"


def _plain(ch: str) -> bool:
    try:
        plain_text(ch)
    except ValueError:
        return False
    return True


def _gate(run: Run) -> Run:
    notes: list[str] = []
    return replace(
        run,
        version=_gated(run.version, "tool version", notes),
        date=_gated(run.date, "run date", notes),
        model=_gated(run.model, "model name", notes),
        gpu=_gated(run.gpu, "GPU name", notes),
        notes=tuple(_clean_note(n) for n in (*run.notes, *notes)),
    )


# metric: (words, unit, largest believable value)
BOUNDS = {
    "ttft_ms": ("time to first token", "ms", 1e7),
    "itl_ms": ("time between tokens", "ms", 1e6),
    "tokens_per_s": ("output throughput", "tokens/s", 1e9),
    "busbw_gbs": ("bus bandwidth", "GB/s", 1e5),
    "step_s": ("training step", "s", 1e7),
}
TOKENS_LIMIT = 1e7  # a mean prompt or answer longer than this is no serving benchmark
CONCURRENCY_LIMIT = 1e6


def _bounded(metric: str, value: float | None, refused: list[tuple[str, str]]) -> float | None:
    """``value`` when it can be a measurement of ``metric``; else None, with the reason in
    ``refused``: a measured zero (the run timed nothing) or a figure no run gives."""
    if value is None:
        return None
    words, unit, high = BOUNDS[metric]
    if value <= 0:
        refused.append((metric, f"{words} measured {value:g} {unit}: a zero or negative figure "
                                "is no measurement, so it is not used"))  # fmt: skip
        return None
    if value > high:
        refused.append((metric, f"{words} measured {value:g} {unit}, beyond the {high:,.0f} "
                                f"{unit} any run gives, so it is not used"))  # fmt: skip
        return None
    return value


def _serving_point(
    name: str,
    where: str,
    *,
    completed: float,
    input_total: float,
    output_total: float,
    ttft: float | None,
    itl: float | None,
    tokens_per_s: float | None,
    stated: float | None,
    rate_finite: bool,
    request_rate: float | None,
    e2el_ms: float | None,
    e2el_how: str,
    max_seqs: float | None = None,
) -> tuple[ServingPoint, list[str]]:
    """One serving point with its load: the concurrency the file states, or, for a run driven by
    a request rate (or none stated), Little's law: requests in flight on average = requests
    completed per second x seconds each spends in the system, capped by the engine's maximum
    sequences where the file gives them. A load that cannot be known stays None."""
    notes: list[str] = []
    refused: list[tuple[str, str]] = []
    inputs, outputs = input_total / completed, output_total / completed
    for words, mean in (("prompt", inputs), ("answer", outputs)):
        if not 0 < mean <= TOKENS_LIMIT:
            _fail(name, f"{where}the mean {words} length is {mean:g} tokens, not a serving load")
    ttft = _bounded("ttft_ms", ttft, refused)
    itl = _bounded("itl_ms", itl, refused)
    tokens_per_s = _bounded("tokens_per_s", tokens_per_s, refused)
    concurrency, load = stated, "stated"
    if stated is not None and not 0 < stated <= CONCURRENCY_LIMIT:
        _fail(name, f"{where}the concurrency {stated:g} is not a number of requests in flight")
    if stated is None or rate_finite:
        e2el = e2el_ms
        if e2el is None and ttft is not None and itl is not None:
            e2el = ttft + itl * max(outputs - 1, 0)
            e2el_how = "time to first token + time between tokens x (answer - 1)"
        if request_rate is not None and request_rate > 0 and e2el is not None and e2el > 0:
            derived = request_rate * e2el / 1000
            words = (f"derived by Little's law: {request_rate:,.3g} requests/s x {e2el / 1000:,.3g} s "
                     f"a request ({e2el_how})")  # fmt: skip
            if stated is not None and derived > stated:
                derived, words = stated, f"{words}, capped at the {stated:g} the run allowed"
            if max_seqs is not None and derived > max_seqs:
                derived, words = max_seqs, f"{words}, capped at the engine's {max_seqs:g} sequences"
            if 0 < derived <= CONCURRENCY_LIMIT:
                concurrency, load = derived, words
                notes.append(f"{where}{derived:,.1f} requests in flight on average, {words}")
    if concurrency is None:
        load = "unknown"
        notes.append(f"{where}the load is not known: the file states no concurrency and gives no "
                     "request throughput and time per request to derive it from")  # fmt: skip
    return (
        ServingPoint(
            concurrency=concurrency,
            input_tokens=inputs,
            output_tokens=outputs,
            ttft_ms=ttft,
            itl_ms=itl,
            tokens_per_s=tokens_per_s,
            requests=int(completed) if completed <= 1e12 else None,
            load=load,
            refused=tuple(refused),
        ),
        notes,
    )


# --------------------------------------------------------------------------------------------
# Numbers, JSON, dates


_DECIMAL = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def _num(value: object) -> float | None:
    """A finite number from JSON or text, else None: a bool, NaN, infinity or a word is none.
    Text is read as plain decimal only (thousands commas dropped), not Python's wider syntax."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        number = float(value)
    elif isinstance(value, str):
        text = value.strip().replace(",", "")
        if not _DECIMAL.fullmatch(text):
            return None
        number = float(text)
    else:
        return None
    return number if math.isfinite(number) else None


def _count(value: object) -> int | None:
    """A whole, non-negative count (``100``, ``100.0``, ``"100"``), else None."""
    number = _num(value)
    if number is None or number < 0 or number != int(number):
        return None
    return int(number)


def _json_documents(text: str) -> tuple[list[Any] | None, str | None]:
    """The JSON values of ``text``: one document, or one per line (vLLM's ``--append-result``
    writes one object a line). ``(None, reason)`` when it is neither."""
    try:
        return [json.loads(text)], None
    except ValueError as exc:  # JSONDecodeError, or an integer of too many digits
        first = _json_problem(exc)
    except RecursionError:
        return None, "nested too deeply"
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) < 2:
        return None, first
    docs = []
    for number, line in enumerate(lines, 1):
        try:
            docs.append(json.loads(line))
        except ValueError as exc:
            return None, first if number == 1 else f"JSON line {number}: {_json_problem(exc)}"
        except RecursionError:
            return None, f"JSON line {number} is nested too deeply"
    return docs, None


def _json_problem(exc: ValueError) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"line {exc.lineno} column {exc.colno}: {exc.msg}"
    return str(exc)


def _iso_from_ms(ms: float) -> str | None:
    """UTC ISO time of a Unix time in milliseconds, None when out of range."""
    try:
        return datetime.fromtimestamp(ms / 1000, tz=UTC).isoformat(timespec="seconds")
    except (OverflowError, OSError, ValueError):
        return None


def _vllm_date(raw: object) -> str | None:
    """vLLM writes ``%Y%m%d-%H%M%S`` (local time, no zone); shown as ISO, other text as is."""
    if not isinstance(raw, str) or not raw.strip():
        return None
    try:
        return datetime.strptime(raw.strip(), "%Y%m%d-%H%M%S").isoformat()
    except ValueError:
        return raw.strip()


def _listed(words: Sequence[str], limit: int = 12) -> str:
    shown = ", ".join(words[:limit])
    return shown + (f" and {len(words) - limit} more" if len(words) > limit else "")


def _dig(obj: object, path: Sequence[str]) -> object:
    for key in path:
        if not isinstance(obj, Mapping):
            return None
        obj = obj.get(key)
    return obj


def _find_key(obj: object, key: str, depth: int = 6) -> tuple[str, object] | None:
    """The first ``key`` in nested objects, breadth first, with its dotted path: a layout this
    module does not know by name may still say the concurrency or the model."""
    level: list[tuple[str, object]] = [("", obj)]
    for _ in range(depth):
        nxt: list[tuple[str, object]] = []
        for path, node in level:
            if not isinstance(node, Mapping):
                continue
            if key in node and node[key] is not None:
                return (f"{path}.{key}" if path else key), node[key]
            nxt.extend((f"{path}.{k}" if path else str(k), v) for k, v in node.items())
        level = nxt
    return None


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


# --------------------------------------------------------------------------------------------
# CSV: AIPerf and GenAI-Perf profile_export_*.csv


def _is_export_csv(body: str) -> bool:
    first = next((line for line in body.splitlines() if line.strip()), "")
    cells = [c.strip().lower() for c in first.split(",")]
    return len(cells) > 2 and cells[0] == "metric" and "avg" in cells


def _csv_label(label: str) -> tuple[str, str | None]:
    """``"Time to First Token (ms)"`` -> ``("time_to_first_token", "ms")``."""
    match = re.fullmatch(r"\s*(.*?)\s*(?:\(([^()]*)\))?\s*", label)
    assert match is not None  # the pattern matches any text
    tag = re.sub(r"[^a-z0-9]+", "_", match.group(1).lower()).strip("_")
    return tag, match.group(2)


def _parse_export_csv(body: str, name: str) -> Run:
    rows = list(csv.reader(body.splitlines()))
    sections: list[list[list[str]]] = [[]]
    for row in rows:
        if not any(cell.strip() for cell in row):
            if sections[-1]:
                sections.append([])
            continue
        sections[-1].append([cell.strip() for cell in row])
    metrics: dict[str, dict[str, Any]] = {}
    tool: str | None = None
    notes: list[str] = [
        "a CSV export does not say the concurrency nor the model (the JSON does): the load is "
        "derived where it can be"
    ]
    gpu_names: list[str] = []
    gpu_ids: set[tuple[str, str]] = set()
    for section in (s for s in sections if s):
        header = [h.lower() for h in section[0]]
        if "gpu" in header:  # GenAI-Perf's GPU telemetry: one row per metric and GPU index
            notes.append("GPU telemetry statistics read, not used")
        elif header[0] == "metric" and "avg" in header:
            # AIPerf lists percentiles rising (p1 ... p99), GenAI-Perf falling (p99 ... p1).
            ranks = [int(h[1:]) for h in header if re.fullmatch(r"p\d+", h)]
            if tool is None and len(ranks) > 1:
                tool = AIPERF if ranks[0] < ranks[-1] else GENAI_PERF
            avg = header.index("avg")
            for row in section[1:]:
                if len(row) <= avg:
                    _fail(name, f"the row {row[0]!r} has no avg column")
                tag, unit = _csv_label(row[0])
                metrics[tag] = {"unit": unit or "", "avg": _csv_value(row[avg], row[0], name)}
                metrics[tag].update({h: None for h in header if re.fullmatch(r"p\d+", h)})
        elif header[:2] == ["metric", "value"]:
            for row in section[1:]:
                if len(row) < 2:
                    _fail(name, f"the row {row[0]!r} has no value")
                tag, unit = _csv_label(row[0])
                metrics[tag] = {"unit": unit or "", "avg": _csv_value(row[1], row[0], name)}
        elif "gpu_name" in header:
            column = header.index("gpu_name")
            uuid = header.index("gpu_uuid") if "gpu_uuid" in header else column
            for row in section[1:]:
                if len(row) > max(column, uuid):
                    gpu_names.append(row[column])
                    gpu_ids.add((row[0], row[uuid]))
            notes.append("GPU telemetry statistics read, not used")
        else:
            notes.append(f"a section headed {section[0][0]!r} read, not used")
    if not metrics:
        _fail(name, "the CSV export holds no metric rows")
    point, more = _serving_from_metrics(metrics, None, name)
    notes.extend(more)
    distinct = sorted(set(gpu_names))
    if len(distinct) > 1:
        notes.append(f"GPU telemetry names several GPU models: {_listed(distinct)}")
    if tool is None:
        notes.append("the file does not say whether AIPerf or GenAI-Perf wrote it")
    return Run(
        kind="serving",
        tool=tool or f"{AIPERF} or {GENAI_PERF}",
        points=(point,),
        gpu=distinct[0] if distinct else None,
        gpus=len(gpu_ids) if gpu_ids else None,
        notes=tuple(notes),
    )


def _csv_value(cell: str, label: str, name: str) -> float | None:
    """A CSV cell as a number: GenAI-Perf writes thousands separators, both tools write
    ``N/A`` or nothing for a statistic they lack."""
    if cell.strip().upper() in ("", "N/A", "NA", "NONE", "NULL"):
        return None
    value = _num(cell)
    if value is None:
        _fail(name, f"{label}: {cell!r} is not a number")
    return value


# --------------------------------------------------------------------------------------------
# vLLM printed result block

_VLLM_HEADER = re.compile(r"=+ ?Serving Benchmark Result ?=+")
_VLLM_END = re.compile(r"^\s*={20,}\s*$")
_VLLM_LINE = re.compile(r"^\s*(?P<label>[A-Za-z][^:]*?):\s*(?P<value>\S+)\s*$")
_VLLM_BEFORE = re.compile(
    r"^\s*(?P<label>Maximum request concurrency|Traffic request rate):\s*(?P<value>[^\s(]+)"
)
_VLLM_MODEL = (
    re.compile(r"Namespace\(.*?\bmodel='(?P<model>[^']+)'"),  # benchmark_serving.py's print(args)
    re.compile(r"^First model name: .*?, first model id: (?P<model>\S+)\s*$", re.M),
)
_VLLM_USED = {
    "Request throughput (req/s)",
    "Mean E2EL (ms)",
    "Successful requests",
    "Maximum request concurrency",
    "Total input tokens",
    "Total generated tokens",
    "Output token throughput (tok/s)",
    "Mean TTFT (ms)",
    "Mean TPOT (ms)",
    "Mean ITL (ms)",
    "Failed requests",
}


@dataclass
class _Block:
    line: int  # 1-based line of the header
    fields: dict[str, tuple[str, int]] = field(default_factory=dict)  # label -> (value, line)
    before: dict[str, str] = field(default_factory=dict)  # settings printed before the block


def _vllm_blocks(lines: list[str], name: str) -> Iterator[_Block]:
    before: dict[str, str] = {}
    index = 0
    while index < len(lines):
        found = _VLLM_BEFORE.match(lines[index])
        if found:
            before[found["label"]] = found["value"]
        if not _VLLM_HEADER.search(lines[index]):
            index += 1
            continue
        block = _Block(line=index + 1, before=before)
        index += 1
        while index < len(lines) and not _VLLM_END.match(lines[index]):
            if _VLLM_HEADER.search(lines[index]):
                break
            match = _VLLM_LINE.match(lines[index])
            if match:
                block.fields.setdefault(match["label"].strip(), (match["value"], index + 1))
            index += 1
        if index >= len(lines) or not _VLLM_END.match(lines[index]):
            _fail(
                name,
                f"the Serving Benchmark Result block at line {block.line} does not end "
                "(no closing ===== line): the output is cut short",
            )
        yield block
        before = {}
        index += 1


def _parse_vllm_text(body: str, name: str) -> Run:
    points: list[ServingPoint] = []
    notes: list[str] = []
    blocks = list(_vllm_blocks(body.splitlines(), name))
    for block in blocks:
        where = f"block at line {block.line}: " if len(blocks) > 1 else ""
        point, more = _vllm_block_point(block, name)
        points.append(point)
        notes.extend(where + note for note in more)
    model = None
    for pattern in _VLLM_MODEL:
        match = pattern.search(body)
        if match:
            model = match["model"]
            break
    return Run(kind="serving", tool=VLLM, points=tuple(points), model=model, notes=tuple(notes))


def _vllm_block_point(block: _Block, name: str) -> tuple[ServingPoint, list[str]]:
    fields, notes = block.fields, []
    missing = [
        label
        for label in ("Successful requests", "Total input tokens", "Total generated tokens")
        if label not in fields
    ]
    if missing:
        _fail(
            name,
            f"the Serving Benchmark Result block at line {block.line} lacks "
            f"{_listed([repr(m) for m in missing])}",
        )

    def required(label: str) -> float:
        raw, line = fields[label]
        value = _num(raw)
        if value is None or value < 0:
            _fail(name, f"line {line}: {label} {raw!r} is not a number")
        return value

    def optional(label: str) -> float | None:
        if label not in fields:
            return None
        raw, line = fields[label]
        value = _num(raw)
        if value is None:
            notes.append(f"line {line}: {label} {raw!r} is not a number, left out")
        return value

    completed = required("Successful requests")
    if completed == 0 or completed != int(completed):
        _fail(name, f"the block at line {block.line} counts {completed:g} successful requests")
    failed = optional("Failed requests")
    if failed:
        notes.append(f"{failed:g} failed requests left out of the means")
    said = fields.get("Maximum request concurrency")
    raw = said[0] if said else block.before.get("Maximum request concurrency")
    concurrency = None if raw is None or raw.lower() == "none" else _num(raw)
    if raw is not None and raw.lower() != "none" and (concurrency is None or concurrency <= 0):
        _fail(name, f"the block at line {block.line}: maximum request concurrency {raw!r}")
    configured = fields.get("Request rate configured (RPS)")
    rate = configured[0] if configured else block.before.get("Traffic request rate")
    if concurrency is None:
        notes.append(f"no maximum request concurrency: a request-rate run (request rate "
                     f"{rate or 'not stated'})")  # fmt: skip
    tpot, itl = optional("Mean TPOT (ms)"), optional("Mean ITL (ms)")
    if tpot is not None and itl is not None:
        notes.append("time between tokens from Mean TPOT (ms); Mean ITL (ms) not used")
    unused = [label for label in fields if label not in _VLLM_USED]
    if unused:
        notes.append(f"read, not used: {_listed(unused)}")
    point, more = _serving_point(
        name, "", completed=completed, input_total=required("Total input tokens"),
        output_total=required("Total generated tokens"), ttft=optional("Mean TTFT (ms)"),
        itl=tpot if tpot is not None else itl,
        tokens_per_s=optional("Output token throughput (tok/s)"), stated=concurrency,
        rate_finite=rate is not None and _num(rate) is not None,
        request_rate=optional("Request throughput (req/s)"), e2el_ms=optional("Mean E2EL (ms)"),
        e2el_how="the block's mean end-to-end latency",
    )  # fmt: skip
    notes.extend(more)
    return point, notes


# --------------------------------------------------------------------------------------------
# nccl-tests

_RANK_PREFIX = re.compile(r"^\s*\[\d+,\d+\]<std(?:out|err)>:")  # Open MPI's --tag-output
_RANK_LINE = re.compile(
    r"^#\s*Rank\s+(?P<rank>\d+)\b.*?(?:\bon\s+(?P<host>\S+)\s+)?"
    r"\bdevice\s+\d+\s+\[[^\]]*\]\s+(?P<gpu>.+?)\s*$"
)
_NCCL_TESTS_VERSION = re.compile(r"^#\s*nccl-tests version\s+(?P<version>\S+)")
_NCCL_VERSION = re.compile(r"\bNCCL version\s+(?P<version>\S+)")
_STARTING = re.compile(r"^#\s*Collective test starting:\s*(?P<binary>\S+)")
_OPERATIONS = (
    "all_reduce",
    "all_gather",
    "reduce_scatter",
    "alltoallv",
    "alltoall",
    "broadcast",
    "reduce",
    "sendrecv",
    "gather",
    "scatter",
    "hypercube",
)
_BINARY = re.compile(r"\b(?P<op>" + "|".join(_OPERATIONS) + r")_perf(?:_mpi)?\b")
_REDUCTIONS = {"sum", "prod", "max", "min", "avg", "mulsum", "premulsum"}
_TYPE_BYTES = {
    "int8": 1,
    "uint8": 1,
    "char": 1,
    "f8e4m3": 1,
    "f8e5m2": 1,
    "half": 2,
    "bfloat16": 2,
    "int32": 4,
    "uint32": 4,
    "int": 4,
    "float": 4,
    "int64": 8,
    "uint64": 8,
    "double": 8,
}


@dataclass(frozen=True)
class _Columns:
    """Where a nccl-tests table keeps each value, read off its header: the layout changed over
    the years (``bytes N type op``, then ``size count type redop``, then ``root`` added)."""

    size: int
    count: int
    type: int
    op: int
    root: int | None
    time: int
    busbw: int
    wrong: int | None  # the out-of-place #wrong (a count); old "error" columns are magnitudes
    in_place: bool
    time_to_us: float  # the oldest layout printed milliseconds, later ones microseconds


def _strip_rank_prefix(line: str) -> str:
    return _RANK_PREFIX.sub("", line, count=1)


def _nccl_columns(line: str) -> _Columns | None:
    stripped = line.strip()
    if not stripped.startswith("#"):
        return None
    words = stripped[1:].split()
    lower = [w.lower() for w in words]

    def first(*names: str) -> int | None:
        return next((i for i, w in enumerate(lower) if w in names), None)

    size, count, kind = first("size", "bytes"), first("count", "n"), first("type")
    op, time, busbw = first("redop", "op"), first("time", "cputime"), first("busbw")
    if None in (size, count, kind, op, time, busbw):
        return None
    assert size is not None and count is not None and kind is not None
    assert op is not None and time is not None and busbw is not None
    wrong = next((i for i in range(busbw + 1, len(lower)) if lower[i] == "#wrong"), None)
    return _Columns(
        size=size,
        count=count,
        type=kind,
        op=op,
        root=first("root"),
        time=time,
        busbw=busbw,
        wrong=wrong if wrong == busbw + 1 else None,
        in_place=lower.count("busbw") > 1,
        time_to_us=1000.0 if lower[size] == "bytes" else 1.0,
    )


def _nccl_operation(
    words: Sequence[str], columns: _Columns, ranks: int | None, notes: set[str]
) -> str:
    """The collective a table row measured, told from its redop and root and, between all_reduce
    and reduce_scatter (which print the same), from how its count relates to its size."""
    op = words[columns.op].lower()
    root = _num(words[columns.root]) if columns.root is not None else None
    if op not in _REDUCTIONS:
        notes.add("the operation is not named and redop 'none' fits several: left unknown")
        return "unknown"
    if root is not None and root >= 0:
        return "reduce"
    size, count = _num(words[columns.size]), _num(words[columns.count])
    width = _TYPE_BYTES.get(words[columns.type].lower())
    if size and count and width:
        if count * width == size:
            if root is None:
                notes.add("the table has no root column; all_reduce and reduce print alike")
            return "all_reduce"
        if ranks and count * width * ranks == size:
            return "reduce_scatter"
    notes.add(
        "the operation is not named; taken as all_reduce from its reduction op and root "
        "(reduce_scatter prints the same columns)"
    )
    return "all_reduce"


def _operation_of_binary(binary: str) -> str | None:
    match = _BINARY.search(binary.rsplit("/", 1)[-1])
    return match["op"] if match else None


def _parse_nccl(body: str, name: str) -> Run:
    lines = [_strip_rank_prefix(line) for line in body.splitlines()]
    ranks: set[int] = set()
    hosts: set[str] = set()
    gpu_names: list[str] = []
    version = None
    notes: set[str] = set()
    ordered_notes: list[str] = []
    for line in lines:
        rank = _RANK_LINE.match(line.strip())
        if rank:
            ranks.add(int(rank["rank"]))
            gpu_names.append(rank["gpu"])
            if rank["host"]:
                hosts.add(rank["host"])
        found = _NCCL_TESTS_VERSION.match(line.strip())
        if found and version is None:
            version = found["version"]
        library = _NCCL_VERSION.search(line)
        if library and not line.lstrip().startswith("# nccl-tests"):
            notes.add(f"NCCL {library['version']} read, not used")
    binaries = sorted({m["op"] for m in _BINARY.finditer(body)})
    named = binaries[0] if len(binaries) == 1 else None
    if len(binaries) > 1:
        notes.add(f"the file names several tests ({_listed(binaries)}): none taken from the names")
    count = len(ranks) or None
    if count is None:
        notes.add(
            "no '#  Rank' lines: the file does not say how many GPUs nor hosts the run used, so "
            "they are taken to be the group's; keep the lines that start with '#  Rank' to have "
            "them checked"
        )

    points: list[CollectivePoint] = []
    columns: _Columns | None = None
    current: str | None = None
    wrong_rows = 0
    for number, line in enumerate(lines, 1):
        starting = _STARTING.match(line.strip())
        if starting:
            current = _operation_of_binary(starting["binary"])
        header = _nccl_columns(line)
        if header is not None:
            columns = header
            continue
        words = line.split()
        if columns is not None and words and words[0].startswith("#"):
            unit = next((w for w in words if w in ("(us)", "(ms)")), None)
            if unit is not None:  # the units line under the header says it outright
                columns = replace(columns, time_to_us=1000.0 if unit == "(ms)" else 1.0)
        if columns is None or not words or words[0].startswith("#"):
            continue
        needed = max(columns.size, columns.count, columns.type, columns.op, columns.time)
        if len(words) <= needed or not (
            words[columns.size].isdigit() and words[columns.count].isdigit()
        ):
            continue  # a log line among the rows, not a row
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", words[columns.type]):
            continue
        if len(words) <= columns.busbw:
            _fail(name, f"line {number}: the row has no busbw column: the output is cut short")
        time_us, busbw = _num(words[columns.time]), _num(words[columns.busbw])
        if time_us is None or time_us < 0:
            _fail(name, f"line {number}: time {words[columns.time]!r} is not a number")
        if busbw is None or busbw < 0:
            _fail(name, f"line {number}: busbw {words[columns.busbw]!r} is not a number")
        if busbw > BOUNDS["busbw_gbs"][2] or time_us > 1e12:
            _fail(name, f"line {number}: busbw {busbw:g} GB/s in {time_us:g} time units is "
                        "beyond any link")  # fmt: skip
        if columns.wrong is not None and len(words) > columns.wrong:
            wrong = _num(words[columns.wrong])
            wrong_rows += 1 if wrong else 0
        operation = current or named or _nccl_operation(words, columns, count, notes)
        points.append(
            CollectivePoint(
                operation=operation,
                size_bytes=float(words[columns.size]),
                time_us=time_us * columns.time_to_us,
                busbw_gbs=busbw,
            )
        )
        if columns.in_place:
            notes.add("algbw and the in-place columns read, not used (out of place used)")
        else:
            notes.add("algbw read, not used")
    if not points:
        _fail(name, "nccl-tests output with a table header but no result rows: cut short?")
    if wrong_rows:
        ordered_notes.append(f"{wrong_rows} rows report wrong elements (#wrong > 0)")
    avg = re.search(r"#\s*Avg bus bandwidth\s*:\s*(\S+)", body)
    if avg:
        notes.add(f"Avg bus bandwidth {avg.group(1)} read, not used")
    distinct = sorted(set(gpu_names))
    if len(distinct) > 1:
        ordered_notes.append(f"the ranks name several GPU models: {_listed(distinct)}")
    operations = sorted({p.operation for p in points})
    if len(operations) > 1:
        ordered_notes.append(f"several operations in one file: {_listed(operations)}")
    return Run(
        kind="collective",
        tool=NCCL_TESTS,
        points=tuple(points),
        version=version,
        gpu=gpu_names[0] if gpu_names else None,
        gpus=count,
        hosts=len(hosts) or None,
        notes=tuple(ordered_notes + sorted(notes)),
    )


# --------------------------------------------------------------------------------------------
# MLPerf Training


@dataclass
class _TrainingRun:
    start_ms: float
    start_line: int
    stop_ms: float | None = None
    status: str | None = None
    samples: float | None = None
    global_batch: int | None = None
    samples_at_stop: float | None = None  # run_stop's samples_count: what the run trained


def _parse_mllog(body: str, name: str) -> Run:
    runs: list[_TrainingRun] = []
    open_run: _TrainingRun | None = None
    last_closed: _TrainingRun | None = None
    batch: int | None = None
    benchmark: str | None = None
    system: Mapping[str, Any] = {}
    unreadable = 0
    counted: dict[str, int] = {}
    notes: list[str] = []
    evals: list[float] = []
    platform: str | None = None
    dataset: float | None = None
    for number, line in enumerate(body.splitlines(), 1):
        at = line.find(":::MLLOG")
        if at < 0:
            at = line.find(":::SYSJSON")
            if at >= 0:
                try:
                    found = json.loads(line[at + len(":::SYSJSON") :])
                except (ValueError, RecursionError):
                    found = None
                if isinstance(found, Mapping):
                    system = found
            continue
        try:
            record = json.loads(line[at + len(":::MLLOG") :])
        except (ValueError, RecursionError):
            unreadable += 1
            continue
        if not isinstance(record, Mapping) or not isinstance(record.get("key"), str):
            unreadable += 1
            continue
        key, value = record["key"], record.get("value")
        counted[key] = counted.get(key, 0) + 1
        time_ms = _num(record.get("time_ms"))
        if time_ms is not None and not 0 <= time_ms <= 1e15:
            _fail(name, f"line {number}: time_ms {time_ms:g} is not a time in milliseconds")
        meta = record.get("metadata") if isinstance(record.get("metadata"), Mapping) else {}
        assert isinstance(meta, Mapping)
        if key == "run_start":
            if time_ms is None:
                _fail(name, f"line {number}: run_start has no time_ms")
            if open_run is None:
                open_run = _TrainingRun(start_ms=time_ms, start_line=number, global_batch=batch)
                runs.append(open_run)
                last_closed = None
        elif key == "run_stop":
            if time_ms is None:
                _fail(name, f"line {number}: run_stop has no time_ms")
            if open_run is not None:
                open_run.stop_ms = time_ms
                open_run.samples_at_stop = _num(meta.get("samples_count"))
                status = meta.get("status")
                open_run.status = status if isinstance(status, str) else None
                open_run.global_batch = open_run.global_batch or batch
                last_closed, open_run = open_run, None
        elif key == "global_batch_size":
            batch = _count(value)
            if batch is None:
                _fail(name, f"line {number}: global_batch_size {value!r} is not a count")
            if open_run is not None:
                open_run.global_batch = batch
        elif key == "train_samples":
            samples = _num(value)
            target = open_run or last_closed
            if samples is not None and target is not None:
                target.samples = samples
            elif samples is not None:
                dataset = samples
        elif key == "submission_benchmark" and isinstance(value, str):
            benchmark = benchmark or value
        elif key == "submission_platform" and isinstance(value, str):
            platform = platform or value
        elif key == "eval_accuracy":
            accuracy = _num(value)
            if accuracy is not None:
                evals.append(accuracy)
    if not counted:
        _fail(name, "its :::MLLOG lines hold no readable record")
    if not runs:
        _fail(name, "the MLPerf log has no run_start: the run never started timing")
    finished = [run for run in runs if run.stop_ms is not None]
    if not finished:
        _fail(name, "the MLPerf log has run_start but no run_stop: the run did not finish")
    if len(finished) < len(runs):
        notes.append(f"{len(runs) - len(finished)} run_start without run_stop left out")
    if unreadable:
        notes.append(f"{unreadable} :::MLLOG lines were not valid records and were skipped")
    points = []
    for run in finished:
        assert run.stop_ms is not None
        seconds = (run.stop_ms - run.start_ms) / 1000
        if seconds <= 0:
            _fail(name, f"the run starting at line {run.start_line} stops before it starts")
        if seconds > 1e8:
            _fail(name, f"the run starting at line {run.start_line} lasts {seconds:,.0f} s, "
                        "more than three years: its times are not a run's")  # fmt: skip
        if run.status and run.status != "success":
            notes.append(f"the run starting at line {run.start_line} ended '{run.status}'")
        samples = run.samples_at_stop if run.samples_at_stop else run.samples
        if run.samples_at_stop and run.samples and run.samples != run.samples_at_stop:
            notes.append(f"the run at line {run.start_line}: samples trained from run_stop's "
                         f"samples_count ({run.samples_at_stop:,.0f}); train_samples "
                         f"{run.samples:,.0f} not used")  # fmt: skip
        steps = samples / run.global_batch if samples and run.global_batch else None
        step = seconds / steps if steps else None
        if step is not None and not 0 < step <= BOUNDS["step_s"][2]:
            step = None
        points.append(
            TrainingPoint(
                step_s=step,
                time_to_train_s=seconds,
                samples=samples,
                global_batch=run.global_batch,
            )
        )
        if not samples:
            why = "its run_stop has no samples_count and no train_samples is logged in the run"
            if dataset:
                why += (f" (the train_samples {dataset:,.0f} logged before run_start is the "
                        "dataset's size, not what the run trained)")  # fmt: skip
            notes.append(f"the run at line {run.start_line}: no step time, since {why}")
        elif not run.global_batch:
            notes.append(f"the run at line {run.start_line}: no step time, since the log has no "
                         "global_batch_size")  # fmt: skip
    if dataset and any(p.samples for p in points):
        notes.append(f"train_samples {dataset:,.0f} logged before run_start is the dataset's "
                     "size, not used")  # fmt: skip
    used = {"run_start", "run_stop", "global_batch_size", "train_samples", "submission_benchmark"}
    unused = sorted(key for key in counted if key not in used)
    if unused:
        notes.append(f"read, not used: {_listed(unused, 20)}")
    if evals:
        notes.append(f"last eval_accuracy {evals[-1]:g}, not used")
    if platform:
        notes.append(f"submission_platform {platform!r}")
    gpu = system.get("accelerator_model_name")
    if not (isinstance(gpu, str) and gpu) and platform:
        # "1xNVIDIA HGX B200": the system the run used, its GPU named in it
        gpu = re.sub(r"^\s*\d+\s*x\s*", "", platform)
    nodes, per_node = (
        _count(system.get("number_of_nodes")),
        _count(system.get("accelerators_per_node")),
    )
    if system:
        notes.append("the system description (:::SYSJSON) read for the GPU model and count")
    return Run(
        kind="training",
        tool=MLPERF,
        points=tuple(points),
        date=_iso_from_ms(finished[0].start_ms),
        model=benchmark,
        gpu=gpu if isinstance(gpu, str) and gpu else None,
        gpus=nodes * per_node if nodes and per_node else None,
        notes=tuple(notes),
    )
