"""The names, limits and helpers every benchmark reader shares: the formats' names, the
text gate and bounds each figure read from a file passes, and number, JSON and date reading."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, NoReturn

from wizard.base.errors import UserError
from wizard.measure.points import Run, ServingPoint
from wizard.model.text import plain_text

VLLM = "vLLM bench serve"
AIPERF = "AIPerf"
GENAI_PERF = "GenAI-Perf"
NCCL_TESTS = "nccl-tests"
MLPERF = "MLPerf Training"

_KNOWN = (
    "a vLLM serving result (printed block or --save-result JSON), an AIPerf or GenAI-Perf "
    "profile export (JSON or CSV), nccl-tests output or an MLPerf Training log"
)


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
