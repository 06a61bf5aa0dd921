"""The open design, section by section, with its file path and unsaved-changes state.

A new design has no hardware yet, and the Design model requires it, so the document keeps each
section of the Design as its own validated model and builds the whole Design when every section
is there. Widgets never hold the truth: they write validated sections here and listen for changes.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from wizard.base.errors import DesignError, describe_validation_error
from wizard.model.design import SCHEMA_VERSION, Design

SECTIONS: tuple[str, ...] = tuple(name for name in Design.model_fields if name != "schema_version")


def _default(name: str) -> Any:
    """A section's default. A model's defaults are valid as declared (pydantic does not validate
    them either), so a model section is constructed without building its validator."""
    field = Design.model_fields[name]
    if field.is_required():
        return None
    factory = field.default_factory
    if isinstance(factory, type) and issubclass(factory, BaseModel):
        return factory.model_construct()
    return field.get_default(call_default_factory=True)


class _Sections(dict[str, Any]):
    """The sections of the open design; a section nobody has read or set yet is made from its
    default when first read, so the first page does not build every section's validator."""

    def __missing__(self, name: str) -> Any:
        if name not in SECTIONS:
            raise KeyError(name)
        value = self[name] = _default(name)
        return value


def _json(value: Any) -> Any:
    """A section as JSON-ready data: models dumped, lists of them item by item, text as is."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, list):
        return [_json(v) for v in value]
    return value


# Edits of one section from one place this close together undo as one step (typing a name)
MERGE_SECONDS = 1.5


class _SetSection(QUndoCommand):
    """One edit of one section, undoable; the first redo applies it."""

    def __init__(self, doc: DesignDocument, name: str, old: Any, new: Any, origin: object):
        super().__init__(f"edit {name.replace('_', ' ')}")
        self.doc, self.name, self.old, self.new, self.origin = doc, name, old, new, origin
        self.at = time.monotonic()
        self._first = True
        self.taken_back_by: object = None  # the page that took the edit back, for one undo

    def id(self) -> int:
        return 1  # every edit may merge; mergeWith decides

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, _SetSection):
            return False
        if (other.name, other.origin) != (self.name, self.origin):
            return False
        if other.at - self.at > MERGE_SECONDS:
            return False
        self.new, self.at = other.new, other.at
        return True

    def redo(self) -> None:
        # the edit itself came from a page, which already shows it; a redo reloads every page
        origin = self.origin if self._first else None
        self._first = False
        self.doc._apply(self.name, self.new, origin)

    def undo(self) -> None:
        # taken back on the page that made it, which shows it already; else every page reloads
        origin, self.taken_back_by = self.taken_back_by, None
        self.doc._apply(self.name, self.old, origin)


class DesignDocument(QObject):
    """The single source of truth for the window: one Design, possibly still missing sections."""

    changed = Signal(object)  # the origin of the edit (a page), or None
    replaced = Signal()  # a whole new design was loaded: every page reloads its widgets
    state_changed = Signal()  # path or unsaved-changes flag

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._parts = _Sections()
        self.path: Path | None = None
        self.dirty = False
        self.revision = 0
        self.undo_stack = QUndoStack(self)  # every edit of the design, across pages
        # unsaved follows the undo position: undoing back to the saved state is saved again
        self.undo_stack.cleanChanged.connect(self._clean_changed)

    # ----------------------------------------------------------------- sections

    def get(self, name: str) -> Any:
        return self._parts[name]

    def set(self, name: str, value: Any, origin: object = None) -> None:
        """Store an already validated section; a no-op when nothing changed."""
        if name not in SECTIONS:
            raise KeyError(name)
        if self._parts[name] == value:
            return
        back = self._taken_back(name, value, origin)
        if back:
            # the last edits taken back where they were made (a text field's own Ctrl+Z, or
            # typed back by hand): the design steps back, so the unsaved mark and Redo follow
            for _ in range(back):
                top = self.undo_stack.command(self.undo_stack.index() - 1)
                assert isinstance(top, _SetSection)
                top.taken_back_by = origin
                self.undo_stack.undo()
            return
        self.undo_stack.push(_SetSection(self, name, self._parts[name], value, origin))

    def _taken_back(self, name: str, value: Any, origin: object) -> int:
        """How many of the last edits ``value`` takes back: the run of edits of ``name`` made
        by ``origin`` since the design was saved, back to the one that started from ``value``;
        0 when it takes back none."""
        if origin is None:
            return 0
        stack = self.undo_stack
        clean = stack.cleanIndex()
        i = stack.index()
        j = i
        while j > 0 and j != clean:
            cmd = stack.command(j - 1)
            if not isinstance(cmd, _SetSection) or (cmd.name, cmd.origin) != (name, origin):
                return 0
            if cmd.old == value:
                return i - j + 1
            j -= 1
        return 0

    def _apply(self, name: str, value: Any, origin: object) -> None:
        self._parts[name] = value
        self.revision += 1
        self._mark(True)
        self.changed.emit(origin)

    def missing(self) -> list[str]:
        return [
            name
            for name in SECTIONS
            if Design.model_fields[name].is_required() and self._parts[name] is None
        ]

    def design(self) -> Design | None:
        """The whole Design, or None while a required section (the hardware) is missing."""
        if self.missing():
            return None
        try:
            return Design.model_validate({"schema_version": SCHEMA_VERSION, **self._dump()})
        except ValidationError:
            return None

    def design_problems(self) -> list[str]:
        """Why :meth:`design` is None, one line per problem."""
        missing = self.missing()
        if missing:
            return [f"{name}: not chosen yet" for name in missing]
        try:
            Design.model_validate({"schema_version": SCHEMA_VERSION, **self._dump()})
        except ValidationError as exc:
            return describe_validation_error(exc)
        return []

    def _dump(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in SECTIONS:
            value = self._parts[name]
            if value is not None:
                out[name] = _json(value)
        return out

    def partial_dict(self) -> dict[str, Any]:
        """Every section that is there, as JSON-ready data (for autosave of a draft)."""
        return self._dump()

    # ---------------------------------------------------------------- whole files

    def load(self, design: Design, path: Path | None) -> None:
        self.undo_stack.clear()  # a design replaced whole is not undone edit by edit
        for name in SECTIONS:
            self._parts[name] = getattr(design, name)
        self.path = path
        self.revision += 1
        self.dirty = False
        self.replaced.emit()
        self.changed.emit(None)
        self.state_changed.emit()

    def load_partial(self, data: dict[str, Any], path: Path | None, dirty: bool = True) -> None:
        """Load a draft section by section; a section that does not validate is refused whole."""
        parts = _Sections()
        problems: list[str] = []
        for name, raw in data.items():
            if name not in SECTIONS:
                problems.append(f"{name}: unknown section")
                continue
            annotation = Design.model_fields[name].annotation
            assert annotation is not None, "every Design field is annotated"
            adapter: TypeAdapter[Any] = TypeAdapter(annotation)
            try:
                parts[name] = adapter.validate_python(raw)
            except ValidationError as exc:
                problems += describe_validation_error(exc, prefix=f"{name}.")
        if problems:
            raise DesignError(problems)
        self.undo_stack.clear()
        if dirty:  # a recovered draft was never saved: no undo position is the saved one
            self.undo_stack.resetClean()
        self._parts = parts
        self.path = path
        self.revision += 1
        self.dirty = dirty
        self.replaced.emit()
        self.changed.emit(None)
        self.state_changed.emit()

    def new(self) -> None:
        self.undo_stack.clear()
        self._parts = _Sections()
        self.path = None
        self.revision += 1
        self.dirty = False
        self.replaced.emit()
        self.changed.emit(None)
        self.state_changed.emit()

    def mark_saved(self, path: Path) -> None:
        self.path = path
        self.undo_stack.setClean()
        self._mark(False, force=True)

    def _clean_changed(self, clean: bool) -> None:
        # a bound slot: Qt drops the connection when the document goes, a lambda it would keep
        self._mark(not clean)

    def _mark(self, dirty: bool, force: bool = False) -> None:
        if self.dirty != dirty or force:
            self.dirty = dirty
            self.state_changed.emit()

    @property
    def display_name(self) -> str:
        return self.path.name if self.path else "Untitled design"
