"""A training group's settings that only a design file states (full recomputation of some
layers of each stage, the optimizer step in the backward pass) survive an edit of the group on
the Workloads page, which does not ask for them; an edit keeps what the page does not show."""

from __future__ import annotations

import json

from tests.engine.conftest import hgx_training
from tests.gui.helpers import type_into
from wizard.gui.wizard import PageId


def _open(window, tmp_path, **settings):
    doc = hgx_training(1, 2000, 60, {})
    doc["workloads"][0].update(settings)
    path = tmp_path / "design.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert window.open_path(path)
    assert window.wizard.go_to(PageId.WORKLOADS)
    page = window.wizard.page_of(PageId.WORKLOADS)
    page.table.selectRow(0)
    return page


def test_an_edit_keeps_the_layers_recomputed_and_the_optimizer_in_the_backward_pass(
    qtbot, window, tmp_path
):
    page = _open(window, tmp_path, recompute="full", recompute_layers=5,
                 optimizer_in_backward=True)  # fmt: skip
    type_into(qtbot, page.editor.micro_batch, "2")
    group = window.doc.get("workloads")[0]
    assert group.micro_batch_size == 2
    assert group.recompute_layers == 5
    assert group.optimizer_in_backward is True


def test_a_group_without_them_stays_without_them(qtbot, window, tmp_path):
    """Negative case: nothing is added to a group that did not state them."""
    page = _open(window, tmp_path)
    type_into(qtbot, page.editor.micro_batch, "2")
    group = window.doc.get("workloads")[0]
    assert group.micro_batch_size == 2
    assert group.recompute_layers is None
    assert group.optimizer_in_backward is False


def test_pure_bf16_and_compile_are_asked_and_reach_the_design(qtbot, window, tmp_path):
    """The Training section asks for pure BF16, torch.compile and the loss by their labels;
    ticking and choosing them sets the group's fields."""
    page = _open(window, tmp_path)
    editor = page.editor
    labels = [editor.errors.rows[k][0] for k in ("pure_bf16", "compiled", "chunked_loss")]
    assert labels == ["Model states", "Compilation", "Loss over the vocabulary"]
    loss = editor.train_box.chunked_loss
    assert loss.currentText() == "as the training software computes it"
    assert editor.train_box.pure_bf16.text() == "Pure BF16 (no FP32 master weights)"
    editor.train_box.pure_bf16.click()
    editor.train_box.compiled.click()
    group = window.doc.get("workloads")[0]
    assert group.pure_bf16 is True and group.compiled is True
    assert group.chunked_loss is None
    loss.setCurrentIndex(loss.index_of(False))
    assert window.doc.get("workloads")[0].chunked_loss is False


def test_a_design_with_pure_bf16_opens_with_it_ticked(qtbot, window, tmp_path):
    """Negative case for the other box: only what the design states is ticked."""
    page = _open(window, tmp_path, pure_bf16=True)
    assert page.editor.train_box.pure_bf16.isChecked()
    assert not page.editor.train_box.compiled.isChecked()
