"""One rule, every editor: the workload editor offers exactly the sharing modes the Sharing page
offers, and an error-level rule of the sizing keeps Next and Export shut with the error shown."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt

from wizard.base.bundled import example_text
from wizard.gui.wizard import PageId
from wizard.model.design import SharingMode


def _open(window, tmp_path, name: str, change=None):
    doc = json.loads(example_text(name))
    if change is not None:
        change(doc)
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(doc))
    window.doc.dirty = False
    assert window.open_path(path)
    window.wizard.live.refresh()


def test_the_workload_editor_refuses_what_the_sharing_page_refuses(qtbot, window, tmp_path):
    """hgx-h200-llm runs on the NVSwitch board of a Dell XE9680: NVIDIA AI Enterprise 8.0, 'NVIDIA
    NVSwitch': "Only time-sliced vGPUs are supported. MIG-backed vGPUs are not supported. GPU
    passthrough is not supported on NVIDIA Systems that include NVSwitch when using VMware
    vSphere." The editor disables passthrough and MIG with that reason, keeps vGPU, and agrees
    with the Sharing page mode by mode; keyboard selection skips the refused modes."""
    _open(window, tmp_path, "hgx-h200-llm")
    sharing = window.wizard.page_of(PageId.SHARING)
    window.wizard.go_to(PageId.SHARING)
    workloads = window.wizard.page_of(PageId.WORKLOADS)
    window.wizard.go_to(PageId.WORKLOADS)
    workloads.table.selectRow(0)
    editor = workloads.editor
    for mode in (SharingMode.PASSTHROUGH, SharingMode.MIG):
        assert not editor.mode.enabled(mode)
        assert "NVSwitch" in editor.mode.reason(mode)
    assert editor.mode.enabled(SharingMode.VGPU)
    for mode in SharingMode:
        assert editor.mode.enabled(mode) == sharing.combos[0].enabled(mode), mode
    editor.mode.setFocus()
    editor.mode.put(SharingMode.VGPU)
    for key in (Qt.Key.Key_Up, Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_Down):
        qtbot.keyClick(editor.mode, key)
        assert editor.mode.get() not in (SharingMode.PASSTHROUGH, SharingMode.MIG)


def test_the_same_group_on_a_pcie_server_may_pick_mig(qtbot, window, tmp_path):
    """The rule isolates the board: mig-shared's H100 PCIe on an R760xa offers MIG and
    passthrough in the editor (negative case of the test above)."""
    _open(window, tmp_path, "mig-shared")
    workloads = window.wizard.page_of(PageId.WORKLOADS)
    window.wizard.go_to(PageId.WORKLOADS)
    workloads.table.selectRow(2)  # the data scientists: no isolation or migration constraint
    assert workloads.editor.mode.enabled(SharingMode.MIG)
    assert workloads.editor.mode.enabled(SharingMode.PASSTHROUGH)


def _dgx(doc):
    doc["hardware"].update(gpu="b200-sxm", server="nvidia-dgx-b200", gpus_per_host=8)


def test_an_error_keeps_next_and_export_shut(qtbot, window, tmp_path):
    """A DGX B200 given vGPUs: NVIDIA does not support vGPU on DGX systems. The sizing runs, the
    error is the Review page's reason not to go on, and the Export page writes neither proposal
    nor bill of materials; the same design on an HGX B200 server is not stopped by this rule."""
    _open(window, tmp_path, "hgx-h200-llm", _dgx)
    live = window.wizard.live
    assert live.sized()
    assert any("DGX" in p.message for p in live.errors)
    review = window.wizard.page_of(PageId.REVIEW)
    assert any("DGX" in p for p in review.problems())
    export = window.wizard.page_of(PageId.EXPORT)
    export._show_state()
    assert not export.pdf.button.isEnabled() and not export.bom.button.isEnabled()
    assert "cannot be built as it stands" in export.summary.text()
    _open(window, tmp_path, "hgx-h200-llm")
    assert not any("DGX" in p.message for p in window.wizard.live.errors)


def test_a_hardware_error_of_the_sizing_shows_under_its_field(qtbot, window, tmp_path):
    """NVIDIA AI Enterprise 6, GPUDirect: the NICs for GPUDirect RDMA into vGPU VMs are
    ConnectX-7, -6 and -5. llm-serving on release 6 with a BlueField-3 and GPUDirect RDMA: the
    Hardware page shows the sizing's error under GPUDirect RDMA and keeps Next shut; with a
    ConnectX-7 it does not (negative case)."""

    def bluefield(doc):
        doc["hardware"].update(nic="bf3-400g-2p", fabric="400gbe", rdma="roce-v2",
                               gpudirect_rdma=True)  # fmt: skip
        doc.setdefault("platform", {})["nvaie_release"] = "nvaie-6"

    _open(window, tmp_path, "llm-serving", bluefield)
    page = window.wizard.page_of(PageId.HARDWARE)
    page._show_sizing_errors()
    assert any("ConnectX" in p for p in page.problems())
    assert not page.isComplete()

    def connectx(doc):
        doc["hardware"].update(nic="cx7-200g-2p", fabric="200gbe", rdma="roce-v2",
                               gpudirect_rdma=True)  # fmt: skip
        doc.setdefault("platform", {})["nvaie_release"] = "nvaie-6"

    _open(window, tmp_path, "llm-serving", connectx)
    page = window.wizard.page_of(PageId.HARDWARE)
    page._show_sizing_errors()
    assert not any("ConnectX" in p for p in page.problems())
