"""Slow work (the PDF, the diagrams) off the GUI thread, so typing never waits for drawing.

A job is a plain function run on Qt's global thread pool; its outcome comes back to the GUI
thread as a signal. A newer job of the same kind makes an older one's result stale: only the
latest result is delivered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from wizard.errors import UserError


class _Carrier(QObject):
    done = Signal(int, object)
    failed = Signal(int, str)


class _Runnable(QRunnable):
    def __init__(self, ticket: int, fn: Callable[[], Any], carrier: _Carrier) -> None:
        super().__init__()
        self.ticket = ticket
        self.fn = fn
        self.carrier = carrier

    def run(self) -> None:
        try:
            value = self.fn()
        except UserError as exc:
            self.carrier.failed.emit(self.ticket, "\n".join(exc.problems))
        except OSError as exc:
            self.carrier.failed.emit(self.ticket, str(exc.strerror or exc))
        except Exception as exc:  # a bug in the job must reach the user as a message
            self.carrier.failed.emit(self.ticket, f"internal error: {type(exc).__name__}: {exc}")
        else:
            self.carrier.done.emit(self.ticket, value)


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
        QThreadPool.globalInstance().start(_Runnable(self._ticket, fn, self._carrier))

    def _done(self, ticket: int, value: object) -> None:
        if ticket == self._ticket:
            self.running = False
            self.finished.emit(value)

    def _failed(self, ticket: int, message: str) -> None:
        if ticket == self._ticket:
            self.running = False
            self.failed.emit(message)
