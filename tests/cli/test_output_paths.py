"""Where a command may write: never over a file it read (the catalog's files included, by path,
symlink or hard link), never a traceback for a name no file system takes, and ``-o -`` for
standard output where the format is text."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def design(tmp_path: Path) -> Path:
    path = tmp_path / "d.json"
    done = run_cli("example", "hgx-h200-llm", "-o", str(path))
    assert done.returncode == 0, done.stderr
    return path


@pytest.fixture()
def catalog_dir(tmp_path: Path) -> Path:
    """A user catalog folder holding a real catalog file (the shipped GPUs, read as the user's)."""
    folder = tmp_path / "cat"
    folder.mkdir()
    shutil.copy(ROOT / "catalogs" / "gpus.toml", folder / "gpus.toml")
    return folder


def _one_line_refusal(done, *words: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert all(w in lines[0] for w in words), lines[0]


SUFFIX = {"vsphere-steps": ".ps1", "bom": ".csv", "report": ".pdf"}


@pytest.mark.parametrize("command", ["vsphere-steps", "bom", "report"])
def test_an_output_never_replaces_a_catalog_file_the_command_read(
    command, design, catalog_dir, tmp_path
):
    """By its own path (the script) or through a hard link with the format's suffix (the bill,
    the proposal): the catalog file is refused as the output and left as it was."""
    target = catalog_dir / "gpus.toml"
    before = target.read_bytes()
    out = target
    if command != "vsphere-steps":
        out = tmp_path / f"gpus{SUFFIX[command]}"
        os.link(target, out)
    done = run_cli("--catalog-dir", str(catalog_dir), command, str(design), "-o", str(out))
    _one_line_refusal(done, "also an input")
    assert target.read_bytes() == before


def test_the_default_user_catalog_folder_is_an_input_too(design, catalog_dir, tmp_path):
    """No --catalog-dir: the folder the program reads by default (here named by
    GPUWIZARD_CATALOG_DIR), through a symlink."""
    link = tmp_path / "steps.ps1"
    link.symlink_to(catalog_dir / "gpus.toml")
    before = (catalog_dir / "gpus.toml").read_bytes()
    done = run_cli(
        "vsphere-steps", str(design), "-o", str(link),
        env={"GPUWIZARD_CATALOG_DIR": str(catalog_dir)},
    )  # fmt: skip
    _one_line_refusal(done, "also an input")
    assert (catalog_dir / "gpus.toml").read_bytes() == before


@pytest.mark.parametrize("command", ["bom", "report", "vsphere-steps"])
def test_a_name_longer_than_a_file_system_takes_is_refused_by_name(command, design):
    done = run_cli(command, str(design), "-o", "x" * 5000 + SUFFIX[command])
    _one_line_refusal(done, "-o", "longer than a file system takes")


def test_a_control_character_or_a_missing_folder_is_refused_by_name(design, tmp_path):
    done = run_cli("bom", str(design), "-o", str(tmp_path / "a\x1bb.csv"))
    _one_line_refusal(done, "control character", "\\x1b")
    assert not list(tmp_path.glob("a*b.csv"))
    done = run_cli("bom", str(design), "-o", str(tmp_path / "missing" / "b.csv"))
    _one_line_refusal(done, "does not exist", "missing")


@pytest.mark.parametrize("name", ["-", "/dev/stdout"])
def test_dash_writes_a_text_format_to_standard_output(name, design, tmp_path):
    done = run_cli("bom", str(design), "-o", name, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("category,item,part_number,")
    assert "wrote standard output" in done.stderr
    assert not (tmp_path / "-").exists()
    done = run_cli("vsphere-steps", str(design), "-o", name, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("# vSphere host and VM steps")


def test_a_binary_format_is_not_written_to_standard_output(design, tmp_path):
    done = run_cli("report", str(design), "-o", "-", cwd=tmp_path)
    _one_line_refusal(done, "PDF is not text")
    assert not (tmp_path / "-").exists()


def test_dash_gives_a_design_alone_on_standard_output(design, tmp_path):
    """recommend and calibrate explain what they did; with -o - the explanation goes to standard
    error, so standard output is the design and nothing else (once, the reasons came first)."""
    from wizard.app.io import design_from_text

    done = run_cli("--no-user-catalog", "recommend", str(design), "-o", "-", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    design_from_text(done.stdout, "standard output")
    assert "GPU: " in done.stderr  # the reasons, still said
    nim, group = _nim_design(tmp_path)
    run = str(ROOT / "docs" / "measurements" / "nim-70b-h100-tp2-c25.vllm.json")
    done = run_cli("--no-user-catalog", "calibrate", str(nim), run, "--group", group, "-o", "-",
                   cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    calibrated = design_from_text(done.stdout, "standard output")
    assert next(g for g in calibrated.workloads if g.name == group).calibration is not None
    # the negative case: with a file named, the report is on standard output as before
    done = run_cli("--no-user-catalog", "recommend", str(design), "-o", str(tmp_path / "r.json"))
    assert done.returncode == 0 and done.stdout.startswith("GPU: "), done.stderr


def test_a_fit_as_json_and_the_design_cannot_both_go_to_standard_output(tmp_path):
    nim, group = _nim_design(tmp_path)
    run = str(ROOT / "docs" / "measurements" / "nim-70b-h100-tp2-c25.vllm.json")
    done = run_cli("--no-user-catalog", "calibrate", str(nim), run, "--group", group, "--json",
                   "-o", "-", cwd=tmp_path)  # fmt: skip
    _one_line_refusal(done, "--json and -o -", "both would go to standard output")
    assert done.stdout == ""


def _nim_design(tmp_path: Path) -> tuple[Path, str]:
    """The design of NVIDIA's published NIM runs (tests/measure/test_fit.py)."""
    import json

    from tests.measure.test_fit import GROUP, _design

    path = tmp_path / "nim.json"
    path.write_text(json.dumps(_design()), encoding="utf-8")
    return path, GROUP
