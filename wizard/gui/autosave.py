"""Autosave every minute to the user state directory, and recovery after a crash.

Each running window writes ``autosave-<pid>.json``; a clean exit deletes it. A file whose process
is gone was left by a crash, and the next start offers to recover it. The file holds the draft
section by section (a new design may have no hardware yet, which a design file cannot express)
plus the path of the design file it belongs to.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer

from wizard.errors import DesignError
from wizard.gui.document import DesignDocument
from wizard.io import atomic_write_text, parse_design_text

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


def find_orphans(directory: Path) -> list[Orphan]:
    """Autosaves of processes that no longer run, newest first; unreadable ones are skipped."""
    out = []
    for path in directory.glob("autosave-*.json"):
        try:
            pid = int(path.stem.removeprefix("autosave-"))
        except ValueError:
            continue
        if _alive(pid):
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


class Autosaver(QObject):
    """Writes the open design to the state directory every ``interval_ms`` when it changed."""

    def __init__(self, doc: DesignDocument, directory: Path, interval_ms: int = AUTOSAVE_MS,
                 parent: QObject | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.doc = doc
        self.directory = directory
        self.path = directory / f"autosave-{os.getpid()}.json"
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
