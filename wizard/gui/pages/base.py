"""What every page shares: access to the document, the catalog and the live result, a reason line
that says why Next is disabled, and reloading its widgets when another page edits the Design."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QFrame,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
    QWizardPage,
)

from wizard.gui.document import DesignDocument
from wizard.gui.sizing import LiveResult

if TYPE_CHECKING:
    from wizard.model.catalog import Catalog


class Page(QWizardPage):
    """A wizard page bound to the Design. Subclasses fill :attr:`body` and implement
    :meth:`load` (Design -> widgets) and :meth:`problems` (why the page is not complete)."""

    scrolling = True

    def __init__(self, doc: DesignDocument, catalog: Catalog | Callable[[], Catalog],
                 live: LiveResult, title: str, subtitle: str) -> None:  # fmt: skip
        super().__init__()
        self.doc = doc
        self._catalog = catalog
        self.live = live
        self._loading = False
        self._complete: bool | None = None  # as last told to the wizard
        self.setTitle(title)
        self.setSubTitle(subtitle)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        content = QWidget()
        self.body = QVBoxLayout(content)
        self.body.setContentsMargins(2, 2, 8, 2)
        if self.scrolling:
            scroll = QScrollArea()
            scroll.setWidgetResizable(True)
            scroll.setFrameShape(QFrame.Shape.NoFrame)
            scroll.setWidget(content)
            scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
            outer.addWidget(scroll, 1)
        else:
            outer.addWidget(content, 1)
        self.reason = QLabel()
        self.reason.setObjectName("reason")
        self.reason.setWordWrap(True)
        self.reason.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.reason.hide()
        outer.addWidget(self.reason)
        doc.replaced.connect(self._reload)
        doc.changed.connect(self._external_change)
        self._reflow: list[tuple[QBoxLayout, int]] = []

    @property
    def catalog(self) -> Catalog:
        """The catalog, or the one a loader given in its place reads (the first page, made
        before the catalog is read, never asks for it)."""
        return self._catalog() if callable(self._catalog) else self._catalog

    def reflow(self, layout: QBoxLayout, narrow_below: int) -> None:
        """Lay ``layout``'s columns out top to bottom while the page is narrower than
        ``narrow_below`` pixels, so a small screen scrolls down instead of cutting off the
        right-hand column."""
        self._reflow.append((layout, narrow_below))
        self._apply_reflow()

    def _apply_reflow(self) -> None:
        for layout, narrow_below in self._reflow:
            narrow = self.width() < narrow_below
            direction = (
                QBoxLayout.Direction.TopToBottom if narrow else QBoxLayout.Direction.LeftToRight
            )
            if layout.direction() != direction:
                layout.setDirection(direction)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._apply_reflow()

    # ---------------------------------------------------------------- to override

    def load(self) -> None:
        """Set every widget from the Design."""

    def problems(self) -> list[str]:
        """Why the page is not complete; empty when it is."""
        return []

    def on_external_change(self) -> None:
        """Another page edited the Design; by default reload every widget."""
        self._reload()

    # ---------------------------------------------------------------- machinery

    def _reload(self) -> None:
        self._loading = True
        try:
            self.load()
        finally:
            self._loading = False
        self.update_complete()

    def _external_change(self, origin: object) -> None:
        if origin is not self:
            self._loading = True
            try:
                self.on_external_change()
            finally:
                self._loading = False
            self.update_complete()

    def commit(self, section: str, value: object) -> None:
        """Store a validated section of the Design, marking this page as the origin."""
        if not self._loading:
            self.doc.set(section, value, origin=self)

    def update_complete(self) -> None:
        problems = self.problems()
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            self.reason.setText(f"To continue: {problems[0]}{more}")
            self.reason.setToolTip("\n".join(problems))
        self.reason.setVisible(bool(problems))
        # the wizard lays its buttons out again on this signal, which closes any open drop-down
        # list: a list opened just after typing, as the sizing ran, was shut under the pointer
        if self._complete != (not problems):
            self._complete = not problems
            self.completeChanged.emit()
        self.live.pages_changed()

    def isComplete(self) -> bool:
        return not self.problems()

    def initializePage(self) -> None:
        self.update_complete()
