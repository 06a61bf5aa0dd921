"""nccl-tests output (``all_reduce_perf`` and the other ``*_perf`` tests), with Open MPI's
rank prefixes."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from wizard.measure.parse_base import BOUNDS, NCCL_TESTS, _fail, _listed, _num
from wizard.measure.points import CollectivePoint, Run

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
