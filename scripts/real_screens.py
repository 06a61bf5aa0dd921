"""Walk every wizard page in a real X11 window under a window manager, on a screen of the given
size, as a user on a small laptop sees it: the window opens at the size it picks for the screen
(never resized or maximised here), each page is captured from the screen, and each is checked.

    xvfb-run -a -s "-screen 0 1024x700x24" python scripts/real_screens.py --out shots

Checks, per page: the window and its frame lie on the screen; Next and the status bar are
visible inside the screen; no widget of a scrolling form is cut off at the side; no table
heading is narrower than its words. Prints one line per problem; exit status 1 if any.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ("enterprise", "llm-serving", str(ROOT / "docs" / "acme-two-clusters.json"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="folder for the PNGs")
    parser.add_argument("--example", action="append", help="bundled example or design file")
    args = parser.parse_args(argv)
    if not os.environ.get("DISPLAY"):
        print("needs an X server (run under xvfb-run)", file=sys.stderr)
        return 2
    wm_path = shutil.which("openbox")
    if wm_path is None:
        print("needs the openbox window manager: apt-get install openbox", file=sys.stderr)
        return 2
    wm = subprocess.Popen([wm_path, "--sm-disable"], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        _wait_for_manager()  # the manager takes the screen before the window maps
        return _walk(args.out, args.example or list(EXAMPLES))
    finally:
        wm.terminate()
        wm.wait(timeout=10)


def _wait_for_manager(limit_s: float = 20.0) -> None:
    """Until openbox has put up its check window (x11-utils' xwininfo lists it), so the window
    maps into a managed screen; on a loaded machine that takes more than a second."""
    xwininfo = shutil.which("xwininfo")
    if xwininfo is None:
        time.sleep(3.0)
        return
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        tree = subprocess.run([xwininfo, "-root", "-tree"], capture_output=True, text=True)
        if '"Openbox"' in tree.stdout:
            return
        time.sleep(0.1)


def _settle(app, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)


def _walk(out: Path, examples: list[str]) -> int:
    os.environ["QT_QPA_PLATFORM"] = "xcb"
    sys.path.insert(0, str(ROOT))
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication, QWizard

    app = QApplication([])
    from tests.gui.layout_check import clipped, cut_headings
    from wizard.app.catalog_loader import load_catalog
    from wizard.app.io import design_from_text
    from wizard.base.bundled import example_text
    from wizard.gui import style
    from wizard.gui.main_window import MainWindow
    from wizard.gui.wizard import PageId

    style.apply(app)
    out.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    for example in examples:
        scratch = Path(tempfile.mkdtemp(prefix="gpuwizard-screens-"))
        window = MainWindow(
            load_catalog(include_user=False),
            settings=QSettings(str(scratch / "settings.ini"), QSettings.Format.IniFormat),
            state_dir=scratch,
        )
        window.show()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not (
            window.windowHandle().isExposed() and window.frameGeometry() != window.geometry()
        ):
            _settle(app, 0.05)
        if window.frameGeometry() == window.geometry():
            problems.append("the window manager put no frame on the window")
        path = Path(example)
        text = path.read_text("utf-8") if path.suffix == ".json" else example_text(example)
        window.doc.load(design_from_text(text, example), None)
        window.wizard.restart_at_start()
        screen = window.screen()
        free = screen.availableGeometry()
        size = f"{screen.geometry().width()}x{screen.geometry().height()}"
        for pid in PageId:
            name = f"{path.stem}-{size}-{pid + 1}-{pid.name.lower()}"
            if not window.wizard.go_to(pid):
                problems.append(f"{name}: stopped before the page")
                break
            window.live.refresh()
            _settle(app, 0.3)
            screen.grabWindow(0).save(str(out / f"{name}.png"))
            frame = window.frameGeometry()
            if not free.contains(frame):
                problems.append(f"{name}: the window {_rect(frame)} is not inside the screen's "
                                f"free area {_rect(free)}")  # fmt: skip
            shown = [("the status bar", window.statusBar())]
            if pid is not PageId.EXPORT:  # the last page has no Next
                shown.append(("Next", window.wizard.button(QWizard.WizardButton.NextButton)))
            for label, widget in shown:
                top = widget.mapToGlobal(widget.rect().topLeft())
                bottom = widget.mapToGlobal(widget.rect().bottomRight())
                if not (widget.isVisible() and free.contains(top) and free.contains(bottom)):
                    problems.append(f"{name}: {label} is not on the screen")
        problems += [f"{example}-{size}: {p}" for p in clipped(window, app)]
        problems += [f"{example}-{size}: {p}" for p in cut_headings(window, app)]
        window.doc.dirty = False
        window.close()
        window.deleteLater()
        _settle(app, 0.1)
    for p in problems:
        print(p)
    return 1 if problems else 0


def _rect(r) -> str:
    return f"{r.width()}x{r.height()} at {r.x()},{r.y()}"


if __name__ == "__main__":
    sys.exit(main())
