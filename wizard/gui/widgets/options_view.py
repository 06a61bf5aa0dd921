"""The options of the design side by side on the Review page: a column per option, the proposed
one marked, figures that differ from it highlighted, targets met, at risk or missed in colour.
The comparison sizes every option, so it runs in the background and only while on screen.

Options are made, proposed and removed here as a configurator keeps alternatives: the view only
asks (signals); the page changes the design, so every change is one undoable step."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QBrush, QColor, QFont, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QScrollArea,
    QStyle,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from wizard.model.design import AS_DESIGNED, Design
from wizard.model.options import OptionRow
from wizard.present import options_table

VERDICT_COLOURS = {"met": "#e3f1e7", "at risk": "#fbefd5", "missed": "#f8dcdc"}
DIFFERS = "#e8eef7"
SHOWN_ROWS = 6  # rows of the comparison on screen however short the window
MAX_OPTIONS = Design.model_fields["options"].metadata[0].max_length


class OptionsView(QWidget):
    save_requested = Signal()
    propose_requested = Signal(object)  # an option's name, or None for the design as it stands
    remove_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        v = QVBoxLayout(self)
        bar = QHBoxLayout()
        self.save = QPushButton("Save as option…")
        self.save.setToolTip(
            "Keep the design as it stands (its workload groups, hardware, HA and clusters) as a "
            "named option; later changes on the pages leave it as saved. Compare the two here."
        )
        self.save.clicked.connect(self.save_requested.emit)
        self.choice = QComboBox()
        self.choice.setAccessibleName("Option")
        self.choice.setToolTip("The option the buttons beside act on")
        self.propose = QPushButton("Make this the proposal")
        self.propose.setToolTip(
            "The proposal, the bill of materials, the vSphere steps and the Review figures "
            "specify this option; the design file keeps every option."
        )
        self.propose.clicked.connect(lambda: self.propose_requested.emit(self.choice.currentData()))
        self.remove = QPushButton("Remove option")
        self.remove.clicked.connect(self._remove)
        self.choice.currentIndexChanged.connect(lambda _i: self._enable())
        bar.addWidget(self.save)
        bar.addSpacing(16)
        bar.addWidget(QLabel("Option:"))
        bar.addWidget(self.choice, 1)
        bar.addWidget(self.propose)
        bar.addWidget(self.remove)
        v.addLayout(bar)
        self._proposed: str | None = None
        self.sentence = QLabel()
        self.sentence.setWordWrap(True)
        self.status = QLabel()
        self.status.setObjectName("muted")
        self.status.setWordWrap(True)
        self.table = QTableWidget(0, 0)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.notes = QLabel()
        self.notes.setObjectName("muted")
        self.notes.setWordWrap(True)
        # a short window scrolls the comparison rather than squeezing it to one row
        body = QWidget()
        inner = QVBoxLayout(body)
        inner.setContentsMargins(0, 0, 0, 0)
        inner.addWidget(self.sentence)
        inner.addWidget(self.status)
        inner.addWidget(self.table, 1)
        inner.addWidget(self.notes)
        self.scroller = QScrollArea()
        self.scroller.setWidgetResizable(True)
        self.scroller.setFrameShape(QFrame.Shape.NoFrame)
        self.scroller.setWidget(body)
        v.addWidget(self.scroller, 1)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_text()

    def _fit_text(self) -> None:
        """Wrapped lines keep their whole height (a scroll area would squeeze them to one)."""
        # the narrowest the labels get: the view less the scroll bar that may appear
        bar = self.scroller.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        width = max(self.scroller.width() - bar - 4, 100)
        for label in (self.sentence, self.status, self.notes):
            label.setMinimumHeight(label.heightForWidth(width) if label.text() else 0)

    def set_options(self, names: list[str], proposed: str | None, can_save: bool) -> None:
        """The design's options for the buttons, the current choice kept where it still exists."""
        current = self.choice.currentData()
        self.choice.blockSignals(True)
        self.choice.clear()
        self.choice.addItem(AS_DESIGNED + (" (proposed)" if proposed is None else ""), None)
        for name in names:
            self.choice.addItem(name + (" (proposed)" if name == proposed else ""), name)
        at = self.choice.findData(current)
        self.choice.setCurrentIndex(max(at, 0))
        self.choice.blockSignals(False)
        self._proposed = proposed
        self.save.setEnabled(can_save and len(names) < MAX_OPTIONS)
        self.save.setToolTip(
            self.save.toolTip()
            if len(names) < MAX_OPTIONS
            else f"A design holds at most {MAX_OPTIONS} options; remove one first."
        )
        self._enable()

    def _enable(self) -> None:
        name = self.choice.currentData()
        self.propose.setEnabled(self.choice.count() > 1 and name != self._proposed)
        self.remove.setEnabled(name is not None)

    def _remove(self) -> None:
        name = self.choice.currentData()
        if name is not None:
            self.remove_requested.emit(name)

    def show_message(self, text: str) -> None:
        self.status.setText(text)
        self.sentence.clear()
        self.notes.clear()
        self.table.setRowCount(0)
        self.table.setColumnCount(0)

    def show_rows(self, rows: list[OptionRow]) -> None:
        self.status.setText(
            "Each option sized as it would be alone; shaded figures differ from the proposed "
            "option, and a target counts as met only when it holds at the pessimistic end of the "
            "efficiency assumptions."
        )
        self.sentence.setText(options_table.proposal_sentence(rows) or "")
        body = options_table.table(rows)
        t = self.table
        t.setColumnCount(len(rows))
        t.setRowCount(len(body))
        t.setHorizontalHeaderLabels(
            [h.replace(" (proposed)", "\n(proposed)") for h in options_table.header(rows)]
        )
        t.setVerticalHeaderLabels([row.label for row in body])
        proposed = next((i for i, r in enumerate(rows) if r.proposed), 0)
        bold = QFont()
        bold.setBold(True)
        for y, row in enumerate(body):
            for x, text in enumerate(row.cells):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                verdict = row.verdicts[x]
                if verdict is not None:
                    item.setBackground(QBrush(QColor(VERDICT_COLOURS[verdict])))
                elif x != proposed and text != row.cells[proposed]:
                    item.setBackground(QBrush(QColor(DIFFERS)))
                if x == proposed:
                    item.setFont(bold)
                t.setItem(y, x, item)
        t.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        t.resizeRowsToContents()
        shown = sum(t.rowHeight(y) for y in range(min(t.rowCount(), SHOWN_ROWS)))
        t.setMinimumHeight(t.horizontalHeader().sizeHint().height() + shown + 2 * t.frameWidth())
        self.notes.setText("\n".join(options_table.notes(rows)))
        self._fit_text()
