"""The options of the design side by side on the Review page: a column per option, the proposed
one marked, figures that differ from it highlighted, targets met, at risk or missed in colour.
The comparison sizes every option, so it runs in the background and only while on screen."""

from __future__ import annotations

from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from wizard.model.options import OptionRow
from wizard.present import options_table

VERDICT_COLOURS = {"met": "#e3f1e7", "at risk": "#fbefd5", "missed": "#f8dcdc"}
DIFFERS = "#e8eef7"


class OptionsView(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        v = QVBoxLayout(self)
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
        v.addWidget(self.sentence)
        v.addWidget(self.status)
        v.addWidget(self.table, 1)
        v.addWidget(self.notes)

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
        self.notes.setText("\n".join(options_table.notes(rows)))
