"""A click right after Add, after typing a name or after selecting a row is not lost: it takes
effect at once and stays in the design, and nothing the live sizing does a moment later (the
debounced run, the problems it shows under fields) moves a control from under the pointer."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QWidget

from tests.gui.helpers import click
from wizard.base.bundled import example_text
from wizard.gui.sizing import DEBOUNCE_MS
from wizard.gui.wizard import PageId
from wizard.model.design import SharingMode


def _workloads(window, tmp_path, example):
    path = tmp_path / f"{example}.json"
    path.write_text(example_text(example))
    assert window.open_path(path)
    assert window.wizard.go_to(PageId.WORKLOADS)
    return window.wizard.page_of(PageId.WORKLOADS)


def _where(page) -> dict[int, tuple[str, tuple[int, int, int, int]]]:
    """Every visible control of the editor and its place in the window."""
    out = {}
    for w in page.editor.findChildren(QWidget):
        if w.isVisible() and w.focusPolicy() != Qt.FocusPolicy.NoFocus:
            top = w.mapTo(page.window(), QPoint(0, 0))
            out[id(w)] = (
                w.objectName() or type(w).__name__,
                (top.x(), top.y(), w.width(), w.height()),
            )
    return out


@pytest.mark.parametrize("example", ["enterprise", "llm-serving", "hgx-h200-llm"])
def test_a_click_right_after_add_is_kept_and_nothing_moves_under_it(qtbot, window, tmp_path,
                                                                    example):  # fmt: skip
    page = _workloads(window, tmp_path, example)
    before = len(window.doc.get("workloads"))
    click(qtbot, page.add_button)
    placed = _where(page)  # at once: Add lays the editor out before it returns
    # a constraint the new group's mode meets: isolation in passthrough; on an NVSwitch board
    # a new group starts in time-sliced vGPU, which live-migrates but does not isolate
    vgpu = window.doc.get("workloads")[-1].sharing_mode is SharingMode.VGPU
    box = page.editor.migration if vgpu else page.editor.isolation
    assert box.isVisible() and not box.isChecked()
    click(qtbot, box)  # before the debounced sizing has run
    assert box.isChecked()
    qtbot.wait(DEBOUNCE_MS * 3)  # the sizing runs and shows what it finds
    groups = window.doc.get("workloads")
    assert len(groups) == before + 1
    c = groups[-1].constraints
    assert c.live_migration_required if vgpu else c.isolation_required  # the click reached it
    assert box.isChecked()
    moved = {k: (placed[k], v) for k, v in _where(page).items() if k in placed and placed[k] != v}
    assert moved == {}


def test_a_click_right_after_selecting_a_row_is_kept(qtbot, window, tmp_path):
    page = _workloads(window, tmp_path, "enterprise")
    rect = page.table.visualItemRect(page.table.item(1, 0))
    qtbot.mouseClick(page.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    rect = page.table.visualItemRect(page.table.item(0, 0))
    qtbot.mouseClick(page.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert page.table.currentRow() == 0
    name = window.doc.get("workloads")[0].name
    assert page.editor.name.text() == name
    box = page.editor.migration  # vGPU moves with vMotion: either answer is valid
    was = box.isChecked()
    click(qtbot, box)
    qtbot.wait(DEBOUNCE_MS * 3)
    group = window.doc.get("workloads")[0]
    assert group.name == name and group.constraints.live_migration_required is not was


def test_a_group_turned_into_notebooks_starts_on_a_16_gb_time_sliced_vgpu(qtbot, window,
                                                                          tmp_path):  # fmt: skip
    """Add a group and make it Development: it starts with 16 GB each on time-sliced vGPU (the
    enterprise design's V100 offers vGPU), not a whole GPU in passthrough; a need the user
    changes afterwards is kept when the kind is chosen again."""
    from wizard.model.design import SharingMode, WorkloadKind

    page = _workloads(window, tmp_path, "enterprise")
    click(qtbot, page.add_button)
    ed = page.editor
    at = ed.kind.index_of(WorkloadKind.DEVELOPMENT)
    ed.kind.setCurrentIndex(at)
    qtbot.wait(DEBOUNCE_MS * 2)
    group = window.doc.get("workloads")[-1]
    assert group.kind is WorkloadKind.DEVELOPMENT
    assert group.shared is not None and group.shared.gpu_memory_gb == 16.0
    assert group.sharing_mode is SharingMode.VGPU
    ed.shared_box.need_value.setValue(24.0)
    ed.kind.setCurrentIndex(ed.kind.index_of(WorkloadKind.HPC))
    ed.kind.setCurrentIndex(at)
    assert window.doc.get("workloads")[-1].shared.gpu_memory_gb == 24.0


@pytest.mark.parametrize("example", ["llm-serving", "enterprise"])
def test_selecting_another_kind_of_group_lays_the_editor_out_at_once(qtbot, window, tmp_path,
                                                                     example):  # fmt: skip
    """Selecting a row shows other sections of the editor; they are laid out before the click
    returns, so nothing moves a moment later."""
    page = _workloads(window, tmp_path, example)
    click(qtbot, page.add_button)  # a training group beside the example's own
    qtbot.wait(DEBOUNCE_MS * 3)
    rect = page.table.visualItemRect(page.table.item(0, 0))
    qtbot.mouseClick(page.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    placed = _where(page)
    qtbot.wait(DEBOUNCE_MS * 3)
    moved = {k: (placed[k], v) for k, v in _where(page).items() if k in placed and placed[k] != v}
    assert moved == {}
