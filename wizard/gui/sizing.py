"""The live result: the engine re-runs a moment after the last edit, never on every keystroke.

``size()`` takes well under a millisecond for the bundled designs, so it runs on the GUI thread;
the short debounce only collapses bursts of edits (typing, spin-box auto-repeat) into one run.
Anything slow (diagram rendering) listens to :attr:`LiveResult.updated` and runs elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal

from wizard.base.errors import UserError
from wizard.gui.document import DesignDocument

if TYPE_CHECKING:
    from wizard.engine import Plan, Problem
    from wizard.model.catalog import Catalog
    from wizard.model.design import Design
    from wizard.model.estate import Estate
    from wizard.model.result import Result, WorkloadResult

DEBOUNCE_MS = 120


class LiveResult(QObject):
    """Holds the latest Plan (or the reasons there is none) for the open design."""

    updated = Signal()

    def __init__(self, doc: DesignDocument, catalog: Catalog | Callable[[], Catalog],
                 parent: QObject | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.doc = doc
        self._catalog = catalog
        self.design: Design | None = None  # the design as the pages edit it, its options kept
        # what is sized and shown: the proposed option when the design names one, else the design
        self.shown: Design | None = None
        self.plan: Plan | None = None  # the engine's whole answer: every GPU cluster and more
        self.estate: Estate | None = None  # the plan's estate (an estate of one, or of several)
        self.problems: list[str] = []
        self.compat: list[Problem] = []
        self.errors: list[Problem] = []  # error-level problems of the sizing (also in compat)
        self.cautions: list[Problem] = []  # plausibility cautions under the fields they concern
        # answers a page holds that the design does not take yet (set by the wizard): while
        # there are any, the figures on screen would be of a design the pages no longer show
        self.held_back: Callable[[], list[str]] = list
        self._held: list[str] = []
        self.making = False  # set while the wizard makes a page (it is not whole yet)
        self.revision = -1
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self.refresh)
        doc.changed.connect(lambda _origin: self._timer.start())

    @property
    def catalog(self) -> Catalog:
        """The catalog, or the one a loader given in its place reads (the window can show its
        first page before the catalog is read; a new design sizes nothing)."""
        return self._catalog() if callable(self._catalog) else self._catalog

    def refresh(self) -> None:
        """Size the design now (also what the debounce timer calls). The engine is imported on
        the first design complete enough to size, not at start: a new design has none."""
        self._timer.stop()
        self.revision = self.doc.revision
        self.design = self.doc.design()
        design = self.design
        self.shown = design.proposal() if design is not None else None
        self.estate = None
        self.plan = None
        self.compat = []
        self.errors = []
        self.cautions = []
        if design is None or self.shown is None:
            self.problems = self.doc.design_problems()
        else:
            from wizard.engine import check_design, plan

            # the pages' checks are of the design they edit; the sizing is of what is shown
            self.compat = check_design(design, self.catalog)
            try:
                p = plan(design, self.catalog)
                self.plan, self.estate = p, p.estate
                self.problems = []
                # the rule book's error-level rules block Next and Export like the catalog's
                self.errors = list(p.errors)
                self.cautions = list(p.cautions)
                self.compat += self.errors
            except UserError as exc:
                self.problems = exc.problems
            except Exception as exc:  # an engine bug must not take the window down
                self.problems = [
                    f"internal error in the sizing engine: {type(exc).__name__}: {exc}"
                ]
        self._held = self.held_back()
        self.updated.emit()

    def pages_changed(self) -> None:
        """A page's answers changed whether the design holds them; the figures follow at once
        (hidden while a page holds one it does not take)."""
        if self.making:  # a page being made asks again once it is whole
            return
        held = self.held_back()
        if held != self._held:
            self._held = held
            self.updated.emit()

    def why_no_figures(self) -> list[str]:
        """Why no sized figure may be shown, one line each; empty when they may. A design that
        does not size, one the rule book refuses, and an answer on a page the design does not
        hold yet show their reason instead of the last figures."""
        if not self.sized():
            return self.problems or ["the design is not complete"]
        return [str(p) for p in self.errors] + self._held

    def sized(self) -> bool:
        """Whether the design sizes (one GPU cluster or several, the plan holds each)."""
        return self.plan is not None

    def workload_results(self) -> dict[str, WorkloadResult]:
        """Every sized group by name, from every GPU cluster; none while the figures may not be
        shown."""
        if self.why_no_figures() or self.plan is None:
            return {}
        return {w.name: w for w in self.plan.workloads}

    def cluster_result(self, name: str) -> Result | None:
        """The sizing of the GPU cluster ``name``; None while the figures may not be shown or
        when no group runs on it."""
        if self.why_no_figures() or self.plan is None:
            return None
        c = self.plan.cluster(name)
        return c.result if c is not None else None

    def current(self) -> Plan | None:
        """The plan of the design as it is now, sizing at once if an edit is pending."""
        if self.revision != self.doc.revision:
            self.refresh()
        return self.plan
