"""The Hardware page's storage and training-data plan: the storage system (a hardware choice)
and the data the design keeps (dataset, versions, checkpoints, headroom, read rate)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import ValidationError
from PySide6.QtWidgets import QFormLayout, QGroupBox

from wizard.gui.forms import FormErrors, error_items
from wizard.gui.widgets.inputs import Choice, OptionalDouble, OptionalSpin, double_spin, int_spin
from wizard.model.catalog import Catalog
from wizard.model.design import DataPlan

if TYPE_CHECKING:
    from wizard.gui.document import DesignDocument


class DataPlanMixin:
    """Builds, loads and validates the data-plan fields of the page it is mixed into."""

    errors: FormErrors
    doc: DesignDocument
    _loading: bool

    if TYPE_CHECKING:  # provided by the page (wizard.gui.pages.base.Page)

        def commit(self, section: str, value: object) -> None: ...

        def update_complete(self) -> None: ...

    def _data_box(self, catalog: Catalog) -> QGroupBox:
        """Storage for the training data: the system (a hardware choice) and the data plan."""
        box = QGroupBox("Storage and training data")
        f = QFormLayout(box)
        f.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.storage = Choice([("None chosen", None)])
        for s in catalog.storage.values():
            self.storage.add(s.product_name, s.id)
        self.errors.add(f, "storage", "Storage system", self.storage)
        self.data_errors = FormErrors()
        self.dataset_gb = OptionalDouble(1e12, 0, "derived from the workloads")
        self.dataset_gb.setSuffix(" GB")
        self.versions = int_spin(1, 1000, 2)
        self.checkpoints = int_spin(0, 10_000, 3)
        self.headroom = double_spin(0, 10_000, 0, 25)
        self.headroom.setSuffix(" %")
        self.read_per_gpu = OptionalDouble(1000, 2, "unknown")
        self.read_per_gpu.setSuffix(" GB/s")
        self.nodes = OptionalSpin(1, 100_000, "sized by the engine")
        self.data_errors.add(f, "dataset_gb", "Dataset size", self.dataset_gb)
        self.data_errors.add(f, "dataset_versions", "Dataset versions", self.versions)
        self.data_errors.add(f, "checkpoint_copies", "Checkpoints per job", self.checkpoints)
        self.data_errors.add(f, "growth_headroom", "Growth headroom", self.headroom)
        self.data_errors.add(f, "read_gbs_per_gpu", "Read per GPU (other groups)",
                             self.read_per_gpu)  # fmt: skip
        self.data_errors.add(f, "storage_nodes", "Storage nodes", self.nodes)
        for w in (self.dataset_gb, self.headroom, self.read_per_gpu):
            w.valueChanged.connect(self._data_edited)
        for count in (self.versions, self.checkpoints, self.nodes):
            count.valueChanged.connect(self._data_edited)
        self._data_problems: list[str] = []
        return box

    def _load_data(self) -> None:
        d: DataPlan = self.doc.get("data")
        self.dataset_gb.put(d.dataset_gb)
        self.versions.setValue(d.dataset_versions)
        self.checkpoints.setValue(d.checkpoint_copies)
        self.headroom.setValue(d.growth_headroom * 100)
        self.read_per_gpu.put(d.read_gbs_per_gpu or None)
        self.nodes.put(d.storage_nodes)
        self._validate_data(commit=False)

    def _data_edited(self) -> None:
        if not self._loading:
            self._validate_data(commit=True)
            self.update_complete()

    def _validate_data(self, commit: bool) -> None:
        values = {
            "dataset_gb": self.dataset_gb.get(),
            "dataset_versions": self.versions.value(),
            "checkpoint_copies": self.checkpoints.value(),
            "growth_headroom": self.headroom.value() / 100,
            "read_gbs_per_gpu": self.read_per_gpu.get() or 0,
            "storage_nodes": self.nodes.get(),
        }
        try:
            plan = DataPlan.model_validate(values)
            items: list[tuple[str, str]] = []
        except ValidationError as exc:
            plan = None
            items = error_items(exc)
        self._data_problems = self.data_errors.show(items)
        if plan is not None and commit:
            self.commit("data", plan)
