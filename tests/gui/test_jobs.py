"""Background jobs deliver only the latest result, and failures as messages."""

from __future__ import annotations

import threading
import time

from wizard.base.errors import UserError
from wizard.gui.jobs import Job


def test_result_arrives_on_the_gui_thread(qtbot):
    job = Job()
    seen = []
    job.finished.connect(lambda v: seen.append((v, threading.current_thread())))
    with qtbot.waitSignal(job.finished, timeout=5000):
        job.start(lambda: threading.current_thread().name)
    value, thread = seen[0]
    assert thread is threading.main_thread()
    assert value != threading.main_thread().name  # it ran elsewhere
    assert not job.running


def test_a_newer_run_supersedes_an_older_one(qtbot):
    job = Job()
    seen = []
    job.finished.connect(seen.append)
    job.start(lambda: time.sleep(0.3) or "old")
    with qtbot.waitSignal(job.finished, timeout=5000):
        job.start(lambda: "new")
    qtbot.wait(500)
    assert seen == ["new"]


def test_failures_become_messages(qtbot):
    job = Job()

    def bad():
        raise UserError(["out.pdf: cannot be written: No space left on device"])

    with qtbot.waitSignal(job.failed, timeout=5000) as blocker:
        job.start(bad)
    assert blocker.args == ["out.pdf: cannot be written: No space left on device"]
    with qtbot.waitSignal(job.failed, timeout=5000) as blocker:
        job.start(lambda: 1 / 0)
    assert blocker.args[0].startswith("internal error: ZeroDivisionError")
