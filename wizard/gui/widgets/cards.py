"""Headline figures as cards: a big number with a label underneath."""

from __future__ import annotations

from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from wizard.base.numbers import MISSING

CARD_MIN_WIDTH = 120  # a card's number and two short lines of its words
SPACING = 8  # pixels between cards: the grid's, and the one the columns that fit are counted with


class Card(QFrame):
    def __init__(self, label: str, tooltip: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("card")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 8)
        self.value = QLabel(MISSING)
        self.value.setObjectName("cardValue")
        self.label = QLabel(label)
        self.label.setObjectName("cardLabel")
        self.label.setWordWrap(True)
        layout.addWidget(self.value)
        layout.addWidget(self.label)
        if tooltip:
            self.setToolTip(tooltip)

    def set(self, value: str, detail: str | None = None, label: str | None = None) -> None:
        """``label``: the words under the number when they agree with it ("1 rack")."""
        self.value.setText(value)
        if detail is not None:
            self.setToolTip(detail)
        if label is not None:
            self.label.setText(label)


class CardRow(QWidget):
    """Cards in a grid, at most ``columns`` per row; a narrow window (1024 pixels) puts them on
    more rows instead of cutting the last card off."""

    def __init__(self, specs: list[tuple[str, str, str]], columns: int = 4, parent=None) -> None:
        super().__init__(parent)
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setSpacing(SPACING)
        self.cards: dict[str, Card] = {}
        for key, label, tooltip in specs:
            self.cards[key] = Card(label, tooltip)
        self.most = columns
        self.columns = 0
        # the width the page gives, not the cards' sum: the cards then take as many rows as fit
        policy = self.sizePolicy()
        policy.setHorizontalPolicy(QSizePolicy.Policy.Ignored)
        self.setSizePolicy(policy)
        self._place(columns)

    def _place(self, columns: int) -> None:
        if columns == self.columns:
            return
        self.columns = columns
        for card in self.cards.values():
            self.grid.removeWidget(card)
        for c in range(self.grid.columnCount()):
            self.grid.setColumnStretch(c, 0)
        for i, card in enumerate(self.cards.values()):
            self.grid.addWidget(card, i // columns, i % columns)
        for c in range(columns):
            self.grid.setColumnStretch(c, 1)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        n = len(self.cards)
        fit = max(1, (event.size().width() + SPACING) // (CARD_MIN_WIDTH + SPACING))
        rows = -(-n // min(self.most, fit))
        self._place(-(-n // rows))  # as even as the rows allow: 4 + 3, not 6 + 1

    def set(
        self, key: str, value: str, detail: str | None = None, label: str | None = None
    ) -> None:
        self.cards[key].set(value, detail, label)

    def clear(self) -> None:
        for card in self.cards.values():
            card.set(MISSING)
