"""The first page's "Start from an existing estate…": the files the customer exported (an RVTools
workbook, nvidia-smi reports, the inventory script's CSV) are read and what was found is shown,
mapped or not, before anything enters the design; only "Put into the design" makes it the
design's existing clusters, which the plan keeps and adds to."""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from wizard.base.errors import UserError
from wizard.base.numbers import count
from wizard.gui.prompts import Prompt, PromptKind
from wizard.model.existing import ExistingEstate

START = "Start from an existing estate…"
PUT = "Put into the design"
FILE_FILTER = (
    "Estate files (*.xlsx *.xml *.txt *.csv);;RVTools export (*.xlsx);;"
    "nvidia-smi report (*.xml *.txt);;Inventory script CSV (*.csv)"
)


class EstatePanel(QWidget):
    """Reads the estate's files, shows the findings, and puts the estate into the design on the
    user's word. ``prompt`` and ``catalog`` are asked for when used: the first page is made
    before the window and the catalog are."""

    def __init__(self, doc, prompt: Callable[[], Callable[[Prompt], object]], catalog) -> None:
        super().__init__()
        self.doc = doc
        self._prompt = prompt
        self._catalog = catalog
        self._read: ExistingEstate | None = None
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        self.start = QPushButton(START)
        self.start.setToolTip(
            "Read an RVTools export, the GPU hosts' nvidia-smi reports or the inventory "
            "script's CSV; the plan then keeps those hosts and adds only what the new "
            "workloads need"
        )
        self.state = QLabel()
        self.state.setWordWrap(True)
        row.addWidget(self.start)
        row.addWidget(self.state, 1)
        box.addLayout(row)
        self.findings = QPlainTextEdit()
        self.findings.setReadOnly(True)
        self.findings.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.findings.setMinimumHeight(180)
        self.findings.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.findings.setAccessibleName("What the estate's files hold")
        buttons = QHBoxLayout()
        self.put = QPushButton(PUT)
        self.discard = QPushButton("Discard")
        buttons.addStretch(1)
        buttons.addWidget(self.discard)
        buttons.addWidget(self.put)
        self.found = QWidget()
        inner = QVBoxLayout(self.found)
        inner.setContentsMargins(0, 0, 0, 0)
        inner.addWidget(self.findings)
        inner.addLayout(buttons)
        self.found.setVisible(False)
        box.addWidget(self.found)
        self.start.clicked.connect(self.choose)
        self.put.clicked.connect(self.accept)
        self.discard.clicked.connect(self.clear)
        doc.changed.connect(lambda _origin: self.show_state())  # an undo puts it back
        doc.replaced.connect(self.clear)
        self.show_state()

    def choose(self) -> None:
        ask = self._prompt()
        paths = ask(Prompt(PromptKind.OPEN_FILES, START.rstrip("…"), file_filter=FILE_FILTER))
        if isinstance(paths, list) and paths:
            self.read([str(p) for p in paths])

    def read(self, paths: list[str | os.PathLike[str]]) -> None:
        """Read the files and show what they hold; the design is not touched yet."""
        from wizard.estate_import import read_estate
        from wizard.estate_import.findings import findings_lines
        from wizard.estate_import.to_design import existing_estate

        catalog = self._catalog()
        try:
            inv = read_estate(paths, catalog)
            estate = existing_estate(inv)
        except UserError as exc:
            self._prompt()(
                Prompt(PromptKind.ERROR, "The estate could not be read", "\n".join(exc.problems))
            )
            return
        self._read = estate
        self.findings.setPlainText("\n".join(findings_lines(inv, catalog)))
        self.found.setVisible(True)
        hosts = sum(len(c.hosts) for c in estate.clusters)
        self.put.setEnabled(bool(estate.clusters))
        self.state.setText(
            f"Read {count(len(paths), 'file')}: {count(len(estate.clusters), 'cluster')} with "
            f"{count(hosts, 'host')}. Check what was found below, then put it into the design."
        )

    def accept(self) -> None:
        if self._read is None:
            return
        self.doc.set("existing", self._read, self)
        self.clear()

    def clear(self) -> None:
        self._read = None
        self.findings.setPlainText("")
        self.found.setVisible(False)
        self.show_state()

    def show_state(self) -> None:
        """What the design holds of the estate, in one line."""
        e: ExistingEstate = self.doc.get("existing")
        if not e.clusters:
            self.state.setText("The design starts from nothing.")
            return
        hosts = sum(len(c.hosts) for c in e.clusters)
        names = ", ".join(c.name for c in e.clusters)
        self.state.setText(
            f"The design keeps the estate's {count(len(e.clusters), 'existing cluster')} "
            f"({names}; {count(hosts, 'host')}) and adds only what the new workloads need."
        )
        self.state.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
