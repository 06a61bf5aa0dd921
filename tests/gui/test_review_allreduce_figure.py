"""The Review's all-reduce time reads as the proposal's does. A tensor-parallel all-reduce over
NVLink can take well under a millisecond an iteration: set to three decimals it read "0.000 s",
a figure that says nothing, while the proposal said "4.2 × 10⁻⁴ s"."""

from __future__ import annotations

from PySide6.QtWidgets import QTableWidget

from wizard.app.io import design_from_text
from wizard.base.bundled import example_text
from wizard.engine import plan


def _allreduce_cell(catalog, seconds: float) -> str:
    from wizard.gui.pages.review_tables import fill_workloads

    design = design_from_text(example_text("bert-large-25gbe"))
    (w,) = plan(design, catalog).workloads
    assert w.training is not None
    training = w.training.model_copy(update={"allreduce_seconds_per_iteration": seconds})
    w = w.model_copy(update={"training": training})
    table = QTableWidget(0, 7)
    fill_workloads(table, [w], design, lambda name: {})
    item = table.item(0, 6)
    assert item is not None
    return item.text()


def test_a_sub_millisecond_all_reduce_is_not_shown_as_zero(qtbot, catalog):
    text = _allreduce_cell(catalog, 0.00042)
    assert text.startswith("4.2 × 10⁻⁴ s") and "0.000" not in text


def test_a_second_scale_all_reduce_reads_in_seconds(qtbot, catalog):
    """1.5 s reads to three significant figures, as every figure of the proposal does: 1.50 s,
    not 1.500 s."""
    assert _allreduce_cell(catalog, 1.5).startswith("1.50 s")
