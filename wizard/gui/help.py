"""Help inside the program: the user guide and the glossary in one window beside the wizard
(not modal, so the user reads while answering), opened at the page in use by F1 or the page's
Help button."""

from __future__ import annotations

from html import escape

from PySide6.QtWidgets import QDialog, QTextBrowser, QVBoxLayout, QWidget

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


class HelpWindow(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("gpuwizard help")
        self.setModal(False)
        self.resize(620, 640)
        layout = QVBoxLayout(self)
        self.browser = QTextBrowser()
        self.browser.setOpenLinks(False)  # the guide links nowhere outside itself
        self.browser.setHtml(guide_html())
        layout.addWidget(self.browser)

    def show_at(self, anchor: str) -> None:
        """Show the window (raised if already open) scrolled to ``anchor``."""
        self.show()
        self.raise_()
        self.browser.scrollToAnchor(anchor)
