"""GPU clusters on the Hardware page: add a copy, edit it, rename it (groups pinned to it follow),
pin a group to it in the workload editor, and remove it (the group is placed anew)."""

from __future__ import annotations

from tests.gui.helpers import pick
from wizard.bundled import example_text
from wizard.gui.wizard import PageId


def _open(window, tmp_path, name="rtx-pro-vsphere"):
    path = tmp_path / f"{name}.json"
    path.write_text(example_text(name), encoding="utf-8")
    assert window.open_path(path)


def test_a_second_gpu_cluster_is_added_edited_used_and_removed(qtbot, window, tmp_path):
    _open(window, tmp_path)
    window.wizard.go_to(PageId.HARDWARE)
    hw = window.wizard.page_of(PageId.HARDWARE)
    assert not hw.picker.remove.isEnabled()  # the first cluster is the design's own
    hw.picker.add.click()
    (spec,) = window.doc.get("clusters")
    assert spec.hardware == window.doc.get("hardware")  # a copy of the one shown
    assert hw.picker.choice.currentText() == spec.name and hw.picker.remove.isEnabled()
    # the form now edits the new cluster, not the first
    pick(hw.gpu, "h100-sxm5-80gb")
    pick(hw.server, "dell-xe9680")
    (spec,) = window.doc.get("clusters")
    assert spec.hardware.gpu == "h100-sxm5-80gb"
    assert window.doc.get("hardware").gpu == "rtx-pro-6000-bse"
    hw.picker.name.setText("HGX cluster")
    hw.picker.name.editingFinished.emit()
    assert window.doc.get("clusters")[0].name == "HGX cluster"
    # pin the RAG assistant there from the workload editor
    window.wizard.go_to(PageId.WORKLOADS)
    wl = window.wizard.page_of(PageId.WORKLOADS)
    wl.table.selectRow(1)
    ed = wl.editor
    assert ed.cluster_row.isVisibleTo(ed)
    pick(ed.cluster, "HGX cluster")
    qtbot.waitUntil(lambda: window.doc.get("workloads")[1].cluster == "HGX cluster", timeout=3000)
    window.live.refresh()
    e = window.live.estate
    assert e is not None and [c.name for c in e.clusters] == [
        window.doc.get("cluster_name"),
        "HGX cluster",
    ]
    # renaming carries the pinned group along; removing places it anew
    window.wizard.go_to(PageId.HARDWARE)
    pick(hw.picker.choice, 1)
    hw.picker.name.setText("H100 cluster")
    hw.picker.name.editingFinished.emit()
    assert window.doc.get("workloads")[1].cluster == "H100 cluster"
    hw.picker.remove.click()
    assert window.doc.get("clusters") == [] and window.doc.get("workloads")[1].cluster is None
    window.live.refresh()
    assert window.live.result is not None  # one cluster again


def test_a_name_already_taken_is_refused_with_the_reason(qtbot, window, tmp_path):
    _open(window, tmp_path)
    window.wizard.go_to(PageId.HARDWARE)
    hw = window.wizard.page_of(PageId.HARDWARE)
    hw.picker.add.click()
    first = window.doc.get("cluster_name")
    hw.picker.name.setText(first)
    hw.picker.name.editingFinished.emit()
    assert window.doc.get("clusters")[0].name != first
    assert f"the name '{first}' is taken" in hw.explain.text()
