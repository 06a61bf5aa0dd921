"""Per-workload GPU memory as stacked horizontal bars against the GPU's capacity."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from wizard.gui.style import MEMORY_COLOURS
from wizard.model.result import WorkloadResult

PARTS = (
    ("weights", "weights"),
    ("gradients", "gradients"),
    ("optimizer", "optimizer"),
    ("activations", "activations"),
    ("kv_cache", "KV cache"),
    ("overhead", "overhead"),
    ("workspace", "reserved per user or job"),
)


class MemoryBars(QWidget):
    """One bar per workload: the GB per GPU of each memory component, with the GPU's memory as a
    dashed line; a bar past the line does not fit one GPU."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: list[WorkloadResult] = []
        self.gpu_gb = 0.0
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def set_data(self, rows: list[WorkloadResult], gpu_gb: float) -> None:
        self.rows = rows
        self.gpu_gb = gpu_gb
        self.updateGeometry()
        self.update()
        self.setToolTip(
            "\n".join(
                f"{w.name}: "
                + ", ".join(
                    f"{label} {getattr(w.memory_gb, key):,.1f} GB"
                    for key, label in PARTS
                    if getattr(w.memory_gb, key)
                )
                + f" = {w.memory_gb.total:,.1f} GB per GPU"
                for w in rows
            )
        )

    def _line(self) -> int:
        return QFontMetrics(self.font()).height()

    def sizeHint(self) -> QSize:
        line = self._line()
        return QSize(600, int(line * (4.0 + 2.0 * max(len(self.rows), 1))))

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def paintEvent(self, _event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        fm = QFontMetrics(self.font())
        line = fm.height()
        if not self.rows:
            p.setPen(QColor("#5f6b73"))
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "No workloads sized yet")
            return
        label_w = min(max(fm.horizontalAdvance(w.name) for w in self.rows) + 12, self.width() // 3)
        value_w = fm.horizontalAdvance("00,000.0 GB") + 12
        x0 = label_w
        width = max(self.width() - label_w - value_w, 50)
        top_gb = max([self.gpu_gb, *(w.memory_gb.total for w in self.rows)]) or 1
        scale = width / top_gb
        y = 0.0
        for w in self.rows:
            p.setPen(QColor("#1f2a30"))
            name = fm.elidedText(w.name, Qt.TextElideMode.ElideRight, label_w - 8)
            p.drawText(QRectF(0, y, label_w - 8, line * 1.6), Qt.AlignmentFlag.AlignVCenter, name)
            x = float(x0)
            for key, _label in PARTS:
                gb = getattr(w.memory_gb, key)
                if gb <= 0:
                    continue
                p.fillRect(QRectF(x, y + line * 0.2, gb * scale, line * 1.2),
                           QColor(MEMORY_COLOURS[key]))  # fmt: skip
                x += gb * scale
            p.setPen(QColor("#37474f"))
            gpu_x = x0 + self.gpu_gb * scale if self.gpu_gb else 0
            p.drawText(
                QRectF(max(x, gpu_x) + 6, y, value_w, line * 1.6),
                Qt.AlignmentFlag.AlignVCenter,
                f"{w.memory_gb.total:,.1f} GB",
            )
            y += line * 2.0
        if self.gpu_gb:
            gx = x0 + self.gpu_gb * scale
            pen = QPen(QColor("#c62828"))
            pen.setStyle(Qt.PenStyle.DashLine)
            pen.setWidthF(1.5)
            p.setPen(pen)
            p.drawLine(int(gx), 0, int(gx), int(y))
            p.drawText(
                QRectF(gx - 150, y, 300, line * 1.2),
                Qt.AlignmentFlag.AlignCenter,
                f"GPU memory {self.gpu_gb:g} GB",
            )
        # legend
        lx = float(x0)
        ly = y + line * 1.3
        for key, label in PARTS:
            if not any(getattr(w.memory_gb, key) for w in self.rows):
                continue
            if lx + line + fm.horizontalAdvance(label) > self.width():  # wrap the legend
                lx = float(x0)
                ly += line * 1.4
            p.fillRect(
                QRectF(lx, ly + line * 0.2, line * 0.8, line * 0.8), QColor(MEMORY_COLOURS[key])
            )
            p.setPen(QColor("#37474f"))
            p.drawText(QRectF(lx + line, ly, 200, line * 1.2), Qt.AlignmentFlag.AlignVCenter, label)
            lx += line + fm.horizontalAdvance(label) + 16
        p.end()
