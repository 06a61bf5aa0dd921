"""Read-only tables of Result parts for the Review page: storage and the software platform."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from wizard.base.numbers import MISSING, count, fixed
from wizard.model.buildout import Bom, Power, Racks
from wizard.model.platform import SoftwareResult, StorageResult
from wizard.present import labels
from wizard.present import storage_need as need
from wizard.present.cooling_text import cooling_sentence
from wizard.present.fields import in_words
from wizard.present.racks_text import rack_fit
from wizard.present.references import customer_source


def table(columns: tuple[str, ...], stretch: int | None = None) -> QTableWidget:
    t = QTableWidget(0, len(columns))
    t.setHorizontalHeaderLabels(columns)
    t.verticalHeader().hide()
    t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    t.setAlternatingRowColors(True)
    t.setWordWrap(True)
    h = t.horizontalHeader()
    for c in range(len(columns)):
        h.setSectionResizeMode(c, QHeaderView.ResizeMode.Interactive)
    if stretch is not None:
        h.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
    t.setProperty("stretch", stretch)
    # Wrapped rows take their height from the column widths, known only once laid out.
    t.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    t.viewport().installEventFilter(_Refit(t))
    return t


class _Refit(QObject):
    """Fits the table's columns again whenever its width changes (a small window, a splitter)."""

    def __init__(self, t: QTableWidget) -> None:
        super().__init__(t)
        self.t = t
        self._width = -1

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and self.t.viewport().width() != self._width:
            self._width = self.t.viewport().width()
            fit_columns(self.t)
        return False


def fit_columns(t: QTableWidget) -> None:
    """Every column as wide as its contents (at most MAX_COLUMN, wider text wraps), the stretch
    column taking the rest; where the table is too narrow for that, the widest columns give way
    down to their headings and their longest word (a cell wraps between words, and a word cut
    short reads 'Licens…'), so the stretch column keeps its heading and a third of the width
    rather than shrinking to a sliver ('Descr')."""
    stretch = t.property("stretch")
    metrics = t.horizontalHeader().fontMetrics()
    heading = []
    for c in range(t.columnCount()):
        item = t.horizontalHeaderItem(c)
        heading.append(metrics.horizontalAdvance(item.text() if item else "") + HEADING_PADDING)
    natural: dict[int, int] = {}
    for c in range(t.columnCount()):
        if c != stretch:
            t.resizeColumnToContents(c)
            natural[c] = max(min(t.columnWidth(c), MAX_COLUMN), heading[c])
    room = t.viewport().width()
    if stretch is not None and room > 0:
        keep = max(heading[stretch], room // 3)
        over = sum(natural.values()) + keep - room
        if over > 0:
            least = {c: max(heading[c], _longest_word(t, c)) for c in natural}
            give = {c: w - least[c] for c, w in natural.items() if w > least[c]}
            total = sum(give.values())
            if total > 0:
                share = min(1.0, over / total)
                natural = {c: w - int(give.get(c, 0) * share) for c, w in natural.items()}
    for c, w in natural.items():
        t.setColumnWidth(c, w)


def _longest_word(t: QTableWidget, c: int) -> int:
    """The width of column ``c``'s longest word with the cell's margins (at most MAX_COLUMN)."""
    words = {w for r in range(t.rowCount()) if (x := t.item(r, c)) for w in x.text().split()}
    widest = max((t.fontMetrics().horizontalAdvance(w) for w in words), default=0)
    return min(widest + CELL_PADDING, MAX_COLUMN)


HEADING_PADDING = 16  # the header's margins and sort-indicator room around its words
CELL_PADDING = 8  # a cell's margins around its text, as Qt fits a column to its contents


MAX_COLUMN = 300  # wider texts wrap inside the cell instead of scrolling the table sideways


def fill(t: QTableWidget, rows: list[list[str]], right: tuple[int, ...] = ()) -> None:
    t.setRowCount(len(rows))
    for r, cells in enumerate(rows):
        for c, text in enumerate(cells):
            item = QTableWidgetItem(text)
            item.setToolTip(text)
            if c in right:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            t.setItem(r, c, item)
    fit_columns(t)


def _title(text: str) -> QLabel:
    label = QLabel(text)
    label.setObjectName("sectionTitle")
    return label


class StorageView(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        v = QVBoxLayout(self)
        self.summary = table(("Figure", "Value"), stretch=1)
        self.needs = table(
            ("Workload", "Dataset", "Checkpoints", "Model files", "Read GB/s", "Basis"), stretch=5
        )
        self.gds = QLabel()
        self.gds.setWordWrap(True)
        self.gds.setObjectName("muted")
        v.addWidget(_title("Shared storage for training data"))
        v.addWidget(self.summary, 3)
        v.addWidget(self.gds)
        v.addWidget(_title("Per workload"))
        v.addWidget(self.needs, 2)

    def show_result(self, s: StorageResult | None) -> None:
        if s is None:
            fill(self.summary, [["Storage", "not part of this result"]])
            fill(self.needs, [])
            self.gds.setText("")
            return
        fill(
            self.summary,
            [
                ["System", s.system_name or "none chosen"],
                [
                    "Capacity needed (with headroom)",
                    need.total(
                        fixed(s.capacity_needed_tb, "TB", 2),
                        s.capacity_needed_tb,
                        s.capacity_not_known,
                    ),
                ],
                [
                    "Datasets (all versions)",
                    need.total(fixed(s.datasets_gb, "GB"), s.datasets_gb, s.dataset_not_known),
                ],
                [
                    "Checkpoints",
                    need.total(
                        fixed(s.checkpoints_gb, "GB"), s.checkpoints_gb, s.checkpoints_not_known
                    ),
                ],
                [
                    "Model files",
                    need.total(
                        fixed(s.model_files_gb, "GB"), s.model_files_gb, s.model_files_not_known
                    ),
                ],
                [
                    "Read throughput needed",
                    need.total(
                        need.rate(s.read_gbs_needed, "GB/s"), s.read_gbs_needed, s.read_not_known
                    ),
                ],
                [
                    "Busiest host's read",
                    need.total(
                        need.rate(s.read_gbs_per_host_needed, "GB/s"),
                        s.read_gbs_per_host_needed,
                        s.read_not_known,
                    ),
                ],
                ["A host's network carries", fixed(s.host_network_gbs, "GB/s", 2)],
                ["Nodes" + (" (given)" if s.nodes_given else " (sized)"), fixed(s.nodes)],
                [
                    "Nodes for capacity / for throughput",
                    f"{need.nodes_for(s.nodes_for_capacity)} / "
                    f"{need.nodes_for(s.nodes_for_throughput)}"
                    if s.nodes is not None
                    else f"{MISSING} / {MISSING}",
                ],
                ["Usable capacity", fixed(s.usable_tb, "TB")],
                ["Read throughput available", fixed(s.read_gbs_available, "GB/s", 1)],
                ["Rack units", fixed(s.rack_units, "U")],
            ],
        )
        self.gds.setText(
            "GPUDirect Storage: possible on every link of the path."
            if s.gpudirect_storage
            else "GPUDirect Storage is not possible: "
            + in_words("; ".join(s.gpudirect_storage_blockers))
        )
        fill(
            self.needs,
            [
                [
                    n.workload,
                    need.cell(fixed(n.dataset_gb, "GB"), n.dataset_gb),
                    need.cell(fixed(n.checkpoints_gb, "GB"), n.checkpoints_gb),
                    need.cell(fixed(n.model_files_gb, "GB"), n.model_files_gb),
                    need.cell(need.rate(n.read_gbs or 0.0, ""), n.read_gbs),
                    in_words(f"{n.dataset_basis}; {n.read_basis}"),
                ]
                for n in s.needs
            ],
            right=(1, 2, 3, 4),
        )


class SoftwareView(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        v = QVBoxLayout(self)
        self.headline = QLabel()
        self.headline.setWordWrap(True)
        self.components = table(("Layer", "Component", "Version", "Needed for"), stretch=3)
        self.checklist = table(("Where", "Setting", "Value", "Modes", "Why"), stretch=4)
        v.addWidget(self.headline)
        v.addWidget(_title("Components"))
        v.addWidget(self.components, 2)
        v.addWidget(_title("Settings before go-live"))
        v.addWidget(self.checklist, 3)

    def show_result(self, s: SoftwareResult | None) -> None:
        if s is None:
            self.headline.setText("The software platform is not part of this result.")
            fill(self.components, [])
            fill(self.checklist, [])
            return
        cert = s.certification
        self.headline.setText(
            f"<b>{s.release_name or 'No NVIDIA AI Enterprise release'}</b>"
            + (f" · vGPU {s.vgpu_branch}" if s.vgpu_branch else "")
            + (f" · driver {s.driver_branch}" if s.driver_branch else "")
            + f" · Kubernetes: {labels.name(labels.KUBERNETES, s.kubernetes)}"
            + f" · server certification: {labels.name(labels.CERTIFICATION, cert.status)}"
        )
        fill(
            self.components,
            [
                [labels.name(labels.LAYER, c.layer), c.name, c.version or MISSING, c.needed_for]
                for c in s.components
            ],
        )
        fill(
            self.checklist,
            [
                [
                    labels.name(labels.LAYER, i.scope),
                    i.setting,
                    i.value,
                    labels.modes(i.modes),
                    i.reason,
                ]
                for i in s.checklist
            ],
        )


class BomView(QWidget):
    """The bill of materials as the engine lists it; prices only from a user's price list."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        v = QVBoxLayout(self)
        self.note = QLabel()
        self.note.setObjectName("muted")
        self.note.setWordWrap(True)
        self.lines = table(
            ("Category", "Description", "Part number", "Quantity", "Unit", "Source"), stretch=1
        )
        v.addWidget(self.note)
        v.addWidget(self.lines, 1)

    def show_result(self, bom: Bom | None) -> None:
        if bom is None:
            self.note.setText("The bill of materials is not part of this result.")
            fill(self.lines, [])
            return
        self.note.setText(
            f"{len(bom.lines)} lines. No prices ship with the program: the Export page writes the "
            "BOM as CSV or XLSX, priced from your own price list if you give one."
        )
        fill(
            self.lines,
            [
                [
                    labels.BOM_CATEGORY[ln.category],
                    ln.description,
                    ln.part_number or MISSING,
                    f"{ln.quantity:,}",
                    ln.unit,
                    customer_source(ln.source),
                ]
                for ln in bom.lines
            ],
            right=(3,),
        )


class PowerView(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        v = QVBoxLayout(self)
        self.power_note = QLabel()
        self.power_note.setWordWrap(True)
        self.items = table(("Item", "Count", "W each", "W total", "Source"), stretch=4)
        self.racks_note = QLabel()
        self.racks_note.setWordWrap(True)
        self.racks = table(("Rack", "Role", "Used U", "Power", "Hosts"), stretch=4)
        v.addWidget(_title("Power"))
        v.addWidget(self.power_note)
        v.addWidget(self.items, 2)
        v.addWidget(_title("Racks"))
        v.addWidget(self.racks_note)
        v.addWidget(self.racks, 2)

    def show_result(self, power: Power | None, racks: Racks | None) -> None:
        if power is None:
            self.power_note.setText("Power is not part of this result.")
            fill(self.items, [])
        else:
            self.power_note.setText(
                f"<b>{power.total_kw:,.1f} kW</b> in total ({power.btu_per_hour:,.0f} BTU/h of "
                f"heat): {count(power.hosts, 'host')} at {power.host_w:,.0f} W each "
                f"({power.gpu_w_per_host:,.0f} W of GPUs + {power.baseline_w_per_host:,.0f} W "
                f"platform) and {power.network_w:,.0f} W of network. Power supplies installed: "
                f"{power.psu_installed_w:,.0f} W per host, {power.psu_redundant_w:,.0f} W with "
                "half of them failed."
            )
            fill(
                self.items,
                [
                    [
                        i.item,
                        f"{i.count:,}",
                        f"{i.watts_each:,.0f}",
                        f"{i.watts_total:,.0f}",
                        customer_source(i.source),
                    ]
                    for i in power.items
                ],
                right=(1, 2, 3),
            )
        if racks is None:
            self.racks_note.setText("Racks are not part of this result.")
            fill(self.racks, [])
            return
        self.racks_note.setText(
            f"{len(racks.racks)} rack{'s' if len(racks.racks) != 1 else ''} of {racks.rack_units}U at {racks.power_limit_kw:g} kW each: "
            f"{racks.host_racks} for hosts, {racks.network_racks} for the network; "
            f"{rack_fit(racks)}."
            + (f" Liquid cooling: {cooling_sentence(racks.cooling)}" if racks.cooling else "")
        )
        fill(
            self.racks,
            [
                [
                    r.name,
                    r.role,
                    f"{r.used_u} / {r.height_u}",
                    f"{r.power_w / 1000:,.1f} / {r.power_limit_w / 1000:,.1f} kW",
                    ", ".join(str(h + 1) for h in r.hosts) or MISSING,
                ]
                for r in racks.racks
            ],
            right=(2, 3),
        )
