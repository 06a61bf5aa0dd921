"""The report's diagrams on screen: the same drawings as the PDF, as SVG drawn by Qt."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontDatabase, QImage, QPainter, QPixmap
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QSizePolicy, QVBoxLayout, QWidget

from wizard.gui.reporting import Diagram

_fonts_registered = False


def register_fonts(files: dict[str, bytes]) -> None:
    """Give Qt the fonts the SVG names (shipped with the program), once."""
    global _fonts_registered
    if _fonts_registered:
        return
    for data in files.values():
        QFontDatabase.addApplicationFontFromData(QByteArray(data))
    _fonts_registered = True


class SvgView(QLabel):
    """An SVG drawn on white at the width available (never wider than 1.6 x its natural size),
    re-drawn when the width changes; sharp at any scaling factor."""

    MAX_ZOOM = 1.6

    def __init__(self, svg: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")), self)
        self.natural = self.renderer.defaultSize()
        self.ratio = self.natural.height() / self.natural.width() if self.natural.width() else 0.5
        policy = QSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self._drawn_width = -1

    def target_size(self, available: int) -> QSize:
        width = max(50, min(available, int(self.natural.width() * self.MAX_ZOOM)))
        return QSize(width, max(1, round(width * self.ratio)))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.redraw()

    def redraw(self) -> None:
        size = self.target_size(self.width())
        self.setFixedHeight(size.height())
        if size.width() == self._drawn_width:
            return
        self._drawn_width = size.width()
        dpr = self.devicePixelRatioF()
        image = QImage(size * dpr, QImage.Format.Format_ARGB32_Premultiplied)
        image.setDevicePixelRatio(dpr)
        image.fill(QColor("white"))
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.renderer.render(painter, QRectF(0, 0, size.width(), size.height()))
        painter.end()
        self.setPixmap(QPixmap.fromImage(image))


class DiagramsView(QScrollArea):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.content = QWidget()
        self.layout_ = QVBoxLayout(self.content)
        self.status = QLabel()
        self.status.setObjectName("muted")
        self.status.setWordWrap(True)
        self.layout_.addWidget(self.status)
        self.layout_.addStretch(1)
        self.setWidget(self.content)
        self.views: list[SvgView] = []

    def _clear(self) -> None:
        while self.layout_.count() > 1:
            item = self.layout_.takeAt(1)
            if item is not None and (widget := item.widget()) is not None:
                widget.deleteLater()
        self.views = []

    def show_message(self, text: str) -> None:
        self._clear()
        self.status.setText(text)
        self.layout_.addStretch(1)

    def show_diagrams(self, diagrams: list[Diagram]) -> None:
        self._clear()
        self.status.setText(
            "The drawings of the PDF proposal, for the design as it is now."
            if diagrams
            else "This result has no data for any diagram."
        )
        for d in diagrams:
            title = QLabel(d.title)
            title.setObjectName("sectionTitle")
            self.layout_.addWidget(title)
            if d.svg is None:
                error = QLabel(f"This diagram could not be drawn: {d.error}")
                error.setObjectName("fieldError")
                error.setWordWrap(True)
                self.layout_.addWidget(error)
                continue
            view = SvgView(d.svg)
            view.setToolTip(d.title)
            self.layout_.addWidget(view)
            self.views.append(view)
        self.layout_.addStretch(1)
        self._fit()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        """Each drawing as tall as its width makes it (the scroll area does not ask)."""
        margins = self.layout_.contentsMargins()
        available = self.viewport().width() - margins.left() - margins.right()
        for view in self.views:
            view.setFixedHeight(view.target_size(available).height())
