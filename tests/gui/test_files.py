"""Open, save, recent files, the unsaved marker and the question before losing changes."""

from __future__ import annotations

from PySide6.QtCore import QSettings

from tests.gui.helpers import type_into
from wizard.app.io import design_from_text, load_design
from wizard.base.bundled import example_text
from wizard.gui.prompts import CANCEL, DISCARD, SAVE, PromptKind
from wizard.gui.wizard import PageId


def _example(tmp_path, name="enterprise"):
    path = tmp_path / f"{name}.json"
    path.write_text(example_text(name), encoding="utf-8")
    return path


def test_open_save_round_trip(qtbot, window, prompts, tmp_path):
    src = _example(tmp_path)
    assert window.open_path(src)
    assert window.windowTitle().startswith("enterprise.json") and not window.isWindowModified()
    assert window.doc.design() == design_from_text(example_text("enterprise"))
    # every page shows the opened design
    assert window.wizard.page_of(PageId.PROJECT).customer.text() == "Example Corp"
    assert window.wizard.page_of(PageId.HARDWARE).gpu.get() == "v100-sxm2-32gb"
    assert len(window.wizard.page_of(PageId.WORKLOADS).rows) == 5
    copy = tmp_path / "copy.json"
    prompts.answers.append(str(copy))
    assert window.save_as()
    assert load_design(copy) == load_design(src)
    assert window.windowTitle().startswith("copy.json")


def test_unsaved_marker_follows_edits_and_saves(qtbot, window, tmp_path):
    src = _example(tmp_path)
    window.open_path(src)
    type_into(qtbot, window.wizard.page_of(PageId.PROJECT).customer, "Changed Corp")
    assert window.isWindowModified() and "[*]" in window.windowTitle()
    assert window.save()  # to the same path, no question asked
    assert not window.isWindowModified()
    assert load_design(src).project.customer == "Changed Corp"


def test_closing_with_unsaved_changes_asks(qtbot, make_window, prompts, tmp_path):
    w = make_window()
    type_into(qtbot, w.wizard.page_of(PageId.PROJECT).customer, "Unsaved")
    prompts.answers.append(CANCEL)
    assert not w.close()
    assert w.isVisible()
    assert prompts.asked[-1].kind is PromptKind.QUESTION
    assert set(prompts.asked[-1].buttons) == {SAVE, DISCARD, CANCEL}
    # Save needs a complete design: the hardware is missing, so it says so and stays open.
    prompts.answers.append(SAVE)
    assert not w.close()
    assert prompts.asked[-1].kind is PromptKind.ERROR
    assert "hardware" in "\n".join(prompts.asked[-1].details)
    prompts.answers.append(DISCARD)
    assert w.close()


def test_save_answer_writes_the_file_before_closing(qtbot, make_window, prompts, tmp_path):
    w = make_window()
    w.open_path(_example(tmp_path, "starter"))
    type_into(qtbot, w.wizard.page_of(PageId.PROJECT).architect, "A. Architect")
    prompts.answers.append(SAVE)
    assert w.close()
    assert load_design(tmp_path / "starter.json").project.architect == "A. Architect"


def test_new_and_open_ask_first_when_there_are_changes(qtbot, window, prompts, tmp_path):
    type_into(qtbot, window.wizard.page_of(PageId.PROJECT).customer, "Work in progress")
    prompts.answers.append(CANCEL)
    window.new_design()
    assert window.doc.get("project").customer == "Work in progress"
    prompts.answers.append(DISCARD)
    window.new_design()
    assert window.doc.get("project").customer == ""
    assert window.wizard.page_of(PageId.PROJECT).customer.text() == ""


def test_recent_files_are_remembered_in_order(qtbot, window, tmp_path):
    a = _example(tmp_path, "starter")
    b = _example(tmp_path, "enterprise")
    window.open_path(a)
    assert window.recent_files() == [str(a.resolve())]  # one item still reads as a list
    window.open_path(b)
    window.open_path(a)
    assert window.recent_files() == [str(a.resolve()), str(b.resolve())]
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    assert settings.value("recent_files", [], type=list) == window.recent_files()
    window._fill_recent()
    titles = [a.text() for a in window.recent_menu.actions()]
    assert titles[0].endswith("starter.json")


def test_a_bad_file_is_refused_with_the_field_named(qtbot, window, prompts, tmp_path):
    bad = tmp_path / "bad.json"
    text = example_text("starter").replace('"count": 8', '"count": -3', 1)
    assert text != example_text("starter")
    bad.write_text(text)
    assert not window.open_path(bad)
    error = prompts.asked[-1]
    assert error.kind is PromptKind.ERROR
    assert any("count" in line and "-3" in line for line in [error.text, *error.details])
    assert window.doc.path is None


def test_file_menu_has_the_standard_shortcuts(window):
    from PySide6.QtGui import QKeySequence

    K = QKeySequence.StandardKey
    for action, key in (
        (window.new_action, K.New),
        (window.open_action, K.Open),
        (window.save_action, K.Save),
        (window.save_as_action, K.SaveAs),
        (window.quit_action, K.Quit),
    ):
        assert action.shortcut() == QKeySequence(key)
    texts = [a.text() for a in window.menuBar().actions()[0].menu().actions()]
    assert {"&New", "&Open…", "Open &Recent", "&Save", "Save &As…", "&Export…", "&Quit"} <= set(
        texts
    )


def test_save_as_asks_before_the_added_suffix_replaces_a_file(qtbot, window, prompts, tmp_path):
    """The file dialog confirms 'other' as typed; saving adds '.json', which may name a file
    the dialog never asked about."""
    from wizard.gui.prompts import REPLACE

    src = _example(tmp_path)
    window.open_path(src)
    other = tmp_path / "other.json"
    other.write_text("keep me", encoding="utf-8")
    prompts.answers += [str(tmp_path / "other"), CANCEL]
    assert not window.save_as()
    assert other.read_text(encoding="utf-8") == "keep me"
    assert prompts.asked[-1].kind is PromptKind.QUESTION and "other.json" in prompts.asked[-1].text
    prompts.answers += [str(tmp_path / "other"), REPLACE]
    assert window.save_as()
    assert load_design(other) == load_design(src)


def test_a_design_open_in_another_window_asks_first(qtbot, make_window, prompts, tmp_path):
    """Like an office suite, the window that opens a design keeps a lock file beside it; a
    second window asks before opening it too."""
    from wizard.gui.prompts import OPEN

    src = _example(tmp_path)
    first = make_window()
    assert first.open_path(src)
    assert (tmp_path / ".~lock.enterprise.json#").exists()
    second = make_window()
    prompts.answers.append(CANCEL)
    assert not second.open_path(src, ask=False)
    assert prompts.asked[-1].title == "Open in another window"
    prompts.answers.append(OPEN)
    assert second.open_path(src, ask=False)
    first.doc.dirty = False
    assert first.close()
    assert not (tmp_path / ".~lock.enterprise.json#").exists()


def test_saving_over_a_file_changed_on_disk_asks(qtbot, window, prompts, tmp_path):
    """Window A saves, window B saves, A saves again unedited: B's change used to be reverted
    silently. A save over a file that changed since it was opened or saved asks first."""
    import os as _os

    from wizard.gui.prompts import REPLACE

    src = _example(tmp_path)
    assert window.open_path(src)
    other = load_design(src).model_copy(deep=True)
    other.project.customer = "Saved by the other window"
    from wizard.app.io import save_design

    save_design(other, src)
    st = src.stat()
    _os.utime(src, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    prompts.answers.append(CANCEL)
    assert not window.save()
    assert load_design(src).project.customer == "Saved by the other window"
    assert prompts.asked[-1].title == "The file changed on disk"
    prompts.answers.append(REPLACE)
    assert window.save()
    assert load_design(src).project.customer == "Example Corp"
    assert window.save()  # no change on disk since: no question
    assert prompts.asked[-1].title == "The file changed on disk" and len(prompts.answers) == 0


def test_a_design_of_several_clusters_is_sized_whole_and_kept_whole(qtbot, window, prompts,
                                                                    tmp_path):  # fmt: skip
    """The wizard edits the first cluster; a design of three is sized as three (the Review page
    and the status bar give each cluster and the totals), and a save keeps the other two."""
    import json

    from tests.engine.test_estate import acme

    src = tmp_path / "acme.json"
    src.write_text(json.dumps(acme()), encoding="utf-8")
    assert window.open_path(src)
    window.live.refresh()
    e = window.live.estate
    assert e is not None and len(e.clusters) == 3 and window.live.problems == []
    assert window.status.text().startswith(f"3 clusters · {e.totals.hosts} hosts · ")
    window.wizard.go_to(PageId.REVIEW)
    review = window.wizard.page_of(PageId.REVIEW)
    lines = review.clusters_note.text().splitlines()
    assert [line.split(" (")[0] for line in lines] == [c.name for c in e.clusters]
    assert review.cards.cards["hosts"].value.text() == f"{e.totals.hosts:,}"
    assert review.workloads.rowCount() == 3
    copy = tmp_path / "copy.json"
    prompts.answers.append(str(copy))
    assert window.save_as()
    assert [c.name for c in load_design(copy).clusters] == ["HGX cluster", "Management domain"]
    assert load_design(copy) == load_design(src)


def test_the_status_bar_counts_the_hosts_and_gpus_of_one_cluster(qtbot, window, tmp_path):
    """hgx-h200-llm: 3 hosts of 8 H200, 24 GPUs (the example's sized cluster): the status bar
    says both, with the nouns that agree, before the warnings."""
    from wizard.base.bundled import example_text

    src = tmp_path / "hgx.json"
    src.write_text(example_text("hgx-h200-llm"), encoding="utf-8")
    assert window.open_path(src)
    window.live.refresh()
    (one,) = window.live.plan.clusters
    c = one.result.cluster
    assert (c.hosts_total, c.gpus_total) == (3, 24)
    assert window.status.text().startswith("3 hosts · 24 GPUs · ")
