"""Slow work (the PDF, the diagrams) off the GUI thread, so typing never waits for drawing.

A job is a plain function run on a small pool of Python threads; its outcome comes back to the
GUI thread as a queued signal of an object that lives there. No Qt object is made, owned or
deleted by a worker thread (a QRunnable deleted by Qt's pool while the GUI thread's garbage
collector looked at its wrapper could crash the program). A newer job of the same kind makes an
older one's result stale: only the latest result is delivered.
"""

from __future__ import annotations

import atexit
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from PySide6.QtCore import QObject, Signal

from wizard.base.errors import UserError

_POOL: list[ThreadPoolExecutor] = []  # made on first use, shut down at exit


def _pool() -> ThreadPoolExecutor:
    if not _POOL:
        _POOL.append(ThreadPoolExecutor(max_workers=2, thread_name_prefix="gpuwizard-job"))
        atexit.register(_POOL[0].shutdown, wait=False, cancel_futures=True)
    return _POOL[0]


class _Carrier(QObject):
    done = Signal(int, object)
    failed = Signal(int, str)


def _run(ticket: int, fn: Callable[[], Any], carrier: _Carrier) -> None:
    """On a worker thread: the function, and its outcome as a signal the GUI thread receives."""
    try:
        value = fn()
    except UserError as exc:
        carrier.failed.emit(ticket, "\n".join(exc.problems))
    except OSError as exc:
        carrier.failed.emit(ticket, str(exc.strerror or exc))
    except Exception as exc:  # a bug in the job must reach the user as a message
        carrier.failed.emit(ticket, f"internal error: {type(exc).__name__}: {exc}")
    else:
        carrier.done.emit(ticket, value)


class Job(QObject):
    """One kind of background work; ``start`` supersedes any run still going."""

    finished = Signal(object)  # the function's return value
    failed = Signal(str)  # a message for the user

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._ticket = 0
        self._carrier = _Carrier(self)
        self._carrier.done.connect(self._done)
        self._carrier.failed.connect(self._failed)
        self.running = False

    def start(self, fn: Callable[[], Any]) -> None:
        self._ticket += 1
        self.running = True
        _pool().submit(_run, self._ticket, fn, self._carrier)

    def _done(self, ticket: int, value: object) -> None:
        if ticket == self._ticket:
            self.running = False
            self.finished.emit(value)

    def _failed(self, ticket: int, message: str) -> None:
        if ticket == self._ticket:
            self.running = False
            self.failed.emit(message)
