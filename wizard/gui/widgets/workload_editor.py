"""The editor of one workload group: only the questions its kind needs, each with a tooltip.

It produces a plain dict that :class:`WorkloadGroup` validates; the page decides what to do with
errors, which come back here to appear under the widget that caused them. The questions of each
kind live in their sub-forms (``workload_sections``); this editor holds the group's own fields,
shows the sub-forms its kind needs and puts their answers together.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from wizard.engine import group_mode_reason
from wizard.gui.forms import FormErrors
from wizard.gui.widgets.inputs import Choice, int_spin
from wizard.gui.widgets.workload_sections import (
    CUSTOM,
    MODEL_KINDS,
    NOTEBOOK_GB,
    TRAINING_KINDS,
    ModelSection,
    ParallelSection,
    ServingSection,
    SharedSection,
    TrainingSection,
    form_of,
    short_source,
)
from wizard.model.catalog import Catalog, Gpu, Server
from wizard.model.design import (
    MAX_GROUP_COUNT,
    Constraints,
    SharingMode,
    WorkloadGroup,
    WorkloadKind,
)
from wizard.present import labels
from wizard.present.glossary import tip

__all__ = ["CUSTOM", "MODEL_KINDS", "TRAINING_KINDS", "WorkloadEditor", "short_source"]

_form = form_of


class WorkloadEditor(QWidget):
    """Edits one group; emits :attr:`edited` after every change a user makes."""

    edited = Signal()

    def __init__(self, catalog: Catalog, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.catalog = catalog
        self.errors = FormErrors()
        self.errors.keyword_routes = [
            ("sharing_mode", "sharing_mode"),
            ("needs a model", "model"),
            ("needs 'shared'", "shared"),
            ("used twice", "name"),
            ("gpu_memory_gb", "shared"),
        ]
        self._loading = False
        self._kind_shown: object = None
        # the GPU and server a group placed on a cluster (None: placed by the sizing) runs on,
        # given by the page, so the sharing modes the rule book refuses there are disabled
        self.hardware_of: Callable[[str | None], tuple[Gpu | None, Server | None]] = (
            lambda _cluster: (None, None)
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.general_error = QLabel()
        self.general_error.setObjectName("fieldError")
        self.general_error.setWordWrap(True)
        self.general_error.hide()
        self.errors.fallback = self.general_error

        # -- the group
        box = QGroupBox("Group")
        f = _form(box)
        self.name = QLineEdit()
        self.kind = Choice.of(WorkloadKind, labels.KIND)
        self.count = int_spin(0, MAX_GROUP_COUNT, 1)
        self.by_model = QRadioButton("From the answers below")
        self.by_count = QRadioButton("Known GPUs per member:")
        self.sizing = QButtonGroup(self)
        self.sizing.addButton(self.by_model)
        self.sizing.addButton(self.by_count)
        self.gpus_per_member = int_spin(1, 4096, 1)
        self.by_model.setChecked(True)
        self.errors.add(f, "name", "Name", self.name)
        self.errors.add(f, "kind", "Kind", self.kind)
        self.count_row = self.errors.add(f, "count", "Members", self.count)
        self.count_form = f
        sizing_row = QWidget()
        sl = QVBoxLayout(sizing_row)
        sl.setContentsMargins(0, 0, 0, 0)
        sl.addWidget(self.by_model)
        line = QHBoxLayout()
        line.addWidget(self.by_count)
        line.addWidget(self.gpus_per_member)
        line.addStretch(1)
        sl.addLayout(line)
        self.errors.add(f, "gpus_per_member", "Sizing", sizing_row, term="gpus_per_member")
        layout.addWidget(box)
        layout.addWidget(self.general_error)

        # -- the sub-forms, one per job; their fields stay reachable on the editor
        self.model_box = ModelSection(catalog, self.errors)
        self.train_box = TrainingSection(self.errors)
        self.par_box = ParallelSection(self.errors)
        self.inf_box = ServingSection(self.errors)
        self.shared_box = SharedSection(self.errors)
        self.sections = (self.model_box, self.train_box, self.par_box, self.inf_box,
                         self.shared_box)  # fmt: skip
        for section in self.sections:
            layout.addWidget(section)
            for name, value in vars(section).items():
                if isinstance(value, QWidget) and not name.startswith("_"):
                    setattr(self, name, value)

        # -- constraints
        box = QGroupBox("Constraints and sharing")
        f = _form(box)
        self.isolation = QCheckBox("Performance isolation required (passthrough or MIG only)")
        self.migration = QCheckBox("Live migration (vMotion) required")
        self.remote_ok = QCheckBox("Remote (network-attached) GPUs acceptable")
        for w, key in (
            (self.isolation, "isolation_required"),
            (self.migration, "live_migration_required"),
            (self.remote_ok, "remote_ok"),
        ):
            w.setToolTip(tip(key))
            f.addRow(w)
        self.mode = Choice.of(SharingMode, labels.MODE)
        self.errors.add(f, "sharing_mode", "Sharing mode", self.mode)
        self.cluster = Choice([("placed by the sizing", None)])
        self.cluster_form = f
        self.cluster_row = self.errors.add(f, "cluster", "GPU cluster", self.cluster)
        self.cluster_row.setToolTip(
            "The GPU cluster this group runs on; left to the sizing, it runs where it meets its "
            "targets with the least GPU power"
        )
        self.set_clusters([])
        layout.addWidget(box)
        layout.addStretch(1)

        for widget in self._inputs():
            for sig in ("valueChanged", "textChanged", "currentIndexChanged", "toggled"):
                if hasattr(widget, sig):
                    getattr(widget, sig).connect(self._changed)
                    break

    def set_clusters(self, names: list[str]) -> None:
        """The GPU clusters a group can be placed on; the choice shows only when there are
        several."""
        keep = self.cluster.get()
        blocked = self.cluster.blockSignals(True)
        self.cluster.clear()
        self.cluster.add("placed by the sizing", None)
        for name in names:
            self.cluster.add(name, name)
        self.cluster.put(keep if keep in names else None)
        self.cluster.blockSignals(blocked)
        several = len(names) > 1
        self.cluster_row.setVisible(several)
        self.cluster_form.labelForField(self.cluster_row).setVisible(several)

    def _inputs(self) -> list[QWidget]:
        own = [self.name, self.kind, self.count, self.by_model, self.gpus_per_member,
               self.isolation, self.migration, self.remote_ok, self.mode,
               self.cluster]  # fmt: skip
        return own + [w for s in self.sections for w in s.inputs()]

    # ------------------------------------------------------------------ behaviour

    def _changed(self) -> None:
        if self._loading:
            return
        kind = self.kind.get()
        if kind != self._kind_shown:
            self._kind_shown = kind
            if kind is WorkloadKind.DEVELOPMENT:
                self._notebook_defaults()
        self.update_visibility()
        self.update_mode_reasons()
        self.edited.emit()

    def update_mode_reasons(self) -> None:
        """Disable each sharing mode the rule book refuses for this group's constraints on its
        hardware, with the reason as the item's tooltip: the Sharing page's answer."""
        constraints = Constraints(
            isolation_required=self.isolation.isChecked(),
            live_migration_required=self.migration.isChecked(),
            remote_ok=self.remote_ok.isChecked(),
        )
        cluster = self.cluster.get()
        gpu, server = self.hardware_of(cluster if isinstance(cluster, str) else None)
        for m in SharingMode:
            self.mode.set_reason(m, group_mode_reason(m, constraints, gpu, server), tip(m.value))

    def _count_words(self) -> tuple[str, str] | None:
        """What the group counts and what a known GPU count is per, in the kind's own words;
        None for a service sized from its model, whose demand is its people or requests in
        flight and never a multiple of a head count."""
        kind = self.kind.get()
        if kind is WorkloadKind.INFERENCE:
            return ("Replicas", "replica") if self.by_count.isChecked() else None
        if kind is WorkloadKind.DEVELOPMENT:
            return "Users", "user"
        return "Jobs", "job"

    def _show_count(self) -> None:
        words = self._count_words()
        label = self.count_form.labelForField(self.count_row)
        assert isinstance(label, QLabel)
        self.count_row.setVisible(words is not None)
        label.setVisible(words is not None)
        if words is None:
            self.by_count.setText("Known GPUs per replica:")
            return
        plural_, one = words
        label.setText(plural_ + ":")
        self.errors.rows["count"] = (plural_, self.count_row)
        self.count_row.label = plural_
        self.by_count.setText(f"Known GPUs per {one}:")
        text = {
            "Jobs": "Jobs of this kind that run at the same time, each sized as described below",
            "Users": "People who each get the GPU share described below (how many are active "
            "at once is asked below)",
            "Replicas": "Copies of the service, each with the known GPU count",
        }[plural_]
        label.setToolTip(text)
        self.count.setToolTip(text)

    def update_visibility(self) -> None:
        kind = self.kind.get()
        by_model = self.by_model.isChecked()
        self._show_count()
        self.gpus_per_member.setEnabled(not by_model)
        self.model_box.setVisible(by_model and kind in MODEL_KINDS)
        self.train_box.setVisible(by_model and kind in TRAINING_KINDS)
        self.par_box.setVisible(by_model and kind in MODEL_KINDS)
        self.inf_box.setVisible(by_model and kind is WorkloadKind.INFERENCE)
        self.shared_box.setVisible(
            by_model and kind in (WorkloadKind.DEVELOPMENT, WorkloadKind.HPC)
        )
        self.model_box.update_visibility()
        self.train_box.update_visibility(kind)
        self.par_box.update_visibility(kind)
        self.inf_box.update_visibility()
        self.shared_box.update_visibility()

    # ------------------------------------------------------------------ values

    def values(self) -> dict[str, Any]:
        """The group as the answers visible now describe it (hidden questions are left out)."""
        kind = self.kind.get()
        out: dict[str, Any] = {
            "name": self.name.text().strip(),
            "kind": kind,
            # a service sized from its model is one service: its people say how many use it
            "count": self.count.value() if self._count_words() is not None else 1,
            "constraints": {
                "isolation_required": self.isolation.isChecked(),
                "live_migration_required": self.migration.isChecked(),
                "remote_ok": self.remote_ok.isChecked(),
            },
            "sharing_mode": self.mode.get(),
            "cluster": self.cluster.get(),
        }
        if self.by_count.isChecked():
            out["gpus_per_member"] = self.gpus_per_member.value()
            return out
        if kind in MODEL_KINDS:
            out |= self.model_box.values() | self.par_box.values(kind)
        if kind in TRAINING_KINDS:
            out |= self.train_box.values(kind)
        elif kind is WorkloadKind.INFERENCE:
            out |= self.inf_box.values()
        else:
            out |= self.shared_box.values()
        return out

    def _notebook_defaults(self) -> None:
        """A group just turned into notebooks or workstations starts as they usually run: a
        16 GB time-sliced vGPU each (the size of NVIDIA's common data-science profiles, such as
        L40S-16Q/C and A16-16Q) rather than a whole GPU in passthrough; a need or a mode the user
        already set is kept."""
        self._loading = True
        try:
            shared = self.shared_box
            if shared.need_kind.get() is None and shared.gpus_per_job.value() == 1:
                shared.need_kind.put("gpu_memory_gb")
                shared.update_visibility()
                shared.need_value.setValue(NOTEBOOK_GB)
            self.update_mode_reasons()
            if self.mode.get() is SharingMode.PASSTHROUGH and self.mode.enabled(SharingMode.VGPU):
                self.mode.put(SharingMode.VGPU)
        finally:
            self._loading = False

    def load(self, data: WorkloadGroup | dict[str, Any]) -> None:
        """Show a group (or a draft that did not validate) in the editor."""
        g = data.model_dump() if isinstance(data, WorkloadGroup) else data
        self._loading = True
        try:
            self._load(g)
            self._kind_shown = self.kind.get()
        finally:
            self._loading = False
        self.update_visibility()
        self.update_mode_reasons()

    def _load(self, g: dict[str, Any]) -> None:
        self.name.setText(g.get("name", ""))
        self.kind.put(WorkloadKind(g.get("kind", "training")))
        self.count.setValue(int(g.get("count", 1)))
        gpm = g.get("gpus_per_member")
        self.by_count.setChecked(gpm is not None)
        self.by_model.setChecked(gpm is None)
        self.gpus_per_member.setValue(gpm or 1)
        for section in self.sections:
            section.load(g)
        c = g.get("constraints") or {}
        self.isolation.setChecked(bool(c.get("isolation_required")))
        self.migration.setChecked(bool(c.get("live_migration_required")))
        self.remote_ok.setChecked(bool(c.get("remote_ok")))
        self.mode.put(SharingMode(g.get("sharing_mode", "passthrough")))
        self.cluster.put(g.get("cluster"))
