"""The Review has one structure for any design: every cluster together where the clusters
share networks, power and racks, and each GPU cluster's own tabs chosen under Show. A design
of one cluster is an estate of one: nothing to choose (Show hidden), its cluster's tabs, and
the same risk register the proposal prints."""

from __future__ import annotations

from tests.conftest import ROOT
from wizard.base.bundled import example_text
from wizard.gui.wizard import PageId


def _review(window, tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    assert window.open_path(path)
    window.live.refresh()
    assert window.wizard.go_to(PageId.REVIEW)
    return window.wizard.page_of(PageId.REVIEW)


def _warnings(page) -> list[str]:
    return [page.warnings.item(i).text() for i in range(page.warnings.count())]


def test_one_cluster_is_shown_as_an_estate_of_one(qtbot, window, tmp_path):
    """hgx-h200-llm: 3 hosts of 8 H200 (the example's sizing, as the status bar test states):
    Show holds only that cluster and is hidden; its cards, memory bars and placement are
    filled; the warnings carry the design's own note that VMware Cloud Foundation needs a
    management domain the design does not include, as the proposal's register does."""
    page = _review(window, tmp_path, "hgx.json", example_text("hgx-h200-llm"))
    assert page.cluster_choice.count() == 1 and not page.cluster_bar.isVisible()
    assert not page.clusters_note.isVisible()
    assert page.cards.cards["hosts"].value.text() == "3"
    assert page.cards.cards["gpus"].value.text() == "24"
    assert page.bars.isVisible() and page.placement.rowCount() > 0
    assert any("management domain" in t for t in _warnings(page))


def test_several_clusters_show_the_whole_design_and_each_cluster_with_its_own_risks(
    qtbot, window, tmp_path
):
    """acme-two-clusters: an L40S notebook cluster, an H100 HGX cluster and a management
    domain. Every cluster together lists every risk, each under its cluster's name, and the
    networks' (a single switch on a fabric) judged once for the design; the HGX
    cluster under Show lists its own (the H100's 80 GB mapping) and the design's shared ones
    (a single switch on a fabric), but not the notebook cluster's (the L40S's 48 GB)."""
    text = (ROOT / "docs" / "acme-two-clusters.json").read_text("utf-8")
    page = _review(window, tmp_path, "acme.json", text)
    assert page.cluster_bar.isVisible() and page.cluster_choice.currentData() is None
    together = _warnings(page)
    assert any("Notebook cluster: The NVIDIA L40S maps 48 GB" in t for t in together)
    assert any("HGX cluster: The NVIDIA H100 SXM5 80GB maps 80 GB" in t for t in together)
    assert any("A single NVIDIA" in t for t in together)  # the networks, judged once
    at = page.cluster_choice.findData("HGX cluster")
    page.cluster_choice.setCurrentIndex(at)
    page.cluster_choice.activated.emit(at)
    hgx = _warnings(page)
    assert any("The NVIDIA H100 SXM5 80GB maps 80 GB" in t for t in hgx)
    assert any("A single NVIDIA" in t for t in hgx)
    assert not any("L40S" in t for t in hgx)
    assert not page.clusters_note.isVisible() and page.placement.rowCount() > 0


def test_the_review_says_what_the_training_memory_is_counted_as(qtbot, window, tmp_path):
    """hgx-h200-llm's LoRA group states no training software: LoRA defaults to Hugging Face
    with PEFT, and fused attention is the design default (docs/model.md, 'Training stack'); the
    Review says so under the workloads table, in the stack's and kernel's own names. Negative
    case: imagenet-resnet50 trains a CNN, counted from its preset's measured figures, so no
    software or attention kernel is named."""
    page = _review(window, tmp_path, "hgx.json", example_text("hgx-h200-llm"))
    said = page.memory_basis.text()
    assert page.memory_basis.isVisible()
    assert said.startswith("Memory per GPU is counted for Hugging Face Transformers with PEFT")
    assert "fused attention (FlashAttention" in said

    page = _review(window, tmp_path, "resnet.json", example_text("imagenet-resnet50"))
    assert not page.memory_basis.isVisible() and page.memory_basis.text() == ""
