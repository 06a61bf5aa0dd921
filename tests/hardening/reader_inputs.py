"""Hypothesis strategies for the files the readers beyond the design take: benchmark results for
``calibrate`` (every format it reads), the estate exports for ``import-estate`` (RVTools .xlsx,
``nvidia-smi -q -x``, ``nvidia-smi vgpu -q``, the inventory CSV), user catalog folders and output
paths. Each draws a real file (from docs/measurements, tests/data/estate, catalogs/) or one built
from a real file's layout, then maybe breaks it: cut short, bytes flipped, a number made NaN,
infinite, huge, negative or of another type, nesting thousands deep, another encoding. The draw
is of small parameters, so hypothesis shrinks a failure to the file and the one change."""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from tests.hardening.test_user_catalog_ranges import CASES, _entries, _format, _top_level
from tests.hardening.test_whole_ranges import _legal_and_illegal

ROOT = Path(__file__).resolve().parents[2]
MEASUREMENTS = ROOT / "docs" / "measurements"
REAL = MEASUREMENTS / "real"
ESTATE = ROOT / "tests" / "data" / "estate"
CATALOGS = ROOT / "catalogs"


@dataclass(frozen=True)
class Drawn:
    """A file to write for one run: its name, its bytes and what was done to it (for the
    failure message)."""

    name: str
    data: bytes
    how: str


@lru_cache(maxsize=64)
def _read(path: Path) -> bytes:
    return path.read_bytes()


# ------------------------------------------------------------------------------ breaking bytes

# What a number in a file becomes: the values that crashed readers before (NaN, infinities, past
# a double, past Python's 4,300-digit limit, subnormal), signs, zero, and other types.
NUMBERS = [
    "nan", "NaN", "-nan", "inf", "Infinity", "-Infinity", "1e999", "-1e999", "1e308",
    "1.7976931348623157e308", "5e-324", "-0", "0", "-1", "-12.5", "1" + "0" * 40,
    "9" * 5000, "0x1F", "1_000", "١٢", '"12"', "true", "null", "[]", "{}", "",
]  # fmt: skip
_NUMBER = re.compile(rb"(?<![\w.])-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w.])")


def _replace_number(data: bytes, which: int, new: str) -> bytes:
    found = list(_NUMBER.finditer(data[:2_000_000]))
    if not found:
        return data
    m = found[which % len(found)]
    return data[: m.start()] + new.encode("utf-8") + data[m.end() :]


def _reencode(data: bytes, how: str) -> bytes:
    text = data.decode("utf-8", "replace")
    if how == "utf-16":
        return text.encode("utf-16")  # with its byte-order mark, as PowerShell's '>' writes
    if how == "utf-16-be-no-bom":
        return text.encode("utf-16-be")
    if how == "utf-32":
        return text.encode("utf-32")
    if how == "latin-1":
        return (text + " café µs").encode("latin-1", "replace")
    if how == "utf-8-bom":
        return b"\xef\xbb\xbf" + data
    if how == "nul":
        return data[: len(data) // 2] + b"\x00" + data[len(data) // 2 :]
    if how == "lone-surrogate":
        return data[: len(data) // 2] + b"\xed\xa0\x80" + data[len(data) // 2 :]
    raise ValueError(how)


ENCODINGS = ["utf-16", "utf-16-be-no-bom", "utf-32", "latin-1", "utf-8-bom", "nul",
             "lone-surrogate"]  # fmt: skip


def _nest(data: bytes, kind: str, depth: int) -> bytes:
    if kind == "json":
        return b"[" * depth + data + b"]" * depth
    if kind == "xml":
        return _xml_nest(data, depth)
    return b"[" * depth + b"\n" + data  # a text format: a line of brackets


def _xml_nest(data: bytes, depth: int) -> bytes:
    """The document's root element wrapped inside ``depth`` elements."""
    start = data.find(b"<nvidia_smi_log")
    if start < 0:
        start = data.find(b"<worksheet")
    if start < 0:
        return b"<a>" * depth + data + b"</a>" * depth
    return data[:start] + b"<a>" * depth + data[start:] + b"</a>" * depth


@st.composite
def broken(draw, data: bytes, kind: str) -> tuple[bytes, str]:
    """``data`` as it is, or broken in one way (``kind``: json, xml or text)."""
    how = draw(st.sampled_from(
        ["as is", "as is", "cut", "number", "number", "bytes", "encoding", "nesting",
         "lines", "empty", "repeat"]
    ))  # fmt: skip
    if how == "as is":
        return data, how
    if how == "cut":
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        return data[:at], f"cut at byte {at}"
    if how == "number":
        which, new = draw(st.integers(0, 10_000)), draw(st.sampled_from(NUMBERS))
        return _replace_number(data, which, new), f"number {which} made {new[:20]!r}"
    if how == "bytes":
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        junk = draw(st.binary(min_size=1, max_size=8))
        return data[:at] + junk + data[at + len(junk) :], f"bytes {junk!r} at {at}"
    if how == "encoding":
        enc = draw(st.sampled_from(ENCODINGS))
        return _reencode(data, enc), f"encoded {enc}"
    if how == "nesting":
        depth = draw(st.sampled_from([65, 1_000, 100_000]))
        return _nest(data, kind, depth), f"nested {depth} deep"
    if how == "lines":
        lines = data.splitlines(keepends=True)
        keep = draw(st.lists(st.booleans(), min_size=len(lines[:400]), max_size=len(lines[:400])))
        kept = [ln for ln, k in zip(lines, keep, strict=False) if k] + lines[400:]
        return b"".join(kept), "some lines dropped"
    if how == "repeat":
        times = draw(st.sampled_from([2, 50]))
        return data * times, f"the whole file {times} times"
    return draw(st.sampled_from([b"", b"\n", b"   \r\n", b"\xef\xbb\xbf"])), "empty"


# ------------------------------------------------------------------------------ calibrate

# The measured setups (tests/measure): each file with the design group it calibrates.
SETUPS = ("nim-h100", "llama-a100", "deepseek-a100", "lora-b200", "bert-b200", "bert-a100")
CALIBRATE_FILES: dict[str, str] = {
    "nim-70b-h100-tp2-c1.aiperf.json": "nim-h100",
    "nim-70b-h100-tp2-c5.aiperf.json": "nim-h100",
    "nim-70b-h100-tp2-c25.vllm.json": "nim-h100",
    "nim-70b-h100-tp2-c50.vllm.json": "nim-h100",
    "nim-70b-h100-tp2-c1.vllm.txt": "nim-h100",
    "inconsistent-70b.vllm.txt": "nim-h100",
    "mlperf-bert.mllog.txt": "bert-a100",
    "nccl-a100-8gpu.all_reduce.txt": "bert-a100",
    "real/llama33-70b-a100x8-tp8-qps04.vllm.json": "llama-a100",
    "real/llama33-70b-a100x8-tp8-qps16.vllm.json": "llama-a100",
    "real/llama33-70b-a100x8-tp8-qpsinf.vllm.json": "llama-a100",
    "real/llama33-70b-a100x8-tp8-run.vllm.txt": "llama-a100",
    "real/deepseek-v25-tp8-pp2-qps04.vllm.json": "llama-a100",
    "real/genai-perf-trtllm-c100-streaming.genai_perf.json": "nim-h100",
    "real/mlperf-bert-b200x8.mllog.txt": "bert-b200",
    "real/mlperf-bert-b200x8-run1.mllog.txt": "bert-b200",
    "real/mlperf-llama2-70b-lora-b200x8.mllog.txt": "lora-b200",
    "real/mlperf-llama2-70b-lora-b200x8-run1.mllog.txt": "lora-b200",
    "real/nccl-a100x8-1host.all_reduce.txt": "bert-a100",
    "real/nccl-a100x16-2hosts.all_reduce.txt": "bert-a100",
}


def setup_design(setup: str) -> tuple[dict[str, Any], str]:
    """The design and group a setup's files calibrate (the tests' own, in tests/measure)."""
    from tests.measure import test_fit as fit
    from tests.measure import test_real_files as real

    designs = {
        "nim-h100": (fit._design(), fit.GROUP),
        "llama-a100": (real.A100_LLAMA, real.LLAMA),
        "deepseek-a100": (real.A100_LLAMA, real.LLAMA),
        "lora-b200": (real.LORA_B200, real.LORA),
        "bert-b200": (real.BERT_B200, real.BERT),
        "bert-a100": (real.BERT_A100, real.BERT),
    }
    return designs[setup]


def _kind_of(name: str) -> str:
    return "json" if name.endswith(".json") else "text"


# Built from the layouts the parsers read (each tool's own source, quoted in wizard/measure/parse_*.py), with
# drawn figures of any type.
_ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.sampled_from([float("nan"), float("inf"), 1e308, -1.0, 0])
    | st.integers(-(10**30), 10**30) | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12,
)  # fmt: skip
_VLLM_KEYS = ["completed", "total_input_tokens", "total_output_tokens", "duration",
              "request_throughput", "output_throughput", "mean_ttft_ms", "median_ttft_ms",
              "mean_tpot_ms", "mean_itl_ms", "max_concurrency", "request_rate", "model_id",
              "date", "backend", "num_prompts", "input_lens", "output_lens", "ttfts", "itls",
              "gpu", "tensor_parallel_size", "mean_e2el_ms"]  # fmt: skip


@st.composite
def vllm_json(draw) -> bytes:
    doc = json.loads(_read(MEASUREMENTS / "nim-70b-h100-tp2-c25.vllm.json"))
    for key in draw(st.lists(st.sampled_from(_VLLM_KEYS), max_size=4, unique=True)):
        if draw(st.booleans()):
            doc[key] = draw(_ANY_JSON)
        else:
            doc.pop(key, None)
    lines = draw(st.integers(1, 3))
    return "\n".join([json.dumps(doc, allow_nan=True)] * lines).encode()


_VLLM_LABELS = ["Successful requests", "Benchmark duration (s)", "Total input tokens",
                "Total generated tokens", "Request throughput (req/s)",
                "Output token throughput (tok/s)", "Mean TTFT (ms)", "Mean TPOT (ms)",
                "Mean ITL (ms)", "Maximum request concurrency"]  # fmt: skip


@st.composite
def vllm_text(draw) -> bytes:
    cell = st.sampled_from(NUMBERS) | st.floats(allow_nan=True).map(repr)
    rows = [f"{label}: {draw(cell)}" for label in _VLLM_LABELS if draw(st.booleans())]
    body = "\n".join(["============ Serving Benchmark Result ============", *rows, "=" * 50])
    return body.encode()


@st.composite
def nccl_text(draw) -> bytes:
    head = "# nccl-tests version 2.13.8\n#  Rank  0 Group  0 Pid 1 on host device  0 [0x07] " \
           "NVIDIA A100-SXM4-40GB\n#       size   count   type   redop  root   time  algbw  " \
           "busbw #wrong   time  algbw  busbw #wrong\n"  # fmt: skip
    cell = st.sampled_from([*NUMBERS, "N/A"]) | st.integers(0, 2**40).map(str)
    rows = []
    for _ in range(draw(st.integers(0, 6))):
        rows.append("  ".join([draw(cell), draw(cell), "float", "sum", "-1",
                               *(draw(cell) for _ in range(8))]))  # fmt: skip
    return (head + "\n".join(rows) + "\n# Avg bus bandwidth    : 1.0\n").encode()


@st.composite
def mllog_text(draw) -> bytes:
    keys = ["submission_platform", "global_batch_size", "train_samples", "run_start",
            "run_stop", "samples_count", "epoch_num", "eval_accuracy", "gradient_accumulation_steps"]  # fmt: skip
    lines = []
    t = 1_700_000_000_000
    for _ in range(draw(st.integers(1, 8))):
        key = draw(st.sampled_from(keys))
        value = draw(_ANY_JSON)
        meta = draw(st.sampled_from([{}, {"status": "success"}, {"samples_count": 1000},
                                     {"samples_count": draw(_ANY_JSON)}]))  # fmt: skip
        t += draw(st.integers(-(10**6), 10**9))
        rec = {"namespace": "", "time_ms": t, "event_type": "POINT_IN_TIME", "key": key,
               "value": value, "metadata": meta}  # fmt: skip
        lines.append(":::MLLOG " + json.dumps(rec, allow_nan=True))
    return "\n".join(lines).encode()


@st.composite
def export_csv(draw) -> bytes:
    metrics = ["Time To First Token (ms)", "Inter Token Latency (ms)",
               "Output Token Throughput (tokens/sec)", "Request Throughput (per sec)",
               "Request Latency (ms)", "Output Sequence Length (tokens)"]  # fmt: skip
    cell = st.sampled_from([*NUMBERS, "N/A", "1,234.5"]) | st.floats().map(repr)
    rows = ["Metric,avg,min,max,p99,p90,p75,std"]
    for m in draw(st.lists(st.sampled_from(metrics), max_size=6, unique=True)):
        rows.append(",".join([m, *(draw(cell) for _ in range(7))]))
    return "\n".join(rows).encode()


@st.composite
def calibrate_files(draw) -> tuple[list[Drawn], str]:
    """One to three benchmark files and the setup they are run against: real files (broken or
    not) and files built in each format's layout."""
    setup = None
    out = []
    for _ in range(draw(st.integers(1, 3))):
        source = draw(st.sampled_from(["real", "real", "real", "built"]))
        if source == "real":
            rel = draw(st.sampled_from(sorted(CALIBRATE_FILES)))
            setup = setup or CALIBRATE_FILES[rel]
            data, how = draw(broken(_read(MEASUREMENTS / rel), _kind_of(rel)))
            out.append(Drawn(Path(rel).name, data, f"{rel}: {how}"))
        else:
            fmt = draw(st.sampled_from(["vllm.json", "vllm.txt", "nccl.txt", "mllog.txt",
                                        "export.csv"]))  # fmt: skip
            build = {"vllm.json": vllm_json, "vllm.txt": vllm_text, "nccl.txt": nccl_text,
                     "mllog.txt": mllog_text, "export.csv": export_csv}[fmt]  # fmt: skip
            out.append(Drawn(f"built{len(out)}.{fmt}", draw(build()), f"built {fmt}"))
    if setup is None or draw(st.integers(0, 5)) == 0:  # sometimes another setup's design
        setup = draw(st.sampled_from(SETUPS))
    names = [d.name for d in out]
    if len(set(names)) < len(names):  # same name twice: one folder per file keeps both
        out = [Drawn(f"{k}-{d.name}", d.data, d.how) for k, d in enumerate(out)]
    return out, setup


# ------------------------------------------------------------------------------ estate imports

ESTATE_FILES = sorted(p.name for p in ESTATE.iterdir() if p.name != "SOURCES.md")


def _xlsx_members(data: bytes) -> list[str]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return [i.filename for i in z.infolist() if i.filename.endswith(".xml")]


def _replace_member(data: bytes, member: str, new: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as zin, zipfile.ZipFile(out, "w") as zout:
        for info in zin.infolist():
            body = new if info.filename == member else zin.read(info.filename)
            zout.writestr(info, body, compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


@st.composite
def workbook(draw, name: str) -> tuple[bytes, str]:
    data = _read(ESTATE / name)
    where = draw(st.sampled_from(["member", "member", "whole"]))
    if where == "whole":
        return draw(broken(data, "text"))
    members = [m for m in _xlsx_members(data) if "sheet" in m or "sharedStrings" in m]
    member = draw(st.sampled_from(members))
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        body = z.read(member)
    new, how = draw(broken(body, "xml"))
    return _replace_member(data, member, new), f"{member}: {how}"


INVENTORY_CELLS = {
    "Record": ["host", "gpu", "vm", "HOST", "", "disk", "=cmd|' /C calc'!A0"],
    "Sockets": ["2", "0", "-1", "1e999", "nan", "inf", "9" * 400, "two", ""],
    "Cores": ["64", "1e308", "-0", "", "NaN"],
    "MemoryMiB": ["2097152", "1e999", "-1", "", "0.5"],
    "GpuMemoryMiB": ["81920", "1e999", "nan", "", "-81920"],
    "MMIOSizeGB": ["256", "1e999", "inf", "", "x"],
    "Use64bitMMIO": ["True", "False", "yes", ""],
    "GpuName": ["NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-40GB", "", "\x1b[2J", "é" * 300],
    "VgpuType": ["grid_h100-80c", "nvidia_h100-4c", "", "grid_" + "x" * 500],
}


@st.composite
def inventory_csv(draw) -> bytes:
    from wizard.estate_import.powercli import COLUMNS

    columns = list(COLUMNS)
    if draw(st.integers(0, 5)) == 0:
        columns.remove(draw(st.sampled_from(columns[3:])))
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
    writer.writerow(columns)
    for k in range(draw(st.integers(0, 6))):
        row = []
        for c in columns:
            options = INVENTORY_CELLS.get(c, [f"{c.lower()}{k}", "", 'a,b"c'])
            row.append(draw(st.sampled_from(options)))
        writer.writerow(row)
    return out.getvalue().encode()


@st.composite
def estate_files(draw) -> list[Drawn]:
    """One to three estate files: the real exports, broken or not, and inventory CSVs."""
    out = []
    for k in range(draw(st.integers(1, 3))):
        pick = draw(st.sampled_from([*ESTATE_FILES, "inventory.csv", "inventory.csv"]))
        if pick == "inventory.csv":
            data = draw(inventory_csv())
            data, how = draw(broken(data, "text"))
            out.append(Drawn(f"{k}-inventory.csv", data, f"inventory CSV: {how}"))
        elif pick.endswith(".xlsx"):
            data, how = draw(workbook(pick))
            out.append(Drawn(f"{k}-{pick}", data, f"{pick}: {how}"))
        else:
            kind = "xml" if pick.endswith(".xml") else "text"
            data, how = draw(broken(_read(ESTATE / pick), kind))
            out.append(Drawn(f"{k}-{pick}", data, f"{pick}: {how}"))
    return out


# ------------------------------------------------------------------------------ user catalogs

CATALOG_FILES = sorted(p.name for p in CATALOGS.glob("*.toml"))
_TEXT_LINE = re.compile(rb'^(?P<key>[a-z_0-9]+) = "(?P<value>[^"\n]*)"$', re.M)
STRINGS = ["", " ", "\x1b[31m", "\u202e", "a\x00b", "\ud800", "x" * 100_000, "'; rm -rf ~ #",
           "$(Get-Process)", "</para><font size=99>", "=HYPERLINK(\"x\")", "\ufffe"]  # fmt: skip


def _toml_string(s: str) -> bytes:
    escaped = s.encode("utf-8", "surrogatepass").decode("utf-8", "backslashreplace")
    return json.dumps(escaped).encode("utf-8")


@st.composite
def catalog_file(draw) -> Drawn:
    """One shipped catalog file as a user's: a number at or past its field's bounds (the
    schema's own), a text of the text gate's refusals, a value of another type, or the file
    broken as bytes."""
    how = draw(st.sampled_from(["bound", "bound", "text", "type", "bytes"]))
    if how == "bound":
        kind, index, key, schema = draw(st.sampled_from(CASES))
        inside, outside = _legal_and_illegal(schema)
        value = draw(inside | st.sampled_from(outside)) if outside else draw(inside)
        entry = _entries(kind)[index]
        head = _top_level(entry)
        new = re.sub(rf"^{key} = .*$", f"{key} = {_format(value)}", head, count=1, flags=re.M)
        return Drawn(f"{kind}.toml", (new + entry[len(head) :]).encode(), f"{key} = {value!r}")
    name = draw(st.sampled_from(CATALOG_FILES))
    data = _read(CATALOGS / name)
    if how == "text":
        found = list(_TEXT_LINE.finditer(data))
        m = found[draw(st.integers(0, len(found) - 1))]
        s = draw(st.sampled_from(STRINGS))
        data = data[: m.start("value") - 1] + _toml_string(s) + data[m.end("value") + 1 :]
        return Drawn(name, data, f"{m['key'].decode()} = {s[:20]!r}")
    if how == "type":
        new = draw(st.sampled_from(["[]", "{}", "true", '"12"', "nan", "inf", "-inf", "1e999",
                                    "9" * 5000, "[[[[[[[[1]]]]]]]]", "1979-05-27"]))  # fmt: skip
        which = draw(st.integers(0, 10_000))
        return Drawn(name, _replace_number(data, which, new), f"number {which} made {new[:20]}")
    data, what = draw(broken(data, "text"))
    return Drawn(name, data, what)


# ------------------------------------------------------------------------------ output paths

# Where -o may point, as the test builds it: a fresh name, a file the command reads (by path,
# symlink or hard link), standard output, a name no file system takes, a control character, a
# missing folder, a folder, a file standing where a folder should, a device.
TARGETS = ["fresh", "fresh", "existing", "input", "input-symlink", "input-hardlink",
           "catalog", "catalog-symlink", "catalog-hardlink", "dash", "dev-stdout", "long-name",
           "long-path", "control", "missing-folder", "folder", "file-as-folder", "dev-null",
           "unicode", "dot-dot"]  # fmt: skip


# ------------------------------------------------------------------------------ price lists

SAMPLE_PRICES = ROOT / "resources" / "examples" / "prices-sample.toml"
PRICE_ITEMS = ["server:dell-xe9680", "gpu:h100-sxm5-80gb", "gpu:h200-sxm-141gb", "MQM9700-NS2F",
               "licence:nvidia-ai-enterprise", "nic:cx7-ndr-1p", "server:DELL-XE9680", ""]  # fmt: skip
PRICES = ["0", "-0", "1", "99999.99", "1e12", "1.0000001e12", "-1", "nan", "inf", "1e999",
          "9" * 5000, "5e-324", "twelve", "1,000", ""]  # fmt: skip


@st.composite
def price_list(draw) -> Drawn:
    """The sample price list (TOML) broken one way, or a CSV price list of drawn rows: prices at
    and past the bound (0 to 10^12), items written two ways, currencies mixed or malformed."""
    if draw(st.booleans()):
        data, how = draw(broken(_read(SAMPLE_PRICES), "text"))
        return Drawn("prices.toml", data, f"sample price list: {how}")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(draw(st.sampled_from([["item", "unit_price", "currency"],
                                          ["Item", "Unit_Price"], ["sku", "price", "cur"]])))  # fmt: skip
    rows = draw(st.lists(st.tuples(st.sampled_from(PRICE_ITEMS), st.sampled_from(PRICES),
                                   st.sampled_from(["EUR", "EUR", "USD", "eur", "", "€"])),
                         max_size=6))  # fmt: skip
    for row in rows:
        writer.writerow(row[: draw(st.sampled_from([3, 3, 2]))])
    return Drawn("prices.csv", out.getvalue().encode(), f"CSV price list {rows}")
