"""The editor of one workload group: only the questions its kind needs, each with a tooltip.

It produces a plain dict that :class:`WorkloadGroup` validates; the page decides what to do with
errors, which come back here to appear under the widget that caused them.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from wizard.gui.forms import FormErrors
from wizard.gui.widgets.inputs import (
    Choice,
    OptionalDouble,
    OptionalSpin,
    double_spin,
    int_spin,
)
from wizard.model.catalog import Catalog, ModelPreset
from wizard.model.design import (
    MAX_GROUP_COUNT,
    FineTuningMethod,
    LoraTargets,
    Optimizer,
    Precision,
    Recompute,
    SharingMode,
    WorkloadGroup,
    WorkloadKind,
)
from wizard.present import labels
from wizard.present.glossary import tip

CUSTOM = "__custom__"
TRAINING_KINDS = (WorkloadKind.TRAINING, WorkloadKind.FINE_TUNING)
MODEL_KINDS = (*TRAINING_KINDS, WorkloadKind.INFERENCE)


def _form(box: QGroupBox) -> QFormLayout:
    form = QFormLayout(box)
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
    return form


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
        self.errors.add(f, "count", "Members", self.count)
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

        # -- the model
        self.model_box = QGroupBox("Model")
        f = _form(self.model_box)
        self.preset = Choice()
        for p in sorted(catalog.models.values(), key=lambda m: (m.family, m.parameters)):
            self.preset.add(f"{p.name}  ({_params(p.parameters)} parameters)", p.id)
        self.preset.add("Custom numbers…", CUSTOM)
        self.preset_info = QLabel()
        self.preset_info.setObjectName("muted")
        self.preset_info.setWordWrap(True)
        self.errors.add(f, "model", "Model", self.preset, term="preset", below=self.preset_info)
        self.custom_box = QWidget()
        cf = QFormLayout(self.custom_box)
        cf.setContentsMargins(0, 0, 0, 0)
        self.c_params = double_spin(0.001, 100_000, 3, 7.0)
        self.c_params.setSuffix(" billion")
        self.c_layers = int_spin(1, 10_000, 32)
        self.c_hidden = int_spin(1, 1_000_000, 4096)
        self.c_heads = int_spin(1, 10_000, 32)
        self.c_kv = OptionalSpin(1, 10_000, "same as heads")
        self.c_vocab = int_spin(1, 10_000_000, 32_000)
        self.errors.add(cf, "model.custom.parameters", "Parameters", self.c_params)
        self.errors.add(cf, "model.custom.layers", "Layers", self.c_layers)
        self.errors.add(cf, "model.custom.hidden_size", "Hidden size", self.c_hidden)
        self.errors.add(cf, "model.custom.heads", "Attention heads", self.c_heads)
        self.errors.add(cf, "model.custom.kv_heads", "KV heads", self.c_kv)
        self.errors.add(cf, "model.custom.vocab_size", "Vocabulary", self.c_vocab)
        f.addRow(self.custom_box)
        self.precision = Choice.of(Precision, labels.PRECISION)
        self.errors.add(f, "precision", "Precision", self.precision)
        layout.addWidget(self.model_box)

        # -- training
        self.train_box = QGroupBox("Training")
        f = self.train_form = _form(self.train_box)
        self.optimizer = Choice.of(Optimizer, labels.OPTIMIZER)
        self.micro_batch = int_spin(1, 1_000_000, 1)
        self.global_batch = OptionalSpin(1, 100_000_000, "micro-batch × data-parallel copies")
        self.seq_len = int_spin(1, 10_000_000, 2048)
        self.recompute = Choice(
            [("choose for me", None)] + [(labels.RECOMPUTE[r], r) for r in Recompute]
        )
        self.ft_method = Choice(
            [
                *((labels.FINE_TUNING[m], m) for m in FineTuningMethod),
            ]
        )
        self.lora_rank = int_spin(1, 4096, 16)
        self.lora_targets = Choice(
            [
                *((labels.LORA_TARGETS[t], t) for t in LoraTargets),
            ]
        )
        self.dataset_kind = Choice(
            [
                ("not known", None),
                ("samples (images, documents)", "dataset_samples"),
                ("tokens", "dataset_tokens"),
                ("iterations per epoch", "iterations_per_epoch"),
            ]
        )
        self.dataset_value = double_spin(1, 1e18, 0, 1_281_167)
        self.epochs = double_spin(0.01, 100_000, 2, 1)
        self.target_hours = OptionalDouble(1e9, 1, "no target")
        self.target_hours.setSuffix(" h")
        self.ft_row = self.errors.add(
            f, "fine_tuning.method", "Fine-tuning method", self.ft_method, term="fine_tuning"
        )
        self.rank_row = self.errors.add(
            f, "fine_tuning.lora_rank", "Adapter rank", self.lora_rank, term="lora_rank"
        )
        self.targets_row = self.errors.add(
            f, "fine_tuning.lora_targets", "Adapted projections", self.lora_targets,
            term="lora_targets",
        )  # fmt: skip
        self.errors.add(f, "optimizer", "Optimizer", self.optimizer)
        self.errors.add(f, "micro_batch_size", "Micro-batch size", self.micro_batch)
        self.errors.add(f, "global_batch_size", "Global batch size", self.global_batch)
        self.errors.add(f, "sequence_length", "Sequence length (tokens)", self.seq_len)
        self.errors.add(f, "recompute", "Activation recomputation", self.recompute)
        self.errors.add(
            f, "training", "Dataset size", self.dataset_kind, self.dataset_value, term="dataset"
        )
        self.errors.add(f, "training.epochs", "Epochs", self.epochs, term="epoch")
        self.errors.add(f, "training.target_hours", "Target time to train", self.target_hours)
        layout.addWidget(self.train_box)

        # -- parallelism
        self.par_box = QGroupBox("Parallelism")
        f = self.par_form = _form(self.par_box)
        self.zero = Choice(
            [
                ("choose for me", None),
                ("0: no sharding", 0),
                ("1: shard optimizer states", 1),
                ("2: and gradients", 2),
                ("3: and weights", 3),
            ]
        )
        self.dp = OptionalSpin(1, 1_000_000, "choose for me")
        self.tp = OptionalSpin(1, 64, "choose for me")
        self.pp = OptionalSpin(1, 1024, "choose for me")
        self.sp = QCheckBox("Sequence parallel")
        self.sp.setToolTip(tip("sequence_parallel"))
        self.zero_row = self.errors.add(f, "parallelism.zero_stage", "ZeRO stage", self.zero)
        self.dp_row = self.errors.add(f, "parallelism.data_parallel", "Data parallel", self.dp)
        self.errors.add(f, "parallelism.tensor_parallel", "Tensor parallel", self.tp, self.sp)
        self.errors.add(f, "parallelism.pipeline_parallel", "Pipeline parallel", self.pp)
        layout.addWidget(self.par_box)

        # -- inference
        self.inf_box = QGroupBox("Serving")
        f = _form(self.inf_box)
        self.tput_kind = Choice(
            [
                ("no target", None),
                ("requests per second", "target_requests_per_s"),
                ("generated tokens per second", "target_tokens_per_s"),
            ]
        )
        self.tput_value = double_spin(0.001, 1e12, 1, 100)
        self.input_tokens = int_spin(1, 10_000_000, 1024)
        self.output_tokens = int_spin(1, 10_000_000, 256)
        self.context = OptionalSpin(1, 10_000_000, "prompt + output")
        self.concurrent = int_spin(1, 1_000_000, 1)
        self.ttft = OptionalDouble(1e9, 1, "no target")
        self.ttft.setSuffix(" ms")
        self.latency = OptionalDouble(1e9, 1, "no target")
        self.latency.setSuffix(" ms")
        self.kv_precision = Choice(
            [
                ("16-bit (engine default)", None),
                ("FP8", "fp8"),
                ("INT8", "int8"),
                ("BF16", "bf16"),
                ("FP16", "fp16"),
                ("FP32", "fp32"),
            ]
        )
        self.errors.add(
            f, "inference", "Target throughput", self.tput_kind, self.tput_value,
            term="target_throughput",
        )  # fmt: skip
        self.errors.add(
            f, "inference.input_tokens", "Prompt tokens per request", self.input_tokens,
            term="input_tokens",
        )  # fmt: skip
        self.errors.add(
            f, "inference.output_tokens", "Output tokens per request", self.output_tokens
        )
        self.errors.add(
            f, "inference.max_context_tokens", "Longest request (tokens)", self.context,
            term="max_context_tokens",
        )  # fmt: skip
        self.errors.add(f, "inference.concurrent_sequences", "Requests in flight", self.concurrent)
        self.errors.add(
            f, "inference.ttft_target_ms", "Time to first token, at most", self.ttft,
            term="ttft_target_ms",
        )  # fmt: skip
        self.errors.add(
            f, "inference.itl_target_ms", "Time between tokens, at most", self.latency,
            term="itl_target_ms",
        )  # fmt: skip
        self.errors.add(
            f, "inference.kv_cache_precision", "KV cache precision", self.kv_precision,
            term="kv_cache_precision",
        )  # fmt: skip
        self.kv_note = QLabel(f"KV cache: {tip('kv_cache')}")
        self.kv_note.setObjectName("muted")
        self.kv_note.setWordWrap(True)
        f.addRow(self.kv_note)
        layout.addWidget(self.inf_box)

        # -- development / HPC
        self.shared_box = QGroupBox("Per user or job")
        f = _form(self.shared_box)
        self.need_kind = Choice(
            [
                ("whole GPUs", None),
                ("GPU memory (GB)", "gpu_memory_gb"),
                ("share of one GPU", "gpu_fraction"),
            ]
        )
        self.need_value = double_spin(0.01, 100_000, 2, 16)
        self.gpus_per_job = int_spin(1, 4096, 1)
        self.concurrency = double_spin(1, 100, 0, 100)
        self.concurrency.setSuffix(" %")
        self.errors.add(f, "shared", "Need", self.need_kind, self.need_value, term="shared_need")
        self.errors.add(f, "shared.gpus_per_job", "Whole GPUs each", self.gpus_per_job)
        self.errors.add(f, "shared.concurrency", "Active at once", self.concurrency)
        layout.addWidget(self.shared_box)

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
        layout.addWidget(box)
        layout.addStretch(1)

        for widget in self._inputs():
            for sig in ("valueChanged", "textChanged", "currentIndexChanged", "toggled"):
                if hasattr(widget, sig):
                    getattr(widget, sig).connect(self._changed)
                    break

    def _inputs(self) -> list[QWidget]:
        return [
            self.name, self.kind, self.count, self.by_model, self.gpus_per_member,
            self.preset, self.c_params, self.c_layers, self.c_hidden, self.c_heads, self.c_kv,
            self.c_vocab, self.precision, self.optimizer, self.micro_batch, self.global_batch,
            self.seq_len, self.recompute, self.ft_method, self.lora_rank, self.lora_targets,
            self.dataset_kind, self.dataset_value, self.epochs,
            self.target_hours, self.zero, self.dp, self.tp, self.pp, self.sp, self.tput_kind,
            self.tput_value, self.input_tokens, self.output_tokens, self.context,
            self.concurrent, self.ttft, self.latency, self.kv_precision,
            self.need_kind, self.need_value, self.gpus_per_job, self.concurrency, self.isolation,
            self.migration, self.remote_ok, self.mode,
        ]  # fmt: skip

    # ------------------------------------------------------------------ behaviour

    def _changed(self) -> None:
        if self._loading:
            return
        self.update_visibility()
        self.edited.emit()

    def update_visibility(self) -> None:
        kind = self.kind.get()
        by_model = self.by_model.isChecked()
        self.gpus_per_member.setEnabled(not by_model)
        self.model_box.setVisible(by_model and kind in MODEL_KINDS)
        self.custom_box.setVisible(self.preset.get() == CUSTOM)
        self.train_box.setVisible(by_model and kind in TRAINING_KINDS)
        self.par_box.setVisible(by_model and kind in MODEL_KINDS)
        training = kind in TRAINING_KINDS
        self.zero_row.setVisible(training)
        self.dp_row.setVisible(training)
        self.par_form.labelForField(self.zero_row).setVisible(training)
        self.par_form.labelForField(self.dp_row).setVisible(training)
        self.inf_box.setVisible(by_model and kind is WorkloadKind.INFERENCE)
        self.shared_box.setVisible(
            by_model and kind in (WorkloadKind.DEVELOPMENT, WorkloadKind.HPC)
        )
        tuning = kind is WorkloadKind.FINE_TUNING
        adapters = tuning and self.ft_method.get() is not FineTuningMethod.FULL
        form = self.train_form
        for row, show in ((self.ft_row, tuning), (self.rank_row, adapters),
                          (self.targets_row, adapters)):  # fmt: skip
            row.setVisible(show)
            form.labelForField(row).setVisible(show)
        self.dataset_value.setEnabled(self.dataset_kind.get() is not None)
        self.tput_value.setEnabled(self.tput_kind.get() is not None)
        need = self.need_kind.get()
        self.need_value.setEnabled(need is not None)
        self.need_value.setSuffix(" GB" if need == "gpu_memory_gb" else "")
        if need == "gpu_fraction":
            self.need_value.setRange(0.01, 1)
        else:
            self.need_value.setRange(0.01, 100_000)
        preset = self.catalog.models.get(str(self.preset.get()))
        self.preset_info.setText(_preset_text(preset) if preset else "")
        self.preset_info.setVisible(preset is not None)

    # ------------------------------------------------------------------ values

    def values(self) -> dict[str, Any]:
        """The group as the answers visible now describe it (hidden questions are left out)."""
        kind = self.kind.get()
        out: dict[str, Any] = {
            "name": self.name.text().strip(),
            "kind": kind,
            "count": self.count.value(),
            "constraints": {
                "isolation_required": self.isolation.isChecked(),
                "live_migration_required": self.migration.isChecked(),
                "remote_ok": self.remote_ok.isChecked(),
            },
            "sharing_mode": self.mode.get(),
        }
        if self.by_count.isChecked():
            out["gpus_per_member"] = self.gpus_per_member.value()
            return out
        if kind in MODEL_KINDS:
            if self.preset.get() == CUSTOM:
                out["model"] = {
                    "custom": {
                        "parameters": self.c_params.value() * 1e9,
                        "layers": self.c_layers.value(),
                        "hidden_size": self.c_hidden.value(),
                        "heads": self.c_heads.value(),
                        "kv_heads": self.c_kv.get(),
                        "vocab_size": self.c_vocab.value(),
                    }
                }
            else:
                out["model"] = {"preset": self.preset.get()}
            out["precision"] = self.precision.get()
            par: dict[str, Any] = {
                "tensor_parallel": self.tp.get(),
                "pipeline_parallel": self.pp.get(),
                "sequence_parallel": self.sp.isChecked(),
            }
            if kind in TRAINING_KINDS:
                par["zero_stage"] = self.zero.get()
                par["data_parallel"] = self.dp.get()
            out["parallelism"] = par
        if kind in TRAINING_KINDS:
            out.update(
                optimizer=self.optimizer.get(),
                micro_batch_size=self.micro_batch.value(),
                global_batch_size=self.global_batch.get(),
                sequence_length=self.seq_len.value(),
                recompute=self.recompute.get(),
            )
            if kind is WorkloadKind.FINE_TUNING:
                method = self.ft_method.get()
                out["fine_tuning"] = {"method": method}
                if method is not FineTuningMethod.FULL:
                    out["fine_tuning"].update(
                        lora_rank=self.lora_rank.value(), lora_targets=self.lora_targets.get()
                    )
            training: dict[str, Any] = {
                "epochs": self.epochs.value(),
                "target_hours": self.target_hours.get(),
            }
            if self.dataset_kind.get():
                training[str(self.dataset_kind.get())] = self.dataset_value.value()
            out["training"] = training
        elif kind is WorkloadKind.INFERENCE:
            inference: dict[str, Any] = {
                "input_tokens": self.input_tokens.value(),
                "output_tokens": self.output_tokens.value(),
                "max_context_tokens": self.context.get(),
                "concurrent_sequences": self.concurrent.value(),
                "ttft_target_ms": self.ttft.get(),
                "itl_target_ms": self.latency.get(),
                "kv_cache_precision": self.kv_precision.get(),
            }
            if self.tput_kind.get():
                inference[str(self.tput_kind.get())] = self.tput_value.value()
            out["inference"] = inference
        else:
            shared: dict[str, Any] = {
                "gpus_per_job": self.gpus_per_job.value(),
                "concurrency": self.concurrency.value() / 100,
            }
            if self.need_kind.get():
                shared[str(self.need_kind.get())] = self.need_value.value()
            out["shared"] = shared
        return out

    def load(self, data: WorkloadGroup | dict[str, Any]) -> None:
        """Show a group (or a draft that did not validate) in the editor."""
        g = data.model_dump() if isinstance(data, WorkloadGroup) else data
        self._loading = True
        try:
            self._load(g)
        finally:
            self._loading = False
        self.update_visibility()

    def _load(self, g: dict[str, Any]) -> None:
        self.name.setText(g.get("name", ""))
        self.kind.put(WorkloadKind(g.get("kind", "training")))
        self.count.setValue(int(g.get("count", 1)))
        gpm = g.get("gpus_per_member")
        self.by_count.setChecked(gpm is not None)
        self.by_model.setChecked(gpm is None)
        self.gpus_per_member.setValue(gpm or 1)
        model = g.get("model") or {}
        if model.get("custom"):
            c = model["custom"]
            self.preset.put(CUSTOM)
            self.c_params.setValue(c.get("parameters", 7e9) / 1e9)
            self.c_layers.setValue(c.get("layers", 32))
            self.c_hidden.setValue(c.get("hidden_size", 4096))
            self.c_heads.setValue(c.get("heads", 32))
            self.c_kv.put(c.get("kv_heads"))
            self.c_vocab.setValue(c.get("vocab_size", 32_000))
        elif model.get("preset"):
            self.preset.put(model["preset"])
        self.precision.put(Precision(g.get("precision", "bf16")))
        self.optimizer.put(Optimizer(g.get("optimizer", "adamw")))
        self.micro_batch.setValue(g.get("micro_batch_size", 1))
        self.global_batch.put(g.get("global_batch_size"))
        self.seq_len.setValue(g.get("sequence_length", 2048))
        rc = g.get("recompute")
        self.recompute.put(Recompute(rc) if rc else None)
        ft = g.get("fine_tuning") or {}
        self.ft_method.put(FineTuningMethod(ft.get("method", "full")))
        self.lora_rank.setValue(ft.get("lora_rank", 16))
        self.lora_targets.put(LoraTargets(ft.get("lora_targets", "attention-mlp")))
        par = g.get("parallelism") or {}
        self.zero.put(par.get("zero_stage"))
        self.dp.put(par.get("data_parallel"))
        self.tp.put(par.get("tensor_parallel"))
        self.pp.put(par.get("pipeline_parallel"))
        self.sp.setChecked(bool(par.get("sequence_parallel")))
        tr = g.get("training") or {}
        self.dataset_kind.put(None)
        for key in ("dataset_samples", "dataset_tokens", "iterations_per_epoch"):
            if tr.get(key):
                self.dataset_kind.put(key)
                self.dataset_value.setValue(tr[key])
                break
        self.epochs.setValue(tr.get("epochs", 1))
        self.target_hours.put(tr.get("target_hours"))
        inf = g.get("inference") or {}
        self.tput_kind.put(None)
        for key in ("target_requests_per_s", "target_tokens_per_s"):
            if inf.get(key):
                self.tput_kind.put(key)
                self.tput_value.setValue(inf[key])
                break
        self.input_tokens.setValue(inf.get("input_tokens", 1024))
        self.output_tokens.setValue(inf.get("output_tokens", 256))
        self.context.put(inf.get("max_context_tokens"))
        self.concurrent.setValue(inf.get("concurrent_sequences", 1))
        self.ttft.put(inf.get("ttft_target_ms"))
        self.latency.put(inf.get("itl_target_ms"))
        self.kv_precision.put(inf.get("kv_cache_precision"))
        sh = g.get("shared") or {}
        self.need_kind.put(None)
        for key in ("gpu_memory_gb", "gpu_fraction"):
            if sh.get(key):
                self.need_kind.put(key)
                self.update_visibility()
                self.need_value.setValue(sh[key])
                break
        self.gpus_per_job.setValue(sh.get("gpus_per_job", 1))
        self.concurrency.setValue(round(sh.get("concurrency", 1.0) * 100))
        c = g.get("constraints") or {}
        self.isolation.setChecked(bool(c.get("isolation_required")))
        self.migration.setChecked(bool(c.get("live_migration_required")))
        self.remote_ok.setChecked(bool(c.get("remote_ok")))
        self.mode.put(SharingMode(g.get("sharing_mode", "passthrough")))


def _params(n: float) -> str:
    return f"{n / 1e9:,.1f} B" if n >= 1e9 else f"{n / 1e6:,.0f} M"


def _preset_text(p: ModelPreset) -> str:
    shape = (
        f"{p.layers} layers, hidden {p.hidden_size}, {p.heads} heads, {p.kv_heads} KV heads, "
        f"vocabulary {p.vocab_size:,}"
        if p.hidden_size
        else f"{p.layers} layers, {p.forward_gflops_per_sample:g} GFLOPs per sample forward"
    )
    return f"{_params(p.parameters)} parameters; {shape}. Source: {short_source(p.source)}"


def short_source(source: str) -> str:
    """The first reference of a source, without its URL (the catalog keeps the whole text)."""
    first = source.split(" ; ")[0]
    for marker in (", http", " http"):
        if marker in first:
            first = first.split(marker)[0]
    return first.rstrip(" ,;")
