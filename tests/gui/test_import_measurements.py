"""Import measurements… on the Workloads page: the selected group fitted to benchmark files
(docs/measurements, published NIM runs), one undoable step; a file the model cannot explain is
not applied and says why; the Review says what its figures rest on."""

from __future__ import annotations

import json

from tests.conftest import ROOT
from tests.gui.helpers import click, pick, type_into
from tests.measure.test_fit import _design
from wizard.gui.prompts import PromptKind
from wizard.gui.wizard import PageId
from wizard.model.design import Precision

FILES = ROOT / "docs" / "measurements"


def _open(window, tmp_path):
    path = tmp_path / "design.json"
    design = {**_design(1), "project": {"project_name": "Calibrated chat"}}
    path.write_text(json.dumps(design), encoding="utf-8")
    assert window.open_path(path)
    assert window.wizard.go_to(PageId.WORKLOADS)
    page = window.wizard.page_of(PageId.WORKLOADS)
    page.table.selectRow(0)
    return page


def test_import_calibrates_the_selected_group(qtbot, window, prompts,
                                                                   tmp_path):  # fmt: skip
    page = _open(window, tmp_path)
    assert page.measure_button.isEnabled()
    prompts.answers.append([str(FILES / "nim-70b-h100-tp2-c1.aiperf.json"),
                            str(FILES / "nim-70b-h100-tp2-c5.aiperf.json")])  # fmt: skip
    click(qtbot, page.measure_button)
    asked = prompts.asked[-1]
    assert asked.kind is PromptKind.INFO and "is calibrated on 2 file(s)" in asked.text
    group = window.doc.get("workloads")[0]
    assert group.calibration is not None
    assert {s.file for s in group.calibration.sources} == {
        "nim-70b-h100-tp2-c1.aiperf.json", "nim-70b-h100-tp2-c5.aiperf.json"
    }  # fmt: skip
    # an edit of the load keeps the calibration (it belongs to the model and precision)
    type_into(qtbot, page.editor.concurrent, "2")
    assert window.doc.get("workloads")[0].inference.concurrent_sequences == 2
    assert window.doc.get("workloads")[0].calibration is not None
    type_into(qtbot, page.editor.concurrent, "1")
    # the Review says what the figures rest on
    window.live.refresh()
    assert window.wizard.go_to(PageId.REVIEW)
    review = window.wizard.page_of(PageId.REVIEW)
    cell = review.serving.item(0, review.serving.columnCount() - 1)
    assert cell.text() == "calibrated; measured at this load"  # the design's load is c1's
    assert cell.toolTip() == (
        "calibrated on your measurements; time to first token, time between tokens, "
        "throughput also measured at this load"
    )
    # another precision is another measurement: the calibration goes with the change
    assert window.wizard.go_to(PageId.WORKLOADS)
    pick(page.editor.model_box.precision, Precision.BF16)
    assert window.doc.get("workloads")[0].precision is Precision.BF16
    assert window.doc.get("workloads")[0].calibration is None


def test_a_file_the_model_cannot_explain_is_not_applied(qtbot, window, prompts, tmp_path):
    """The c1 run altered to 30 ms between tokens: slower at one request than the c5 run's
    21.83 ms at five, which no one bandwidth efficiency explains."""
    page = _open(window, tmp_path)
    slow = json.loads((FILES / "nim-70b-h100-tp2-c1.aiperf.json").read_text(encoding="utf-8"))
    slow["inter_token_latency"]["avg"] = 30.0
    slow["output_token_throughput"]["avg"] = 500 / (0.40677 + 499 * 0.030)
    altered = tmp_path / "slow-c1.aiperf.json"
    altered.write_text(json.dumps(slow), encoding="utf-8")
    prompts.answers.append([str(altered),
                            str(FILES / "nim-70b-h100-tp2-c5.aiperf.json")])  # fmt: skip
    click(qtbot, page.measure_button)
    asked = prompts.asked[-1]
    assert asked.kind is PromptKind.ERROR and asked.text.startswith("Not applied")
    assert any("DISAGREES" in line for line in asked.details)
    assert window.doc.get("workloads")[0].calibration is None


def test_one_undo_takes_the_calibration_back(qtbot, window, prompts, tmp_path):
    page = _open(window, tmp_path)
    prompts.answers.append([str(FILES / "nim-70b-h100-tp2-c1.aiperf.json")])
    click(qtbot, page.measure_button)
    assert window.doc.get("workloads")[0].calibration is not None
    window.doc.undo_stack.undo()
    assert window.doc.get("workloads")[0].calibration is None


def test_cancelling_the_file_choice_changes_nothing(qtbot, window, prompts, tmp_path):
    page = _open(window, tmp_path)
    prompts.answers.append([])
    click(qtbot, page.measure_button)
    assert window.doc.get("workloads")[0].calibration is None
    assert not window.doc.dirty
