"""Page 4: how each workload group gets its GPUs, and the engine's side-by-side comparison."""

from __future__ import annotations

from pydantic import ValidationError
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from wizard.base.numbers import MISSING
from wizard.engine import group_mode_reason
from wizard.gui.forms import FormErrors, clean_message, error_items
from wizard.gui.pages import titles
from wizard.gui.pages.base import Page
from wizard.gui.pages.hardware_clusters import Clusters
from wizard.gui.widgets.fitting_table import FittingTable
from wizard.gui.widgets.inputs import Choice, int_spin
from wizard.model.catalog import Gpu, Server
from wizard.model.design import (
    KubernetesPlatform,
    PlatformChoice,
    SharingMode,
    VsphereRelease,
    WorkloadGroup,
)
from wizard.present import labels
from wizard.present.figures import gpus_text
from wizard.present.glossary import tip

COL_KIND, COL_CLUSTER, COL_GPUS, COL_CONSTRAINTS, COL_MODE = 1, 2, 3, 4, 5

COMPARISON_ROWS = (
    "Can serve this design",
    "Physical GPUs",
    "Hosts",
    "GPUs allocated (mean)",
    "Isolation",
    "Live migration",
    "HA behaviour",
    "Licences",
    "Caveats",
)


def mode_reason(
    mode: SharingMode, group: WorkloadGroup, gpu: Gpu | None, server: Server | None = None
) -> str | None:
    """Why ``group`` cannot use ``mode``: the rule book's one answer (wizard.engine.platform.compat)."""
    return group_mode_reason(mode, group.constraints, gpu, server)


MODE_COLUMN = 240  # as wide as the longest mode's name in its list: the group's name needs room


class SharingPage(Page):
    def __init__(self, doc, catalog, live) -> None:
        super().__init__(doc, catalog, live, *titles.SHARING)
        self._problems: list[str] = []
        # every column on screen at 1,024 pixels: the columns share the width, text wraps
        self.table = FittingTable(0, 6, {COL_MODE: MODE_COLUMN})
        self.table.setHorizontalHeaderLabels(
            ["Workload group", "Kind", "Cluster", "GPUs", "Constraints", "Sharing mode"]
        )
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.body.addWidget(self.table)
        self.mode_errors = QLabel()
        self.mode_errors.setObjectName("problem")
        self.mode_errors.setWordWrap(True)
        self.mode_errors.hide()
        self.body.addWidget(self.mode_errors)
        legend = QLabel(
            "<br>".join(f"<b>{labels.MODE[m]}</b>: {tip(m.value)}" for m in SharingMode)
        )
        legend.setObjectName("muted")
        legend.setWordWrap(True)
        self.body.addWidget(legend)

        platform = QGroupBox("Software platform")
        pbox = QHBoxLayout(platform)
        pf, pf2 = QFormLayout(), QFormLayout()
        pbox.addLayout(pf, 1)
        pbox.addLayout(pf2, 1)
        self.platform_errors = FormErrors()
        self.kubernetes = Choice.of(KubernetesPlatform, labels.KUBERNETES)
        self.vsphere = Choice.of(VsphereRelease, labels.VSPHERE)
        self.paif = QCheckBox("VMware Private AI Foundation with NVIDIA")
        self.vsan = QCheckBox("on vSAN")
        self.service = int_spin(1, 10, 3)
        self.service.setSuffix(" years")
        self.release = Choice([("Chosen for the GPU and service period", None)])
        for r in sorted(catalog.software.values(), key=lambda r: r.release, reverse=True):
            ends = f", supported to {r.end_of_support:%B %Y}" if r.end_of_support else ""
            self.release.add(
                f"{r.name} (vGPU {r.vgpu_branch}, driver {r.driver_branch}{ends})", r.id
            )
        row = QHBoxLayout()
        self.platform_errors.add(pf, "kubernetes", "Kubernetes", self.kubernetes)
        self.platform_errors.add(pf2, "nvaie_release", "NVIDIA AI Enterprise", self.release)
        self.platform_errors.add(pf, "vsphere", "vSphere", self.vsphere)
        self.platform_errors.add(
            pf2, "private_ai_foundation", "Private AI", self.paif, term="private_ai_foundation"
        )
        self.platform_errors.add(
            pf, "vsan_principal_storage", "VM storage", self.vsan,
            term="vsan_principal_storage",
        )  # fmt: skip
        self.platform_errors.add(
            pf2, "service_years", "In service", self.service, term="service_years"
        )
        self.vsan.toggled.connect(self._platform_edited)
        self.service.valueChanged.connect(self._platform_edited)
        self.vsphere.currentIndexChanged.connect(self._platform_edited)
        self.paif.toggled.connect(self._platform_edited)
        self.kubernetes.currentIndexChanged.connect(self._platform_edited)
        self.release.currentIndexChanged.connect(self._platform_edited)
        row.addWidget(platform)
        self.body.addLayout(row)

        box = QGroupBox("Side-by-side comparison for this design")
        bv = QVBoxLayout(box)
        pick = QHBoxLayout()
        self.cluster_label = QLabel("GPU cluster:")
        self.cluster = Choice()
        self.cluster.setToolTip("Each GPU cluster is compared on its own hardware and groups")
        pick.addWidget(self.cluster_label)
        pick.addWidget(self.cluster, 1)
        pick.addStretch(2)
        bv.addLayout(pick)
        self.cluster.currentIndexChanged.connect(lambda _i: self._show_comparison())
        self.comparison_note = QLabel()
        self.comparison_note.setObjectName("note")
        self.comparison_note.setWordWrap(True)
        bv.addWidget(self.comparison_note)
        # Modes side by side: one column per mode, one row per property.
        self.comparison = QTableWidget(len(COMPARISON_ROWS), 0)
        self.comparison.setVerticalHeaderLabels(COMPARISON_ROWS)
        self.comparison.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.comparison.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.comparison.setWordWrap(True)
        self.comparison.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.comparison.verticalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents
        )
        self.comparison.verticalHeader().setDefaultAlignment(
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        )
        self.comparison.setMinimumHeight(300)
        bv.addWidget(self.comparison)
        self.body.addWidget(box, 3)
        self.comparison_box = box
        self.combos: list[Choice] = []
        self.live.updated.connect(self._show_live)
        self._reload()
        self._show_live()  # made after a sizing too: show it now, not at the next one

    def load(self) -> None:
        platform: PlatformChoice = self.doc.get("platform")
        self.kubernetes.put(platform.kubernetes)
        self.release.put(platform.nvaie_release)
        self.vsphere.put(platform.vsphere)
        self.paif.setChecked(platform.private_ai_foundation)
        self.vsan.setChecked(platform.vsan_principal_storage)
        self.service.setValue(platform.service_years)
        groups: list[WorkloadGroup] = self.doc.get("workloads")
        for old in self.combos:
            old.hide()
            old.deleteLater()
        self.table.setRowCount(0)
        self.table.setRowCount(len(groups))
        self.combos = []
        for i, g in enumerate(groups):
            cells = [g.name, labels.KIND_SHORT[g.kind], g.cluster or MISSING, MISSING,
                     _constraints(g)]  # fmt: skip
            for c, text in enumerate(cells):
                self.table.setItem(i, c, QTableWidgetItem(text))
            combo = Choice.of(SharingMode, labels.MODE)
            combo.put(g.sharing_mode)
            combo.setToolTip(tip("sharing_mode"))
            combo.currentIndexChanged.connect(lambda _i, row=i: self._mode_changed(row))
            self.table.setCellWidget(i, COL_MODE, combo)
            self.combos.append(combo)
        self._set_reasons()
        self._show_live()

    def _platform_edited(self) -> None:
        if self._loading:
            return
        try:
            choice = PlatformChoice.model_validate(
                {
                    "kubernetes": self.kubernetes.get(),
                    "nvaie_release": self.release.get(),
                    "vsphere": self.vsphere.get(),
                    "private_ai_foundation": self.paif.isChecked(),
                    "vsan_principal_storage": self.vsan.isChecked(),
                    "service_years": self.service.value(),
                }
            )
        except ValidationError as exc:
            self.platform_errors.show(error_items(exc))
            return
        self.platform_errors.clear()
        self.commit("platform", choice)

    def _cluster_names(self) -> list[str]:
        return Clusters(self.doc).names()

    def _where(self) -> dict[str, str]:
        """The GPU cluster each group runs on: pinned, or where the sizing placed it."""
        groups: list[WorkloadGroup] = self.doc.get("workloads")
        where = {g.name: g.cluster for g in groups if g.cluster}
        if self.live.estate is not None:
            where.update({p.workload: p.cluster for p in self.live.estate.placements})
        elif len(self._cluster_names()) == 1:
            where = {g.name: self._cluster_names()[0] for g in groups}
        return where

    def _hardware(self, cluster: str | None) -> tuple[Gpu | None, Server | None]:
        """The GPU and server of ``cluster``, or of the first when the group is not placed."""
        return Clusters(self.doc).gpu_and_server(cluster, self.catalog)

    def _set_reasons(self) -> None:
        groups: list[WorkloadGroup] = self.doc.get("workloads")
        where = self._where()
        for g, combo in zip(groups, self.combos, strict=False):
            gpu, server = self._hardware(where.get(g.name))
            for m in SharingMode:
                combo.set_reason(m, mode_reason(m, g, gpu, server), tip(m.value))

    def _mode_changed(self, row: int) -> None:
        if self._loading:
            return
        groups: list[WorkloadGroup] = list(self.doc.get("workloads"))
        if not 0 <= row < len(groups):
            return
        mode = self.combos[row].get()
        try:
            updated = WorkloadGroup.model_validate(
                {**groups[row].model_dump(), "sharing_mode": mode}
            )
        except ValidationError as exc:
            self.mode_errors.setText(
                f"{groups[row].name}: " + clean_message(exc.errors()[0]["msg"])
            )
            self.mode_errors.show()
            return
        groups[row] = updated
        self.commit("workloads", groups)
        self.live.refresh()
        self.update_complete()

    def _show_live(self) -> None:
        sized = self.live.workload_results()
        groups = self.doc.get("workloads")
        where = self._where()
        names = self._cluster_names()
        self.table.setColumnHidden(COL_CLUSTER, len(names) < 2)
        for i in range(min(len(groups), self.table.rowCount())):
            text = MISSING
            if (w := sized.get(groups[i].name)) is not None:
                text = gpus_text(w).replace(" GPU", "\u00a0GPU")  # "10 GPUs" wraps as one
            item = QTableWidgetItem(text)
            item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(i, COL_GPUS, item)
            placed = where.get(groups[i].name)
            cell = QTableWidgetItem(placed or "placed when the design sizes")
            if placed and not groups[i].cluster:
                cell.setToolTip("Placed by the sizing where it takes the least GPU power")
            self.table.setItem(i, COL_CLUSTER, cell)
        # as tall as its rows (up to eight), so the comparison below gets the space
        self.table.fit()
        self._set_reasons()
        # problems the catalog checks find in the modes (e.g. MIG on a GPU without MIG)
        lines = []
        for p in self.live.compat:
            if p.field.startswith("workloads[") and p.field.endswith(".sharing_mode"):
                index = int(p.field[len("workloads[") : p.field.index("]")])
                name = groups[index].name if index < len(groups) else p.field
                # the group once: a rule's message may name it already
                named = p.message.startswith(f"{name}: ")
                lines.append(p.message if named else f"{name}: {p.message}")
        platform = [
            (p.field.removeprefix("platform."), p.message)
            for p in self.live.compat
            if p.field.startswith("platform.")
        ]
        if platform:
            platform_lines = self.platform_errors.show(platform)
        else:
            platform_lines = []
            self.platform_errors.clear()
        self._problems = lines + platform_lines
        self.mode_errors.setText("\n".join(lines))
        self.mode_errors.setVisible(bool(lines))
        self._show_comparison()
        self.update_complete()

    def _fill_clusters(self) -> list[str]:
        """The GPU clusters the estate built, in the picker (hidden for one cluster)."""
        built = (
            [c.name for c in self.live.estate.clusters if c.result is not None]
            if self.live.estate is not None
            else []
        )
        shown = self.cluster.get()
        blocked = self.cluster.blockSignals(True)
        self.cluster.clear()
        for name in built:
            self.cluster.add(name, name)
        if shown in built:
            self.cluster.put(shown)
        self.cluster.blockSignals(blocked)
        self.cluster_label.setVisible(len(built) > 1)
        self.cluster.setVisible(len(built) > 1)
        return built

    def _show_comparison(self) -> None:
        built = self._fill_clusters()
        result = self.live.cluster_result(str(self.cluster.get() or built[0])) if built else None
        options = result.sharing_comparison if result is not None else []
        if result is None:
            held = self.live.why_no_figures()
            reason = held[0] if held else "the design is not complete"
            self.comparison_note.setText(f"Shown once the design sizes ({reason}).")
        elif not options:
            self.comparison_note.setText(
                "Not available: this version of the sizing engine does not compare the sharing "
                "modes yet."
            )
        else:
            self.comparison_note.setText(
                ("What this cluster needs " if built else "What this design needs ")
                + "under each mode, from the sizing engine. Greyed columns cannot serve every "
                "group; the first row says why."
            )
        self.comparison.setVisible(bool(options))
        self.body.setStretchFactor(self.comparison_box, 3 if options else 0)
        self.comparison.setColumnCount(len(options))
        # two lines ('Time-sliced' over 'vGPU') so five modes fit a small window's width
        self.comparison.setHorizontalHeaderLabels(
            [labels.mode_short(o.mode).replace(" ", "\n", 1) for o in options]
        )
        for c, o in enumerate(options):
            if (header := self.comparison.horizontalHeaderItem(c)) is not None:
                header.setToolTip(o.label)
        for c, o in enumerate(options):
            cells = [
                "yes" if o.available else f"no: {o.reason}",
                f"{o.gpus:,}" if o.available else MISSING,
                f"{o.hosts_total:,} ({o.hosts_for_capacity:,} for capacity)"
                if o.available
                else MISSING,
                f"{o.mean_utilization:.0%}" if o.available else MISSING,
                o.isolation,
                o.live_migration,
                o.ha_behaviour,
                o.licences,
                "\n".join(f"• {x}" for x in o.caveats) or "none",
            ]
            for r, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
                if not o.available:
                    item.setForeground(QBrush(QColor("#8a949b")))
                if o.mode == "as-designed":
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                self.comparison.setItem(r, c, item)
        self.comparison.resizeRowsToContents()

    def problems(self) -> list[str]:
        if not self.doc.get("workloads"):
            return ["add a workload group on the Workloads page"]
        return list(self._problems)


def _constraints(g: WorkloadGroup) -> str:
    c = g.constraints
    out = []
    if c.isolation_required:
        out.append("performance isolation")
    if c.live_migration_required:
        out.append("live migration")
    if c.remote_ok:
        out.append("remote OK")
    return ", ".join(out) or "none"
