"""A table that shares out the width it has instead of scrolling sideways: on a 1,024-pixel
screen or a projector a customer sees every column at once."""

from __future__ import annotations

from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QHeaderView, QTableWidget, QWidget


class FittingTable(QTableWidget):
    """Columns as wide as their contents while they fit; when they do not, the widest are
    narrowed alike (never below their heading) and their text wraps onto more lines. Columns
    given a fixed width keep it; the first column takes what is left over. The table is as tall
    as its first ``rows_shown`` rows."""

    def __init__(self, rows: int, columns: int, fixed: dict[int, int], rows_shown: int = 8,
                 parent: QWidget | None = None) -> None:  # fmt: skip
        super().__init__(rows, columns, parent)
        self.fixed = dict(fixed)
        self.rows_shown = rows_shown
        self.setWordWrap(True)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        header.setStretchLastSection(False)
        for column, width in self.fixed.items():
            self.setColumnWidth(column, width)

    def widths(self, available: int) -> dict[int, int]:
        """Each free column's width within ``available`` pixels (the water-filling of their
        wanted widths down to a common cap, each floored at its heading's width)."""
        header = self.horizontalHeader()
        free = [c for c in range(self.columnCount())
                if c not in self.fixed and not self.isColumnHidden(c)]  # fmt: skip
        if not free:
            return {}
        heading = {c: header.sectionSizeHint(c) for c in free}
        want = {c: max(self.sizeHintForColumn(c), heading[c]) for c in free}

        def total(cap: int) -> int:
            return sum(max(heading[c], min(want[c], cap)) for c in free)

        if total(max(want.values())) <= available:
            out = dict(want)
            out[free[0]] += available - sum(want.values())  # the first column takes the rest
            return out
        low, high = 0, max(want.values())  # the largest cap that fits: total() grows with cap
        while low < high:
            mid = (low + high + 1) // 2
            low, high = (mid, high) if total(mid) <= available else (low, mid - 1)
        return {c: max(heading[c], min(want[c], low)) for c in free}

    def fit(self) -> None:
        """Share out the width, then make the rows as tall as their wrapped text."""
        fixed = sum(w for c, w in self.fixed.items() if not self.isColumnHidden(c))
        for column, width in self.widths(self.viewport().width() - fixed).items():
            self.setColumnWidth(column, width)
        self.resizeRowsToContents()
        shown = min(self.rowCount(), self.rows_shown)
        rows = sum(self.rowHeight(r) for r in range(shown)) if shown else self.verticalHeader(
        ).defaultSectionSize()  # fmt: skip
        self.setFixedHeight(self.horizontalHeader().height() + rows + 2 * self.frameWidth())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.fit()
