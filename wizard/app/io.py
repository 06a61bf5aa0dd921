"""Design files: safe loading, schema migration and atomic saving.

Loading never executes anything: JSON only, size- and depth-limited, NaN and Infinity refused.
Saving writes a temporary file beside the target, flushes it to disk and renames it over the
target, so a crash mid-save leaves the previous file intact.
"""

from __future__ import annotations

import contextlib
import errno
import glob
import json
import math
import os
import stat
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from wizard.base.errors import DesignError, describe_validation_error
from wizard.base.safe_read import decode_utf8, read_limited
from wizard.model.design import SCHEMA_VERSION, Design

MAX_DESIGN_BYTES = 10_000_000
MAX_DEPTH = 64


# from-version -> function that turns a version-N document into a version-N+1 document.
def _v1_inference(doc: dict[str, Any]) -> dict[str, Any]:
    """Version 2 describes a serving load as benchmarks do: prompt and output tokens, the longest
    context, time to first token and time between tokens. A version-1 ``context_length`` was the
    longest prompt plus answer; its per-token ``latency_target_ms`` is the inter-token target."""
    groups = doc.get("workloads")
    if not isinstance(groups, list):
        return doc
    out = []
    for group in groups:
        inf = group.get("inference") if isinstance(group, dict) else None
        if isinstance(inf, dict):
            inf = dict(inf)
            context = inf.pop("context_length", None)
            output = inf.get("output_tokens", 256)
            if isinstance(context, int) and not isinstance(context, bool) and context >= 1:
                inf.setdefault("max_context_tokens", context)
                if isinstance(output, int) and not isinstance(output, bool):
                    inf.setdefault("input_tokens", max(1, context - output))
                    # a version-1 context shorter than its answer held the answer anyway
                    inf["max_context_tokens"] = max(context, max(1, context - output) + output)
            elif context is not None:
                inf["max_context_tokens"] = context  # let validation name the bad value
            if "latency_target_ms" in inf:
                inf.setdefault("itl_target_ms", inf.pop("latency_target_ms"))
            group = {**group, "inference": inf}
        out.append(group)
    return {**doc, "workloads": out}


def _v2_existing(doc: dict[str, Any]) -> dict[str, Any]:
    """Version 3 holds the estate the customer already runs (``existing``, imported from RVTools,
    nvidia-smi or the inventory script); a version-2 design started from nothing, so it has none."""
    return {**doc, "existing": doc.get("existing", {"clusters": []})}


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {
    1: _v1_inference,
    2: _v2_existing,
}


def _non_finite(value: Any, path: str = ""):
    """Paths of NaN and infinite numbers in a parsed document, so a refusal names the field."""
    stack = [(value, path)]
    while stack:
        node, where = stack.pop()
        if isinstance(node, float) and not math.isfinite(node):
            yield where or "(top level)", node
        elif isinstance(node, dict):
            stack.extend((v, f"{where}.{k}" if where else str(k)) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((v, f"{where}[{i}]") for i, v in enumerate(node))


class _Object(dict):
    """A JSON object that remembers the keys it was given more than once."""

    twice: tuple[str, ...] = ()


def _pairs(pairs: list[tuple[str, Any]]) -> _Object:
    obj = _Object(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        obj.twice = tuple(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
    return obj


def _duplicates(value: Any, path: str = ""):
    """Paths of keys given twice in one object."""
    stack = [(value, path)]
    while stack:
        node, where = stack.pop()
        if isinstance(node, _Object):
            for key in node.twice:
                yield f"{where}.{key}" if where else key
        if isinstance(node, dict):
            stack.extend((v, f"{where}.{k}" if where else str(k)) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((v, f"{where}[{i}]") for i, v in enumerate(node))


def _json_name(value: float) -> str:
    if math.isnan(value):
        return "NaN"
    return "Infinity (or a number too large for one)" if value > 0 else "-Infinity"


def _depth(value: Any, limit: int) -> int:
    """Depth of nested containers, stopping early once ``limit`` is passed."""
    stack = [(value, 1)]
    deepest = 0
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        if deepest > limit:
            return deepest
        if isinstance(node, dict):
            stack.extend((v, depth + 1) for v in node.values())
        elif isinstance(node, list):
            stack.extend((v, depth + 1) for v in node)
    return deepest


def parse_design_text(text: str, where: str = "design") -> dict[str, Any]:
    if not text.strip():
        raise DesignError(f"{where}: the file is empty, so it holds no design")
    try:
        # NaN, Infinity and 1e999 parse to floats, refused below by path; a key given twice in
        # one object is kept aside and refused by path too (json would keep the last silently)
        doc = json.loads(text, object_pairs_hook=_pairs)
    except json.JSONDecodeError as exc:
        raise DesignError(
            f"{where}: not a design file: it is not valid JSON ({exc.msg} at line {exc.lineno}, "
            f"column {exc.colno})"
        ) from None
    except RecursionError:
        raise DesignError(f"{where}: nested too deeply to be a design") from None
    except ValueError as exc:  # an integer with more digits than Python converts
        raise DesignError(f"{where}: a number in it cannot be read ({exc})") from None
    if not isinstance(doc, dict):
        raise DesignError(f"{where}: a design is a JSON object, not {type(doc).__name__}")
    if _depth(doc, MAX_DEPTH) > MAX_DEPTH:
        raise DesignError(f"{where}: nested more than {MAX_DEPTH} levels deep")
    twice = sorted(_duplicates(doc))
    if twice:
        raise DesignError(f"{where}: {path}: given twice in one object; keep one" for path in twice)
    bad = sorted(_non_finite(doc))
    if bad:
        raise DesignError(
            f"{where}: {path}: {_json_name(value)} is not a number a design can hold"
            for path, value in bad
        )
    return doc


def migrate(doc: dict[str, Any], where: str = "design") -> dict[str, Any]:
    """Bring an older document up to the current schema; refuse a newer one."""
    version = doc.get("schema_version", 1)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise DesignError(f"{where}: schema_version must be a whole number ≥ 1 (got {version!r})")
    if version > SCHEMA_VERSION:
        raise DesignError(
            f"{where}: schema_version {version} is newer than this gpuwizard understands "
            f"({SCHEMA_VERSION}); update gpuwizard to open it"
        )
    while version < SCHEMA_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise DesignError(f"{where}: no migration from schema_version {version}")
        doc = step(dict(doc))
        version += 1
        doc["schema_version"] = version
    return doc


def design_from_dict(doc: dict[str, Any], where: str = "design") -> Design:
    """A design from parsed JSON, validated strictly as JSON: no coercion ("3" is not a count,
    true is not a number, "yes" is not a yes, 0 is not a date)."""
    doc = migrate(doc, where)
    try:
        return Design.model_validate_json(json.dumps(doc), strict=True)
    except ValidationError as exc:
        raise DesignError(describe_validation_error(exc, prefix=f"{where}: ")) from None


def design_from_text(text: str, where: str = "design") -> Design:
    return design_from_dict(parse_design_text(text, where), where)


def load_design(path: str | os.PathLike[str]) -> Design:
    """Read a design file: a regular UTF-8 JSON file of at most ``MAX_DESIGN_BYTES``."""
    data = read_limited(path, MAX_DESIGN_BYTES, "design file", DesignError)
    text = decode_utf8(data, str(path), DesignError)
    return design_from_text(text, str(path))


def design_to_text(design: Design) -> str:
    return design.model_dump_json(indent=2, exclude_defaults=False) + "\n"


def _new_file_mode(target: Path) -> int:
    """The replaced file's mode, or 0666 less the umask for a new file."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8, ``\\n`` line ends) so readers see the old file or the new one."""
    atomic_write_bytes(path, text.encode("utf-8"))


def _refuse_read_only(target: Path) -> None:
    """A rename replaces even a read-only file; a file someone made read-only is kept."""
    try:
        info = target.stat()
    except OSError:
        return
    writable_bits = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH
    if not info.st_mode & writable_bits or not os.access(target, os.W_OK):
        raise PermissionError(errno.EACCES, "the file is read-only", str(target))


STALE_TEMP_S = 3600  # a save's temporary file older than this was left by a killed save


def _temp_prefix(name: str) -> str:
    """The temporary file's prefix: the target's name, shortened (by whole characters) so the
    prefix, mkstemp's 8 random characters and '.tmp' fit a 255-byte file name whatever the
    target's legal length."""
    stem = name
    while len(f".{stem}.".encode()) > 200:
        stem = stem[:-1]
    return f".{stem}."


def _remove_stale_temporaries(directory: Path, name: str) -> None:
    now = time.time()
    for old in directory.glob(f"{glob.escape(_temp_prefix(name))}*.tmp"):
        with contextlib.suppress(OSError):
            if old.is_file() and now - old.stat().st_mtime > STALE_TEMP_S:
                old.unlink()


PIPE_READER_WAIT_S = 2.0


def _write_in_place(target: Path, data: bytes) -> None:
    """A device or a named pipe is written, not replaced. A pipe nobody reads would block the
    program forever, so it is opened without blocking, given two seconds for a reader that is
    starting, and refused when none comes."""
    if stat.S_ISFIFO(target.stat().st_mode):
        deadline = time.monotonic() + PIPE_READER_WAIT_S
        while True:
            try:
                fd = os.open(target, os.O_WRONLY | os.O_NONBLOCK)
                break
            except OSError as exc:
                if exc.errno != errno.ENXIO:
                    raise
                if time.monotonic() >= deadline:
                    raise OSError(errno.ENXIO, "a named pipe with no reader", str(target)) from None
                time.sleep(0.05)
        os.set_blocking(fd, True)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        return
    with open(target, "wb") as handle:
        handle.write(data)


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new one, never half.

    A symbolic link is followed, so the file it names is written and the link stays; a target
    that is not a regular file (a device such as /dev/null, a pipe) is written in place rather
    than replaced by a file; the replaced file keeps its mode and, where the writer may, its
    owner."""
    target = Path(path)
    if target.is_symlink():
        target = target.resolve()
    if target.exists() and not target.is_file() and not target.is_dir():
        _write_in_place(target, data)
        return
    directory = target.parent if str(target.parent) else Path(".")
    _refuse_read_only(target)
    _remove_stale_temporaries(directory, target.name)
    fd, tmp = tempfile.mkstemp(prefix=_temp_prefix(target.name), suffix=".tmp", dir=directory)
    try:
        # mkstemp makes the file private (0600); give it the mode a plain open() would.
        if hasattr(os, "fchmod"):  # POSIX; Windows files have no such mode bits
            os.fchmod(fd, _new_file_mode(target))
        if hasattr(os, "fchown") and target.exists():
            with contextlib.suppress(OSError):  # only root may give a file to someone else
                info = target.stat()
                os.fchown(fd, info.st_uid, info.st_gid)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    try:  # make the rename itself durable
        dir_fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except OSError:
        pass


def save_design(design: Design, path: str | os.PathLike[str]) -> None:
    try:
        atomic_write_text(path, design_to_text(design))
    except OSError as exc:
        raise DesignError(f"{path}: cannot be written: {exc.strerror or exc}") from None
