"""Headline figures as cards: a big number with a label underneath."""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QVBoxLayout, QWidget

from wizard.numbers import MISSING


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
    """Cards in a grid, ``columns`` per row."""

    def __init__(self, specs: list[tuple[str, str, str]], columns: int = 4, parent=None) -> None:
        super().__init__(parent)
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setSpacing(8)
        self.cards: dict[str, Card] = {}
        for i, (key, label, tooltip) in enumerate(specs):
            card = Card(label, tooltip)
            grid.addWidget(card, i // columns, i % columns)
            self.cards[key] = card

    def set(
        self, key: str, value: str, detail: str | None = None, label: str | None = None
    ) -> None:
        self.cards[key].set(value, detail, label)

    def clear(self) -> None:
        for card in self.cards.values():
            card.set(MISSING)
