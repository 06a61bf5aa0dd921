"""The QWizard: page ids in an enum, one page per module, a step list at the side."""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QListWidget, QListWidgetItem, QWidget, QWizard

from wizard.gui.document import DesignDocument
from wizard.gui.pages.base import Page
from wizard.gui.pages.export import ExportPage
from wizard.gui.pages.ha import HaPage
from wizard.gui.pages.hardware import HardwarePage
from wizard.gui.pages.project import ProjectPage
from wizard.gui.pages.review import ReviewPage
from wizard.gui.pages.sharing import SharingPage
from wizard.gui.pages.workloads import WorkloadsPage
from wizard.gui.prompts import Prompt
from wizard.gui.sizing import LiveResult
from wizard.model.catalog import Catalog


class PageId(IntEnum):
    PROJECT = 0
    WORKLOADS = 1
    HARDWARE = 2
    SHARING = 3
    HA = 4
    REVIEW = 5
    EXPORT = 6


class StepList(QListWidget):
    """The seven steps, the current one highlighted; visited steps can be clicked."""

    def __init__(self, wizard: QWizard) -> None:
        super().__init__()
        self.setObjectName("steps")
        self.wizard = wizard
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        for pid in PageId:
            page = wizard.page(pid)
            self.addItem(QListWidgetItem(f"{pid + 1}.  {page.title()}"))
        self.setFixedWidth(self.sizeHintForColumn(0) + 32)
        wizard.currentIdChanged.connect(self.follow)
        self.itemClicked.connect(self._clicked)

    def follow(self, pid: int) -> None:
        self.setCurrentRow(pid)
        visited = set(self.wizard.visitedIds())
        for i in range(self.count()):
            item = self.item(i)
            flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
            item.setFlags(flags if i in visited or i == pid else Qt.ItemFlag.NoItemFlags)

    def _clicked(self, item: QListWidgetItem) -> None:
        target = self.row(item)
        current = self.wizard.currentId()
        if target < current:
            while self.wizard.currentId() > target:
                self.wizard.back()
        self.follow(self.wizard.currentId())


class GpuWizard(QWizard):
    def __init__(self, doc: DesignDocument, catalog: Catalog, live: LiveResult,
                 prompt: Callable[[Prompt], object], file_actions: list[QWidget] | None = None,
                 parent: QWidget | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.doc = doc
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
        # The two pages the window wires up itself, typed as what they are
        self.project_page = ProjectPage(doc, catalog, live, file_actions)
        self.export_page = ExportPage(doc, catalog, live, prompt)
        self.pages: dict[PageId, Page] = {
            PageId.PROJECT: self.project_page,
            PageId.WORKLOADS: WorkloadsPage(doc, catalog, live, prompt),
            PageId.HARDWARE: HardwarePage(doc, catalog, live, self.export_page.prices),
            PageId.SHARING: SharingPage(doc, catalog, live),
            PageId.HA: HaPage(doc, catalog, live),
            PageId.REVIEW: ReviewPage(doc, catalog, live),
            PageId.EXPORT: self.export_page,
        }
        for pid, page in self.pages.items():
            self.setPage(pid, page)
        self.setStartId(PageId.PROJECT)
        self.steps = StepList(self)
        self.setSideWidget(self.steps)

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
