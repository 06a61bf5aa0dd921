"""The GPU clusters of the design on the Hardware page: which one the form edits, its name, and
adding (a copy of the one shown) or removing one. The first cluster is the design's ``hardware``
and ``cluster_name``; the others are its ``clusters`` of the GPU role. Compute clusters and the
management domain stay as the design file has them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPushButton, QWidget

from wizard.gui.widgets.inputs import Choice
from wizard.model.design import ClusterRole, ClusterSpec, HaPolicy, Hardware, WorkloadGroup

if TYPE_CHECKING:
    from wizard.gui.document import DesignDocument
    from wizard.model.catalog import Catalog, Gpu, Server


class ClusterPicker(QWidget):
    """The row above the form: the cluster shown, its name, Add and Remove."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(QLabel("GPU cluster:"))
        self.choice = Choice()
        self.choice.setToolTip(
            "The GPU cluster the form below edits. vSphere HA works per cluster, so a design "
            "with different GPU hosts for different workloads has a cluster for each"
        )
        self.name = QLineEdit()
        self.name.setMaxLength(200)  # a cluster's name, as the design file holds it
        self.name.setPlaceholderText("cluster name")
        self.name.setToolTip("The cluster's name, as the proposal and the workload groups use it")
        self.add = QPushButton("Add cluster")
        self.add.setToolTip("A new GPU cluster, starting as a copy of the one shown")
        self.remove = QPushButton("Remove")
        self.remove.setToolTip("Remove the cluster shown; groups placed on it are placed anew")
        row.addWidget(self.choice, 1)
        row.addWidget(self.name, 1)
        row.addWidget(self.add)
        row.addWidget(self.remove)


class Clusters:
    """Reads and writes the GPU clusters of a document by position (0 is the first)."""

    def __init__(self, doc: DesignDocument) -> None:
        self.doc = doc

    def _specs(self) -> list[ClusterSpec]:
        return list(self.doc.get("clusters") or [])

    def _gpu_positions(self) -> list[int]:
        return [i for i, c in enumerate(self._specs()) if c.role is ClusterRole.GPU]

    def names(self) -> list[str]:
        specs = self._specs()
        return [self.doc.get("cluster_name")] + [specs[i].name for i in self._gpu_positions()]

    def hardware(self, index: int) -> Hardware | None:
        if index == 0:
            return self.doc.get("hardware")
        return self._specs()[self._gpu_positions()[index - 1]].hardware

    def gpu_and_server(
        self, cluster: str | None, catalog: Catalog
    ) -> tuple[Gpu | None, Server | None]:
        """The GPU and server of the cluster named ``cluster``, or of the first when it names
        none (a group not placed yet)."""
        names = self.names()
        hw = self.hardware(names.index(cluster) if cluster in names else 0)
        if hw is None:
            return None, None
        return catalog.gpus.get(hw.gpu), catalog.servers.get(hw.server)

    def ha(self, index: int) -> HaPolicy:
        if index == 0:
            return self.doc.get("ha")
        return self._specs()[self._gpu_positions()[index - 1]].ha

    def with_ha(self, index: int, ha: HaPolicy) -> list[ClusterSpec]:
        """The clusters with the HA policy of the (non-first) cluster ``index`` replaced."""
        specs = self._specs()
        at = self._gpu_positions()[index - 1]
        specs[at] = specs[at].model_copy(update={"ha": ha})
        return specs

    def with_hardware(self, index: int, hw: Hardware) -> list[ClusterSpec]:
        """The clusters with the hardware of the (non-first) cluster ``index`` replaced."""
        specs = self._specs()
        at = self._gpu_positions()[index - 1]
        specs[at] = specs[at].model_copy(update={"hardware": hw})
        return specs

    def add(self, index: int) -> int:
        """Add a copy of cluster ``index`` under a new name; its position."""
        hw = self.hardware(index) or self.doc.get("hardware")
        taken = set(self.names()) | {c.name for c in self._specs()}
        n = len(self.names()) + 1
        while f"GPU cluster {n}" in taken:
            n += 1
        spec = ClusterSpec(name=f"GPU cluster {n}", role=ClusterRole.GPU, hardware=hw)
        self.doc.set("clusters", [*self._specs(), spec])
        return len(self.names()) - 1

    def remove(self, index: int) -> None:
        """Remove a non-first cluster; groups pinned to it are placed anew by the sizing."""
        name = self.names()[index]
        specs = self._specs()
        del specs[self._gpu_positions()[index - 1]]
        self._unpin(name, None)
        self.doc.set("clusters", specs)

    def rename(self, index: int, new: str) -> str | None:
        """Rename cluster ``index`` and the groups pinned to it; why not, or None when done."""
        new = new.strip()
        old = self.names()[index]
        if new == old:
            return None
        if not new:
            return "a cluster needs a name"
        if len(new) > 200:
            return f"a cluster's name has at most 200 characters (got {len(new)})"
        if new in self.names() or new in {c.name for c in self._specs()}:
            return f"the name '{new}' is taken"
        if index == 0:
            self.doc.set("cluster_name", new)
        else:
            specs = self._specs()
            at = self._gpu_positions()[index - 1]
            specs[at] = specs[at].model_copy(update={"name": new})
            self.doc.set("clusters", specs)
        self._unpin(old, new)
        return None

    def _unpin(self, old: str, new: str | None) -> None:
        groups: list[WorkloadGroup] = self.doc.get("workloads")
        if any(g.cluster == old for g in groups):
            self.doc.set(
                "workloads",
                [g.model_copy(update={"cluster": new}) if g.cluster == old else g for g in groups],
            )
