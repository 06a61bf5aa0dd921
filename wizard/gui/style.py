"""One look for every page: the Fusion style, a light palette and a small stylesheet.

Sizes are in points or follow the font, so the layout scales with the desktop's scaling factor.
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import QApplication

ACCENT = "#1565c0"
ERROR = "#c62828"
WARN_BG = "#fff8e1"
WARN_FG = "#6d4c00"
OK = "#2e7d32"
MUTED = "#5f6b73"

# Colours of the memory components, shared by the bars and their legend.
MEMORY_COLOURS: dict[str, str] = {
    "weights": "#1565c0",
    "gradients": "#6a1b9a",
    "optimizer": "#ad1457",
    "activations": "#ef6c00",
    "kv_cache": "#00838f",
    "overhead": "#78909c",
    "workspace": "#43a047",
}

STYLESHEET = f"""
QLabel#fieldError {{ color: {ERROR}; }}
*[invalid="true"] {{ border: 1px solid {ERROR}; border-radius: 3px; }}
QLabel#reason {{
    background: {WARN_BG}; color: {WARN_FG}; border: 1px solid #ffe082; border-radius: 4px;
    padding: 6px 8px;
}}
QLabel#muted {{ color: {MUTED}; }}
QLabel#note {{ color: {MUTED}; font-style: italic; }}
QLabel#explain {{
    background: #e3f2fd; color: #0d3c61; border: 1px solid #bbdefb; border-radius: 4px;
    padding: 6px 8px;
}}
QLabel#problem {{
    background: #ffebee; color: #7f0000; border: 1px solid #ffcdd2; border-radius: 4px;
    padding: 6px 8px;
}}
QFrame#card {{ background: #ffffff; border: 1px solid #d5dde3; border-radius: 6px; }}
QLabel#cardValue {{ font-size: 18pt; font-weight: 600; color: {ACCENT}; }}
QLabel#cardLabel {{ color: {MUTED}; }}
QLabel#sectionTitle {{ font-weight: 600; font-size: 11pt; }}
QListWidget#steps {{ background: #f4f7f9; border: none; border-right: 1px solid #d5dde3; }}
QListWidget#steps::item {{ padding: 7px 10px; color: #37474f; }}
QListWidget#steps::item:selected {{ background: {ACCENT}; color: white; border-radius: 4px; }}
QGroupBox {{ font-weight: 600; margin-top: 10px; }}
QGroupBox::title {{ subcontrol-origin: margin; left: 6px; padding: 0 3px; }}
QTableWidget {{ gridline-color: #e0e6ea; }}
QHeaderView::section {{ background: #eef2f5; padding: 4px; border: none;
    border-right: 1px solid #d5dde3; border-bottom: 1px solid #d5dde3; font-weight: 600; }}
"""


DISABLED_TEXT = "#9aa5ad"


def palette() -> QPalette:
    """The light palette. Text of disabled controls is grey: a disabled Next button or an
    item that cannot be chosen must not look like one that can."""
    palette = QPalette()
    palette.setColor(QPalette.ColorRole.Window, QColor("#fafbfc"))
    palette.setColor(QPalette.ColorRole.Base, QColor("#ffffff"))
    palette.setColor(QPalette.ColorRole.AlternateBase, QColor("#f4f7f9"))
    palette.setColor(QPalette.ColorRole.Highlight, QColor(ACCENT))
    palette.setColor(QPalette.ColorRole.HighlightedText, QColor("#ffffff"))
    palette.setColor(QPalette.ColorRole.Text, QColor("#1f2a30"))
    palette.setColor(QPalette.ColorRole.WindowText, QColor("#1f2a30"))
    palette.setColor(QPalette.ColorRole.ButtonText, QColor("#1f2a30"))
    palette.setColor(QPalette.ColorRole.ToolTipBase, QColor("#ffffff"))
    palette.setColor(QPalette.ColorRole.ToolTipText, QColor("#1f2a30"))
    disabled = QPalette.ColorGroup.Disabled
    for role in (
        QPalette.ColorRole.Text,
        QPalette.ColorRole.WindowText,
        QPalette.ColorRole.ButtonText,
        QPalette.ColorRole.PlaceholderText,
    ):
        palette.setColor(disabled, role, QColor(DISABLED_TEXT))
    palette.setColor(disabled, QPalette.ColorRole.Base, QColor("#f1f4f6"))
    palette.setColor(disabled, QPalette.ColorRole.Button, QColor("#eef1f3"))
    return palette


def apply(app: QApplication) -> None:
    app.setStyle("Fusion")
    app.setPalette(palette())
    font = QFont(app.font())
    if font.pointSizeF() < 10:
        font.setPointSizeF(10)
    app.setFont(font)
    app.setStyleSheet(STYLESHEET)
