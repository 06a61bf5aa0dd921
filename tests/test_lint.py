"""Lint, format and type checks are part of the test command, so CI fails on any of them."""

import importlib.util
import shutil
import subprocess
import sys

import pytest

from tests.conftest import ROOT


def _ruff() -> list[str]:
    exe = shutil.which("ruff", path=str(ROOT / ".venv" / "bin")) or shutil.which("ruff")
    if exe is None:
        pytest.fail("ruff is not installed; it is a test dependency (pip install -e '.[test]')")
    return [exe]


@pytest.mark.parametrize("args", [["check", "."], ["format", "--check", "."]])
def test_ruff(args):
    proc = subprocess.run([*_ruff(), *args], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy():
    """mypy over the files [tool.mypy] names; a clean clone runs it cold in about 15 s."""
    if importlib.util.find_spec("mypy") is None:
        pytest.fail("mypy is not installed; it is a test dependency (pip install -e '.[test]')")
    proc = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_python_version_supported():
    assert sys.version_info >= (3, 11)
