"""Page 5: the HA policy, with the capacity left after the allowed failures shown live."""

from __future__ import annotations

from pydantic import ValidationError
from PySide6.QtWidgets import QCheckBox, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QVBoxLayout

from wizard.base.numbers import count
from wizard.gui.forms import FormErrors, error_items
from wizard.gui.pages import titles
from wizard.gui.pages.base import Page
from wizard.gui.pages.hardware_clusters import Clusters
from wizard.gui.widgets.cards import CardRow
from wizard.gui.widgets.inputs import Choice, OptionalSpin, double_spin, int_spin
from wizard.model.design import AdmissionControl, FailureDomain, HaLevel, HaPolicy
from wizard.present import labels


class HaPage(Page):
    def __init__(self, doc, catalog, live) -> None:
        super().__init__(doc, catalog, live, *titles.HA)
        self._problems: list[str] = []
        self.clusters = Clusters(doc)
        self.cluster_index = 0
        pick = QHBoxLayout()
        self.cluster_label = QLabel("GPU cluster:")
        self.cluster = Choice()
        self.cluster.setToolTip(
            "vSphere HA works per cluster: each GPU cluster keeps its own spare capacity. "
            "Pick the cluster whose policy the form edits"
        )
        pick.addWidget(self.cluster_label)
        pick.addWidget(self.cluster, 1)
        pick.addStretch(1)
        self.body.addLayout(pick)
        self.cluster.currentIndexChanged.connect(self._pick_cluster)
        columns = QHBoxLayout()
        box = QGroupBox("Policy")
        f = QFormLayout(box)
        f.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.errors = FormErrors()
        self.level = Choice.of(HaLevel, labels.HA_LEVEL)
        self.percent = double_spin(0, 90, 0, 0)
        self.percent.setSuffix(" %")
        self.maintenance = int_spin(0, 100, 0)
        self.domain = Choice.of(FailureDomain, labels.FAILURE_DOMAIN)
        self.per_rack = OptionalSpin(1, 64, "not set")
        self.admission = Choice.of(AdmissionControl, labels.ADMISSION)
        self.spares = QCheckBox("Keep spare GPUs for passthrough VMs to restart on")
        self.errors.add(f, "level", "Failures to survive", self.level, term="ha_level")
        self.errors.add(f, "reserve_percent", "Reserve", self.percent)
        self.errors.add(f, "maintenance_hosts", "Maintenance hosts", self.maintenance)
        self.errors.add(f, "failure_domain", "Failure domain", self.domain)
        self.errors.add(f, "hosts_per_rack", "Hosts per rack", self.per_rack)
        self.errors.add(f, "admission_control", "Admission control", self.admission)
        self.errors.add(f, "passthrough_spares", "Passthrough", self.spares)
        self.errors.keyword_routes = [("reserve_percent", "reserve_percent")]
        columns.addWidget(box, 1)

        right = QVBoxLayout()
        title = QLabel("Capacity after failures")
        title.setObjectName("sectionTitle")
        right.addWidget(title)
        self.cards = CardRow(
            [
                ("demand", "GPUs the workloads need", ""),
                ("hosts", "hosts in total", ""),
                ("gpus", "GPUs in total", ""),
                ("after", "GPUs after the allowed failures", ""),
                ("capacity", "hosts for capacity", ""),
                ("ha", "hosts for HA", ""),
                ("maint", "maintenance hosts", ""),
                ("after_maint", "GPUs after failures during maintenance", ""),
            ],
            columns=4,
        )
        right.addWidget(self.cards)
        self.verdict = QLabel()
        self.verdict.setWordWrap(True)
        right.addWidget(self.verdict)
        self.ha_warnings = QLabel()
        self.ha_warnings.setObjectName("muted")
        self.ha_warnings.setWordWrap(True)
        right.addWidget(self.ha_warnings)
        right.addStretch(1)
        columns.addLayout(right, 1)
        self.body.addLayout(columns)
        self.reflow(columns, narrow_below=950)
        self.body.addStretch(1)

        for w in (self.level, self.domain, self.admission):
            w.currentIndexChanged.connect(self._edited)
        for spin in (self.percent, self.maintenance, self.per_rack):
            spin.valueChanged.connect(self._edited)
        self.spares.toggled.connect(self._edited)
        self.live.updated.connect(self._show_live)
        self._reload()
        self._show_live()  # made after a sizing too: show it now, not at the next one

    def _fill_clusters(self) -> None:
        names = self.clusters.names()
        self.cluster_index = min(self.cluster_index, len(names) - 1)
        blocked = self.cluster.blockSignals(True)
        self.cluster.clear()
        for i, name in enumerate(names):
            self.cluster.add(name, i)
        self.cluster.put(self.cluster_index)
        self.cluster.blockSignals(blocked)
        several = len(names) > 1
        self.cluster_label.setVisible(several)
        self.cluster.setVisible(several)

    def _pick_cluster(self) -> None:
        index = self.cluster.get()
        if isinstance(index, int) and index != self.cluster_index:
            self.cluster_index = index
            self._reload()

    def load(self) -> None:
        self._fill_clusters()
        ha: HaPolicy = self.clusters.ha(self.cluster_index)
        self.level.put(ha.level)
        self.percent.setValue(ha.reserve_percent)
        self.maintenance.setValue(ha.maintenance_hosts)
        self.domain.put(ha.failure_domain)
        self.per_rack.put(ha.hosts_per_rack)
        self.admission.put(ha.admission_control)
        self.spares.setChecked(ha.passthrough_spares)
        self._validate(commit=False)
        self._show_live()

    def values(self) -> dict:
        percent = self.level.get() is HaLevel.PERCENT
        return {
            "level": self.level.get(),
            "reserve_percent": self.percent.value() if percent else 0,
            "maintenance_hosts": self.maintenance.value(),
            "failure_domain": self.domain.get(),
            "hosts_per_rack": self.per_rack.get(),
            "admission_control": self.admission.get(),
            "passthrough_spares": self.spares.isChecked(),
        }

    def _edited(self) -> None:
        if not self._loading:
            self._validate(commit=True)
            self.update_complete()

    def _validate(self, commit: bool) -> None:
        self.percent.setEnabled(self.level.get() is HaLevel.PERCENT)
        self.per_rack.setEnabled(self.domain.get() is FailureDomain.RACK)
        try:
            ha = HaPolicy.model_validate(self.values())
            items: list[tuple[str, str]] = []
        except ValidationError as exc:
            ha = None
            items = error_items(exc)
        self._problems = self.errors.show(items)
        if ha is not None and commit:
            if self.cluster_index == 0:
                self.commit("ha", ha)
            else:
                self.commit("clusters", self.clusters.with_ha(self.cluster_index, ha))

    def _show_live(self) -> None:
        name = self.clusters.names()[self.cluster_index]
        r = self.live.cluster_result(name)
        if r is None:
            self.cards.clear()
            held = self.live.why_no_figures()
            why = held[0] if held else f"no workload group runs on '{name}'"
            self.verdict.setText(f"Shown once the design sizes ({why}).")
            self.verdict.setObjectName("note")
            self.ha_warnings.setText("")
            self._restyle()
            return
        c = r.cluster
        self.cards.set("demand", f"{c.gpus_demand:,}")
        self.cards.set("hosts", f"{c.hosts_total:,}")
        self.cards.set("gpus", f"{c.gpus_total:,}")
        self.cards.set("after", f"{c.gpus_after_failures:,}")
        self.cards.set("capacity", f"{c.hosts_for_capacity:,}")
        self.cards.set("ha", f"{c.hosts_for_ha:,}")
        self.cards.set("maint", f"{c.hosts_for_maintenance:,}")
        self.cards.set("after_maint", f"{c.gpus_after_failures_and_maintenance:,}")
        ok = c.capacity_after_failures_ok
        failures = c.host_failures_tolerated
        self.verdict.setText(
            f"With {count(failures, 'host failure') if failures else 'no host failure'}, {c.gpus_after_failures:,} of {c.gpus_total:,} GPUs "
            f"remain for a demand of {c.gpus_demand:,}: "
            + ("the workloads still fit." if ok else "the workloads no longer fit.")
        )
        self.verdict.setObjectName("explain" if ok else "problem")
        ha_codes = ("capacity", "failure", "maintenance", "ha")
        lines = [w.message for w in r.warnings if any(k in w.code for k in ha_codes)]
        self.ha_warnings.setText("\n".join(f"• {line}" for line in lines))
        self._restyle()

    def _restyle(self) -> None:
        self.verdict.style().unpolish(self.verdict)
        self.verdict.style().polish(self.verdict)

    def problems(self) -> list[str]:
        return list(self._problems)
