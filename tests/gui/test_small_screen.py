"""Usable at 1024 x 700 and at 200 % scaling: no page cuts a widget off at the right; the forms
scroll down instead (the Hardware and HA pages stack their columns when narrow)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

from PySide6.QtWidgets import QApplication

from tests.conftest import ROOT
from tests.gui.layout_check import clipped, cut_headings
from wizard.base.bundled import example_text


def _open(window, tmp_path, name):
    path = tmp_path / f"{name}.json"
    path.write_text(example_text(name), encoding="utf-8")
    assert window.open_path(path)


def test_no_page_cuts_off_a_widget_at_1024_by_700(qtbot, window, tmp_path):
    window.resize(1024, 700)
    for name in ("enterprise", "mig-shared"):
        _open(window, tmp_path, name)
        window.doc.dirty = False
        window.wizard.restart_at_start()
        assert clipped(window, QApplication.instance()) == []
        assert cut_headings(window, QApplication.instance()) == []


def test_the_check_finds_a_widget_cut_off(qtbot, window, tmp_path):
    """The check itself: a page too wide for the window is reported."""
    from wizard.gui.wizard import PageId

    window.resize(1024, 700)
    _open(window, tmp_path, "enterprise")
    page = window.wizard.page_of(PageId.HA)
    page.percent.setMinimumWidth(1500)
    found = clipped(window, QApplication.instance())
    assert any(line.startswith("HA:") for line in found)


def test_the_heading_check_finds_a_cut_heading(qtbot, window, tmp_path):
    """The check itself: a column narrower than its heading is reported with the page."""
    from PySide6.QtWidgets import QHeaderView

    from wizard.gui.wizard import PageId

    window.resize(1024, 700)
    _open(window, tmp_path, "enterprise")
    page = window.wizard.page_of(PageId.SHARING)
    header = page.table.horizontalHeader()
    header.setMinimumSectionSize(10)
    header.setSectionResizeMode(1, QHeaderView.ResizeMode.Fixed)
    page.table.fixed[1] = 12  # kept when the table shares out its width again
    page.table.setColumnWidth(1, 12)  # "Kind" in 12 pixels
    found = cut_headings(window, QApplication.instance())
    assert any(line.startswith('SHARING: heading "Kind" 12') for line in found), found


def test_no_page_cuts_off_a_widget_at_200_percent(tmp_path):
    """At 200 % a 2048 x 1400 screen shows 1024 x 700 logical pixels; Qt scales in its own
    process, so the check runs in a fresh one."""
    script = textwrap.dedent(
        f"""
        import sys, tempfile
        from pathlib import Path
        sys.path.insert(0, {str(ROOT)!r})
        from PySide6.QtCore import QSettings
        from PySide6.QtWidgets import QApplication
        app = QApplication([])
        from tests.gui.layout_check import clipped, cut_headings
        from wizard.base.bundled import example_text
        from wizard.app.catalog_loader import load_catalog
        from wizard.gui import style
        from wizard.gui.main_window import MainWindow
        from wizard.app.io import design_from_text
        style.apply(app)
        assert app.devicePixelRatio() == 2, app.devicePixelRatio()
        scratch = Path(tempfile.mkdtemp())
        w = MainWindow(load_catalog(include_user=False),
                       settings=QSettings(str(scratch / "s.ini"), QSettings.Format.IniFormat),
                       state_dir=scratch)
        w.resize(1024, 700)
        w.show()
        w.doc.load(design_from_text(example_text("enterprise")), None)
        w.wizard.restart_at_start()
        print("\\n".join(clipped(w, app)))
        """
    )
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QT_SCALE_FACTOR="2")
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == ""


def test_the_window_fits_the_screen_it_opens_on():
    """1280 x 800 where there is room; on a 1366 x 768 screen with a 28-pixel panel (free
    1366 x 740) the height is 740 - 40 for the frame = 700, so Next and the status bar show; on
    1024 x 700 (free 1024 x 672): 1008 x 632. A size used before on that screen comes back
    while it fits."""
    from wizard.gui.main_window import fitted_size

    assert fitted_size(1920, 1050) == (1280, 800)
    assert fitted_size(1366, 740) == (1280, 700)
    assert fitted_size(1024, 672) == (1008, 632)
    assert fitted_size(1920, 1050, ["1500", "900"]) == (1500, 900)
    assert fitted_size(1366, 740, ["1500", "900"]) == (1280, 700)  # no longer fits
    assert fitted_size(1920, 1050, ["x", "y"]) == (1280, 800)


def test_the_sharing_table_shows_every_column_at_1024_without_scrolling_sideways(qtbot, window,
                                                                               tmp_path):  # fmt: skip
    """acme-two-clusters shows the Cluster column too; before, its columns took their contents'
    width and the table scrolled sideways, hiding the sharing mode a customer picks."""
    from wizard.gui.wizard import PageId

    window.resize(1024, 700)
    path = tmp_path / "acme.json"
    path.write_text((ROOT / "docs" / "acme-two-clusters.json").read_text(encoding="utf-8"))
    assert window.open_path(path)
    assert window.wizard.go_to(PageId.SHARING)
    QApplication.instance().processEvents()
    table = window.wizard.page_of(PageId.SHARING).table
    header = table.horizontalHeader()
    shown = [c for c in range(table.columnCount()) if not table.isColumnHidden(c)]
    assert len(shown) == 6  # the Cluster column with them
    assert table.horizontalScrollBar().maximum() == 0
    assert sum(table.columnWidth(c) for c in shown) <= table.viewport().width()
    for c in shown:  # none narrower than its heading; the text wraps instead
        assert table.columnWidth(c) >= header.sectionSizeHint(c), c
    for r in range(table.rowCount()):  # each row as tall as its wrapped text
        assert table.rowHeight(r) >= table.sizeHintForRow(r)


def test_columns_that_do_not_fit_are_narrowed_alike_from_the_widest(qtbot):
    """Wanted 300, 80, 400 and 200 pixels in 600: the widest are capped at one width x with
    x + 80 + x + x = 600 (x below 200), x = 173 (rounded down); the 80-pixel column keeps its
    width. With room for all, the first column takes what is left over."""
    from wizard.gui.widgets.fitting_table import FittingTable

    class Wanting(FittingTable):
        def sizeHintForColumn(self, column: int) -> int:
            return (300, 80, 400, 200)[column]

    table = Wanting(1, 4, {})
    qtbot.addWidget(table)
    table.setHorizontalHeaderLabels(["a", "b", "c", "d"])
    assert table.widths(600) == {0: 173, 1: 80, 2: 173, 3: 173}
    assert table.widths(1000) == {0: 320, 1: 80, 2: 400, 3: 200}
    table.fixed = {3: 150}  # a fixed column is not shared out
    assert table.widths(600) == {0: 260, 1: 80, 2: 260}
