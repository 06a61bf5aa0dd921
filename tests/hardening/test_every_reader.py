"""Every reader the commands have, drawn with hypothesis and run as a user runs them (a fresh
``python -m wizard`` each time): benchmark files for ``calibrate`` in each format it reads,
estate exports for ``import-estate``, user catalog entries at and past the schema's bounds, price
lists, and the paths ``-o`` may name. The rule for every command:

* exit 0 with a valid output (a design that loads, JSON without NaN, a CSV with its header, a
  workbook, a PDF, a Word file), or exit 2 with one ``error:`` line per problem on standard
  error and nothing written;
* never a traceback or an internal error (exit 1), never text that drives the terminal;
* never a hang: each command is killed after ``HANG_BOUND_S`` seconds and that is a failure
  (the slowest real case, a proposal or a 1 MB vLLM file, takes a few seconds);
* never an input changed: every file of the run's folder (the design, the files read, the
  catalog folder) hashes the same after the run, the output alone aside.

Depth: the ``ci`` profile (tests/hardening/conftest.py) draws ``CI_EXAMPLES`` per property so
``make test`` stays within a minute or two; ``HYPOTHESIS_PROFILE=deep`` draws the profile's
2,000 each (``READER_EXAMPLES=N`` sets another count, ``HYPOTHESIS_SEED`` a seed for chunks)."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.hardening import reader_inputs as ri

HANG_BOUND_S = 60
CI_EXAMPLES = 12
_EXAMPLES = os.environ.get("READER_EXAMPLES")
_DEEP = os.environ.get("HYPOTHESIS_PROFILE") == "deep"
depth = settings(
    max_examples=int(_EXAMPLES)
    if _EXAMPLES
    else (settings().max_examples if _DEEP else CI_EXAMPLES)
)


# ------------------------------------------------------------------------------ running


def _run(argv: list[str], cwd: Path, env: dict[str, str] | None = None):
    full = {**os.environ, **(env or {})}
    try:
        return subprocess.run(
            [sys.executable, "-m", "wizard", *argv], capture_output=True, cwd=cwd, env=full,
            timeout=HANG_BOUND_S,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        raise AssertionError(f"hang: {argv} still ran after {HANG_BOUND_S} s") from None


def _hashes(folder: Path) -> dict[str, str]:
    out = {}
    for root, _dirs, files in os.walk(folder):
        for f in files:
            p = Path(root) / f
            if p.is_file() and not p.is_symlink():
                out[str(p.relative_to(folder))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


_CONTROL = {chr(c) for c in [*range(0x20), 0x7F, *range(0x80, 0xA0)]} - {"\n", "\t"}


def _the_rule(done, argv: list[str], how: str) -> str:
    """Exit 0, or exit 2 with only ``error:`` lines; stderr is text a terminal shows as text."""
    err = done.stderr.decode("utf-8", "replace")
    said = f"{argv} on {how}: exit {done.returncode}\n{err[-2000:]}"
    assert "Traceback" not in err and "internal error" not in err, said
    assert done.returncode in (0, 2), said
    assert not _CONTROL & set(err), said
    if done.returncode == 2:
        lines = err.splitlines()
        problems = [ln for ln in lines if not ln.startswith(("note:", "wrote "))]
        assert problems, said
        for ln in problems:
            assert ln.startswith(("error: ", "not written: ")) and ln.split(": ", 1)[1].strip(), (
                said
            )
    return err


def _valid_output(path: Path, suffix: str, data: bytes | None = None) -> None:
    """The output is whole and of its format."""
    data = path.read_bytes() if data is None else data
    assert data, f"{path}: empty"
    if suffix == ".json":
        json.loads(data, parse_constant=lambda c: (_ for _ in ()).throw(AssertionError(c)))
    elif suffix == ".design":
        from wizard.app.io import design_from_text

        design_from_text(data.decode("utf-8"), str(path))
    elif suffix == ".csv":
        rows = list(csv.reader(io.StringIO(data.decode("utf-8"))))
        assert rows and rows[0][0] == "category", rows[:1]
    elif suffix in (".xlsx", ".docx"):
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            assert z.testzip() is None
    elif suffix == ".pdf":
        assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    else:
        data.decode("utf-8")


def _write(folder: Path, drawn: ri.Drawn) -> Path:
    path = folder / drawn.name
    path.write_bytes(drawn.data)
    return path


# ------------------------------------------------------------------------------ calibrate


@depth
@given(
    ri.calibrate_files(),
    st.sampled_from([[], ["--json"], ["--concurrency", "8"], ["--concurrency", "nan"],
                     ["--concurrency", "1e999"], ["--tp", "2"], ["--gpus", "0"],
                     ["--tolerance", "0.5"]]),
)  # fmt: skip
def test_calibrate_reads_any_benchmark_file(case, options):
    files, setup = case
    doc, group = ri.setup_design(setup)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "d.json").write_text(json.dumps(doc), encoding="utf-8")
        paths = [str(_write(folder, f)) for f in files]
        before = _hashes(folder)
        argv = ["--no-user-catalog", "calibrate", "d.json", *paths, "--group", group,
                "-o", "out.json", *options]  # fmt: skip
        how = "; ".join(f.how for f in files)
        done = _run(argv, folder)
        _the_rule(done, argv, how)
        out = folder / "out.json"
        if done.returncode == 0:
            _valid_output(out, ".design")
            if "--json" in options:
                _valid_output(out, ".json", done.stdout)
        else:
            assert not out.exists(), how
        after = _hashes(folder)
        after.pop("out.json", None)
        assert after == before, f"an input changed: {how}"


# ------------------------------------------------------------------------------ estate imports


@depth
@given(ri.estate_files(), st.booleans())
def test_import_estate_reads_any_export(files, as_json):
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        paths = [str(_write(folder, f)) for f in files]
        before = _hashes(folder)
        argv = ["--no-user-catalog", "import-estate", *paths]
        argv += ["--json", "out.json"] if as_json else []
        how = "; ".join(f.how for f in files)
        done = _run(argv, folder)
        err = _the_rule(done, argv, how)
        assert not _CONTROL & set(done.stdout.decode("utf-8", "replace")), how
        out = folder / "out.json"
        if done.returncode == 0:
            if as_json:
                _valid_output(out, ".json")
        else:
            assert not out.exists(), how
            # a file's refusal names the file
            assert any(p in err for p in paths), (how, err)
        after = _hashes(folder)
        after.pop("out.json", None)
        assert after == before, f"an input changed: {how}"


# ------------------------------------------------------------------------------ user catalogs

# Commands that read the catalog, with their output's suffix (None: standard output).
CATALOG_COMMANDS: list[tuple[list[str], str | None]] = [
    (["validate", "d.json"], None),
    (["size", "d.json", "--json"], ".json"),
    (["bom", "d.json", "-o", "out.csv"], ".csv"),
    (["vsphere-steps", "d.json", "-o", "out.ps1"], ".ps1"),
    (["catalog", "gpus", "--json"], ".json"),
    (["catalog", "servers"], None),
    (["mig-config", "d.json", "-o", "out.yaml"], ".yaml"),
    (["recommend", "d.json", "-o", "out.json"], ".design"),
    (["report", "d.json", "--date", "2026-01-02", "-o", "out.pdf"], ".pdf"),
    (["import-estate", "smi.xml", "--json", "out.json"], ".json"),
]


@depth
@given(
    ri.catalog_file(),
    st.sampled_from(CATALOG_COMMANDS),
    st.sampled_from(["hgx-h200-llm", "enterprise", "mig-shared", "rtx-pro-vsphere"]),
    st.booleans(),
)
def test_any_user_catalog_entry(drawn, command, example, by_env):
    from wizard.base.bundled import example_text

    argv_tail, suffix = command
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cat = folder / "cat"
        cat.mkdir()
        _write(cat, drawn)
        (folder / "d.json").write_text(example_text(example), encoding="utf-8")
        (folder / "smi.xml").write_bytes((ri.ESTATE / "nvidia-smi-tesla-p100.xml").read_bytes())
        before = _hashes(folder)
        if by_env:  # the default user folder, here named by the environment
            argv, env = argv_tail, {"GPUWIZARD_CATALOG_DIR": str(cat)}
        else:
            argv, env = ["--no-user-catalog", "--catalog-dir", str(cat), *argv_tail], None
        done = _run(argv, folder, env)
        err = _the_rule(done, argv, drawn.how)
        outputs = [a for a in argv_tail if a.startswith("out.")]
        if done.returncode == 0 and suffix is not None:
            _valid_output(folder / outputs[0] if outputs else folder / "-", suffix,
                          None if outputs else done.stdout)  # fmt: skip
        elif done.returncode == 2:
            assert not any((folder / o).exists() for o in outputs), drawn.how
            assert "error: " in err
        after = _hashes(folder)
        for o in outputs:
            after.pop(o, None)
        assert after == before, f"an input changed: {drawn.how}"


# ------------------------------------------------------------------------------ price lists

PRICE_COMMANDS: list[tuple[list[str], str | None]] = [
    (["bom", "d.json", "-o", "out.csv"], ".csv"),
    (["bom", "d.json", "-o", "out.xlsx"], ".xlsx"),
    (["cost", "d.json", "--json"], ".json"),
    (["compare", "d.json", "--json"], ".json"),
]


@depth
@given(ri.price_list(), st.sampled_from(PRICE_COMMANDS))
def test_any_price_list(drawn, command):
    from wizard.base.bundled import example_text

    argv_tail, suffix = command
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "d.json").write_text(example_text("hgx-h200-llm"), encoding="utf-8")
        prices = _write(folder, drawn)
        before = _hashes(folder)
        argv = ["--no-user-catalog", *argv_tail, "--prices", str(prices)]
        done = _run(argv, folder)
        _the_rule(done, argv, drawn.how)
        outputs = [a for a in argv_tail if a.startswith("out.")]
        if done.returncode == 0:
            _valid_output(folder / outputs[0] if outputs else folder / "-", str(suffix),
                          None if outputs else done.stdout)  # fmt: skip
        else:
            assert not any((folder / o).exists() for o in outputs), drawn.how
        after = _hashes(folder)
        for o in outputs:
            after.pop(o, None)
        assert after == before, f"an input changed: {drawn.how}"


# ------------------------------------------------------------------------------ output paths

# (argv before -o, output suffix, whether the format is text, the inputs it reads by name)
OUTPUT_COMMANDS: dict[str, tuple[list[str], str, bool, list[str]]] = {
    "bom csv": (["bom", "d.json", "--prices", "prices.toml"], ".csv", True, ["d.json", "prices.toml"]),
    "bom xlsx": (["bom", "d.json"], ".xlsx", False, ["d.json"]),
    "report pdf": (["report", "d.json", "--date", "2026-01-02"], ".pdf", False, ["d.json"]),
    "report docx": (["report", "d.json", "--date", "2026-01-02"], ".docx", False, ["d.json"]),
    "vsphere-steps": (["vsphere-steps", "d.json"], ".ps1", True, ["d.json"]),
    "mig-config": (["mig-config", "d.json"], ".yaml", True, ["d.json"]),
    "recommend": (["recommend", "d.json"], ".design", True, ["d.json"]),
    "calibrate": (["calibrate", "nim.json", "c25.vllm.json", "--group", "GROUP"], ".design",
                  True, ["nim.json", "c25.vllm.json"]),
    "example": (["example", "starter"], ".design", True, []),
    "import-estate json": (["import-estate", "smi.xml", "--json"], ".json", True, ["smi.xml"]),
}  # fmt: skip
_OPTION = {"import-estate json": None}  # the option that names the output, where not -o


def _target(kind: str, folder: Path, suffix: str, inputs: list[str], draw) -> tuple[str, bool]:
    """The path to name and whether it must be refused."""
    ext = ".json" if suffix == ".design" else suffix
    if kind == "fresh":
        return str(folder / f"out{ext}"), False
    if kind == "existing":
        (folder / f"old{ext}").write_bytes(b"old")
        return str(folder / f"old{ext}"), False
    if kind == "unicode":
        return str(folder / f"Angebot für Ümit — 提案 {draw(st.integers(0, 9))}{ext}"), False
    if kind == "dot-dot":
        (folder / "sub").mkdir(exist_ok=True)
        return str(folder / "sub" / ".." / f"out{ext}"), False
    if kind.startswith(("input", "catalog")):
        if kind.startswith("input"):
            if not inputs:
                return str(folder / f"out{ext}"), False
            src = folder / draw(st.sampled_from(inputs))
        else:
            src = folder / "cat" / "gpus.toml"
        how = kind.rsplit("-", 1)[-1]
        if how == "symlink":
            link = folder / f"link{ext}"
            link.symlink_to(src)
            return str(link), True
        if how == "hardlink":
            link = folder / f"hard{ext}"
            os.link(src, link)
            return str(link), True
        return str(src), True
    if kind == "dash":
        return "-", False
    if kind == "dev-stdout":
        return "/dev/stdout", False
    if kind == "long-name":
        return str(folder / ("n" * draw(st.sampled_from([256, 1000, 5000])) + ext)), True
    if kind == "long-path":
        return str(folder / "/".join(["d" * 200] * 25) / f"out{ext}"), True
    if kind == "control":
        c = draw(st.sampled_from(["\x1b", "\n", "\r", "\x07", "\x7f", "\x9b"]))
        return str(folder / f"a{c}b{ext}"), True
    if kind == "missing-folder":
        return str(folder / "no such folder" / f"out{ext}"), True
    if kind == "folder":
        (folder / f"dir{ext}").mkdir()
        return str(folder / f"dir{ext}"), True
    if kind == "file-as-folder":
        return str(folder / "d.json" / f"out{ext}"), True
    if kind == "dev-null":  # a device (a null device made here): written in place, never replaced
        dev = folder / f"null{ext}"
        try:
            os.mknod(dev, 0o20666, os.makedev(1, 3))
        except PermissionError:  # not root: a fresh name instead
            return str(folder / f"out{ext}"), False
        return str(dev), False
    raise AssertionError(kind)


@depth
@given(st.sampled_from(sorted(OUTPUT_COMMANDS)), st.sampled_from(ri.TARGETS), st.data())
def test_any_output_path(command, kind, data):
    from tests.measure.test_fit import GROUP, _design
    from wizard.base.bundled import example_text

    head, suffix, text, inputs = OUTPUT_COMMANDS[command]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "cat").mkdir()
        (folder / "cat" / "gpus.toml").write_bytes((ri.CATALOGS / "gpus.toml").read_bytes())
        (folder / "d.json").write_text(example_text("hgx-h200-llm"), encoding="utf-8")
        (folder / "nim.json").write_text(json.dumps(_design()), encoding="utf-8")
        (folder / "c25.vllm.json").write_bytes(
            (ri.MEASUREMENTS / "nim-70b-h100-tp2-c25.vllm.json").read_bytes()
        )
        (folder / "smi.xml").write_bytes((ri.ESTATE / "nvidia-smi-tesla-p100.xml").read_bytes())
        prices = (ri.ROOT / "resources" / "examples" / "prices-sample.toml").read_bytes()
        (folder / "prices.toml").write_bytes(prices)
        target, refused = _target(kind, folder, suffix, inputs, data.draw)
        if kind.startswith("catalog") and command == "example":
            refused = False  # example reads no catalog; the link is then just a file it replaces
        argv = ["--catalog-dir", str(folder / "cat"),
                *[GROUP if a == "GROUP" else a for a in head]]  # fmt: skip
        argv += [target] if command == "import-estate json" else ["-o", target]
        before = _hashes(folder)
        existed = os.path.lexists(target) if len(target) < 4096 else False
        done = _run(argv, folder)
        err = _the_rule(done, argv, f"{kind} ({target[:60]!r})")
        if kind in ("dash", "dev-stdout"):
            # the bill's format follows the name: standard output takes its CSV
            suffix, text = (".csv", True) if command.startswith("bom") else (suffix, text)
            refused = not text
        if refused:
            assert done.returncode == 2, (command, kind, err)
            assert len(err.strip().splitlines()) == 1, err
            if not existed and len(target) < 4096:
                assert not os.path.lexists(target), (command, kind)
        if done.returncode == 0:
            if kind in ("dash", "dev-stdout"):
                _valid_output(folder / "-", suffix, done.stdout)
            elif kind != "dev-null":
                _valid_output(Path(target), suffix)
        after = _hashes(folder)
        if done.returncode == 0 and not refused and kind not in ("dash", "dev-stdout"):
            written = os.path.relpath(os.path.realpath(target), os.path.realpath(folder))
            after.pop(written, None)
            before.pop(written, None)
        assert after == before, f"an input changed: {command} -o {kind}"
