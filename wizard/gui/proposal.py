"""Options and the proposal: an option is saved as a snapshot of the design, and one design is
on screen: once an option is made the proposal, the pages show its design, and the Review, the
documents and the pages agree. An edit that then makes the pages differ from the
saved option asks whether the change updates the option or leaves it as saved (the design as it
now stands is then the proposal); an option is never changed without that choice."""

from __future__ import annotations

from collections.abc import Callable

from pydantic import ValidationError
from PySide6.QtCore import QObject

from wizard.base.errors import describe_validation_error
from wizard.gui.document import DesignDocument
from wizard.gui.pasted import as_typed
from wizard.gui.prompts import Prompt, PromptKind
from wizard.gui.sizing import LiveResult
from wizard.model.catalog import Catalog
from wizard.model.design import AS_DESIGNED, OPTION_SECTIONS, Design
from wizard.present.option_note import describe

UPDATE_OPTION = "Update the option"
KEEP_OPTION = "Keep it as saved"


def in_step(design: Design) -> bool:
    """Whether the pages show the proposed option's design (always so with no option
    proposed)."""
    if design.proposed is None:
        return True
    try:
        return design.option(design.proposed) == design.as_designed()
    except (ValidationError, StopIteration):
        return False


def save_option(
    doc: DesignDocument, catalog: Catalog, prompt: Callable[[Prompt], object], origin: object
) -> str | None:
    """Keep the design as it stands as a named option, asking its name and what it is (one
    undoable step); the name saved, or None."""
    design = doc.design()  # with an edit the debounce has not sized yet
    if design is None:
        return None
    taken = {o.name.casefold() for o in design.options} | {AS_DESIGNED.casefold()}
    n = len(design.options) + 1
    while f"option {n}".casefold() in taken:
        n += 1
    answer = prompt(
        Prompt(PromptKind.TEXT, "Save as option", "Name of the option:", default=f"Option {n}")
    )
    if answer is None:
        return None
    name = " ".join(str(answer).split())
    problem = _option_name_problem(name, taken)
    if problem is not None:
        prompt(Prompt(PromptKind.ERROR, "Save as option", problem))
        return None
    note = prompt(
        Prompt(
            PromptKind.TEXT_BLOCK,
            "Save as option",
            f"What option '{name}' is (the comparison's first row):",
            default=describe(design, catalog),
        )
    )
    if note is None:
        return None
    try:
        option = design.as_option(name, as_typed(str(note)).strip())
    except ValidationError as exc:
        prompt(Prompt(PromptKind.ERROR, "Save as option", _option_problem(name, exc)))
        return None
    doc.set("options", [*design.options, option], origin)
    return name


def remove_option(doc: DesignDocument, name: str, origin: object) -> None:
    """Remove option ``name``; a proposed one takes its proposal with it (one undoable step)."""
    design = doc.design()
    if design is None:
        return
    stack = doc.undo_stack
    stack.beginMacro(f"remove option {name}")
    if design.proposed == name:  # the proposal goes back to the design as it stands
        doc.set("proposed", None, origin)
    doc.set("options", [o for o in design.options if o.name != name], origin)
    stack.endMacro()


def make_proposal(doc: DesignDocument, name: str | None, origin: object) -> None:
    """Make option ``name`` the proposal (None: the design as it stands), its design put on the
    pages, as one undoable step."""
    design = doc.design()
    if design is None:
        return
    if name is None:
        doc.set("proposed", None, origin)
        return
    chosen = design.with_option(name)
    stack = doc.undo_stack
    stack.beginMacro(f"propose {name}")
    try:
        for key in OPTION_SECTIONS:
            if getattr(chosen, key) != getattr(design, key):
                doc.set(key, getattr(chosen, key), origin)
        doc.set("proposed", name, origin)
    finally:
        stack.endMacro()


class ProposalFollower(QObject):
    """Asks, after the edit that parts the pages from the proposed option, which one the change
    is for; a design opened already apart (an older file) is left as it was opened."""

    def __init__(
        self,
        doc: DesignDocument,
        live: LiveResult,
        prompt: Callable[[Prompt], object],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.doc = doc
        self.live = live
        self.prompt = prompt
        self._in_step = True
        self._asking = False
        doc.replaced.connect(self._replaced)
        live.updated.connect(self.check)

    def _replaced(self) -> None:
        self._in_step = False  # the next sizing only notes where a new design stands

    def check(self) -> None:
        design = self.live.design
        if design is None or self._asking:
            return
        now = in_step(design)
        was, self._in_step = self._in_step, now
        if now or not was or design.proposed is None:
            return
        name = design.proposed
        self._asking = True
        try:
            answer = self.prompt(
                Prompt(
                    PromptKind.QUESTION,
                    "Proposed option changed",
                    f"The pages now differ from option \u201c{name}\u201d, the proposal. Update "
                    f"\u201c{name}\u201d with this change, or keep it as saved and propose the "
                    "design as it now stands?",
                    buttons=(UPDATE_OPTION, KEEP_OPTION),
                    default=UPDATE_OPTION,
                )
            )
            if answer == UPDATE_OPTION:
                options = [
                    design.as_option(name, o.note) if o.name == name else o for o in design.options
                ]
                self.doc.set("options", options, self)
            else:
                self.doc.set("proposed", None, self)
            self._in_step = True
        finally:
            self._asking = False


def _option_problem(name: str, exc: ValidationError) -> str:
    """The first problem of a new option, naming its field as the prompt labels it."""
    err = exc.errors(include_url=False)[0]
    label = "What the option is" if err["loc"][:1] == ("note",) else f"Name of the option '{name}'"
    return f"{label}: {describe_validation_error(exc)[0].split(': ', 1)[-1]}"


def _option_name_problem(name: str, taken: set[str]) -> str | None:
    """Why ``name`` cannot name a new option, in the words the prompt shows; None if it can."""
    if not name:
        return "Name of the option: give a name."
    if name.casefold() == AS_DESIGNED.casefold():
        return f"Name of the option '{name}' is the design itself; choose another name."
    if name.casefold() in taken:
        return f"Name of the option '{name}' is already an option; choose another name."
    return None
