"""The window shows its first page without making the six others: each is made when Next goes
to it, when code looks it up, or in an idle moment once the window is on screen, and it shows
the design and the live result as they are when it is made. A window given a loader in place of
the catalog reads it only once something needs it."""

from __future__ import annotations

from PySide6.QtCore import QSettings

from tests.gui.helpers import go_next
from wizard.gui.main_window import MainWindow
from wizard.gui.wizard import TITLES, PageId

LATER = [pid for pid in PageId if pid is not PageId.PROJECT]


def _window(qtbot, tmp_path, catalog) -> MainWindow:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(catalog, settings=settings, state_dir=tmp_path / "state")
    qtbot.addWidget(window)
    return window


def test_only_the_first_page_is_made_with_the_window(window):
    assert window.wizard.currentId() == PageId.PROJECT
    assert [pid for pid in PageId if window.wizard.made(pid)] == [PageId.PROJECT]
    # the step list and the Go menu name every page all the same
    steps = [window.wizard.steps.item(i).text() for i in range(window.wizard.steps.count())]
    assert steps == [f"{pid + 1}.  {TITLES[pid][0]}" for pid in PageId]


def test_a_page_made_late_shows_the_design_and_its_sizing(window, qtbot):
    window.open_example("enterprise")
    window.live.refresh()
    assert not window.wizard.made(PageId.WORKLOADS)
    page = window.wizard.page_of(PageId.WORKLOADS)
    groups = window.doc.get("workloads")
    assert page.table.rowCount() == len(groups) > 0
    sized = window.live.workload_results()
    for row, group in enumerate(groups):
        assert page.table.item(row, 0).text() == group.name
        # whole GPUs here: the GPUs the group's VMs hold are its GPUs
        assert page.table.item(row, 3).text() == f"{sized[group.name].gpus_total:,}"
    assert page.title() == TITLES[PageId.WORKLOADS][0]


def test_next_makes_the_page_it_goes_to(window, qtbot):
    window.open_example("enterprise")
    assert not window.wizard.made(PageId.WORKLOADS)
    go_next(qtbot, window)
    assert window.wizard.currentPage() is window.wizard.page_of(PageId.WORKLOADS)
    assert window.wizard.made(PageId.WORKLOADS) and not window.wizard.made(PageId.HARDWARE)


def test_the_other_pages_are_made_in_idle_moments_once_the_window_is_shown(window, qtbot):
    qtbot.waitUntil(lambda: all(window.wizard.made(pid) for pid in PageId), timeout=20_000)
    assert window.wizard.pageIds() == list(PageId)
    assert window.wizard.currentId() == PageId.PROJECT


def test_an_edit_before_a_page_is_made_shows_on_it(window):
    window.open_example("enterprise")
    groups = list(window.doc.get("workloads"))
    groups[0] = groups[0].model_copy(update={"name": "Renamed group"})
    window.doc.set("workloads", groups)
    assert window.wizard.page_of(PageId.WORKLOADS).table.item(0, 0).text() == "Renamed group"
    assert window.wizard.page_of(PageId.SHARING).table.item(0, 0).text() == "Renamed group"


def test_a_window_given_a_loader_reads_the_catalog_only_when_needed(qtbot, tmp_path, catalog):
    reads = []

    def load():
        reads.append(1)
        return catalog

    window = _window(qtbot, tmp_path, load)
    assert window.wizard.made(PageId.PROJECT)
    assert reads == []  # the first page and a new design need no catalog
    window.wizard.page_of(PageId.HARDWARE)
    assert reads == [1]
    assert window.catalog is catalog and window.live.catalog is catalog
    assert reads == [1]


def test_a_design_opened_in_a_window_given_a_loader_sizes(qtbot, tmp_path, catalog):
    window = _window(qtbot, tmp_path, lambda: catalog)
    window.open_example("enterprise")
    window.live.refresh()
    assert window.live.sized(), window.live.problems


def test_the_shown_window_reads_the_catalog_after_its_first_page(qtbot, tmp_path, catalog):
    reads = []

    def load():
        reads.append(window.wizard.currentPage() is not None and window.isVisible())
        return catalog

    window = _window(qtbot, tmp_path, load)
    window.show()
    qtbot.waitUntil(lambda: all(window.wizard.made(pid) for pid in PageId), timeout=20_000)
    assert reads == [True]


def test_the_gpus_column_counts_physical_gpus_not_shared_slots(window, qtbot):
    """30 notebooks on time-sliced vGPUs of 5 GPUs read 5 in the GPUs column (the slots in its
    tooltip), so the column never sums past the cluster's GPUs."""
    window.open_example("rtx-pro-vsphere")
    window.live.refresh()
    page = window.wizard.page_of(PageId.WORKLOADS)
    sized = window.live.workload_results()
    row = [g.name for g in window.doc.get("workloads")].index("Data scientists' notebooks")
    w = sized["Data scientists' notebooks"]
    assert w.gpus_total == 30 and w.sharing.gpus_allocated == 5.0  # 30 VMs, 6 per GPU
    item = page.table.item(row, 3)
    assert item.text() == "5"
    assert item.toolTip().startswith(f"30 × {w.sharing.vgpu_type} on 5 GPUs")


def test_a_click_on_a_step_goes_there_and_stops_at_a_page_not_complete(window, qtbot):
    """The step list is a way to move: a click on Review from the first page of a complete design
    shows Review; on a new design it stops at the first page that is not complete, which says
    what it needs."""
    from PySide6.QtCore import Qt

    steps = window.wizard.steps
    window.open_example("enterprise")
    assert window.wizard.currentId() == PageId.PROJECT
    rect = steps.visualItemRect(steps.item(PageId.REVIEW))
    qtbot.mouseClick(steps.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.wizard.currentId() == PageId.REVIEW and steps.currentRow() == PageId.REVIEW
    rect = steps.visualItemRect(steps.item(PageId.HARDWARE))
    qtbot.mouseClick(steps.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.wizard.currentId() == PageId.HARDWARE
    window.doc.new()
    window.wizard.restart_at_start()
    rect = steps.visualItemRect(steps.item(PageId.EXPORT))
    qtbot.mouseClick(steps.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    stopped = window.wizard.currentId()
    assert stopped < PageId.EXPORT and steps.currentRow() == stopped
    page = window.wizard.currentPage()
    assert not page.isComplete() and page.reason.text()
