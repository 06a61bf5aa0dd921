"""Render every wizard page, filled with a bundled example, to PNG.

    QT_QPA_PLATFORM=offscreen python scripts/screenshots.py            # enterprise, 1280x800
    QT_QPA_PLATFORM=offscreen python scripts/screenshots.py --example llm-serving --scale 2

Writes docs/screenshots/<example>-<n>-<page>.png (``--out`` for another folder). ``--scale 2``
renders at 200 % (the window keeps its 1280x800 logical size, the PNG is 2560x1600).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--example", default="enterprise")
    parser.add_argument("--design", type=Path, help="a design file instead of an example")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--size", default="1280x800")
    parser.add_argument("--workload", type=int, default=0, help="group shown in the editor")
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    if args.scale != 1:
        os.environ["QT_SCALE_FACTOR"] = f"{args.scale:g}"
    sys.path.insert(0, str(ROOT))

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    app = QApplication([])
    from wizard.app.catalog_loader import load_catalog
    from wizard.app.io import design_from_text
    from wizard.base.bundled import example_text
    from wizard.gui import style
    from wizard.gui.main_window import MainWindow
    from wizard.gui.wizard import PageId

    style.apply(app)
    scratch = Path(tempfile.mkdtemp(prefix="gpuwizard-shots-"))
    window = MainWindow(
        load_catalog(include_user=False),
        settings=QSettings(str(scratch / "settings.ini"), QSettings.Format.IniFormat),
        state_dir=scratch,
    )
    width, height = (int(v) for v in args.size.split("x"))
    window.resize(width, height)
    window.show()
    if args.design is not None:
        args.example = args.design.stem
        text = args.design.read_text(encoding="utf-8")
        window.doc.load(design_from_text(text, str(args.design)), None)
    else:
        window.doc.load(design_from_text(example_text(args.example), args.example), None)
    window.wizard.restart_at_start()
    workloads = window.wizard.page_of(PageId.WORKLOADS)
    args.out.mkdir(parents=True, exist_ok=True)
    suffix = "" if args.scale == 1 else f"@{args.scale:g}x"
    for pid in PageId:
        if not window.wizard.go_to(pid):
            page = window.wizard.currentPage()
            print(f"stopped at {page.title()}: {page.reason.text()}", file=sys.stderr)
            return 1
        if pid is PageId.WORKLOADS and workloads.rows:
            workloads.table.selectRow(min(args.workload, len(workloads.rows) - 1))
        window.live.refresh()
        app.processEvents()
        path = args.out / f"{args.example}-{pid + 1}-{pid.name.lower()}{suffix}.png"
        window.grab().save(str(path))
        print(path)
        if pid is PageId.REVIEW:
            path = args.out / f"{args.example}-{pid + 1}-review-diagrams{suffix}.png"
            _diagrams(app, window.wizard.page_of(PageId.REVIEW)).save(str(path))
            print(path)
            review = window.wizard.page_of(PageId.REVIEW)
            if window.doc.get("options"):
                path = args.out / f"{args.example}-{pid + 1}-review-options{suffix}.png"
                _options(app, review).save(str(path))
                print(path)
            review.tabs.setCurrentIndex(0)
    window.doc.dirty = False
    window.close()
    return 0


def _options(app, review):
    """The Review page's Options tab once the options are compared."""
    import time

    review.tabs.setCurrentIndex(review.options_tab)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        app.processEvents()
        if not review.options_job.running and review.options.table.columnCount():
            break
        time.sleep(0.02)
    app.processEvents()
    return review.window().grab()


def _diagrams(app, review):
    """The Review page's Diagrams tab once its background drawing is done."""
    import time

    review.tabs.setCurrentIndex(review.diagrams_tab)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        app.processEvents()
        views = review.diagrams.views
        if not review.diagram_job.running and views and all(not v.pixmap().isNull() for v in views):
            break
        time.sleep(0.02)
    for _ in range(20):  # let the scroll area take the drawings' heights
        app.processEvents()
        time.sleep(0.01)
    return review.window().grab()


if __name__ == "__main__":
    sys.exit(main())
