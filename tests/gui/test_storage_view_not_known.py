"""The Review's storage view words what is not known as the proposal does: a training group
sized by its GPU count shows "not known" for its checkpoints, and the checkpoints' total names
the groups it leaves out (the enterprise example; see tests/engine/test_storage_kept_not_known.py)."""

from __future__ import annotations

from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict
from wizard.engine import plan
from wizard.gui.widgets.result_tables import StorageView

COUNTED = ["High-performance researchers", "Distributed ML workers"]


def test_checkpoints_nobody_can_know_read_not_known(qtbot, catalog):
    (cluster,) = plan(design_from_dict(design_dict("enterprise")), catalog).clusters
    view = StorageView()
    qtbot.addWidget(view)
    view.show_result(cluster.result.storage)
    t = view.needs
    rows = {t.item(r, 0).text(): [t.item(r, c).text() for c in range(t.columnCount())]
            for r in range(t.rowCount())}  # fmt: skip
    for name in COUNTED:
        assert rows[name][2] == "not known", name
    summary = {view.summary.item(r, 0).text(): view.summary.item(r, 1).text()
               for r in range(view.summary.rowCount())}  # fmt: skip
    # nothing of the checkpoints is known: the total says so rather than "0 GB"
    assert (
        summary["Checkpoints"]
        == "not known for High-performance researchers, Distributed ML workers"
    )
    # their model files are known (training from scratch reads none): the total is 0 GB
    assert summary["Model files"] == "0.0 GB"
