"""Every command on every file of the hostile-input corpus (``corpus.py``, about 200 files):
exit 0 or 2 with one line per problem, never exit 1; no file opened beyond the design, the
outputs, the bundled data and Python's own; no formula cell in a bill of materials; no control
character reaching the terminal; and every design that validates renders its proposal."""

from __future__ import annotations

import mimetypes
import multiprocessing
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from tests.hardening.corpus import TEXTS, Run, run_file, warm_up, write_corpus

ROOT = Path(__file__).resolve().parents[2]
# Where a command may read: the corpus file and its outputs (added per run), the bundled
# catalogs, fonts and code, Python and its packages, the system's MIME table (read by the
# standard library when a library asks for a file type) and reportlab's own settings in the
# user's home (looked for when it is imported, whatever the design holds).
ALLOWED_ROOTS = [ROOT / "wizard", ROOT / "reports", ROOT / "catalogs", ROOT / "resources",
                 Path(sys.prefix), Path(sys.base_prefix), Path(sys.exec_prefix)]  # fmt: skip
ALLOWED_FILES = {Path(p) for p in mimetypes.knownfiles} | {
    Path.home() / ".reportlab_mods",
    Path.home() / ".reportlab_settings",
}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> tuple[list[Path], Path, list[Run]]:
    base = tmp_path_factory.mktemp("corpus")
    canary = base / "private" / "private.png"
    canary.parent.mkdir()
    canary.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 64)  # a file that must never be opened
    files = write_corpus(base / "files", canary)
    # the files are independent: two fresh processes (this machine's two cores) run them, each
    # with its own record of the files opened; the bill checks run where the bill was written
    jobs = [(path, base / "out" / path.stem) for path in files]
    context = multiprocessing.get_context("spawn")  # no fork of a process that holds Qt
    with ProcessPoolExecutor(2, mp_context=context, initializer=warm_up) as pool:
        runs = [run for runs in pool.map(run_file, jobs) for run in runs]
    return files, canary, runs


def test_the_corpus_is_large_and_covers_each_kind(corpus):
    files, _, _ = corpus
    assert len(files) >= 150
    names = {p.stem for p in files}
    for kind in TEXTS:  # every hostile text in every text field
        assert sum(1 for n in names if n.startswith("text-") and n.endswith(kind)) == 5, kind
    assert sum(1 for n in names if n.startswith("number-")) >= 30
    assert {"dup-key-workloads", "deep-nesting", "utf16", "groups-200-long-names"} <= names


def test_no_command_fails_with_an_internal_error(corpus):
    _, _, runs = corpus
    bad = [(r.file.name, r.command, r.code, r.stderr[-300:]) for r in runs if r.code not in (0, 2)]
    assert bad == []
    for r in runs:
        assert "Traceback" not in r.stderr and "internal error" not in r.stderr, r.file.name
        if r.code == 2:
            lines = r.stderr.splitlines()
            assert lines and all(line.startswith("error: ") for line in lines), r.stderr


def test_no_file_is_opened_that_the_user_did_not_name(corpus):
    _, canary, runs = corpus
    for r in runs:
        out = r.file.parent.parent / "out" / r.file.stem
        for opened in r.opened:
            path = Path(opened)
            assert path != canary, (r.file.name, r.command)
            if not path.is_absolute():
                continue  # relative to the working folder: Python's own imports
            inside = path in (r.file, *ALLOWED_FILES) or any(
                path.is_relative_to(root) for root in (out, *ALLOWED_ROOTS)
            )
            assert inside, (r.file.name, r.command, opened)


def test_no_control_character_reaches_the_terminal(corpus):
    """ESC, BEL, backspace, carriage return or NUL in what a command prints would let a
    design file clear the screen, fake a line or open a link (a tab only moves the cursor
    right, and is kept)."""
    _, _, runs = corpus
    for r in runs:
        for text in (r.stdout, r.stderr):
            bad = [c for c in text if (ord(c) < 32 and c not in "\n\t") or 127 <= ord(c) < 160]
            assert bad == [], (r.file.name, r.command, bad[:5])


def test_every_design_that_validates_renders_and_writes_its_bom(corpus):
    _, _, runs = corpus
    by_file: dict[Path, dict[str, Run]] = {}
    for r in runs:
        by_file.setdefault(r.file, {})[r.command] = r
    valid = [f for f, rs in by_file.items() if rs["validate"].code == 0]
    assert len(valid) >= 100  # most of the corpus is valid, so the hostile part reaches the PDF
    for f in valid:
        for command in ("size", "size-json", "report", "bom-csv", "bom-xlsx"):
            assert by_file[f][command].code == 0, (f.name, command, by_file[f][command].stderr)
