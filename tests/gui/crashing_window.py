"""Run by test_autosave in a subprocess: open a design, edit it, wait for the autosave, then
wait to be killed (the crash)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication


def main(state_dir: str, design: str) -> None:
    app = QApplication([])
    from wizard.app.catalog_loader import load_catalog
    from wizard.gui.main_window import MainWindow
    from wizard.gui.wizard import PageId

    settings = QSettings(str(Path(state_dir) / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(
        load_catalog(include_user=False),
        settings=settings,
        state_dir=Path(state_dir),
        autosave_ms=200,
    )
    window.show()
    window.open_path(Path(design), ask=False)
    window.wizard.page_of(PageId.PROJECT).customer.setText("Edited before the crash")
    autosave = window.autosaver.path
    deadline = time.monotonic() + 30
    while not autosave.exists() and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.02)
    print("autosaved" if autosave.exists() else "no autosave", flush=True)
    while True:  # the parent kills this process
        app.processEvents()
        time.sleep(0.05)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
