"""Autosave every minute to the user state directory, and recovery after a crash.

Each running window writes ``autosave-<pid>-<token>.json`` and holds an exclusive lock on
``autosave-<pid>-<token>.lock`` while it runs; a clean exit deletes both. An autosave whose lock
nobody holds was left by a crash (the lock dies with its process, whatever its PID: a window
running as PID 1 in a container is recognised too), and the next start offers every such draft.
The file holds the draft section by section (a new design may have no hardware yet, which a
design file cannot express) plus the path of the design file it belongs to.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer

from wizard.app.io import atomic_write_text, parse_design_text
from wizard.base.errors import DesignError
from wizard.gui.document import DesignDocument

AUTOSAVE_MS = 60_000
FORMAT = "gpuwizard-autosave"


def state_dir() -> Path:
    from platformdirs import user_state_path

    return user_state_path("gpuwizard", appauthor=False)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass(frozen=True)
class Orphan:
    """An autosave left behind by a window that did not close cleanly."""

    path: Path
    saved_at: str
    design_path: Path | None
    sections: dict[str, Any]


def lock(path: Path) -> int | None:
    """An open descriptor holding an exclusive lock on ``path``, or None if another open file
    holds it (or locks are not available here)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: PIDs decide alone
        return None
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def _owner_gone(path: Path) -> bool:
    """Whether the window that wrote ``path`` no longer runs: nobody holds its lock file, or,
    for an autosave without one (older releases), its process is gone."""
    token = path.stem.removeprefix("autosave-")
    lock_file = path.with_name(f"autosave-{token}.lock")
    if lock_file.exists():
        fd = lock(lock_file)
        if fd is None:
            return False
        os.close(fd)
        return True
    try:
        pid = int(token.split("-")[0])
    except ValueError:
        return False
    return not _alive(pid)


def find_orphans(directory: Path) -> list[Orphan]:
    """Autosaves of windows that no longer run, newest first; unreadable ones are skipped."""
    out = []
    for path in directory.glob("autosave-*.json"):
        if not _owner_gone(path):
            continue
        try:
            doc = parse_design_text(path.read_text(encoding="utf-8"), str(path))
        except (OSError, UnicodeDecodeError, DesignError):
            continue
        if doc.get("format") != FORMAT or not isinstance(doc.get("sections"), dict):
            continue
        design_path = doc.get("design_path")
        out.append(
            Orphan(
                path,
                str(doc.get("saved_at", "")),
                Path(design_path) if isinstance(design_path, str) else None,
                doc["sections"],
            )
        )
    return sorted(out, key=lambda o: o.saved_at, reverse=True)


def discard(orphans: list[Orphan]) -> None:
    for o in orphans:
        with contextlib.suppress(OSError):
            o.path.unlink()
        with contextlib.suppress(OSError):
            o.path.with_suffix(".lock").unlink()


class Autosaver(QObject):
    """Writes the open design to the state directory every ``interval_ms`` when it changed."""

    def __init__(self, doc: DesignDocument, directory: Path, interval_ms: int = AUTOSAVE_MS,
                 parent: QObject | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.doc = doc
        self.directory = directory
        token = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.path = directory / f"autosave-{token}.json"
        self.lock_path = directory / f"autosave-{token}.lock"
        self._lock_fd: int | None = None
        self.last_error: str | None = None
        self._saved_revision = doc.revision
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.save_now)
        self.timer.start()

    def save_now(self) -> bool:
        """Write the autosave if the design changed since the last one; True when written."""
        if self.doc.revision == self._saved_revision or not self.doc.dirty:
            return False
        payload = {
            "format": FORMAT,
            "saved_at": dt.datetime.now().isoformat(timespec="seconds"),
            "design_path": str(self.doc.path) if self.doc.path else None,
            "sections": self.doc.partial_dict(),
        }
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            if self._lock_fd is None:
                self._lock_fd = lock(self.lock_path)
            atomic_write_text(self.path, json.dumps(payload, indent=1))
        except OSError as exc:
            self.last_error = f"{self.path}: {exc.strerror or exc}"
            return False
        self.last_error = None
        self._saved_revision = self.doc.revision
        return True

    def clear(self) -> None:
        """The design was saved or closed cleanly: the autosave is no longer needed."""
        with contextlib.suppress(OSError):
            self.path.unlink()
        self._saved_revision = self.doc.revision

    def release(self) -> None:
        """The window closes: give up the lock and its file."""
        if self._lock_fd is not None:
            with contextlib.suppress(OSError):
                self.lock_path.unlink()
            os.close(self._lock_fd)
            self._lock_fd = None
