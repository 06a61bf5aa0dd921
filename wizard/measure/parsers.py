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

from wizard.base.errors import UserError
from wizard.measure.parse_base import _KNOWN, TEXT_LIMIT, _gate, _json_documents
from wizard.measure.parse_json import _parse_json
from wizard.measure.parse_mlperf import _parse_mllog
from wizard.measure.parse_nccl import _nccl_columns, _parse_nccl, _strip_rank_prefix
from wizard.measure.parse_text import (
    _VLLM_HEADER,
    _is_export_csv,
    _parse_export_csv,
    _parse_vllm_text,
)
from wizard.measure.points import Run
from wizard.model.text import plain_text


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


__all__ = ["measurement_name", "parse"]
