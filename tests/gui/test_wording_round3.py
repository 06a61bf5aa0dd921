"""The window's words, round three: a plain message for an empty field, RDMA protocols by their
names, the remedies of a service's own kind, a notebook group's share of one GPU, and a new
group on an NVSwitch board that starts in the mode vSphere allows there."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt

from tests.gui.helpers import click
from wizard.base.bundled import example_text
from wizard.gui.wizard import PageId
from wizard.model.design import SharingMode


def _open(window, tmp_path, name: str, change=None):
    d = json.loads(example_text(name))
    if change is not None:
        change(d)
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(d), encoding="utf-8")
    assert window.open_path(path)
    window.live.refresh()
    assert window.wizard.go_to(PageId.WORKLOADS)
    return window.wizard.page_of(PageId.WORKLOADS)


def test_an_empty_name_says_give_a_value_not_the_validators_words(qtbot, window, tmp_path):
    page = _open(window, tmp_path, "llm-serving")
    page.table.selectRow(0)
    name = page.editor.name
    name.setFocus()
    name.selectAll()
    qtbot.keyClick(name, Qt.Key.Key_Delete)  # the name wiped, as a user does
    row = page.editor.errors.rows["name"][1]
    assert row.error.text() == "Name: give a value"
    assert "String should" not in page.reason.text() and "(got" not in page.reason.text()


def test_a_nics_rdma_protocols_read_by_their_names(catalog):
    from wizard.gui.pages.hardware_specs import _rdma_words

    assert _rdma_words("roce-v2") == "RoCE v2"
    assert _rdma_words("infiniband") == "InfiniBand"
    assert _rdma_words("iwarp") == "iWARP"


def test_a_notebook_group_on_part_of_a_gpu_reads_less_than_one(qtbot, window, tmp_path):
    def notebook(d):
        # one notebook user of 16 GB, time-sliced on an 80 GB H100: a fifth of one GPU
        d["workloads"].append({"name": "Notebook", "kind": "development", "count": 1,
                               "shared": {"gpu_memory_gb": 16}, "sharing_mode": "vgpu"})  # fmt: skip

    page = _open(window, tmp_path, "llm-serving", notebook)
    cell = page.table.item(1, 3).text()
    assert cell == "< 1" and "0.2" not in cell


def test_a_new_group_on_an_nvswitch_board_starts_in_time_sliced_vgpu(qtbot, window, tmp_path):
    """hgx-h200-llm runs on an HGX H200 board (NVSwitch) in a Dell XE9680: NVIDIA AI Enterprise,
    'NVIDIA NVSwitch': 'GPU passthrough is not supported on NVIDIA Systems that include NVSwitch
    when using VMware vSphere', so a new group starts in time-sliced vGPU."""
    page = _open(window, tmp_path, "hgx-h200-llm")
    click(qtbot, page.add_button)
    group = window.doc.get("workloads")[-1]
    assert group.sharing_mode is SharingMode.VGPU
    assert not [p for p in window.live.errors if "passthrough" in p.message.lower()]


def test_a_new_group_on_a_pcie_server_starts_in_passthrough(qtbot, window, tmp_path):
    """Negative case: where passthrough is allowed, a new group starts there."""
    page = _open(window, tmp_path, "rtx-pro-vsphere")
    click(qtbot, page.add_button)
    assert window.doc.get("workloads")[-1].sharing_mode is SharingMode.PASSTHROUGH


def test_a_problem_names_its_group_once(qtbot, window, tmp_path):
    _open(window, tmp_path, "llm-serving")
    said = window.wizard.said("workloads[0].model: Llama 3 70B chat service: no layout found")
    assert said == "Llama 3 70B chat service: Model: no layout found"


def test_a_second_add_shows_the_new_groups_name(qtbot, window, tmp_path):
    """The editor scrolled down to the serving answers, Add brings the new group's Name into
    view (it had kept the scroll position, Name off screen)."""
    window.resize(1024, 700)
    page = _open(window, tmp_path, "llm-serving")
    page.table.selectRow(0)
    bar = page.editor_scroll.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    bar.setValue(bar.maximum())
    click(qtbot, page.add_button)
    name = page.editor.name
    top = name.mapTo(page.editor_scroll.viewport(), name.rect().topLeft()).y()
    assert 0 <= top < page.editor_scroll.viewport().height()
    assert name.hasFocus()


def test_the_hardware_page_of_a_new_design_shows_no_error_before_any_choice(qtbot, window):
    """A GPU and a server not chosen yet are asked for in the reason line, not in red under
    the fields; Next stays shut until they are chosen."""
    from tests.gui.helpers import go_next

    type_into_name = window.wizard.page_of(PageId.PROJECT).project_name
    type_into_name.setText("Chat")
    go_next(qtbot, window)
    click(qtbot, window.wizard.page_of(PageId.WORKLOADS).add_button)
    go_next(qtbot, window)
    hw = window.wizard.page_of(PageId.HARDWARE)
    assert window.wizard.currentId() == PageId.HARDWARE
    for key in ("gpu", "server"):
        row = hw.errors.rows[key][1]
        assert not row.error.isVisibleTo(hw), key
    assert "GPU: choose a GPU" in hw.reason.text()
    assert not hw.isComplete()
