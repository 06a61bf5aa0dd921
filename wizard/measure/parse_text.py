"""Text benchmark results: AIPerf / GenAI-Perf profile CSV exports and vLLM's printed
"Serving Benchmark Result" block."""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from wizard.measure.parse_base import AIPERF, GENAI_PERF, VLLM, _fail, _listed, _num, _serving_point
from wizard.measure.parse_json import _serving_from_metrics
from wizard.measure.points import Run, ServingPoint

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
