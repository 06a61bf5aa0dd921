"""The workload editor against the design model it edits.

Every whole-number input accepts exactly the range the design model (pydantic Field ge/le in
wizard/model/workloads.py) accepts, its lowest real value included, so nothing typed is refused
that a design file may hold and nothing accepted is refused later by the model. The starting
answers are the model's own defaults, and a custom model starts as Llama 2 7B's shape
(meta-llama/Llama-2-7b-hf config.json: num_hidden_layers 32, hidden_size 4096,
num_attention_heads 32, vocab_size 32000).
"""

from __future__ import annotations

import typing
from types import SimpleNamespace

import annotated_types as at
import pytest
from pydantic import BaseModel
from PySide6.QtWidgets import QSpinBox

from wizard.model.workloads import CustomModel, Inference, SharedUse, WorkloadGroup, WorkloadKind

LLAMA2_7B = {"layers": 32, "hidden_size": 4096, "heads": 32, "vocab_size": 32_000}


@pytest.fixture
def editor(qtbot, catalog):
    from wizard.gui.widgets.workload_editor import WorkloadEditor

    w = WorkloadEditor(catalog)
    qtbot.addWidget(w)
    return w


def _models_in(annotation) -> list[type[BaseModel]]:
    out: list[type[BaseModel]] = []
    for a in typing.get_args(annotation) or (annotation,):
        if isinstance(a, type) and issubclass(a, BaseModel):
            out.append(a)
        elif typing.get_args(a):
            out += _models_in(a)
    return out


def _field(path: str):
    """The model field a form row's path names (e.g. model.custom.layers), or None."""
    classes: list[type[BaseModel]] = [WorkloadGroup]
    info = None
    for seg in path.split("."):
        info = next((c.model_fields[seg] for c in classes if seg in c.model_fields), None)
        if info is None:
            return None
        classes = _models_in(info.annotation)
    return info


def _bounds(info) -> tuple[int | None, int | None]:
    low = next((m.ge for m in info.metadata if isinstance(m, at.Ge)), None)
    high = next((m.le for m in info.metadata if isinstance(m, at.Le)), None)
    return low, high


def test_every_whole_number_input_accepts_exactly_the_models_range(editor):
    """Walk every row of the editor whose input is a whole-number box: its lowest real value
    (an optional box's "not given" step lies one below) is the field's ge, its maximum the le."""
    checked = []
    for path, (label, row) in editor.errors.rows.items():
        spin = row.widget
        info = _field(path)
        if not isinstance(spin, QSpinBox) or info is None:
            continue
        low, high = _bounds(info)
        lowest = getattr(spin, "_low", spin.minimum())
        assert (lowest, spin.maximum()) == (low, high), f"{label} ({path})"
        checked.append(path)
    # the walk reached every section: the custom model, training, parallelism, serving, shared
    for path in ("model.custom.heads", "model.custom.layers", "sequence_length",
                 "parallelism.tensor_parallel", "inference.output_tokens",
                 "shared.gpus_per_job"):  # fmt: skip
        assert path in checked


def test_a_memory_need_accepts_up_to_the_models_bound_and_a_share_up_to_one_gpu(editor):
    """SharedUse.gpu_memory_gb: > 0 and <= 100,000 GB; at two decimals the smallest positive
    amount is 0.01. gpu_fraction is a share of one GPU: 0.01 to 1."""
    shared = editor.shared_box
    high = _bounds(SharedUse.model_fields["gpu_memory_gb"])[1]
    assert high == 100_000
    shared.need_kind.put("gpu_memory_gb")
    shared.update_visibility()
    nv = shared.need_value
    assert (nv.decimals(), nv.minimum(), nv.maximum()) == (2, 0.01, high)
    shared.need_kind.put("gpu_fraction")
    shared.update_visibility()
    assert (nv.minimum(), nv.maximum()) == (0.01, 1)


def test_a_new_editor_shows_the_models_own_defaults(editor):
    """A custom model starts as Llama 2 7B; a service as Inference's defaults (1,024 prompt and
    256 answer tokens, one request in flight); the vocabulary as CustomModel's default."""
    mb = editor.model_box
    shown = {"layers": mb.c_layers.value(), "hidden_size": mb.c_hidden.value(),
             "heads": mb.c_heads.value(), "vocab_size": mb.c_vocab.value()}  # fmt: skip
    assert shown == LLAMA2_7B
    assert CustomModel.model_fields["vocab_size"].default == LLAMA2_7B["vocab_size"]
    inf = editor.inf_box
    for widget, name in ((inf.input_tokens, "input_tokens"), (inf.output_tokens, "output_tokens"),
                         (inf.concurrent, "concurrent_sequences")):  # fmt: skip
        assert widget.value() == Inference.model_fields[name].default, name


def test_a_custom_model_draft_without_its_shape_shows_llama_2_7b(editor):
    """A draft that names only the parameters (a file saved unfinished) fills the shape it
    lacks with the same Llama 2 7B figures; a draft that gives its shape keeps it."""
    editor.load({"name": "draft", "kind": "training", "model": {"custom": {"parameters": 7e9}}})
    mb = editor.model_box
    assert (mb.c_layers.value(), mb.c_hidden.value(), mb.c_heads.value(),
            mb.c_vocab.value()) == (32, 4096, 32, 32_000)  # fmt: skip
    given = {"parameters": 1e9, "layers": 16, "hidden_size": 2048, "heads": 16,
             "vocab_size": 50_257}  # fmt: skip
    editor.load({"name": "draft", "kind": "training", "model": {"custom": given}})
    assert (mb.c_layers.value(), mb.c_heads.value(), mb.c_vocab.value()) == (16, 16, 50_257)


def test_the_share_of_users_active_at_once_round_trips_as_a_percentage(editor):
    """concurrency 0.25 in a design is shown as 25 % and read back as 0.25; 0.75 as 75 %, 0.99 as
    99 %, 1.0 as 100 %; the model's smallest share, 0.001, as 0.1 %, and 0.005 as 0.5 % (a
    whole-percent box showed and saved it as 1 %)."""
    shares = ((0.25, 25), (0.75, 75), (0.99, 99), (1.0, 100), (0.001, 0.1), (0.005, 0.5))
    for share, percent in shares:
        editor.load({"name": "n", "kind": "development", "shared": {"concurrency": share}})
        assert editor.shared_box.concurrency.value() == percent
        assert editor.shared_box.values()["shared"]["concurrency"] == pytest.approx(share)


def test_a_service_sized_by_known_gpus_asks_no_sizing_questions(editor):
    """Sized by a known GPU count, a group of any kind hides every sizing section; sized from
    its answers, a training group shows its model, training and parallelism sections."""
    for kind in WorkloadKind:
        editor.kind.put(kind)
        editor.by_count.setChecked(True)
        editor.update_visibility()
        shown = [s for s in editor.sections if not s.isHidden()]
        assert shown == [], kind
    editor.kind.put(WorkloadKind.TRAINING)
    editor.by_model.setChecked(True)
    editor.update_visibility()
    assert not editor.model_box.isHidden()
    assert not editor.train_box.isHidden()
    assert not editor.par_box.isHidden()
    assert editor.inf_box.isHidden() and editor.shared_box.isHidden()


def test_a_group_turned_into_notebooks_starts_with_16_gb_each(editor):
    """NVIDIA's common data-science vGPU profiles are 16 GB (L40S-16Q/C, A16-16Q): a training
    group switched to notebooks asks for 16 GB of GPU memory per user, not whole GPUs; switched
    to HPC instead it keeps whole GPUs."""
    editor.load({"name": "g", "kind": "training"})
    editor.kind.put(WorkloadKind.DEVELOPMENT)
    assert editor.shared_box.need_kind.get() == "gpu_memory_gb"
    assert editor.shared_box.need_value.value() == 16
    editor.load({"name": "g", "kind": "training"})
    editor.kind.put(WorkloadKind.HPC)
    assert editor.shared_box.need_kind.get() is None


def test_the_in_flight_note_says_the_seconds_each_request_takes(editor):
    """Little's law: a request takes the first token then every further token, here
    (200 ms + 256 x 20 ms) / 1000 = 5,320 / 1000 = 5.32 s."""
    sized = SimpleNamespace(ttft_ms=200.0, output_tokens=256, itl_ms=20.0, requests_in_flight=53.2)
    editor.inf_box.show_sized(sized)
    assert "takes 5.32 s" in editor.inf_box.in_flight
    editor.inf_box.show_sized(None)
    assert editor.inf_box.in_flight == ""


def test_a_draft_without_a_count_shows_the_models_default_count(editor):
    """A group saved unfinished without its count opens with the design model's default
    (WorkloadGroup.count: 1), after a group of 12 was shown, so nothing is carried over."""
    editor.load({"name": "twelve", "kind": "training", "count": 12})
    assert editor.count.value() == 12
    editor.load({"name": "draft", "kind": "training"})
    assert editor.count.value() == WorkloadGroup.model_fields["count"].default == 1


def test_a_need_chosen_afresh_starts_at_16_gb_not_the_last_groups(editor):
    """A group of 24 GB each, then a group without a stated need: choosing a GPU-memory need for
    the second starts at 16 GB (NVIDIA's common data-science profile size, L40S-16Q/C, A16-16Q),
    the same as a new notebook group, not at the first group's 24."""
    editor.load({"name": "a", "kind": "development", "shared": {"gpu_memory_gb": 24}})
    shared = editor.shared_box
    assert shared.need_value.value() == 24
    editor.load({"name": "b", "kind": "hpc", "shared": {"concurrency": 0.5}})
    shared.need_kind.put("gpu_memory_gb")
    shared.update_visibility()
    assert shared.need_value.value() == 16
