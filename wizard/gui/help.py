"""Help inside the program: the user guide and the glossary in one window beside the wizard
(not modal, so the user reads while answering), opened at the page in use by F1 or the page's
Help button."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QKeySequence, QShortcut, QTextCursor
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from wizard.present.glossary import named
from wizard.present.guide import GUIDE


def guide_html() -> str:
    parts = ["<h1>gpuwizard user guide</h1>"]
    for s in GUIDE:
        parts.append(f'<h2><a name="{s.anchor}"></a>{escape(s.title)}</h2>')
        parts += [f"<p>{escape(p)}</p>" for p in s.paragraphs]
    parts.append('<h2><a name="glossary"></a>Glossary</h2><dl>')
    for name, text in named():
        parts.append(f"<dt><b>{escape(name)}</b></dt><dd>{escape(text)}</dd>")
    parts.append("</dl>")
    return "\n".join(parts)


def beside(window: QRect, size: tuple[int, int], screen: QRect) -> QPoint:
    """Where the help window goes: right of the main window where the screen has room, else
    left of it, else against the screen's right edge (over the wizard's right side, never over
    its steps and fields on the left)."""
    width, height = size
    top = max(screen.top(), min(window.top(), screen.bottom() + 1 - height))
    if window.right() + 1 + width <= screen.right() + 1:
        return QPoint(window.right() + 1, top)
    if window.left() - width >= screen.left():
        return QPoint(window.left() - width, top)
    return QPoint(screen.right() + 1 - width, top)


class HelpWindow(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("gpuwizard help")
        self.setModal(False)
        self.resize(620, 640)
        layout = QVBoxLayout(self)
        find = QHBoxLayout()
        self.search = QLineEdit()
        self.search.setPlaceholderText("Find in the guide and the glossary")
        self.search.setClearButtonEnabled(True)
        self.search.returnPressed.connect(self.find_next)
        self.search.textChanged.connect(lambda _t: self.find_next(restart=True))
        self.found = QLabel()
        self.found.setObjectName("muted")
        find.addWidget(self.search, 1)
        find.addWidget(self.found)
        layout.addLayout(find)
        self.browser = QTextBrowser()
        self.browser.setOpenLinks(False)  # the guide links nowhere outside itself
        self.browser.setHtml(guide_html())
        layout.addWidget(self.browser)
        QShortcut(QKeySequence(QKeySequence.StandardKey.Find), self, self.search.setFocus)
        self._placed = False

    def matches(self, text: str) -> int:
        """How often ``text`` occurs in the guide, without case."""
        body = self.browser.toPlainText().casefold()
        return body.count(text.casefold()) if text else 0

    def find_next(self, restart: bool = False) -> bool:
        """Select the next occurrence of the search text, from the top again after the last."""
        text = self.search.text()
        if not text:
            self.found.clear()
            return False
        if restart:
            self.browser.moveCursor(QTextCursor.MoveOperation.Start)
        hit = self.browser.find(text)
        if not hit:  # wrap around to the first
            self.browser.moveCursor(QTextCursor.MoveOperation.Start)
            hit = self.browser.find(text)
        n = self.matches(text)
        self.found.setText(f"{n:,} found" if hit else "not found")
        return hit

    def show_at(self, anchor: str) -> None:
        """Show the window (raised if already open) scrolled to ``anchor``; the first time,
        beside the main window rather than over it."""
        parent = self.parentWidget()
        if not self._placed and parent is not None and parent.screen() is not None:
            self._placed = True
            spot = beside(
                parent.frameGeometry(),
                (self.width(), self.height()),
                parent.screen().availableGeometry(),
            )
            self.move(spot)
        self.show()
        self.raise_()
        self.browser.scrollToAnchor(anchor)
