"""Every question, message and file dialog the window shows goes through one method
(:meth:`MainWindow.prompt`) taking a :class:`Prompt`, so tests replace that one method instead of
fighting modal dialogs."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class PromptKind(Enum):
    QUESTION = "question"  # returns the chosen button's text
    INFO = "info"
    ERROR = "error"
    OPEN_FILE = "open-file"  # returns a path or None
    SAVE_FILE = "save-file"  # returns a path or None
    TEXT = "text"  # returns the typed text, or None when cancelled
    TEXT_BLOCK = "text-block"  # several lines of text, as TEXT
    CHOICE = "choice"  # one of ``buttons`` from a list, or None when cancelled
    OPEN_FILES = "open-files"  # returns a list of paths (empty when cancelled)


@dataclass(frozen=True)
class Prompt:
    kind: PromptKind
    title: str
    text: str = ""
    buttons: tuple[str, ...] = ()
    default: str | None = None
    file_filter: str = ""
    path: str = ""
    details: list[str] = field(default_factory=list)


SAVE, DISCARD, CANCEL = "Save", "Discard", "Cancel"
REPLACE = "Replace"
REMOVE = "Remove"
KEEP = "Keep"
OPEN = "Open"
RECOVER = "Recover"
