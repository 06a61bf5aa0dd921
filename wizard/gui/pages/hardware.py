"""Page 3: GPU, server, GPUs per host, network and links, with the reasons choices do not fit.

Servers that cannot hold the chosen GPU are listed below the ones that can, disabled, each with
its reason; the same goes for RDMA flavours and NICs that do not match the fabric. Whatever the
catalog checks (wizard.engine.platform.compat) still find appears under the field it concerns.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
)

from wizard.base.errors import UserError
from wizard.engine import (
    ProblemKind,
    check_design,
    gpudirect_reason,
    nic_reason,
    nvlink_reason,
    rdma_reason,
    sharing_mode_reason,
)
from wizard.engine import why_not as compat_why_not
from wizard.gui.forms import FormErrors, align_labels, error_items
from wizard.gui.icons import icon
from wizard.gui.pages import titles
from wizard.gui.pages.base import Page
from wizard.gui.pages.hardware_clusters import ClusterPicker, Clusters
from wizard.gui.pages.hardware_data import DataPlanMixin
from wizard.gui.pages.hardware_specs import spec_sheet
from wizard.gui.pasted import as_typed
from wizard.gui.widgets.inputs import Choice, int_spin
from wizard.model.catalog import Gpu, Nic, NvlinkKind, PcieTopology, Server, max_boards
from wizard.model.design import (
    Design,
    Fabric,
    Hardware,
    Rdma,
)
from wizard.model.fit import gpus_per_host_max
from wizard.present import labels
from wizard.present.glossary import tip


class HardwarePage(DataPlanMixin, Page):
    def __init__(self, doc, catalog, live, prices=lambda: None) -> None:
        super().__init__(doc, catalog, live, *titles.HARDWARE)
        self._problems: list[str] = []
        self.prices = prices  # the price list chosen on the Export page, if any
        self.clusters = Clusters(doc)
        self.cluster_index = 0  # which GPU cluster the form edits; 0 is the design's first
        self.picker = ClusterPicker()
        self.body.addWidget(self.picker)
        # a GPU cluster no group runs on is not built: said here, at the cluster it concerns
        self.cluster_note = QLabel()
        self.cluster_note.setObjectName("problem")
        self.cluster_note.setWordWrap(True)
        self.cluster_note.hide()
        self.body.addWidget(self.cluster_note)
        self.picker.choice.currentIndexChanged.connect(self._pick_cluster)
        self.picker.name.editingFinished.connect(self._rename_cluster)
        self.picker.add.clicked.connect(self._add_cluster)
        self.picker.remove.clicked.connect(self._remove_cluster)
        top = QHBoxLayout()
        self.recommend_button = QPushButton(icon("recommend"), "Recommend for me")
        self.recommend_button.setToolTip(
            "Fill the hardware from the workloads, keeping the GPU if one is chosen, and say why"
        )
        top.addWidget(self.recommend_button)
        top.addStretch(1)
        self.body.addLayout(top)
        self.explain = QLabel()
        self.explain.setObjectName("explain")
        self.explain.setWordWrap(True)
        self.explain.hide()
        self.body.addWidget(self.explain)

        columns = QHBoxLayout()
        left = QVBoxLayout()
        self.errors = FormErrors()
        box = QGroupBox("Hosts")
        f = QFormLayout(box)
        f.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.gpu = Choice([("Choose a GPU…", None)])
        for g in catalog.gpus.values():
            self.gpu.add(f"{g.name}  ·  {g.memory_gb:g} GB  ·  {g.tdp_w:.0f} W", g.id)
        for g in catalog.gpus.values():
            if not catalog.servers_for_gpu(g):
                self.gpu.set_reason(g.id, "no catalog server can hold it")
        self.gpu_flag = QLabel()
        self.gpu_flag.setObjectName("note")
        self.gpu_flag.setWordWrap(True)
        self.server = Choice()
        self.cpu = Choice()
        self.gpus_per_host = int_spin(1, 16, 1)
        self.gpus_note = QLabel()
        self.gpus_note.setObjectName("muted")
        self.nvlink = QCheckBox("NVLink bridges / NVSwitch")
        self.nvlink_note = QLabel()
        self.nvlink_note.setObjectName("muted")
        self.nvlink_note.setWordWrap(True)
        self.errors.add(f, "gpu", "GPU", self.gpu, below=self.gpu_flag)
        self.errors.add(f, "server", "Server", self.server)
        self.errors.add(f, "cpu", "Processors", self.cpu)
        self.errors.add(f, "gpus_per_host", "GPUs per host", self.gpus_per_host, self.gpus_note)
        self.errors.add(f, "nvlink", "NVLink", self.nvlink, term="nvlink", below=self.nvlink_note)
        self.mixed = QCheckBox("Mixed-size vGPUs on one GPU")
        self.errors.add(f, "vgpu_mixed_sizes", "vGPU sizes", self.mixed)
        self.mig_ts = QCheckBox("Several VMs per MIG instance (time-sliced)")
        self.errors.add(f, "mig_time_slicing", "MIG sharing", self.mig_ts)
        left.addWidget(box)

        box = QGroupBox("Network")
        f = QFormLayout(box)
        f.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.fabric = Choice.of(Fabric, labels.FABRIC)
        self.rdma = Choice.of(Rdma, labels.RDMA)
        self.gdr = QCheckBox("GPUDirect RDMA")
        self.gdr_note = QLabel()
        self.gdr_note.setObjectName("muted")
        self.gdr_note.setWordWrap(True)
        self.nic = Choice([("No dedicated NIC chosen", None)])
        for n in catalog.nics.values():
            self.nic.add(n.product_name, n.id)
        self.nics_per_host = int_spin(0, 16, 1)
        self.errors.add(f, "fabric", "Fabric", self.fabric)
        self.errors.add(f, "rdma", "RDMA", self.rdma)
        self.errors.add(f, "nic", "NIC", self.nic)
        self.errors.add(f, "nics_per_host", "NICs per host", self.nics_per_host)
        self.errors.add(f, "gpudirect_rdma", "GPUDirect", self.gdr, below=self.gdr_note)
        left.addWidget(box)
        left.addWidget(self._data_box(catalog))
        left.addStretch(1)
        self.errors.keyword_routes = [
            ("RoCE", "rdma"),
            ("InfiniBand RDMA", "rdma"),
            ("GPUDirect", "gpudirect_rdma"),
        ]

        specs_box = QGroupBox("Key specifications")
        sv = QVBoxLayout(specs_box)
        self.specs = QLabel()
        self.specs.setWordWrap(True)
        self.specs.setTextFormat(Qt.TextFormat.RichText)
        self.specs.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.specs.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        sv.addWidget(self.specs)
        sv.addStretch(1)
        specs_box.setMinimumWidth(340)
        columns.addLayout(left, 3)
        columns.addWidget(specs_box, 2)
        self.body.addLayout(columns)
        self.reflow(columns, narrow_below=1000)
        forms = [b.layout() for b in self.findChildren(QGroupBox) if b is not specs_box]
        align_labels(*(f for f in forms if isinstance(f, QFormLayout)))

        for c in (self.gpu, self.server, self.cpu, self.fabric, self.rdma, self.nic, self.storage):
            c.currentIndexChanged.connect(self._edited)
        for spin in (self.gpus_per_host, self.nics_per_host):
            spin.valueChanged.connect(self._edited)
        for check in (self.nvlink, self.gdr, self.mixed, self.mig_ts):
            check.toggled.connect(self._edited)
        self.recommend_button.clicked.connect(self.recommend)
        # the sizing's error-level problems of the hardware show here too, as they come
        self.live.updated.connect(self._show_sizing_errors)
        self.live.updated.connect(self._show_cluster_note)
        self._reload()

    # ------------------------------------------------------------------ helpers

    def _gpu(self) -> Gpu | None:
        return self.catalog.gpus.get(str(self.gpu.get()))

    def _server(self) -> Server | None:
        return self.catalog.servers.get(str(self.server.get()))

    def _fill_cpus(self, keep: str | None) -> None:
        """The chosen server's processors; the first is its usual AI build and the default."""
        server = self._server()
        self.cpu.blockSignals(True)
        self.cpu.clear()
        options = server.cpu_options if server else []
        if not options:
            self.cpu.add("Not listed for this server (32 cores per socket assumed)", None)
        for i, c in enumerate(options):
            usual = "  ·  usual build" if i == 0 else ""
            self.cpu.add(f"{c.name}  ·  {c.cores} cores{usual}", None if i == 0 else c.name)
        keep = None if options and keep == options[0].name else keep
        if keep is not None and self.cpu.index_of(keep) < 0:  # kept, so the check can name it
            self.cpu.add(f"{keep}  ·  not sold with this server", keep)
        self.cpu.put(keep)
        if self.cpu.currentIndex() < 0:
            self.cpu.setCurrentIndex(0)
        self.cpu.setEnabled(self.cpu.count() > 1)
        self.cpu.blockSignals(False)

    def _cpu_text(self, server: Server) -> str:
        chosen = self.cpu.get() if server is self._server() else None
        cpu = server.cpu_option(chosen if isinstance(chosen, str) else None)
        if cpu is None:
            return server.cpu_family
        return f"{server.sockets} × {cpu.name}, {cpu.cores} cores each"

    def _nic(self) -> Nic | None:
        return self.catalog.nics.get(str(self.nic.get()))

    def _fill_servers(self, gpu: Gpu | None, keep: str | None) -> None:
        self.server.blockSignals(True)
        self.server.clear()
        if gpu is None:
            self.server.add("Choose a GPU first", None)
        else:
            fits = self.catalog.servers_for_gpu(gpu)
            self.server.add("Choose a server…", None)
            for s in sorted(fits, key=lambda s: (s.vendor, s.model)):
                n = gpus_per_host_max(s, gpu)
                self.server.add(f"{s.product_name}  ·  up to {n} GPUs  ·  {s.rack_units}U", s.id)
            rest = [s for s in self.catalog.servers.values() if s not in fits]
            if rest:
                self.server.insertSeparator(self.server.count())
                for s in sorted(rest, key=lambda s: (s.vendor, s.model)):
                    reason = _why_not(s, gpu, self.catalog.gpus)
                    self.server.add(f"{s.product_name}  —  cannot hold it: {reason}", s.id)
                    self.server.set_reason(s.id, reason)
        self.server.put(keep)
        if self.server.currentIndex() < 0 or not self.server.enabled(keep):
            self.server.setCurrentIndex(0)
        self.server.blockSignals(False)

    # ------------------------------------------------------------------ Design -> widgets

    # ------------------------------------------------------------------ clusters

    def _show_cluster_note(self) -> None:
        """Whether the cluster the form shows is built: a GPU cluster no group runs on is not."""
        e = self.live.estate
        name = self.clusters.names()[self.cluster_index]
        built = e is None or any(c.name == name for c in e.clusters)
        self.cluster_note.setVisible(not built)
        self.cluster_note.setText(
            ""
            if built
            else f"No workload group runs on {name}, so it is not built and has no hosts: "
            "choose it as a group's GPU cluster in the Workloads editor, or remove it."
        )

    def _fill_picker(self) -> None:
        names = self.clusters.names()
        self.cluster_index = min(self.cluster_index, len(names) - 1)
        p = self.picker
        blocked = p.choice.blockSignals(True)
        p.choice.clear()
        for i, name in enumerate(names):
            p.choice.add(name, i)
        p.choice.put(self.cluster_index)
        p.choice.blockSignals(blocked)
        p.name.setText(names[self.cluster_index])
        p.remove.setEnabled(self.cluster_index > 0)
        p.add.setEnabled(self.doc.get("hardware") is not None)
        first = self.cluster_index == 0
        self.recommend_button.setToolTip(
            "Fill the hardware from the workloads, keeping the GPU if one is chosen, and say why"
            if first
            else "Fill this cluster's hardware from the workload groups that run on it (pinned "
            "to it, or placed on it by the sizing), keeping the GPU if one is chosen, and say why"
        )

    def _pick_cluster(self) -> None:
        index = self.picker.choice.get()
        if isinstance(index, int) and index != self.cluster_index:
            self.cluster_index = index
            self._reload()

    def _add_cluster(self) -> None:
        self.cluster_index = self.clusters.add(self.cluster_index)
        self._reload()

    def _remove_cluster(self) -> None:
        if self.cluster_index > 0:
            self.clusters.remove(self.cluster_index)
            self.cluster_index = 0
            self._reload()

    def _rename_cluster(self) -> None:
        why = self.clusters.rename(self.cluster_index, self.picker.name.text())
        if why:
            self.picker.name.setText(self.clusters.names()[self.cluster_index])
            self.explain.setText(f"Not renamed: {why}")
            self.explain.show()
        else:
            self._fill_picker()

    def _commit_hardware(self, hw: Hardware) -> None:
        if self.cluster_index == 0:
            self.commit("hardware", hw)
        else:
            self.commit("clusters", self.clusters.with_hardware(self.cluster_index, hw))

    def load(self) -> None:
        self._fill_picker()
        self._show_cluster_note()
        hw: Hardware | None = self.clusters.hardware(self.cluster_index)
        gpu_id = hw.gpu if hw else None
        self.gpu.put(gpu_id)
        if hw is None:
            self.gpu.setCurrentIndex(0)
        self._fill_servers(self._gpu(), hw.server if hw else None)
        self._fill_cpus(hw.cpu if hw else None)
        if hw is None:  # a new design: the model's defaults for everything but the choices
            defaults = {
                k: f.default for k, f in Hardware.model_fields.items() if not f.is_required()
            }
            self.gpus_per_host.setValue(1)
            self.nic.put(defaults["nic"])
            self.nics_per_host.setValue(defaults["nics_per_host"])
            self.fabric.put(defaults["fabric"])
            self.rdma.put(defaults["rdma"])
            self.gdr.setChecked(defaults["gpudirect_rdma"])
            self.nvlink.setChecked(defaults["nvlink"])
            self.storage.put(defaults["storage"])
            self.mixed.setChecked(defaults["vgpu_mixed_sizes"])
            self.mig_ts.setChecked(defaults["mig_time_slicing"])
        else:
            self.gpus_per_host.setValue(hw.gpus_per_host)
            self.nic.put(hw.nic)
            self.nics_per_host.setValue(hw.nics_per_host)
            self.fabric.put(hw.fabric)
            self.rdma.put(hw.rdma)
            self.gdr.setChecked(hw.gpudirect_rdma)
            self.nvlink.setChecked(hw.nvlink)
            self.storage.put(hw.storage)
            self.mixed.setChecked(hw.vgpu_mixed_sizes)
            self.mig_ts.setChecked(hw.mig_time_slicing)
        self._validate(commit=False)
        self._load_data()
        self._show_reasons(hw)

    # ------------------------------------------------------------------ widgets -> Design

    def values(self) -> dict[str, Any]:
        """The form's answers over the cluster's current hardware, so the choices this page
        does not show (the service network) are kept; the recommendation's reasons are not,
        since an edit makes the hardware the user's own choice."""
        current = self.clusters.hardware(self.cluster_index)
        base = current.model_dump(exclude={"reasons"}) if current is not None else {}
        return base | {
            "gpu": self.gpu.get(),
            "server": self.server.get(),
            "cpu": self.cpu.get(),
            "gpus_per_host": self.gpus_per_host.value(),
            "nic": self.nic.get(),
            "nics_per_host": self.nics_per_host.value(),
            "fabric": self.fabric.get(),
            "rdma": self.rdma.get(),
            "gpudirect_rdma": self.gdr.isChecked(),
            "nvlink": self.nvlink.isChecked(),
            "storage": self.storage.get(),
            "vgpu_mixed_sizes": self.mixed.isChecked(),
            "mig_time_slicing": self.mig_ts.isChecked(),
        }

    def _edited(self) -> None:
        if self._loading:
            return
        sender = self.sender()
        if sender is self.gpu:
            self._loading = True
            try:
                self._fill_servers(self._gpu(), str(self.server.get() or ""))
                self._fill_cpus(None)
                self._fit_to_gpu()
            finally:
                self._loading = False
        elif sender is self.server:
            self._loading = True
            try:
                self._fill_cpus(None)
                self._fit_to_gpu()
            finally:
                self._loading = False
        self.explain.hide()
        self._validate(commit=True)
        self.update_complete()

    def _fit_to_gpu(self) -> None:
        """After a GPU or server change: GPUs per host within what the server holds; an HGX
        server comes with its whole baseboard (an HGX 8-GPU server is not sold with one GPU)."""
        gpu, server = self._gpu(), self._server()
        if gpu and server:
            most = gpus_per_host_max(server, gpu)
            if most and server.pcie_topology is PcieTopology.HGX:
                self.gpus_per_host.setValue(most)
            elif most:
                step = gpu.gpus_per_board
                value = min(self.gpus_per_host.value(), most)
                self.gpus_per_host.setValue(max(step, value // step * step))
        if gpu and gpu.nvlink.kind is NvlinkKind.SXM:
            self.nvlink.setChecked(True)

    def _constrain(self) -> None:
        """Enable, disable and explain the choices that depend on others."""
        gpu, server, nic = self._gpu(), self._server(), self._nic()
        fabric = self.fabric.get()
        if isinstance(fabric, Fabric):
            for rdma in (Rdma.ROCE, Rdma.INFINIBAND):
                self.rdma.set_reason(rdma, rdma_reason(rdma, fabric), tip("rdma"))
        for n in self.catalog.nics.values():
            self.nic.set_reason(n.id, nic_reason(n, fabric) if isinstance(fabric, Fabric) else None)
        if gpu and server:
            most = gpus_per_host_max(server, gpu)
            self.gpus_per_host.setSingleStep(gpu.gpus_per_board)
            self.gpus_note.setText(f"of at most {most}")
        else:
            self.gpus_note.setText("")
        # NVLink
        nv_reason = None
        if gpu is None:
            nv_reason = "choose a GPU first"
        elif gpu.nvlink.kind is NvlinkKind.SXM:
            nv_reason = (
                f"always present: SXM boards link over the baseboard "
                f"(NVLink {gpu.nvlink.generation}, {gpu.nvlink.bandwidth_gbs:g} GB/s per GPU)"
            )
        else:
            nv_reason = nvlink_reason(gpu, server)
        sxm = gpu is not None and gpu.nvlink.kind is NvlinkKind.SXM
        self.nvlink.setEnabled(nv_reason is None)
        self.nvlink_note.setText(nv_reason or tip("nvlink"))
        if nv_reason and not sxm and self.nvlink.isChecked():
            self.nvlink.setChecked(False)
        # GPUDirect RDMA
        rdma_now = self.rdma.get()
        gdr_reason = gpudirect_reason(rdma_now, nic) if isinstance(rdma_now, Rdma) else None
        slower = (
            server is not None
            and not server.gdr_affinity
            and f"Works with lower performance: the {server.model} puts no NIC slot under the "
            "GPUs' PCIe switch or root complex, so the traffic crosses the CPU"
        )
        self.gdr.setEnabled(gdr_reason is None or self.gdr.isChecked())
        self.gdr_note.setText(
            f"Not available: {gdr_reason}" if gdr_reason else slower or tip("gpudirect_rdma")
        )
        # vGPU mixed sizes
        self.mixed.setEnabled(gpu is not None and gpu.vgpu_capable)
        ts = gpu is not None and gpu.vgpu is not None and bool(gpu.vgpu.mig_time_sliced)
        self.mig_ts.setEnabled(ts or self.mig_ts.isChecked())  # checked stays visible to undo
        # GPU flags from the workloads' sharing modes
        flags = []
        if gpu is not None:
            modes = {g.sharing_mode for g in self.doc.get("workloads")}
            flags += [why for m in sorted(modes) if (why := sharing_mode_reason(m, gpu, server))]
        self.gpu_flag.setText(("⚠ " + "; ".join(flags)) if flags else "")
        self.gpu_flag.setVisible(bool(flags))

    def _show_sizing_errors(self) -> None:
        if self._loading:
            return
        self._loading = True  # nothing shown here edits the design
        try:
            self._validate(commit=False)
        finally:
            self._loading = False
        self.update_complete()

    def _validate(self, commit: bool) -> None:
        self._constrain()
        values = self.values()
        items: list[tuple[str, str]] = []
        missing = [
            ("gpu", "choose a GPU"),
            ("server", "choose a server that can hold the GPU"),
        ]
        # a choice not made yet is not an error: the reason line asks for it, nothing is red
        unchosen = [(key, msg) for key, msg in missing if values[key] is None]
        hw = None
        if not unchosen:
            try:
                hw = Hardware.model_validate(values)
            except ValidationError as exc:
                items = error_items(exc)
        if hw is not None:
            for p in self._compat(hw):
                if p.kind is ProblemKind.HARDWARE and p.field.startswith("hardware."):
                    items.append((p.field.removeprefix("hardware."), p.message))
            if hw == self.doc.get("hardware"):  # the sizing's errors are of what was committed
                items += [
                    (p.field.removeprefix("hardware."), p.message)
                    for p in self.live.errors
                    if p.field.startswith("hardware.")
                ]
        self._problems = [
            f"{self.errors.rows[key][0]}: {msg}" for key, msg in unchosen
        ] + self.errors.show(items)
        self._show_specs()
        if hw is not None and commit:
            self._commit_hardware(hw)

    def _compat(self, hw: Hardware):
        parts = self.doc.partial_dict()
        parts["hardware"] = hw.model_dump(mode="json")
        try:
            design = Design.model_validate(as_typed(parts))
        except ValidationError:
            design = Design(hardware=hw)
        return check_design(design, self.catalog)

    def problems(self) -> list[str]:
        return list(self._problems) + list(self._data_problems)

    # ------------------------------------------------------------------ recommend

    def recommend(self) -> None:
        parts: dict[str, Any] = self.doc.partial_dict()
        if len(self.clusters.names()) > 1:  # the cluster shown, with the groups that run on it
            view = self._cluster_parts(parts)
            if view is None:
                return
            parts = view
        values = self.values()
        gpu = values["gpu"]
        placeholder = next(iter(self.catalog.servers))
        current = self.clusters.hardware(self.cluster_index)
        base = (
            current.model_dump(mode="json")
            if current is not None
            else {"gpu": gpu or next(iter(self.catalog.gpus)), "server": placeholder,
                  "gpus_per_host": 1}
        )  # fmt: skip
        if gpu:
            base["gpu"] = gpu
        parts["hardware"] = base
        try:
            design = Design.model_validate(as_typed(parts))
            from wizard.app.recommend import recommend  # the engine loads on first use

            rec = recommend(design, self.catalog, keep_gpu=bool(gpu), prices=self.prices())
        except (ValidationError, UserError) as exc:
            msg = exc.problems[0] if isinstance(exc, UserError) else str(exc).splitlines()[0]
            self.explain.setText(f"No recommendation: {msg}")
            self.explain.show()
            return
        # the reasons go with the design, so reopening it still says why
        chosen = rec.hardware.model_copy(update={"reasons": dict(rec.reasons)})
        if self.cluster_index > 0:
            clusters = self.clusters.with_hardware(self.cluster_index, chosen)
            self.doc.set("clusters", clusters, origin=None)  # reloads this page too
        else:
            self.doc.set("hardware", chosen, origin=None)
        self._show_reasons(chosen)

    def _cluster_parts(self, parts: dict[str, Any]) -> dict[str, Any] | None:
        """The design as the GPU cluster the form shows sees it, for a recommendation: its own
        hardware and HA policy and the groups that run on it (pinned to it, or placed on it by
        the sizing); None, with the reason shown, when no group runs on it yet."""
        name = self.clusters.names()[self.cluster_index]
        placed = {p.workload for p in self.live.estate.placements if p.cluster == name} if (
            self.live.estate is not None
        ) else set()  # fmt: skip
        groups = [
            dict(g, cluster=None)
            for g in parts.get("workloads", [])
            if g.get("cluster") == name or g.get("name") in placed
        ]
        if not groups:
            self.explain.setText(
                f"No recommendation: no workload group runs on {name} yet. Choose it as a "
                "group's GPU cluster in the Workloads editor, then recommend again."
            )
            self.explain.show()
            return None
        hw = self.clusters.hardware(self.cluster_index)
        view = dict(parts, workloads=groups, clusters=[], options=[], proposed=None,
                    cluster_name=name, ha=self.clusters.ha(self.cluster_index).model_dump(mode="json"))  # fmt: skip
        if hw is not None:
            view["hardware"] = hw.model_dump(mode="json")
        return view

    def _show_reasons(self, hw: Hardware | None) -> None:
        if hw is None or not hw.reasons:
            return
        labels = {
            "gpu": "GPU",
            "server": "Server",
            "gpus_per_host": "GPUs per host",
            "nvlink": "NVLink",
            "fabric": "Network",
            "nic": "NIC",
            "gpudirect_rdma": "GPUDirect RDMA",
        }
        lines = [
            f"<b>{escape(labels.get(k, k))}</b>: {escape(v)}" for k, v in hw.reasons.items()
        ]  # the file's text is text, never markup
        self.explain.setText("Recommended. " + "<br>".join(lines))
        self.explain.show()

    # ------------------------------------------------------------------ specs

    def _show_specs(self) -> None:
        gpu, server = self._gpu(), self._server()
        self.specs.setText(
            spec_sheet(
                gpu,
                server,
                self._nic(),
                self.catalog.storage.get(str(self.storage.get())),
                self._cpu_text(server) if server is not None else "",
                gpus_per_host_max(server, gpu) if gpu and server else None,
            )
        )


def _why_not(server: Server, gpu: Gpu, gpus: Mapping[str, Gpu]) -> str:
    return compat_why_not(server, gpu, gpus) if max_boards(server, gpu) == 0 else ""
