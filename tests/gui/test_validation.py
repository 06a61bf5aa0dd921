"""Bad answers show a message under the field that caused them; Next waits, saying why;
Back keeps what was typed."""

from __future__ import annotations

from tests.gui.helpers import back_button, click, go_next, next_button, pick, type_into
from wizard.gui.wizard import PageId
from wizard.model.design import WorkloadKind


def _to_workloads(qtbot, w):
    type_into(qtbot, w.wizard.page_of(PageId.PROJECT).project_name, "Validation")
    go_next(qtbot, w)
    page = w.wizard.page_of(PageId.WORKLOADS)
    click(qtbot, page.add_button)
    return page


def test_custom_model_error_appears_under_the_field_and_blocks_next(qtbot, window):
    page = _to_workloads(qtbot, window)
    ed = page.editor
    pick(ed.preset, "__custom__")
    type_into(qtbot, ed.c_hidden, "4096")
    type_into(qtbot, ed.c_heads, "30")
    # The whole-model rule names both fields and appears next to the model answers.
    row = ed.errors.rows["model"][1]
    assert row.error.isVisibleTo(ed)
    assert "the hidden size (4096) must be a multiple of the attention heads (30)" in (
        row.error.text()
    )
    assert not next_button(window).isEnabled()
    assert "hidden size (4096)" in page.reason.text()
    # The table flags the group; the Design still holds its last valid version.
    assert page.table.item(0, 4).toolTip().startswith("Model")
    assert window.doc.get("workloads")[0].model.custom.heads == 32  # the default shape
    type_into(qtbot, ed.c_heads, "16")
    assert not row.error.isVisibleTo(ed)
    assert next_button(window).isEnabled()
    assert window.doc.get("workloads")[0].model.custom.heads == 16


def test_duplicate_names_and_empty_names_are_refused(qtbot, window):
    page = _to_workloads(qtbot, window)
    click(qtbot, page.add_button)
    ed = page.editor
    first = page.rows[0].group.name
    type_into(qtbot, ed.name, first)
    assert (
        f"'{first}' is already the name of another group" in ed.errors.rows["name"][1].error.text()
    )
    assert not next_button(window).isEnabled()
    type_into(qtbot, ed.name, "")
    assert "Name" in ed.errors.rows["name"][1].error.text()
    type_into(qtbot, ed.name, "Second")
    assert next_button(window).isEnabled()


def test_an_invalid_draft_survives_switching_rows(qtbot, window):
    page = _to_workloads(qtbot, window)
    click(qtbot, page.add_button)
    page.table.selectRow(0)
    pick(page.editor.preset, "__custom__")
    type_into(qtbot, page.editor.c_heads, "31")
    page.table.selectRow(1)
    assert page.editor.preset.get() != "__custom__" or page.editor.c_heads.value() != 31
    page.table.selectRow(0)
    assert page.editor.c_heads.value() == 31
    assert not next_button(window).isEnabled()


def test_only_the_questions_of_the_kind_are_shown(qtbot, window):
    ed = _to_workloads(qtbot, window).editor
    shown = {}
    for kind in WorkloadKind:
        pick(ed.kind, kind)
        shown[kind] = {
            name
            for name in ("model_box", "train_box", "par_box", "inf_box", "shared_box")
            if getattr(ed, name).isVisibleTo(ed)
        }
    assert shown[WorkloadKind.TRAINING] == {"model_box", "train_box", "par_box"}
    assert shown[WorkloadKind.FINE_TUNING] == {"model_box", "train_box", "par_box"}
    assert shown[WorkloadKind.INFERENCE] == {"model_box", "par_box", "inf_box"}
    assert shown[WorkloadKind.DEVELOPMENT] == {"shared_box"}
    assert shown[WorkloadKind.HPC] == {"shared_box"}
    click(qtbot, ed.by_count)
    assert not any(
        getattr(ed, n).isVisibleTo(ed)
        for n in ("model_box", "train_box", "par_box", "inf_box", "shared_box")
    )


def test_terms_have_one_sentence_tooltips(qtbot, window):
    ed = _to_workloads(qtbot, window).editor
    for widget in (ed.precision, ed.micro_batch, ed.recompute, ed.zero, ed.tp, ed.pp, ed.epochs,
                   ed.concurrent, ed.context):  # fmt: skip
        text = widget.toolTip()
        assert text.endswith(".") and text.count(". ") == 0, text
    assert "KV cache" in ed.kv_note.text()


def test_back_keeps_what_was_typed(qtbot, window):
    w = window
    project = w.wizard.page_of(PageId.PROJECT)
    type_into(qtbot, project.customer, "Keep Co")
    page = _to_workloads(qtbot, w)
    type_into(qtbot, page.editor.name, "Kept group")
    type_into(qtbot, page.editor.count, "7")
    go_next(qtbot, w)
    hw = w.wizard.page_of(PageId.HARDWARE)
    pick(hw.gpu, "a30")
    click(qtbot, back_button(w))
    assert w.wizard.currentId() == PageId.WORKLOADS
    assert page.editor.name.text() == "Kept group" and page.editor.count.value() == 7
    click(qtbot, back_button(w))
    assert project.customer.text() == "Keep Co"
    assert project.project_name.text() == "Validation"
    go_next(qtbot, w)
    go_next(qtbot, w)
    assert hw.gpu.get() == "a30"


def test_a_sizing_problem_shows_on_its_group_and_field_in_the_wizards_words(
    qtbot, window, tmp_path
):
    """mig-shared: a time between tokens of 0.5 ms makes the assistant (group 2 of 3) need 4
    GPUs per replica, which MIG-backed vGPUs cannot join. The Workloads page marks that group
    only, and with it selected, the Sharing mode field says why, by its label, not by a path."""
    import json

    from wizard.base.bundled import example_text
    from wizard.gui.wizard import PageId

    doc = json.loads(example_text("mig-shared"))
    doc["workloads"][1]["inference"]["itl_target_ms"] = 0.5
    path = tmp_path / "d.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert window.open_path(path)
    window.live.refresh()
    window.wizard.go_to(PageId.WORKLOADS)
    page = window.wizard.page_of(PageId.WORKLOADS)
    window.live.refresh()
    tips = [page.table.item(i, 4).toolTip() for i in range(3)]
    assert tips[0].startswith("Valid.") and tips[2].startswith("Valid.")
    assert tips[1].startswith("Sharing mode: 'Llama 3 8B assistant' needs 4 GPUs per replica")
    assert "workloads[" not in tips[1]
    page.table.selectRow(1)
    label, row = page.editor.errors.rows["sharing_mode"]
    assert label == "Sharing mode"
    assert row.error.isVisibleTo(page.editor)
    assert row.error.text().startswith("Sharing mode: 'Llama 3 8B assistant' needs 4 GPUs")
    page.table.selectRow(0)
    assert not row.error.isVisibleTo(page.editor)


def test_the_review_page_says_a_problem_by_group_and_label(qtbot, window, tmp_path):
    """The Review page, too, names the group and the field's label, never the path."""
    import json

    from wizard.base.bundled import example_text
    from wizard.gui.wizard import PageId

    doc = json.loads(example_text("mig-shared"))
    doc["workloads"][1]["inference"]["itl_target_ms"] = 0.5
    path = tmp_path / "d.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert window.open_path(path)
    window.live.refresh()
    review = window.wizard.page_of(PageId.REVIEW)
    (line,) = review.problems()
    assert line.startswith("Llama 3 8B assistant: Sharing mode: 'Llama 3 8B assistant' needs 4")
    assert "workloads[" not in line
    assert window.wizard.said("hardware.gpu: unknown GPU 'x'") == "GPU: unknown GPU 'x'"
    assert window.wizard.said("no path here") == "no path here"


def test_a_field_named_inside_a_message_reads_as_its_label_and_page(window):
    """The labels the proposal and the wizard use for a field named mid-sentence are the ones
    its form shows: each path of the table against the Hardware page's rows."""
    from wizard.gui.wizard import PageId
    from wizard.present.fields import FIELDS

    hw = window.wizard.page_of(PageId.HARDWARE)
    ha = window.wizard.page_of(PageId.HA)
    forms = {"hardware": (hw, hw.errors), "data": (hw, hw.data_errors), "ha": (ha, ha.errors)}
    for path, (label, where) in FIELDS.items():
        section, key = path.split(".", 1)
        if section in forms:
            page, form = forms[section]
            assert where == f"on the {page.title()} page", path
            assert form.rows[key][0] == label, path
    said = window.wizard.said("warning text: no storage system is chosen (hardware.storage)")
    assert said == "warning text: no storage system is chosen (Storage system on the Hardware page)"
    assert window.wizard.said("hardware.storage_nodes: x") != "Storage system on the Hardware page"


def test_a_line_break_pasted_from_word_becomes_a_plain_one(qtbot, window):
    """Word's manual line break (U+000B) and Unicode's paragraph separator pasted into the notes
    are taken as line breaks, not refused; the design then holds plain newlines."""
    project = window.wizard.page_of(PageId.PROJECT)
    type_into(qtbot, project.project_name, "Pasted")
    project.notes.setPlainText("Goals\x0bfirst line\u2029second")
    info = window.doc.get("project")
    assert info is not None and info.notes == "Goals\nfirst line\nsecond"
    assert not project.errors.rows["notes"][1].error.isVisibleTo(project)


def test_a_design_file_with_that_character_is_still_refused():
    """The negative case: a file is not a paste, so the text gate refuses it by field."""
    import pytest

    from wizard.app.io import design_from_dict
    from wizard.base.errors import DesignError

    doc = {"project": {"notes": "Goals\x0bfirst"}, "workloads": [], "hardware": {
        "gpu": "l40s", "server": "dell-r760xa", "gpus_per_host": 2}}  # fmt: skip
    with pytest.raises(DesignError) as info:
        design_from_dict(doc)
    assert "project.notes" in info.value.problems[0] and "U+000B" in info.value.problems[0]


def test_the_project_name_is_not_red_before_any_typing_and_its_error_clears(qtbot, window):
    """A new design: no red under Project name yet, though Next waits and says why; once the
    user has been in the field and left it empty the message shows; a name clears it."""
    page = window.wizard.page_of(PageId.PROJECT)
    row = page.errors.rows["project_name"][1]
    assert not row.error.isVisibleTo(page)
    assert not next_button(window).isEnabled()
    assert "Project name" in page.reason.text()
    type_into(qtbot, page.project_name, "x")
    page.project_name.clear()  # typed and taken back: now it is said at the field
    assert row.error.isVisibleTo(page) and "give the project a name" in row.error.text()
    type_into(qtbot, page.project_name, "Acme")
    assert not row.error.isVisibleTo(page)
    assert next_button(window).isEnabled()


def test_members_past_its_range_is_refused_with_the_range_and_the_message_clears(qtbot, window):
    """99,999,999 typed in Jobs (a training group's count) is not silently cut: the field says the range and
    what it keeps; typing a value it takes (even the one it holds) clears the message."""
    from wizard.model.design import MAX_GROUP_COUNT

    page = _to_workloads(qtbot, window)
    ed = page.editor
    row = ed.errors.rows["count"][1]
    type_into(qtbot, ed.count, "99999999")
    # six nines are taken; the seventh would make 9,999,999, past the most (1,000,000)
    assert MAX_GROUP_COUNT == 1_000_000 and ed.count.value() == 999_999
    assert row.error.isVisibleTo(ed)
    assert row.error.text() == (
        "Jobs: 9,999,999 is not taken: the allowed range is 0 to 1,000,000, so the field "
        "keeps 999,999"
    )
    edit = ed.count.lineEdit()
    edit.selectAll()
    edit.insert("999999")  # pasted: the value it holds already, so the value does not change
    assert ed.count.value() == 999_999
    assert not row.error.isVisibleTo(ed)
    type_into(qtbot, ed.count, "12")
    assert window.doc.get("workloads")[0].count == 12
