"""Autosave to the state directory, and recovery after a crash (a killed process)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

from tests.conftest import ROOT
from tests.gui.helpers import type_into
from wizard.base.bundled import example_text
from wizard.gui import autosave
from wizard.gui.prompts import DISCARD, RECOVER, PromptKind
from wizard.gui.wizard import PageId


def _crash(tmp_path) -> tuple:
    state = tmp_path / "state"
    state.mkdir()
    design = tmp_path / "enterprise.json"
    design.write_text(example_text("enterprise"))
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.gui.crashing_window", str(state), str(design)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline().strip()
        assert line == "autosaved", proc.stderr.read() if proc.poll() is not None else line
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert list(state.glob("autosave-*.json"))
    return state, design


def test_the_next_start_offers_the_autosave_of_a_crashed_window(qtbot, make_window, prompts,
                                                                 tmp_path):  # fmt: skip
    state, design = _crash(tmp_path)
    w = make_window(state_dir=state)
    prompts.answers.append(RECOVER)
    assert w.offer_recovery()
    question = prompts.asked[-1]
    assert question.kind is PromptKind.QUESTION and "enterprise.json" in question.text
    assert w.doc.get("project").customer == "Edited before the crash"
    assert w.wizard.page_of(PageId.PROJECT).customer.text() == "Edited before the crash"
    assert w.doc.path == design.resolve() and w.isWindowModified()
    # the crashed window's file is gone; this window's own autosave holds the recovered work
    files = list(state.glob("autosave-*.json"))
    assert files == [w.autosaver.path]
    # the file on disk was never touched
    assert "Edited before the crash" not in design.read_text()


def test_declining_recovery_discards_the_autosave(qtbot, make_window, prompts, tmp_path):
    state, _ = _crash(tmp_path)
    w = make_window(state_dir=state)
    prompts.answers.append(DISCARD)
    assert not w.offer_recovery()
    assert not list(state.glob("autosave-*.json"))
    assert not w.offer_recovery()  # nothing asked the second time
    assert len(prompts.asked) == 1


def test_autosave_writes_only_after_changes_and_a_clean_close_removes_it(qtbot, make_window,
                                                                         tmp_path):  # fmt: skip
    w = make_window(autosave_ms=50)
    assert not w.autosaver.save_now()  # nothing changed yet
    type_into(qtbot, w.wizard.page_of(PageId.PROJECT).customer, "Draft")
    qtbot.waitUntil(lambda: w.autosaver.path.exists(), timeout=3000)
    orphans_seen_by_others = autosave.find_orphans(w.autosaver.directory)
    assert orphans_seen_by_others == []  # a live window's autosave is not an orphan
    # a draft without hardware (not yet a valid design file) is autosaved section by section
    assert "Draft" in w.autosaver.path.read_text()
    w.doc.dirty = False
    assert w.close()
    assert not w.autosaver.path.exists()


def test_an_unwritable_state_directory_is_reported_not_fatal(qtbot, make_window, tmp_path):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the state directory should be")
    w = make_window(state_dir=blocker / "state")
    type_into(qtbot, w.wizard.page_of(PageId.PROJECT).customer, "Draft")
    assert not w.autosaver.save_now()
    assert w.autosaver.last_error and "not-a-dir" in w.autosaver.last_error
    w.live.refresh()
    assert "autosave failed" in w.status.text()


def _crash_into(state, design) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.gui.crashing_window", str(state), str(design)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert proc.stdout.readline().strip() == "autosaved"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)


def test_every_crashed_window_is_offered(qtbot, make_window, prompts, tmp_path):
    """Two windows crashed: the first draft is recovered here, the second is kept for the next
    start (not deleted), and offered then."""
    from wizard.gui.prompts import KEEP

    state, design = _crash(tmp_path)
    _crash_into(state, design)
    assert len(list(state.glob("autosave-*.json"))) == 2
    w = make_window(state_dir=state)
    prompts.answers += [RECOVER, KEEP]
    assert w.offer_recovery()
    assert [q.title for q in prompts.asked[-2:]] == [
        "Recover unsaved work?",
        "Another unsaved draft",
    ]
    kept = [p for p in state.glob("autosave-*.json") if p != w.autosaver.path]
    assert len(kept) == 1
    w2 = make_window(state_dir=state)
    prompts.answers.append(DISCARD)
    assert not w2.offer_recovery()
    assert not kept[0].exists()


def test_an_autosave_is_an_orphan_by_its_lock_not_its_process_id(tmp_path):
    """A window running as PID 1 (a container) left autosave-1-...: PID 1 is alive, but nobody
    holds the autosave's lock, so the draft is offered."""
    (tmp_path / "autosave-1-abcd1234.json").write_text(
        '{"format": "gpuwizard-autosave", "saved_at": "2026-11-23T10:00:00", "sections": {}}'
    )
    (tmp_path / "autosave-1-abcd1234.lock").write_text("")
    assert [o.path.name for o in autosave.find_orphans(tmp_path)] == ["autosave-1-abcd1234.json"]
