"""The program starts in a real X11 window through Qt's xcb platform plugin: a system library
the plugin needs and the machine lacks fails here, in CI, instead of at a user's first start.
Run by `make test-window` under Xvfb."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from tests.conftest import ROOT

SHOW = textwrap.dedent(
    """
    import sys
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication
    app = QApplication(sys.argv[:1])
    tries = []

    def check():
        from wizard.gui.main_window import MainWindow
        windows = [w for w in app.topLevelWidgets() if isinstance(w, MainWindow)]
        if windows and windows[0].isVisible() and windows[0].windowHandle().isExposed():
            w = windows[0]
            shot = w.screen().grabWindow(w.winId())
            print(app.platformName(), w.wizard.currentPage().title(),
                  shot.width() > 0 and shot.height() > 0, flush=True)
            w.doc.dirty = False
            app.exit(0)
        elif len(tries) > 400:
            print("never exposed", flush=True)
            app.exit(3)
        else:
            tries.append(1)
            QTimer.singleShot(25, check)

    QTimer.singleShot(0, check)
    from wizard.cli import main
    sys.exit(main(["--no-user-catalog", "gui"]))
    """
)


@pytest.mark.real_window
def test_the_window_opens_on_a_real_x_server(tmp_path):
    assert os.environ.get("DISPLAY"), "needs an X server: run through `make test-window`"
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    env.update(QT_QPA_PLATFORM="xcb", PYTHONPATH=str(ROOT), HOME=str(tmp_path),
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_STATE_HOME=str(tmp_path / "state"))  # fmt: skip
    done = subprocess.run([sys.executable, "-c", SHOW], env=env, capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert done.stdout.split() == ["xcb", "Project", "True"], done.stdout
