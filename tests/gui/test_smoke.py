"""The real entry point in a subprocess (a second QApplication in one process would abort)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from tests.conftest import ROOT
from wizard.base.bundled import example_text


def test_gpuwizard_with_a_design_opens_and_keeps_running(tmp_path):
    design = tmp_path / "enterprise.json"
    design.write_text(example_text("enterprise"))
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "PYTHONPATH": str(ROOT),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "wizard", str(design)],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        time.sleep(6)
        alive = proc.poll() is None
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert alive, err
    assert "Traceback" not in err and "error" not in err.lower(), err
