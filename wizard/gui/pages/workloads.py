"""Page 2: the workload groups, in a table, with an editor for the selected one.

The Design holds only groups that validate. While the editor holds an answer that does not, the
row keeps that draft (so switching rows loses nothing), shows the problem, and Next stays
disabled with the reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStyle,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from wizard.base.numbers import MISSING, count
from wizard.engine import group_mode_reason
from wizard.gui.forms import error_items
from wizard.gui.icons import icon
from wizard.gui.pages import titles
from wizard.gui.pages.base import Page
from wizard.gui.pages.hardware_clusters import Clusters
from wizard.gui.pasted import as_typed
from wizard.gui.prompts import CANCEL, REMOVE, Prompt, PromptKind
from wizard.gui.widgets.workload_editor import WorkloadEditor
from wizard.model.catalog import Gpu, Server
from wizard.model.design import (
    ClusterRole,
    Constraints,
    ModelChoice,
    SharingMode,
    WorkloadGroup,
    WorkloadKind,
)
from wizard.present import labels
from wizard.present.figures import gpus_text, physical_gpus

COLUMNS = ("Name", "Kind", "How many", "GPUs", "")
DEFAULT_PRESET = "llama-3-8b"
SETTLE_PASSES = 4  # nested layouts (form in group box in scroll area) settle in a few passes
EDITOR_MIN_WIDTH = 420


def _same_model(values: dict[str, Any], group: WorkloadGroup) -> bool:
    """Whether the editor's answers keep the group's kind, model and precision."""
    try:
        model = ModelChoice.model_validate(values["model"]) if values.get("model") else None
    except ValidationError:
        return False
    return (
        values.get("kind") == group.kind
        and model == group.model
        and values.get("precision", group.precision) == group.precision
    )


@dataclass
class Row:
    group: WorkloadGroup  # the last version that validated (what the Design holds)
    draft: dict[str, Any] | None = None  # the editor's answers when they do not validate
    error: str | None = None


class WorkloadsPage(Page):
    scrolling = False

    def __init__(
        self, doc, catalog, live, prompt: Callable[[Prompt], object] | None = None
    ) -> None:
        self.prompt = prompt
        super().__init__(doc, catalog, live, *titles.WORKLOADS)
        self.rows: list[Row] = []
        splitter = QSplitter(Qt.Orientation.Horizontal)
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.setAlternatingRowColors(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for c in range(1, len(COLUMNS)):
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        lv.addWidget(self.table, 1)
        buttons = QHBoxLayout()
        self.add_button = self._button("Add", "add", "Add a workload group (Insert)")
        self.dup_button = self._button("Duplicate", "duplicate", "Copy the selected group")
        self.edit_button = self._button("Edit", "edit", "Edit the selected group (Enter)")
        self.remove_button = self._button("Remove", "remove", "Remove the selected group (Delete)")
        self.measure_button = QPushButton("Import measurements…")
        self.measure_button.setToolTip(
            "Fit the selected group's efficiency factors to your own benchmark results (vLLM, "
            "AIPerf, GenAI-Perf, nccl-tests, MLPerf logs); the figures then read calibrated"
        )
        for b in (self.add_button, self.dup_button, self.edit_button, self.remove_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        lv.addLayout(buttons)
        lv.addWidget(self.measure_button, 0, Qt.AlignmentFlag.AlignLeft)
        self.empty_note = QLabel("No workload groups yet: press Add to describe the first one.")
        self.empty_note.setObjectName("note")
        lv.addWidget(self.empty_note)
        splitter.addWidget(left)

        self.editor = WorkloadEditor(catalog)
        self.editor_scroll = QScrollArea()
        self.editor_scroll.setWidgetResizable(True)
        self.editor_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.editor_scroll.setWidget(self.editor)
        self.editor_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # the form's narrowest plus the vertical scroll bar, so the bar never covers a field
        bar = self.editor_scroll.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        self.editor_scroll.setMinimumWidth(EDITOR_MIN_WIDTH + bar + 2)
        splitter.addWidget(self.editor_scroll)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([430, 630])
        self.body.addWidget(splitter, 1)

        self.add_button.clicked.connect(self.add_group)
        self.dup_button.clicked.connect(self.duplicate_group)
        self.edit_button.clicked.connect(self.edit_group)
        self.remove_button.clicked.connect(self.remove_group)
        self.measure_button.clicked.connect(self.import_measurements)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        self.table.activated.connect(lambda _index: self.edit_group())
        self.editor.edited.connect(self._editor_edited)
        self.editor.hardware_of = self._hardware_of
        self.live.updated.connect(self._show_gpus)
        QShortcut(QKeySequence(Qt.Key.Key_Insert), self, self.add_group)
        delete = QShortcut(QKeySequence(QKeySequence.StandardKey.Delete), self.table)
        delete.activated.connect(self.remove_group)
        self._reload()
        self._show_gpus()  # made after a sizing too: show it now, not at the next one

    def _button(self, text: str, icon_name: str, tooltip: str) -> QPushButton:
        b = QPushButton(icon(icon_name), text)
        b.setToolTip(tooltip)
        return b

    # ------------------------------------------------------------------ Design <-> rows

    def _cluster_names(self) -> list[str]:
        specs = self.doc.get("clusters") or []
        return [self.doc.get("cluster_name")] + [c.name for c in specs if c.role is ClusterRole.GPU]

    def _hardware_of(self, cluster: str | None) -> tuple[Gpu | None, Server | None]:
        """The GPU and server the selected group runs on: its cluster, else where the sizing
        placed it, else the first cluster's (the Sharing page's answer)."""
        if cluster is None and self.live.estate is not None:
            i = self.table.currentRow()
            name = self.rows[i].group.name if 0 <= i < len(self.rows) else None
            cluster = next(
                (p.cluster for p in self.live.estate.placements if p.workload == name), None
            )
        return Clusters(self.doc).gpu_and_server(cluster, self.catalog)

    def load(self) -> None:
        self.editor.set_clusters(self._cluster_names())
        current = self.table.currentRow()
        self.rows = [Row(g) for g in self.doc.get("workloads")]
        self._fill_table()
        if self.rows:
            self._select(min(max(current, 0), len(self.rows) - 1))
        else:
            self._select(-1)

    def on_external_change(self) -> None:
        self.editor.set_clusters(self._cluster_names())
        groups: list[WorkloadGroup] = self.doc.get("workloads")
        if len(groups) != len(self.rows):
            self.load()
            return
        for row, group in zip(self.rows, groups, strict=True):
            if row.group != group:
                row.group = group
                if row.draft is None:
                    self._refresh_row(self.rows.index(row))
        i = self.table.currentRow()
        if 0 <= i < len(self.rows) and self.rows[i].draft is None:
            self.editor.load(self.rows[i].group)

    def _store(self) -> None:
        self.commit("workloads", [r.group for r in self.rows])

    # ------------------------------------------------------------------ table

    def _fill_table(self) -> None:
        self.table.setRowCount(len(self.rows))
        for i in range(len(self.rows)):
            self._refresh_row(i)
        self.empty_note.setVisible(not self.rows)
        self._show_gpus()

    def _refresh_row(self, i: int) -> None:
        row = self.rows[i]
        g = row.group
        shown = row.draft or {}
        name = shown.get("name", g.name)
        kind = shown.get("kind", g.kind)
        members = shown.get("count", g.count)
        sized = "known GPUs per member" if g.gpus_per_member is not None else _sized_text(g)
        cells = [name, labels.KIND_SHORT[WorkloadKind(kind)], _how_many(WorkloadKind(kind), members,
                 shown.get("gpus_per_member", g.gpus_per_member) is not None)]  # fmt: skip
        for c, text in enumerate(cells):
            item = QTableWidgetItem(str(text))
            item.setToolTip(f"{name}: sized from {sized}" if c < 2 else str(text))
            if c == 2:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(i, c, item)
        status = QTableWidgetItem(icon("error") if row.error else icon("ok"), "")
        status.setToolTip(row.error or f"Valid. Sharing: {labels.MODE[g.sharing_mode]}")
        self.table.setItem(i, 4, status)

    def sizing_problems(self) -> dict[int, list[tuple[str, str]]]:
        """The sizing's and the catalog checks' problems of each group, by row: (field path
        inside the group, message), from the engine's field references."""
        out: dict[int, list[tuple[str, str]]] = {}
        found = [str(p) for p in self.live.compat] + list(self.live.problems)
        for text in found:
            m = _GROUP_FIELD.match(text)
            if m is None:
                continue
            i, path, message = int(m.group(1)), m.group(2) or "", m.group(3)
            if 0 <= i < len(self.rows):
                out.setdefault(i, []).append((path.lstrip("."), message))
        return out

    def sizing_cautions(self) -> dict[int, list[tuple[str, str]]]:
        """The plausibility cautions of each group, by row: (field path inside the group,
        message), as the engine recorded them."""
        out: dict[int, list[tuple[str, str]]] = {}
        for p in self.live.cautions:
            m = _GROUP_FIELD.match(str(p))
            if m is not None and 0 <= int(m.group(1)) < len(self.rows):
                out.setdefault(int(m.group(1)), []).append(
                    ((m.group(2) or "").lstrip("."), m.group(3))
                )
        return out

    def _show_gpus(self) -> None:
        self.editor.update_mode_reasons()  # the hardware may have changed on another page
        sized = self.live.workload_results()
        problems = self.sizing_problems()
        cautions = self.sizing_cautions()
        for i, row in enumerate(self.rows):
            if row.error is None and i < self.table.rowCount():
                said = problems.get(i, []) + cautions.get(i, [])
                status = QTableWidgetItem(icon("warning") if said else icon("ok"), "")
                status.setToolTip(
                    "\n".join(self._said(path, msg) for path, msg in said)
                    if said
                    else f"Valid. Sharing: {labels.MODE[row.group.sharing_mode]}"
                )
                self.table.setItem(i, 4, status)
        self._show_field_problems(problems, cautions)
        for i, row in enumerate(self.rows):
            text = MISSING
            w = sized.get(row.group.name) if row.draft is None else None
            if w is not None:
                # physical GPUs: 20 notebooks on vGPUs of 4 GPUs read 4, not 20
                text = physical_gpus(w.sharing.gpus_allocated).removesuffix(" GPUs")
                text = text.removesuffix(" GPU")
                if 0 < w.sharing.gpus_allocated < 1:  # a share of one GPU, not "0.2" GPUs
                    text = "< 1"
            item = QTableWidgetItem(text)
            item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            item.setToolTip(
                f"{gpus_text(w)}, from the live sizing"
                if w is not None
                else "GPUs this group needs, from the live sizing"
                if sized
                else "Shown once the hardware is chosen"
            )
            self.table.setItem(i, 3, item)

    def _show_field_problems(
        self,
        problems: dict[int, list[tuple[str, str]]] | None = None,
        cautions: dict[int, list[tuple[str, str]]] | None = None,
    ) -> None:
        """The selected group's sizing problems and cautions under the fields they concern, and
        the requests in flight its sizing derived from its demand."""
        current = self.table.currentRow()
        if 0 <= current < len(self.rows) and self.rows[current].draft is None:
            found = self.sizing_problems() if problems is None else problems
            self.editor.errors.show(found.get(current, []))
            warned = self.sizing_cautions() if cautions is None else cautions
            self.editor.errors.caution(warned.get(current, []))
            w = self.live.workload_results().get(self.rows[current].group.name)
            self.editor.inf_box.show_sized(w.serving if w is not None else None)
        else:
            self.editor.errors.caution([])
            self.editor.inf_box.show_sized(None)

    def _said(self, path: str, message: str) -> str:
        """A problem in the wizard's words: the field's label on this page, not its path."""
        key = self.editor.errors._match(path)
        label = self.editor.errors.rows[key][0] if key else ""
        return f"{label}: {message}" if label else message

    def _select(self, i: int) -> None:
        has = 0 <= i < len(self.rows)
        if has:
            self.table.selectRow(i)
        else:
            self.table.clearSelection()
        self._selection_changed()

    def _selection_changed(self) -> None:
        i = self.table.currentRow() if self.table.selectionModel().hasSelection() else -1
        has = 0 <= i < len(self.rows)
        self.editor_scroll.setEnabled(has)
        self.editor.setVisible(has)
        for b in (self.dup_button, self.edit_button, self.remove_button, self.measure_button):
            b.setEnabled(has)
        if has:
            row = self.rows[i]
            self.editor.load(row.draft if row.draft is not None else row.group)
            self._validate_editor(i, commit=False)
            self._show_field_problems()
            self._settle()

    # ------------------------------------------------------------------ actions

    def _unique(self, base: str) -> str:
        names = {r.group.name for r in self.rows} | {(r.draft or {}).get("name") for r in self.rows}
        if base not in names:
            return base
        n = 2
        while f"{base} {n}" in names:
            n += 1
        return f"{base} {n}"

    def add_group(self) -> None:
        preset = DEFAULT_PRESET if DEFAULT_PRESET in self.catalog.models else None
        preset = preset or next(iter(self.catalog.models), None)
        group = WorkloadGroup(
            name=self._unique("Workload group"),
            kind=WorkloadKind.TRAINING,
            model=ModelChoice(preset=preset) if preset else None,
            gpus_per_member=None if preset else 1,
            sharing_mode=self._first_mode(),
        )
        self.rows.append(Row(group))
        self._after_structure_change(len(self.rows) - 1)
        self._settle()
        self.editor_scroll.verticalScrollBar().setValue(0)  # the new group's Name in view
        self.editor.name.setFocus()
        self.editor.name.selectAll()

    def _first_mode(self) -> SharingMode:
        """The first sharing mode the rule book allows on the hardware a new group lands on:
        passthrough, else time-sliced vGPU (an NVSwitch board under vSphere takes only that)."""
        gpu, server = self._hardware_of(None)
        for mode in (SharingMode.PASSTHROUGH, SharingMode.VGPU, SharingMode.MIG):
            if group_mode_reason(mode, Constraints(), gpu, server) is None:
                return mode
        return SharingMode.PASSTHROUGH

    def _settle(self) -> None:
        """Lay the editor out now, not over the next few passes of the event loop: sections
        shown for the first time are polished and sized in steps, and a click aimed at a field
        in between landed on whatever had moved under the pointer."""
        for w in self.editor.findChildren(QWidget):
            w.ensurePolished()
        for _ in range(SETTLE_PASSES):
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)

    def duplicate_group(self) -> None:
        i = self.table.currentRow()
        if not 0 <= i < len(self.rows):
            return
        src = self.rows[i]
        base = (src.draft or {}).get("name") or src.group.name
        copy = src.group.model_copy(update={"name": self._unique(f"{base} (copy)")})
        draft = dict(src.draft, name=copy.name) if src.draft else None
        self.rows.insert(i + 1, Row(copy, draft, src.error))
        self._after_structure_change(i + 1)

    def import_measurements(self) -> None:
        i = self.table.currentRow()
        if not 0 <= i < len(self.rows) or self.prompt is None:
            return
        from wizard.gui.measurements import import_measurements

        if import_measurements(self.doc, self.catalog, self.rows[i].group.name, self.prompt,
                               None):  # fmt: skip
            self.load()  # the group now holds its calibration

    def edit_group(self) -> None:
        if 0 <= self.table.currentRow() < len(self.rows):
            self.editor.name.setFocus()

    def remove_group(self) -> None:
        """Remove the selected group after a question: its answers cannot be got back."""
        i = self.table.currentRow()
        if not 0 <= i < len(self.rows):
            return
        if self.prompt is not None:
            row = self.rows[i]
            name = (row.draft or {}).get("name") or row.group.name
            answer = self.prompt(
                Prompt(
                    PromptKind.QUESTION,
                    "Remove workload group",
                    f"Remove the workload group \u201c{name}\u201d and all its answers?",
                    buttons=(REMOVE, CANCEL),
                    default=CANCEL,
                )
            )
            if answer != REMOVE:
                return
        del self.rows[i]
        self._after_structure_change(min(i, len(self.rows) - 1))

    def _after_structure_change(self, select: int) -> None:
        self._fill_table()
        self._store()
        self._select(select)
        self.update_complete()

    # ------------------------------------------------------------------ editing

    def _editor_edited(self) -> None:
        i = self.table.currentRow()
        if 0 <= i < len(self.rows):
            self._validate_editor(i, commit=True)
            self._refresh_row(i)
            self._show_gpus()
            self.update_complete()

    def _validate_editor(self, i: int, commit: bool) -> None:
        values = self.editor.values()
        items: list[tuple[str, str]] = []
        group = None
        kept = self.rows[i].group
        # the fitted factors belong to the model, precision and kind they were measured with;
        # the load, targets and the rest may change around them
        if kept.calibration is not None and _same_model(values, kept):
            values["calibration"] = kept.calibration.model_dump(mode="json")
        # training settings a design file may state that the page does not ask for
        if "optimizer" in values:
            for key in ("recompute_layers", "optimizer_in_backward"):
                values.setdefault(key, getattr(kept, key))
        try:
            group = WorkloadGroup.model_validate(as_typed(values))
        except ValidationError as exc:
            items = error_items(exc)
        others = {r.group.name for j, r in enumerate(self.rows) if j != i}
        if values["name"] and values["name"] in others:
            items.append(("name", f"'{values['name']}' is already the name of another group"))
            group = None
        lines = self.editor.errors.show(items)
        row = self.rows[i]
        if group is None:
            row.draft = values
            row.error = lines[0] if lines else "does not validate"
        else:
            row.draft = None
            row.error = None
            if commit and group != row.group:
                row.group = group
                self._store()

    def problems(self) -> list[str]:
        if not self.rows:
            return ["add at least one workload group"]
        return [
            f"group '{(r.draft or {}).get('name') or r.group.name}': {r.error}"
            for r in self.rows
            if r.error
        ]


# "workloads[2].inference.ttft_target_ms: message", or "…: on 'HGX cluster', message"
_GROUP_FIELD = re.compile(r"^workloads\[(\d+)\]((?:\.[\w\[\]]+)*): (.*)$", re.S)


def _sized_text(g: WorkloadGroup) -> str:
    if g.model is None:
        return "per-user need" if g.shared else MISSING
    if g.model.preset:
        return g.model.preset
    return "custom model"


def _how_many(kind: WorkloadKind, n: int, known_gpus: bool) -> str:
    """What a group's count counts, in its kind's words: a service sized from its model is one
    service whatever a file says (its people say how many use it)."""
    if kind is WorkloadKind.INFERENCE:
        return count(n, "replica") if known_gpus else "1 service"
    return count(n, "user") if kind is WorkloadKind.DEVELOPMENT else count(n, "job")
