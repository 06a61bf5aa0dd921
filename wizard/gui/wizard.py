"""The QWizard: page ids in an enum, one page per module, a step list at the side.

Only the first page is made with the window. Each other page (its module too) is made when it is
first needed: when Next is about to show it, when code looks it up (``pages``, ``page_of``), or
in an idle moment once the window is on screen (``make_rest``). A page made late loads the
design and the live result as they are then, so it shows the same as one made at start.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from enum import IntEnum
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QAbstractItemView, QListWidget, QListWidgetItem, QWidget, QWizard

from wizard.gui.document import DesignDocument
from wizard.gui.pages import titles
from wizard.gui.pages.base import Page
from wizard.gui.prompts import Prompt
from wizard.gui.sizing import LiveResult

if TYPE_CHECKING:
    from wizard.gui.pages.export import ExportPage
    from wizard.gui.pages.project import ProjectPage
    from wizard.model.catalog import Catalog
    from wizard.model.prices import PriceList


class PageId(IntEnum):
    PROJECT = 0
    WORKLOADS = 1
    HARDWARE = 2
    SHARING = 3
    HA = 4
    REVIEW = 5
    EXPORT = 6


# Title and subtitle of every page, made or not (the step list and the Go menu)
TITLES: dict[PageId, tuple[str, str]] = {
    PageId.PROJECT: titles.PROJECT,
    PageId.WORKLOADS: titles.WORKLOADS,
    PageId.HARDWARE: titles.HARDWARE,
    PageId.SHARING: titles.SHARING,
    PageId.HA: titles.HA,
    PageId.REVIEW: titles.REVIEW,
    PageId.EXPORT: titles.EXPORT,
}


class StepList(QListWidget):
    """The seven steps, the current one highlighted; a click on any step goes there, as Next and
    Back would, stopping at a page that is not complete yet (which then says what it needs)."""

    def __init__(self, wizard: GpuWizard) -> None:
        super().__init__()
        self.setObjectName("steps")
        self.wizard = wizard
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        for pid in PageId:
            item = QListWidgetItem(f"{pid + 1}.  {TITLES[pid][0]}")
            item.setToolTip(f"Go to {TITLES[pid][0]}")
            self.addItem(item)
        self.setFixedWidth(self.sizeHintForColumn(0) + 32)
        wizard.currentIdChanged.connect(self.follow)
        self.itemClicked.connect(self._clicked)

    def follow(self, pid: int) -> None:
        self.setCurrentRow(pid)

    def _clicked(self, item: QListWidgetItem) -> None:
        self.wizard.go_to(PageId(self.row(item)))
        self.follow(self.wizard.currentId())


class MadePages(Mapping[PageId, Page]):
    """The pages by id, each made on its way out: whoever looks a page up gets it, made."""

    def __init__(self, wizard: GpuWizard) -> None:
        self._wizard = wizard

    def __getitem__(self, pid: PageId) -> Page:
        return self._wizard.make(pid)

    def __iter__(self) -> Iterator[PageId]:
        return iter(PageId)

    def __len__(self) -> int:
        return len(PageId)


class GpuWizard(QWizard):
    def __init__(self, doc: DesignDocument, catalog: Catalog | Callable[[], Catalog],
                 live: LiveResult, prompt: Callable[[Prompt], object],
                 file_actions: list[QWidget] | None = None,
                 parent: QWidget | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        if parent is not None:
            # A widget inside the window, not a dialog of its own; set before any page exists,
            # as changing the flags later re-creates every child.
            self.setWindowFlags(Qt.WindowType.Widget)
        self.doc = doc
        self._catalog = catalog
        self.live = live
        self.prompt = prompt
        self.file_actions = file_actions
        # Logo files the user named, for the Project and Export pages (set by the window)
        self.named_logos: Callable[[], list[str]] = list
        self.setWizardStyle(QWizard.WizardStyle.ModernStyle)
        self.setOption(QWizard.WizardOption.IndependentPages, True)
        self.setOption(QWizard.WizardOption.NoCancelButton, True)
        self.setOption(QWizard.WizardOption.NoBackButtonOnStartPage, True)
        self.setOption(QWizard.WizardOption.HaveHelpButton, True)
        self.setButtonText(QWizard.WizardButton.HelpButton, "Help")
        self.setButtonLayout(
            [QWizard.WizardButton.HelpButton, QWizard.WizardButton.Stretch,
             QWizard.WizardButton.BackButton, QWizard.WizardButton.NextButton]
        )  # fmt: skip
        self._made: dict[PageId, Page] = {}
        self.pages = MadePages(self)
        live.held_back = self.held_back
        self.make(PageId.PROJECT)
        self.setStartId(PageId.PROJECT)
        self.steps = StepList(self)
        self.setSideWidget(self.steps)

    # ------------------------------------------------------------------ pages made on need

    @property
    def catalog(self) -> Catalog:
        """The catalog, or the one a loader given in its place reads (for pages made later)."""
        return self._catalog() if callable(self._catalog) else self._catalog

    def make(self, pid: PageId) -> Page:
        """Page ``pid``, made and added to the wizard if it is not yet."""
        page = self._made.get(pid)
        if page is None:
            making, self.live.making = self.live.making, True
            try:
                page = self._made[pid] = self._new_page(pid)
                self.setPage(pid, page)
            finally:
                self.live.making = making
            self.live.pages_changed()
        return page

    def made(self, pid: PageId) -> bool:
        return pid in self._made

    def _new_page(self, pid: PageId) -> Page:
        doc, live = self.doc, self.live
        if pid is PageId.PROJECT:
            from wizard.gui.pages.project import ProjectPage

            # The first page, made before the catalog is read, and never asking for it
            project = ProjectPage(doc, self._catalog, live, self.file_actions)
            project.named_logos = self._named_logos
            return project
        catalog = self.catalog
        if pid is PageId.WORKLOADS:
            from wizard.gui.pages.workloads import WorkloadsPage

            return WorkloadsPage(doc, catalog, live, self.prompt)
        if pid is PageId.HARDWARE:
            from wizard.gui.pages.hardware import HardwarePage

            return HardwarePage(doc, catalog, live, self._prices)
        if pid is PageId.SHARING:
            from wizard.gui.pages.sharing import SharingPage

            return SharingPage(doc, catalog, live)
        if pid is PageId.HA:
            from wizard.gui.pages.ha import HaPage

            return HaPage(doc, catalog, live)
        if pid is PageId.REVIEW:
            from wizard.gui.pages.review import ReviewPage

            return ReviewPage(doc, catalog, live, self.prompt, self._prices)
        from wizard.gui.pages.export import ExportPage

        export = ExportPage(doc, catalog, live, self.prompt)
        export.named_logos = self._named_logos
        return export

    def _named_logos(self) -> list[str]:
        return self.named_logos()

    def _prices(self) -> PriceList | None:
        """The price list chosen on the Export page; none while that page is not made."""
        return self.export_page.prices() if self.made(PageId.EXPORT) else None

    def make_rest(self) -> None:
        """Make the pages not made yet, one per pass of the event loop so input and painting go
        on in between; Next then shows a page at once. Called once the window is on screen."""
        waiting = [pid for pid in PageId if not self.made(pid)]
        if waiting:
            self.make(waiting[0])
        if len(waiting) > 1:
            QTimer.singleShot(0, self, self.make_rest)  # dropped if the wizard goes first

    def reject(self) -> None:
        """Escape rejects a dialog, and QWizard is one; here it is the main window's body, so
        Escape (often pressed twice after closing a list) must not hide it and blank the
        window."""

    def done(self, result: int) -> None:
        """Finish and Escape end a dialog: the wizard stays, as the window's content."""

    def nextId(self) -> int:
        """The page after the current one, made or not (QWizard's own looks only at the pages
        it holds, and would offer Finish on the first page while the others are not made)."""
        current = self.currentId()
        return current + 1 if 0 <= current < len(PageId) - 1 else -1

    def validateCurrentPage(self) -> bool:
        """Next is going on: make the page it shows (QWizard shows only pages it holds)."""
        if not super().validateCurrentPage():
            return False
        following = self.nextId()
        if following != -1:
            self.make(PageId(following))
        return True

    @property
    def project_page(self) -> ProjectPage:
        """The Project page, which the window wires up itself."""
        return cast("ProjectPage", self.pages[PageId.PROJECT])

    @property
    def export_page(self) -> ExportPage:
        return cast("ExportPage", self.pages[PageId.EXPORT])

    def held_back(self) -> list[str]:
        """What the pages that shape the sizing hold and the design does not take yet (a
        group that does not validate, no server chosen): no figure is shown meanwhile."""
        return [
            p
            for pid in (PageId.WORKLOADS, PageId.HARDWARE, PageId.HA)
            if self.made(pid)
            for p in self._made[pid].problems()
        ]

    def said(self, problem: str) -> str:
        """``problem`` with the group and the field's label in place of its path."""
        from wizard.gui.field_names import said

        hw = self.pages[PageId.HARDWARE]
        forms = {
            "workloads": self.pages[PageId.WORKLOADS].editor.errors,  # type: ignore[attr-defined]
            "hardware": hw.errors,  # type: ignore[attr-defined]
            "data": hw.data_errors,  # type: ignore[attr-defined]
            "ha": self.pages[PageId.HA].errors,  # type: ignore[attr-defined]
            "platform": self.pages[PageId.SHARING].platform_errors,  # type: ignore[attr-defined]
            "project": self.project_page.errors,
        }
        return said(problem, self.doc.design(), forms)

    def page_of(self, pid: PageId) -> Page:
        return self.pages[pid]

    def go_to(self, pid: PageId) -> bool:
        """Walk forward or back to ``pid`` as Next/Back would; stops at an incomplete page."""
        while self.currentId() > pid:
            self.back()
        while self.currentId() < pid:
            before = self.currentId()
            if not self.currentPage().isComplete():
                return False
            self.next()
            if self.currentId() == before:
                return False
        return True

    def restart_at_start(self) -> None:
        self.restart()
        self.steps.follow(self.currentId())
