"""The workload editor's sub-forms, one per job: the model, training, parallelism, serving and
per-user need. Each builds its fields (registered with the editor's error routing), reads them
into the group's dict, loads a group into them and shows only what the group's kind asks."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QCheckBox, QFormLayout, QGroupBox, QLabel, QWidget

from wizard.base.numbers import num
from wizard.gui.forms import FormErrors
from wizard.gui.widgets.inputs import Choice, OptionalDouble, OptionalSpin, double_spin, int_spin
from wizard.model.catalog import Catalog, ModelPreset
from wizard.model.design import (
    AttentionKernel,
    FineTuningMethod,
    LoraTargets,
    Optimizer,
    PeopleDemand,
    Precision,
    Recompute,
    TrainingStack,
    WorkloadKind,
)
from wizard.model.result import ServingResult
from wizard.present import labels
from wizard.present.glossary import tip

CUSTOM = "__custom__"
TRAINING_KINDS = (WorkloadKind.TRAINING, WorkloadKind.FINE_TUNING)
MODEL_KINDS = (*TRAINING_KINDS, WorkloadKind.INFERENCE)
# GPU memory a new notebook user, or a need chosen afresh, starts with: the size of NVIDIA's
# common data-science vGPU profiles (L40S-16Q/C, A16-16Q)
NOTEBOOK_GB = 16.0


def form_of(box: QGroupBox) -> QFormLayout:
    form = QFormLayout(box)
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
    # a long label goes above its field when the editor is narrow, rather than widening it
    form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
    return form


class ModelSection(QGroupBox):
    """Which model (a catalog preset or custom numbers) and its precision."""

    def __init__(self, catalog: Catalog, errors: FormErrors) -> None:
        super().__init__("Model")
        self.catalog = catalog
        self.errors = errors
        f = form_of(self)
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
        self.c_params = OptionalDouble(100_000, 3, "counted from the shape")
        self.c_params.setSuffix(" billion")
        self.c_params.put(7.0)
        self.c_layers = int_spin(1, 10_000, 32)
        self.c_hidden = int_spin(1, 1_000_000, 4096)
        self.c_heads = int_spin(1, 10_000, 32)
        self.c_kv = OptionalSpin(1, 10_000, "same as heads")
        self.c_vocab = int_spin(1, 10_000_000, 32_000)
        self.c_ffn = OptionalSpin(1, 10_000_000, "4 × hidden size")
        self.c_gated = QCheckBox("Gated MLP, three matrices (SwiGLU: Llama, Mistral, Qwen)")
        self.c_gated.setChecked(True)
        self.c_experts = OptionalSpin(2, 4096, "none (a dense model)")
        self.c_experts_k = OptionalSpin(1, 4096, "none")
        self._custom_rest: dict[str, Any] = {}  # fields of a loaded file this form does not edit
        self.errors.add(cf, "model.custom.parameters", "Parameters", self.c_params)
        self.errors.add(cf, "model.custom.layers", "Layers", self.c_layers)
        self.errors.add(cf, "model.custom.hidden_size", "Hidden size", self.c_hidden)
        self.errors.add(cf, "model.custom.heads", "Attention heads", self.c_heads)
        self.errors.add(cf, "model.custom.kv_heads", "KV heads", self.c_kv)
        self.errors.add(cf, "model.custom.vocab_size", "Vocabulary", self.c_vocab)
        self.errors.add(cf, "model.custom.ffn_hidden_size", "Feed-forward width", self.c_ffn)
        self.errors.add(cf, "model.custom.gated_mlp", "MLP", self.c_gated)
        self.errors.add(cf, "model.custom.experts", "Experts", self.c_experts)
        self.errors.add(cf, "model.custom.experts_per_token", "Experts per token", self.c_experts_k)
        f.addRow(self.custom_box)
        self.precision = Choice.of(Precision, labels.PRECISION)
        self.errors.add(f, "precision", "Precision", self.precision)

    def inputs(self) -> list[QWidget]:
        return [self.preset, self.c_params, self.c_layers, self.c_hidden, self.c_heads,
                self.c_kv, self.c_vocab, self.c_ffn, self.c_gated, self.c_experts,
                self.c_experts_k, self.precision]  # fmt: skip

    def update_visibility(self) -> None:
        self.custom_box.setVisible(self.preset.get() == CUSTOM)
        preset = self.catalog.models.get(str(self.preset.get()))
        self.preset_info.setText(_preset_text(preset) if preset else "")
        self.preset_info.setVisible(preset is not None)

    def values(self) -> dict[str, Any]:
        if self.preset.get() == CUSTOM:
            billions = self.c_params.get()
            model: dict[str, Any] = {
                "custom": {
                    **self._custom_rest,
                    "parameters": billions * 1e9 if billions else None,
                    "layers": self.c_layers.value(),
                    "hidden_size": self.c_hidden.value(),
                    "heads": self.c_heads.value(),
                    "kv_heads": self.c_kv.get(),
                    "vocab_size": self.c_vocab.value(),
                    "ffn_hidden_size": self.c_ffn.get(),
                    "gated_mlp": self.c_gated.isChecked(),
                    "experts": self.c_experts.get(),
                    "experts_per_token": self.c_experts_k.get(),
                }
            }
        else:
            model = {"preset": self.preset.get()}
        return {"model": model, "precision": self.precision.get()}

    def load(self, g: dict[str, Any]) -> None:
        model = g.get("model") or {}
        self._custom_rest = {}
        if model.get("custom"):
            c = model["custom"]
            self.preset.put(CUSTOM)
            given = c.get("parameters")
            self.c_params.put(given / 1e9 if given else None)
            self.c_layers.setValue(c.get("layers", 32))
            self.c_hidden.setValue(c.get("hidden_size", 4096))
            self.c_heads.setValue(c.get("heads", 32))
            self.c_kv.put(c.get("kv_heads"))
            self.c_vocab.setValue(c.get("vocab_size", 32_000))
            self.c_ffn.put(c.get("ffn_hidden_size"))
            self.c_gated.setChecked(bool(c.get("gated_mlp", True)))
            self.c_experts.put(c.get("experts"))
            self.c_experts_k.put(c.get("experts_per_token"))
            edited = {"parameters", "layers", "hidden_size", "heads", "kv_heads", "vocab_size",
                      "ffn_hidden_size", "gated_mlp", "experts", "experts_per_token"}  # fmt: skip
            self._custom_rest = {k: v for k, v in c.items() if k not in edited}
        elif model.get("preset"):
            self.preset.put(model["preset"])
        self.precision.put(Precision(g.get("precision", "bf16")))


class TrainingSection(QGroupBox):
    """Batch, sequence, recomputation, fine-tuning method, dataset, epochs and target time."""

    def __init__(self, errors: FormErrors) -> None:
        super().__init__("Training")
        self.errors = errors
        f = self.train_form = form_of(self)
        self.optimizer = Choice.of(Optimizer, labels.OPTIMIZER)
        self.micro_batch = int_spin(1, 1_000_000, 1)
        self.global_batch = OptionalSpin(1, 100_000_000, "micro-batch × data-parallel copies")
        self.seq_len = int_spin(1, 10_000_000, 2048)
        self.recompute = Choice(
            [("choose for me", None)] + [(labels.RECOMPUTE[r], r) for r in Recompute]
        )
        self.stack = Choice(
            [("choose for me", None)] + [(labels.TRAINING_STACK[t], t) for t in TrainingStack]
        )
        # the editor's column is narrow on a small screen: a short name, the whole one as the
        # item's tooltip (the proposal prints the whole one)
        self.attention = Choice.of(AttentionKernel, labels.ATTENTION_BRIEF)
        self.ft_method = Choice.of(FineTuningMethod, labels.FINE_TUNING_BRIEF)
        for combo, whole in ((self.attention, labels.ATTENTION),
                             (self.ft_method, labels.FINE_TUNING)):  # fmt: skip
            for value, text in whole.items():
                combo.set_reason(value, None, text)
        self.pure_bf16 = QCheckBox("Pure BF16 (no FP32 master weights)")
        self.compiled = QCheckBox("Compiled with torch.compile")
        self.chunked_loss = Choice([(labels.CHUNKED_LOSS[v], v) for v in (None, True, False)])
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
        self.errors.add(f, "training_stack", "Training software", self.stack)
        self.errors.add(f, "attention", "Attention kernel", self.attention)
        self.errors.add(f, "pure_bf16", "Model states", self.pure_bf16)
        self.errors.add(f, "compiled", "Compilation", self.compiled)
        self.errors.add(f, "chunked_loss", "Loss over the vocabulary", self.chunked_loss)
        self.errors.add(
            f, "training", "Dataset size", self.dataset_kind, self.dataset_value, term="dataset"
        )
        self.errors.add(f, "training.epochs", "Epochs", self.epochs, term="epoch")
        self.errors.add(f, "training.target_hours", "Target time to train", self.target_hours)

    def inputs(self) -> list[QWidget]:
        return [self.optimizer, self.micro_batch, self.global_batch, self.seq_len,
                self.recompute, self.stack, self.attention, self.pure_bf16, self.compiled,
                self.chunked_loss,
                self.ft_method, self.lora_rank,
                self.lora_targets,
                self.dataset_kind, self.dataset_value, self.epochs, self.target_hours]  # fmt: skip

    def update_visibility(self, kind: object) -> None:
        tuning = kind is WorkloadKind.FINE_TUNING
        adapters = tuning and self.ft_method.get() is not FineTuningMethod.FULL
        for row, show in ((self.ft_row, tuning), (self.rank_row, adapters),
                          (self.targets_row, adapters)):  # fmt: skip
            row.setVisible(show)
            self.train_form.labelForField(row).setVisible(show)
        self.dataset_value.setEnabled(self.dataset_kind.get() is not None)

    def values(self, kind: object) -> dict[str, Any]:
        out: dict[str, Any] = {
            "optimizer": self.optimizer.get(),
            "micro_batch_size": self.micro_batch.value(),
            "global_batch_size": self.global_batch.get(),
            "sequence_length": self.seq_len.value(),
            "recompute": self.recompute.get(),
            "training_stack": self.stack.get(),
            "attention": self.attention.get(),
            "pure_bf16": self.pure_bf16.isChecked(),
            "compiled": self.compiled.isChecked(),
            "chunked_loss": self.chunked_loss.get(),
        }
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
        return out

    def load(self, g: dict[str, Any]) -> None:
        self.optimizer.put(Optimizer(g.get("optimizer", "adamw")))
        self.micro_batch.setValue(g.get("micro_batch_size", 1))
        self.global_batch.put(g.get("global_batch_size"))
        self.seq_len.setValue(g.get("sequence_length", 2048))
        rc = g.get("recompute")
        self.recompute.put(Recompute(rc) if rc else None)
        stack = g.get("training_stack")
        self.stack.put(TrainingStack(stack) if stack else None)
        self.attention.put(AttentionKernel(g.get("attention", "fused")))
        self.pure_bf16.setChecked(bool(g.get("pure_bf16")))
        self.compiled.setChecked(bool(g.get("compiled")))
        self.chunked_loss.put(g.get("chunked_loss"))
        ft = g.get("fine_tuning") or {}
        self.ft_method.put(FineTuningMethod(ft.get("method", "full")))
        self.lora_rank.setValue(ft.get("lora_rank", 16))
        self.lora_targets.put(LoraTargets(ft.get("lora_targets", "attention-mlp")))
        tr = g.get("training") or {}
        self.dataset_kind.put(None)
        for key in ("dataset_samples", "dataset_tokens", "iterations_per_epoch"):
            if tr.get(key):
                self.dataset_kind.put(key)
                self.dataset_value.setValue(tr[key])
                break
        self.epochs.setValue(tr.get("epochs", 1))
        self.target_hours.put(tr.get("target_hours"))


class ParallelSection(QGroupBox):
    """Degrees of parallelism; ZeRO and data parallelism only for training."""

    def __init__(self, errors: FormErrors) -> None:
        super().__init__("Parallelism")
        self.errors = errors
        f = self.par_form = form_of(self)
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
        self.vp = OptionalSpin(1, 64, "1 (not interleaved)")
        self.sp = QCheckBox("Sequence parallel")
        self.sp.setChecked(True)
        self.sp.setToolTip(tip("sequence_parallel"))
        self.zero_row = self.errors.add(f, "parallelism.zero_stage", "ZeRO stage", self.zero)
        self.dp_row = self.errors.add(f, "parallelism.data_parallel", "Data parallel", self.dp)
        self.errors.add(f, "parallelism.tensor_parallel", "Tensor parallel", self.tp, self.sp)
        self.errors.add(f, "parallelism.pipeline_parallel", "Pipeline parallel", self.pp)
        self.vp_row = self.errors.add(
            f, "parallelism.virtual_pipeline_stages", "Interleaved stages", self.vp,
            term="virtual_pipeline_stages",
        )  # fmt: skip

    def inputs(self) -> list[QWidget]:
        return [self.zero, self.dp, self.tp, self.pp, self.vp, self.sp]

    def update_visibility(self, kind: object) -> None:
        training = kind in TRAINING_KINDS
        for row in (self.zero_row, self.dp_row, self.vp_row):
            row.setVisible(training)
            self.par_form.labelForField(row).setVisible(training)

    def values(self, kind: object) -> dict[str, Any]:
        par: dict[str, Any] = {
            "tensor_parallel": self.tp.get(),
            "pipeline_parallel": self.pp.get(),
            "sequence_parallel": self.sp.isChecked(),
        }
        if kind in TRAINING_KINDS:
            par["zero_stage"] = self.zero.get()
            par["data_parallel"] = self.dp.get()
            par["virtual_pipeline_stages"] = self.vp.get()
        return {"parallelism": par}

    def load(self, g: dict[str, Any]) -> None:
        par = g.get("parallelism") or {}
        self.zero.put(par.get("zero_stage"))
        self.dp.put(par.get("data_parallel"))
        self.tp.put(par.get("tensor_parallel"))
        self.pp.put(par.get("pipeline_parallel"))
        self.vp.put(par.get("virtual_pipeline_stages"))
        self.sp.setChecked(par.get("sequence_parallel") is not False)


class ServingSection(QGroupBox):
    """The requests a serving group answers, its load and its latency and throughput targets."""

    def __init__(self, errors: FormErrors) -> None:
        super().__init__("Serving")
        self.errors = errors
        f = form_of(self)
        self.tput_kind = Choice(
            [
                ("no target", None),
                ("requests per second", "target_requests_per_s"),
                ("generated tokens per second", "target_tokens_per_s"),
            ]
        )
        self.tput_value = double_spin(0.001, 1e12, 1, 100)
        # demand in people: who uses it, how many in the busiest hour, how often
        self.users = OptionalSpin(1, 100_000_000, "not given")
        self.active = double_spin(0.1, 100, 1, 10)
        self.active.setSuffix(" %")
        self.per_hour = double_spin(0.01, 100_000, 2, 6)
        self.people_note = QLabel("")
        self.people_note.setObjectName("muted")
        self.people_note.setWordWrap(True)
        self.in_flight = ""  # the live sizing's requests in flight, for the note
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
                ("FP8 for FP8 weights, else 16-bit", None),  # the engines' default
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
        self.errors.add(f, "inference.people.users", "People who use it", self.users)
        self.errors.add(
            f, "inference.people.active_share", "Active in the busiest hour", self.active
        )
        self.errors.add(
            f, "inference.people.requests_per_hour", "Requests per active person an hour",
            self.per_hour,
        )  # fmt: skip
        f.addRow(self.people_note)
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

    def inputs(self) -> list[QWidget]:
        return [self.tput_kind, self.tput_value, self.users, self.active, self.per_hour,
                self.input_tokens, self.output_tokens, self.context, self.concurrent, self.ttft,
                self.latency, self.kv_precision]  # fmt: skip

    def update_visibility(self) -> None:
        self.tput_value.setEnabled(self.tput_kind.get() is not None)
        users = self.users.get()
        self.active.setEnabled(users is not None)
        self.per_hour.setEnabled(users is not None)
        self.people_note.setVisible(users is not None)
        if users is not None:
            per_hour = self.per_hour.value()
            rate = PeopleDemand(users=users, active_share=self.active.value() / 100,
                                requests_per_hour=per_hour).requests_per_s  # fmt: skip
            self.people_note.setText(
                f"{users:,} people × {self.active.value():g} % active × {per_hour:g} requests "
                f"an hour ÷ 3,600 seconds = {num(rate)} requests a second. "
                + (
                    self.in_flight
                    or "The requests in flight follow from how long each takes (Little's law), "
                    "as for a throughput target."
                )
                + " The larger of this and a stated target is planned for."
            )

    def show_sized(self, serving: ServingResult | None) -> None:
        """The requests in flight the live sizing derived from the demand, as a number."""
        self.in_flight = ""
        if serving is not None and serving.requests_in_flight is not None:
            s = serving
            seconds = (s.ttft_ms + s.output_tokens * s.itl_ms) / 1000
            self.in_flight = (
                f"Each request takes {num(seconds)} s as planned (first token, then "
                f"{s.output_tokens:,} tokens), so by Little's law the service holds "
                f"{num(s.requests_in_flight)} requests in flight on average."
            )
        self.update_visibility()

    def values(self) -> dict[str, Any]:
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
        users = self.users.get()
        inference["people"] = (
            {"users": users, "active_share": self.active.value() / 100,
             "requests_per_hour": self.per_hour.value()}
            if users is not None
            else None
        )  # fmt: skip
        return {"inference": inference}

    def load(self, g: dict[str, Any]) -> None:
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
        people = inf.get("people") or {}
        self.users.put(people.get("users"))
        self.active.setValue(100 * people.get("active_share", 0.1))
        self.per_hour.setValue(people.get("requests_per_hour", 6))


class SharedSection(QGroupBox):
    """What one development or HPC user or job needs, and how many are active at once."""

    def __init__(self, errors: FormErrors) -> None:
        super().__init__("Per user or job")
        self.errors = errors
        f = form_of(self)
        self.need_kind = Choice(
            [
                ("whole GPUs", None),
                ("GPU memory (GB)", "gpu_memory_gb"),
                ("share of one GPU", "gpu_fraction"),
            ]
        )
        self.need_value = double_spin(0.01, 100_000, 2, NOTEBOOK_GB)
        self.gpus_per_job = int_spin(1, 4096, 1)
        # the model's share runs from 0.001 (0.1 %) to 1: one decimal shows each such share
        self.concurrency = double_spin(0.1, 100, 1, 100)
        self.concurrency.setSuffix(" %")
        self.errors.add(f, "shared", "Need", self.need_kind, self.need_value, term="shared_need")
        self.errors.add(f, "shared.gpus_per_job", "Whole GPUs each", self.gpus_per_job)
        self.errors.add(f, "shared.concurrency", "Active at once", self.concurrency)

    def inputs(self) -> list[QWidget]:
        return [self.need_kind, self.need_value, self.gpus_per_job, self.concurrency]

    def update_visibility(self) -> None:
        need = self.need_kind.get()
        self.need_value.setEnabled(need is not None)
        self.need_value.setSuffix(" GB" if need == "gpu_memory_gb" else "")
        if need == "gpu_fraction":
            self.need_value.setRange(0.01, 1)
        else:
            self.need_value.setRange(0.01, 100_000)

    def values(self) -> dict[str, Any]:
        shared: dict[str, Any] = {
            "gpus_per_job": self.gpus_per_job.value(),
            "concurrency": self.concurrency.value() / 100,
        }
        if self.need_kind.get():
            shared[str(self.need_kind.get())] = self.need_value.value()
        return {"shared": shared}

    def load(self, g: dict[str, Any]) -> None:
        sh = g.get("shared") or {}
        self.need_kind.put(None)
        # a group without a need starts a need chosen later afresh, not at the last group's
        self.need_value.setValue(NOTEBOOK_GB)
        for key in ("gpu_memory_gb", "gpu_fraction"):
            if sh.get(key):
                self.need_kind.put(key)
                self.update_visibility()
                self.need_value.setValue(sh[key])
                break
        self.gpus_per_job.setValue(sh.get("gpus_per_job", 1))
        self.concurrency.setValue(round(sh.get("concurrency", 1.0) * 100, 1))


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
