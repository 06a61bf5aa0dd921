"""Never lose a design: a save killed mid-write, a full disk, a read-only file or folder each
leave the previous file intact and valid, and the design in memory unchanged."""

from __future__ import annotations

import errno
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT
from wizard.app import io as design_io
from wizard.app.io import design_from_text, load_design, save_design
from wizard.base.bundled import example_text
from wizard.base.errors import DesignError

SAVER = textwrap.dedent(
    """
    import sys
    from wizard.base.bundled import example_text
    from wizard.app.io import design_from_text, save_design

    base = design_from_text(example_text("enterprise"))
    # A large design (about 1 MB) so that a save takes long enough to be interrupted.
    notes = "x" * 20_000
    groups = [
        g.model_copy(update={"name": f"{g.name} {n}"})
        for n in range(40) for g in base.workloads
    ]
    n = 0
    while True:
        project = base.project.model_copy(update={"notes": f"save {n} " + notes[: n % 20_000]})
        save_design(base.model_copy(update={"project": project, "workloads": groups}), sys.argv[1])
        n += 1
        if n == 3:
            print("saving", flush=True)
    """
)


def _valid_and_large(path: Path) -> int:
    design = load_design(path)  # raises if the file is torn
    assert len(design.workloads) == 200
    return int(design.project.notes.split()[1])


def test_killing_a_save_mid_write_leaves_the_previous_file(tmp_path):
    path = tmp_path / "design.json"
    rng = random.Random(8)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    last = -1
    for kill in range(60):  # at least 12 kills, and on until one lands inside a save
        if kill >= 12 and any(p.name != "design.json" for p in tmp_path.iterdir()):
            break
        proc = subprocess.Popen(
            [sys.executable, "-c", SAVER, str(path)], stdout=subprocess.PIPE, env=env, text=True
        )
        try:
            assert proc.stdout is not None
            assert proc.stdout.readline().strip() == "saving"
            time.sleep(rng.uniform(0, 0.2))  # somewhere inside a save, most of the time
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        assert proc.returncode == -signal.SIGKILL
        saved = _valid_and_large(path)
        assert saved >= 2  # one of the completed saves, whole
        last = saved
    assert last >= 2
    leftovers = [p.name for p in tmp_path.iterdir() if p.name != "design.json"]
    # A killed save can leave its temporary file (hidden, beside the target); never a torn target.
    assert all(n.startswith(".design.json.") and n.endswith(".tmp") for n in leftovers)
    print(f"{len(leftovers)} of {kill + 1} kills landed inside a save")
    assert leftovers, "no kill landed inside a save, so the test proved nothing"


@pytest.fixture
def saved(tmp_path):
    design = design_from_text(example_text("enterprise"))
    path = tmp_path / "design.json"
    save_design(design, path)
    return design, path, path.read_bytes()


def _changed(design):
    return design.model_copy(update={"workloads": design.workloads[:1]})


def _only_the_design(path: Path) -> None:
    assert [p.name for p in path.parent.iterdir()] == [path.name]


def test_a_full_disk_mid_write_keeps_the_old_file(saved, monkeypatch):
    design, path, before = saved
    real_fdopen = os.fdopen

    class FullDisk:
        def __init__(self, handle):
            self.handle = handle

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

        def write(self, data):
            self.handle.write(data[: len(data) // 2])  # half written, then the disk is full
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(design_io.os, "fdopen", lambda fd, mode: FullDisk(real_fdopen(fd, mode)))
    edited = _changed(design)
    snapshot = edited.model_dump()
    with pytest.raises(DesignError) as info:
        save_design(edited, path)
    (line,) = info.value.problems
    assert line == f"{path}: cannot be written: No space left on device"
    assert path.read_bytes() == before and load_design(path) == design
    _only_the_design(path)
    assert edited.model_dump() == snapshot  # the design in memory is untouched


def test_a_failing_flush_to_disk_keeps_the_old_file(saved, monkeypatch):
    design, path, before = saved

    def broken_fsync(fd):
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(design_io.os, "fsync", broken_fsync)
    with pytest.raises(DesignError, match="Input/output error"):
        save_design(_changed(design), path)
    assert path.read_bytes() == before
    _only_the_design(path)


def test_a_read_only_file_system_is_a_clear_error(saved, monkeypatch):
    design, path, before = saved

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(design_io.tempfile, "mkstemp", read_only)
    with pytest.raises(DesignError) as info:
        save_design(_changed(design), path)
    assert info.value.problems == [f"{path}: cannot be written: Read-only file system"]
    assert path.read_bytes() == before


def test_a_read_only_file_is_not_replaced(saved):
    """A rename would replace a read-only file silently; the file's protection is honoured."""
    design, path, before = saved
    path.chmod(0o444)
    try:
        with pytest.raises(DesignError) as info:
            save_design(_changed(design), path)
    finally:
        path.chmod(0o644)
    assert info.value.problems == [f"{path}: cannot be written: the file is read-only"]
    assert path.read_bytes() == before
    _only_the_design(path)


def test_saving_into_a_missing_folder_is_a_clear_error(tmp_path):
    design = design_from_text(example_text("starter"))
    with pytest.raises(DesignError, match="cannot be written: No such file or directory"):
        save_design(design, tmp_path / "gone" / "d.json")
    assert list(tmp_path.iterdir()) == []


def test_the_cli_does_not_overwrite_a_read_only_output(tmp_path):
    from tests.conftest import run_cli

    out = tmp_path / "d.json"
    out.write_text("keep me", encoding="utf-8")
    out.chmod(0o444)
    try:
        proc = run_cli("example", "starter", "-o", str(out))
    finally:
        out.chmod(0o644)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip() == f"error: {out}: cannot be written: the file is read-only"
    assert out.read_text() == "keep me"
