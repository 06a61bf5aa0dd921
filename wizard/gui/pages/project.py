"""Page 1: who the design is for, and the file it lives in."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

from pydantic import ValidationError
from PySide6.QtCore import QDate, Qt, Signal
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QToolButton,
    QWidget,
)

from wizard.base.safe_read import logo_file, may_read_logo
from wizard.gui.estate_panel import EstatePanel
from wizard.gui.forms import FormErrors, error_items
from wizard.gui.icons import icon
from wizard.gui.pages import titles
from wizard.gui.pages.base import Page
from wizard.gui.pasted import as_typed
from wizard.gui.widgets.inputs import Combo, DateEdit
from wizard.model.design import ProjectInfo

LOGO_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg")
CURRENCIES = ("EUR", "USD", "GBP", "CHF", "JPY", "CNY", "INR", "AUD", "CAD", "SEK", "NOK", "DKK")


NAME_NEEDED = "give the project a name; it is the proposal's title"


class ProjectPage(Page):
    """Customer, project, architect, date, logo, currency and notes; file actions at hand."""

    browse_logo = Signal()  # the window asks for a file through its one prompt method
    logo_named = Signal(str)  # the user typed a logo path: the window remembers it as named

    def __init__(self, doc, catalog, live, file_actions: list[QWidget] | None = None) -> None:
        super().__init__(doc, catalog, live, *titles.PROJECT)
        if file_actions:
            bar = QHBoxLayout()
            for w in file_actions:
                bar.addWidget(w)
            bar.addStretch(1)
            self.body.addLayout(bar)
        form = self.form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.errors = FormErrors()
        self.customer = QLineEdit()
        self.customer.setPlaceholderText("e.g. Example Corp")
        self.project_name = QLineEdit()
        self.project_name.setPlaceholderText("e.g. Research GPU cluster")
        self.architect = QLineEdit()
        for edit in (self.customer, self.project_name, self.architect):
            edit.setMaxLength(200)  # what the proposal's cover is proven to hold
        self.has_date = QCheckBox("Dated")
        self.date = DateEdit()
        self.date.setCalendarPopup(True)
        self.date.setDisplayFormat("yyyy-MM-dd")
        self.logo = QLineEdit()
        self.logo.setPlaceholderText("optional PNG, JPEG or SVG")
        self.logo_button = QToolButton()
        self.logo_button.setText("Browse…")
        self.logo_button.setIcon(icon("open"))
        self.logo_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.logo_preview = QLabel()
        self.logo_preview.setFixedHeight(48)
        self.logo_preview.setWordWrap(True)
        self.currency = Combo()
        self.currency.setEditable(True)
        self.currency.addItems(CURRENCIES)
        self.notes = QPlainTextEdit()
        self.notes.setPlaceholderText("Anything the proposal should say about the customer's goals")
        self.notes.setMinimumHeight(120)

        self.errors.add(form, "customer", "Customer", self.customer)
        self.errors.add(form, "project_name", "Project name", self.project_name)
        self.errors.add(form, "architect", "Architect", self.architect)
        self.errors.add(form, "date", "Date", self.date, self.has_date)
        self.errors.add(form, "logo_path", "Customer logo", self.logo, self.logo_button)
        form.addRow("", self.logo_preview)
        self.errors.add(form, "currency", "Currency", self.currency)
        self.errors.add(form, "notes", "Notes", self.notes)
        self.body.addLayout(form)
        # the window's prompt and catalog, asked for on use: the page is made before either
        self.estate = EstatePanel(
            doc,
            lambda: getattr(self.window(), "prompt"),  # noqa: B009 - the window's, set later
            lambda: getattr(self.window(), "catalog"),  # noqa: B009
        )
        self.body.addWidget(self.estate)
        self.body.addStretch(1)
        self._problems: list[str] = []

        for w in (self.customer, self.project_name, self.architect, self.logo):
            w.textChanged.connect(self._edited)
        self.notes.textChanged.connect(self._edited)
        self.currency.currentTextChanged.connect(self._edited)
        self.date.dateChanged.connect(self._edited)
        self.has_date.toggled.connect(self._edited)
        self.has_date.toggled.connect(self.date.setEnabled)
        self.logo_button.clicked.connect(self.browse_logo)
        self.named_logos: Callable[[], list[str]] = list  # set by the window
        self._typed = False
        self.logo.textEdited.connect(self._logo_typed)
        self.logo.editingFinished.connect(self._logo_done)
        # an empty name is said under the field once the user has been in it, not in red on a
        # new design before any typing; Next says it all the same
        self._name_touched = False
        self.project_name.textEdited.connect(self._touch_name)
        self.project_name.editingFinished.connect(self._touch_name)
        self._reload()

    def _touch_name(self) -> None:
        if not self._name_touched:
            self._name_touched = True
            self._validate(commit=False)

    def load(self) -> None:
        p: ProjectInfo = self.doc.get("project")
        self._name_touched = bool(p.project_name)  # a file's name was given; a new one was not
        self.customer.setText(p.customer)
        self.project_name.setText(p.project_name)
        self.architect.setText(p.architect)
        self.has_date.setChecked(p.date is not None)
        self.date.setEnabled(p.date is not None)
        d = p.date or dt.date.today()
        self.date.setDate(QDate(d.year, d.month, d.day))
        self.logo.setText(p.logo_path or "")
        self.currency.setCurrentText(p.currency)
        if self.notes.toPlainText() != p.notes:
            self.notes.setPlainText(p.notes)
        self.estate.show_state()
        self._validate(commit=False)

    def values(self) -> dict:
        q = self.date.date()
        return {
            "customer": self.customer.text().strip(),
            "project_name": self.project_name.text().strip(),
            "architect": self.architect.text().strip(),
            "date": dt.date(q.year(), q.month(), q.day()) if self.has_date.isChecked() else None,
            "logo_path": self.logo.text().strip() or None,
            "currency": self.currency.currentText().strip().upper(),
            "notes": self.notes.toPlainText(),
        }

    def _edited(self) -> None:
        if not self._loading:
            self._validate(commit=True)
            self.update_complete()

    def _validate(self, commit: bool) -> None:
        values = self.values()
        items: list[tuple[str, str]] = []
        info: ProjectInfo | None = self.doc.get("project")
        # The widgets showing exactly the section the document holds, which was validated when
        # it was stored, need no second validation (the first page is shown before pydantic
        # builds any validator); anything else is validated.
        if info is None or values != {k: getattr(info, k) for k in values}:
            try:
                info = ProjectInfo.model_validate(as_typed(values))
            except ValidationError as exc:
                info = None
                items = error_items(exc)
        unnamed = not values["project_name"]
        if unnamed and self._name_touched:
            items.append(("project_name", NAME_NEEDED))
        logo = values["logo_path"]
        shown: Path | None = None
        note = ""
        if logo:
            path = logo_file(logo, self._base())
            if path.suffix.lower() not in LOGO_SUFFIXES:
                items.append(("logo_path", f"'{path.name}' is not a PNG, JPEG or SVG file"))
            elif not may_read_logo(path, self._base(), self.named_logos()):
                note = ("This design names a logo outside its folder. It is not shown, nor put "
                        "on the proposal, until you choose it with the Browse button.")  # fmt: skip
            elif not path.is_file():
                items.append(("logo_path", f"no file at {path}"))
            else:
                shown = path
        self._problems = self.errors.show(items)
        if unnamed and not self._name_touched:
            self._problems.append(f"Project name: {NAME_NEEDED}")
        self._show_logo(shown, note)
        if info is not None and commit:
            self.commit("project", info)

    def _show_logo(self, logo: Path | None, note: str = "") -> None:
        pixmap = QPixmap(str(logo)) if logo else QPixmap()
        self.form.setRowVisible(self.logo_preview, not pixmap.isNull() or bool(note))
        if pixmap.isNull():
            self.logo_preview.clear()
            self.logo_preview.setText(note)
        else:
            self.logo_preview.setPixmap(
                pixmap.scaledToHeight(48, Qt.TransformationMode.SmoothTransformation)
            )

    def set_logo(self, path: str) -> None:
        """Also when the path is the one shown: choosing it names it, which changes the check."""
        self.logo.setText(path)
        self._edited()

    def _logo_typed(self) -> None:
        self._typed = True

    def _logo_done(self) -> None:
        """A path the user typed is one they named, as much as one chosen with Browse…."""
        text = self.logo.text().strip()
        if self._typed and text:
            self.logo_named.emit(str(logo_file(text, self._base())))
            self._validate(commit=False)
        self._typed = False

    def _base(self) -> Path | None:
        return self.doc.path.parent if self.doc.path else None

    def problems(self) -> list[str]:
        return list(self._problems)
