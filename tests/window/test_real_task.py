"""The chat-and-LoRA task, the click right after typing and the undo keys in a text field, in
a real X11 window under a window manager (openbox), where focus, activation and drop-down lists
behave as on a desktop rather than as on the offscreen platform. Run by `make test-window`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from tests.conftest import ROOT

TESTS = [
    "tests/gui/test_task_walkthrough.py",
    "tests/gui/test_click_after_typing.py",
    "tests/gui/test_text_undo.py",
]


@pytest.mark.real_window
def test_the_task_its_clicks_and_its_keys_in_a_real_window(tmp_path):
    assert shutil.which("xvfb-run") and shutil.which("openbox"), (
        "needs xvfb-run and openbox: apt-get install xvfb xauth openbox"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY")}
    env.update(QT_QPA_PLATFORM="xcb", PYTHONPATH=str(ROOT), HOME=str(tmp_path),
               XDG_CONFIG_HOME=str(tmp_path / "c"))  # fmt: skip
    run = f"openbox & sleep 1; exec {sys.executable} -m pytest -q -p no:cacheprovider " + " ".join(
        TESTS
    )
    done = subprocess.run(
        ["xvfb-run", "-a", "-s", "-screen 0 1366x768x24", "sh", "-c", run],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "failed" not in done.stdout
