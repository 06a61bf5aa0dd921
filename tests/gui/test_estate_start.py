"""The first page's "Start from an existing estate…": the files are read and what they hold is
shown before anything enters the design; "Put into the design" makes it the design's existing
clusters, Discard leaves the design as it was, and a bad file is said in one message."""

from __future__ import annotations

import os

from tests.estate_import.test_existing_in_design import _notebook_estate
from tests.gui.helpers import click
from wizard.gui.estate_panel import PUT, START
from wizard.gui.prompts import PromptKind
from wizard.gui.wizard import PageId


def _panel(window):
    return window.wizard.page_of(PageId.PROJECT).estate


def test_the_findings_are_shown_before_the_estate_enters_the_design(
    qtbot, window, prompts, tmp_path
):
    panel = _panel(window)
    assert panel.start.text() == START and panel.state.text() == "The design starts from nothing."
    prompts.answers.append([str(_notebook_estate(tmp_path))])
    click(qtbot, panel.start)
    assert prompts.kinds() == [PromptKind.OPEN_FILES]
    shown = panel.findings.toPlainText()
    # three R750xa hosts with four A100 PCIe 80GB each, six MIG-backed vGPUs (A100D-3-40C)
    assert "Hosts: 3" in shown and "GPUs: 12" in shown and "A100D-3-40C" in shown
    assert panel.found.isVisible() and panel.put.text() == PUT
    assert "1 cluster with 3 hosts" in panel.state.text()
    assert window.doc.get("existing").clusters == []  # not yet in the design
    if os.environ.get("GPUWIZARD_SHOTS"):
        window.grab().save(os.path.join(os.environ["GPUWIZARD_SHOTS"], "estate-findings.png"))
    click(qtbot, panel.put)
    (cluster,) = window.doc.get("existing").clusters
    assert (cluster.name, len(cluster.hosts)) == ("Notebooks", 3)
    assert not panel.found.isVisible()
    assert "keeps the estate's 1 existing cluster (Notebooks; 3 hosts)" in panel.state.text()
    window.doc.undo_stack.undo()
    assert window.doc.get("existing").clusters == []
    assert panel.state.text() == "The design starts from nothing."


def test_discard_leaves_the_design_as_it_was(qtbot, window, prompts, tmp_path):
    panel = _panel(window)
    prompts.answers.append([str(_notebook_estate(tmp_path))])
    click(qtbot, panel.start)
    click(qtbot, panel.discard)
    assert window.doc.get("existing").clusters == [] and not panel.found.isVisible()


def test_a_file_that_is_no_estate_is_said_in_one_message(qtbot, window, prompts, tmp_path):
    bad = tmp_path / "notes.csv"
    bad.write_text("a,b\n1,2\n", encoding="utf-8")
    panel = _panel(window)
    prompts.answers.append([str(bad)])
    click(qtbot, panel.start)
    assert prompts.kinds() == [PromptKind.OPEN_FILES, PromptKind.ERROR]
    assert "notes.csv" in prompts.asked[-1].text
    assert not panel.found.isVisible() and window.doc.get("existing").clusters == []


def test_cancelling_the_file_choice_reads_nothing(qtbot, window, prompts):
    panel = _panel(window)
    prompts.answers.append([])
    click(qtbot, panel.start)
    assert not panel.found.isVisible()


def test_the_review_shows_kept_added_and_changed(qtbot, window, tmp_path):
    from tests.conftest import ROOT

    path = tmp_path / "expansion.json"
    sample = ROOT / "tests" / "data" / "estate" / "expansion.json"
    path.write_text(sample.read_text("utf-8"), "utf-8")
    assert window.open_path(path)
    assert window.wizard.go_to(PageId.REVIEW)
    lines = window.wizard.page_of(PageId.REVIEW).clusters_note.text().splitlines()
    # three kept R750xa, none added; three new XE9680 for the chat and LoRA groups
    assert lines[0].startswith(
        "Notebooks A100 (GPU cluster): 3 hosts × Dell PowerEdge R750xa (3 existing, kept; 0 to add)"
    )
    assert lines[1].startswith("GPU cluster (GPU cluster): 3 hosts × Dell PowerEdge XE9680, ")
    assert lines[2] == (
        "To change on Notebooks A100's 3 hosts: NVIDIA host driver of NVIDIA AI Enterprise 9 "
        "(branch R620) (3 host reboots)"
    )
