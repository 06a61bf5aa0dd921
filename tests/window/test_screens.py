"""Every page at 1024 x 700 and at 1366 x 768, in a real X11 window under a window manager,
as the window opens on such a screen (not resized, not maximised): the window and its frame fit,
Next and the status bar show, no form is cut at the side and no table heading is cut. The PNGs
of the walk are what the small-screen pictures of docs/wizard.md show (`make screens`)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from tests.conftest import ROOT
from wizard.gui.wizard import PageId


@pytest.mark.real_window
@pytest.mark.parametrize("size", ["1024x700", "1366x768"])
def test_every_page_fits_a_small_screen(tmp_path, size):
    assert shutil.which("xvfb-run") and shutil.which("openbox"), (
        "needs xvfb-run and openbox: apt-get install xvfb xauth openbox"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY")}
    env.update(PYTHONPATH=str(ROOT), HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "c"))
    done = subprocess.run(
        ["xvfb-run", "-a", "-s", f"-screen 0 {size}x24", sys.executable,
         str(ROOT / "scripts" / "real_screens.py"), "--out", str(tmp_path / "shots"),
         "--example", "enterprise", "--example", str(ROOT / "docs" / "acme-two-clusters.json")],
        env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    shots = sorted(p.name for p in (tmp_path / "shots").glob("*.png"))
    assert len(shots) == 2 * len(PageId), shots
    assert all(f"-{size}-" in name for name in shots)
