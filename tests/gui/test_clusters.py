"""GPU clusters on the Hardware page: add a copy, edit it, rename it (groups pinned to it follow),
pin a group to it in the workload editor, and remove it (the group is placed anew)."""

from __future__ import annotations

from tests.conftest import ROOT
from tests.gui.helpers import pick
from wizard.base.bundled import example_text
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
    assert window.live.plan is not None and len(window.live.plan.clusters) == 1  # one again


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


def test_the_ha_page_edits_the_policy_of_the_cluster_it_shows(qtbot, window, tmp_path):
    """vSphere HA is per cluster: picking the HGX cluster on the HA page edits its policy (not the
    first cluster's) and shows its capacity. Acme's HGX cluster needs 2 hosts for its 10 GPUs of
    demand; N+2 holds 2 more: 4 hosts, 32 GPUs, 16 left after two failures."""
    from wizard.model.design import HaLevel

    path = tmp_path / "acme.json"
    path.write_text((ROOT / "docs" / "acme-two-clusters.json").read_text(encoding="utf-8"))
    assert window.open_path(path)
    window.wizard.go_to(PageId.HA)
    ha = window.wizard.page_of(PageId.HA)
    assert ha.cluster.isVisibleTo(ha) and ha.cluster.count() == 2
    pick(ha.cluster, 1)
    pick(ha.level, HaLevel.N2)
    assert window.doc.get("clusters")[0].ha.level is HaLevel.N2
    assert window.doc.get("ha").level is HaLevel.N1  # the notebook cluster keeps N+1
    window.live.refresh()
    assert (
        ha.cards.cards["hosts"].value.text() == "4" and ha.cards.cards["gpus"].value.text() == "32"
    )
    assert ha.cards.cards["after"].value.text() == "16"
    pick(ha.cluster, 0)
    assert ha.level.get() is HaLevel.N1
    assert (
        ha.cards.cards["hosts"].value.text() == "4" and ha.cards.cards["gpus"].value.text() == "16"
    )  # 3 + 1 L40S hosts


def test_the_ha_page_of_one_cluster_has_no_cluster_choice(qtbot, window, tmp_path):
    _open(window, tmp_path)
    window.wizard.go_to(PageId.HA)
    ha = window.wizard.page_of(PageId.HA)
    assert not ha.cluster.isVisibleTo(ha)


def test_the_sharing_page_shows_each_groups_cluster_and_compares_per_cluster(
    qtbot, window, tmp_path
):
    """Acme: 30 notebooks of 16 GB on L40S (48 GB) take three 16 GB vGPUs per GPU, so 10 GPUs;
    the page says the slots on the GPUs, not 30 GPUs. A mode is judged on the group's own
    cluster's hardware: MIG is refused for the notebooks because the L40S has none, and for the
    chat because the HGX H100 board is an NVSwitch board, where vSphere runs time-sliced vGPU
    only."""
    from wizard.gui.pages.sharing import COL_CLUSTER, COL_GPUS
    from wizard.model.design import SharingMode

    path = tmp_path / "acme.json"
    path.write_text((ROOT / "docs" / "acme-two-clusters.json").read_text(encoding="utf-8"))
    assert window.open_path(path)
    window.live.refresh()
    window.wizard.go_to(PageId.SHARING)
    page = window.wizard.page_of(PageId.SHARING)
    assert not page.table.isColumnHidden(COL_CLUSTER)
    cells = [page.table.item(r, COL_CLUSTER).text() for r in range(3)]
    assert cells == ["Notebook cluster", "HGX cluster", "HGX cluster"]
    # "10 GPUs" held together by a no-break space, so a narrow column wraps before "on"
    assert page.table.item(0, COL_GPUS).text() == "30 × L40S-16C on 10\u00a0GPUs"
    assert page.combos[0].reason(SharingMode.MIG) == (
        "Not available: the NVIDIA L40S does not support MIG"
    )
    # the chat runs on the HGX cluster, where vSphere refuses MIG for another reason: its board
    assert page.combos[1].reason(SharingMode.MIG) == (
        "Not available: on the NVSwitch board of the Dell PowerEdge XE9680, vSphere supports "
        "time-sliced vGPU only (MIG-backed vGPU is not supported)"
    )
    assert not page.combos[1].reason(SharingMode.VGPU).startswith("Not available")
    assert page.cluster.isVisibleTo(page) and page.cluster.count() == 2
    pick(page.cluster, "HGX cluster")
    hgx = window.live.cluster_result("HGX cluster")
    assert page.comparison.columnCount() == len(hgx.sharing_comparison)
    as_designed = page.comparison.item(1, 0).text()
    # chat 2 (FP8 weights, so an FP8 KV cache: one TP 2 replica), LoRA 8
    assert as_designed == f"{hgx.sharing_comparison[0].gpus:,}" == "10"


def test_the_review_shows_each_gpu_cluster_as_rich_as_one(qtbot, window, catalog, tmp_path):
    """Several clusters: Show picks one GPU cluster and the Review gives its own cards, memory
    bars, serving ranges, placement and calculations, the figures of that cluster's sizing."""
    from wizard.engine.decide.estate import size_estate

    path = tmp_path / "acme.json"
    path.write_text((ROOT / "docs" / "acme-two-clusters.json").read_text("utf-8"), "utf-8")
    assert window.open_path(path)
    assert window.wizard.go_to(PageId.REVIEW)
    page = window.wizard.page_of(PageId.REVIEW)
    estate = size_estate(window.doc.design(), catalog)
    gpu_clusters = [c for c in estate.clusters if c.result is not None]
    assert len(gpu_clusters) == 2
    choices = [page.cluster_choice.itemData(i) for i in range(page.cluster_choice.count())]
    assert choices == [None, *[c.name for c in gpu_clusters]]
    # every cluster together: the totals, no memory bars (GPUs differ between clusters)
    assert page.cards.cards["hosts"].value.text() == f"{estate.totals.hosts:,}"
    assert not page.bars.isVisible() and page.calcs.rowCount() == 0
    hgx = next(c for c in gpu_clusters if c.name == "HGX cluster")
    page.cluster_choice.setCurrentIndex(choices.index("HGX cluster"))
    page.cluster_choice.activated.emit(choices.index("HGX cluster"))
    assert page.cards.cards["hosts"].value.text() == f"{hgx.result.cluster.hosts_total:,}"
    assert page.cards.cards["gpus"].value.text() == f"{hgx.result.cluster.gpus_total:,}"
    assert page.bars.isVisible()
    assert page.calcs.rowCount() == 0  # the log is filled when its tab is on screen
    page.tabs.setCurrentIndex(page.calcs_tab)
    assert page.calcs.rowCount() == len(hgx.result.calculations) > 0
    served = [w.name for w in hgx.result.workloads if w.serving is not None]
    assert served and set(served) <= set(page._ranges)  # ranges of that cluster's groups
    shown = [page.workloads.item(i, 0).text() for i in range(page.workloads.rowCount())]
    assert shown == [w.name for w in hgx.result.workloads]
    # and back to the whole design
    page.cluster_choice.setCurrentIndex(0)
    page.cluster_choice.activated.emit(0)
    assert page.cards.cards["hosts"].value.text() == f"{estate.totals.hosts:,}"


def test_recommend_fills_the_second_cluster_from_its_own_groups(qtbot, window, tmp_path):
    """Recommend on the second GPU cluster sizes the groups that run there and writes that
    cluster's hardware; the first cluster's stays as it was. With no group on it, it says so."""
    path = tmp_path / "acme.json"
    path.write_text((ROOT / "docs" / "acme-two-clusters.json").read_text("utf-8"), "utf-8")
    assert window.open_path(path)
    window.live.refresh()
    assert window.wizard.go_to(PageId.HARDWARE)
    hw = window.wizard.page_of(PageId.HARDWARE)
    first = window.doc.get("hardware")
    names = hw.clusters.names()
    index = names.index("HGX cluster")
    hw.picker.choice.put(index)
    hw.picker.choice.activated.emit(index)
    assert hw.cluster_index == index and hw.recommend_button.isEnabled()
    hw.recommend_button.click()
    assert hw.explain.text().startswith("Recommended."), hw.explain.text()
    spec = next(c for c in window.doc.get("clusters") if c.name == "HGX cluster")
    assert spec.hardware.reasons  # the reasons go with the cluster's hardware
    assert window.doc.get("hardware") == first
    # a cluster no group runs on: the reason, and nothing changed
    design = window.doc.design()
    moved = [g.model_copy(update={"cluster": "Notebook cluster"}) for g in design.workloads]
    window.doc.set("workloads", moved)
    window.live.refresh()
    before = window.doc.get("clusters")
    hw.recommend_button.click()
    assert "no workload group runs on HGX cluster" in hw.explain.text()
    assert window.doc.get("clusters") == before


def test_recommend_fills_the_first_cluster_of_several_from_its_own_groups(qtbot, window, tmp_path):
    """The first GPU cluster of several is recommended the same way as the others: from the
    design as that cluster sees it (the notebooks that run on it), so the reasons name none of
    the HGX cluster's 70B groups and the HGX cluster keeps its hardware."""
    path = tmp_path / "acme.json"
    path.write_text((ROOT / "docs" / "acme-two-clusters.json").read_text("utf-8"), "utf-8")
    assert window.open_path(path)
    window.live.refresh()
    assert window.wizard.go_to(PageId.HARDWARE)
    hw = window.wizard.page_of(PageId.HARDWARE)
    others = window.doc.get("clusters")
    hw.picker.choice.put(0)
    hw.picker.choice.activated.emit(0)
    assert hw.cluster_index == 0 and hw.recommend_button.isEnabled()
    hw.recommend_button.click()
    assert hw.explain.text().startswith("Recommended."), hw.explain.text()
    reasons = " ".join(window.doc.get("hardware").reasons.values())
    assert "70B" not in reasons
    assert window.doc.get("clusters") == others


def test_a_gpu_cluster_no_group_runs_on_is_said_at_the_cluster(qtbot, window, tmp_path):
    """An added cluster with no group on it is not built; the Hardware page says so while it
    shows that cluster, and not while it shows one that is built."""
    _open(window, tmp_path)
    window.wizard.go_to(PageId.HARDWARE)
    hw = window.wizard.page_of(PageId.HARDWARE)
    hw.picker.add.click()
    window.live.refresh()
    (spec,) = window.doc.get("clusters")
    assert hw.cluster_index == 1
    assert hw.cluster_note.isVisible()
    assert f"No workload group runs on {spec.name}, so it is not built" in hw.cluster_note.text()
    hw.picker.choice.put(0)
    assert hw.cluster_index == 0 and not hw.cluster_note.isVisible()


def test_a_sharded_fine_tuning_job_reads_as_one_job_over_its_gpus(qtbot, window, catalog,
                                                                  tmp_path):  # fmt: skip
    """The 70B LoRA job of the Acme design: DP 8 with FSDP (ZeRO-3) in groups of 4 (its 141 GB
    16-bit base and the loss's logits over 80 GB GPUs) reads as 8 GPUs per job, with the
    sharding, not as eight one-GPU jobs ('8 × 1 GPU')."""
    from wizard.engine.decide.estate import size_estate

    path = tmp_path / "acme.json"
    path.write_text((ROOT / "docs" / "acme-two-clusters.json").read_text("utf-8"), "utf-8")
    assert window.open_path(path)
    estate = size_estate(window.doc.design(), catalog)
    lora = next(
        w for c in estate.clusters if c.result for w in c.result.workloads if "LoRA" in w.name
    )
    lay = lora.layout
    assert (lay.data_parallel, lay.tensor_parallel, lay.pipeline_parallel) == (8, 1, 1)
    assert (lay.zero_stage, lay.shard_group) == (3, 4)
    assert window.wizard.go_to(PageId.REVIEW)
    page = window.wizard.page_of(PageId.REVIEW)
    row = next(i for i in range(page.workloads.rowCount())
               if page.workloads.item(i, 0).text() == lora.name)  # fmt: skip
    text = page.workloads.item(row, 3).text()
    assert text == "8 GPUs per job: DP 8 × TP 1 × PP 1, FSDP (ZeRO-3) in groups of 4"
    assert lay.reason in page.workloads.item(row, 3).toolTip()
