"""The plan names what a training group's memory is counted as (the software, its attention
kernel, the stated choices) for a transformer, and names none for a network it counts from a
preset's measured figures."""

from __future__ import annotations

import json

from wizard.app.io import design_from_dict
from wizard.base.bundled import example_text
from wizard.engine.size import size


def _layout(example: str, catalog, **changes):
    doc = json.loads(example_text(example))
    doc["workloads"][0].update(changes)
    return size(design_from_dict(doc), catalog).workloads[0].layout


def test_a_transformer_names_its_software_kernel_and_choices(catalog):
    # bert-large-25gbe states no stack: a pre-training group defaults to Megatron-Core
    lay = _layout("bert-large-25gbe", catalog)
    assert lay.memory_basis == (
        "Megatron-Core, with fused attention (FlashAttention, PyTorch's fused kernels)"
    )
    lay = _layout("bert-large-25gbe", catalog, attention="eager", training_stack="pytorch-fsdp",
                  compiled=True)  # fmt: skip
    assert lay.memory_basis == (
        "PyTorch FSDP, compiled with torch.compile, with eager attention (score matrices kept)"
    )
    assert "memory as PyTorch FSDP keeps it, compiled with torch.compile" in lay.reason


def test_a_cnn_names_no_software_or_attention(catalog):
    lay = _layout("imagenet-resnet50", catalog)
    assert lay.memory_basis is None
    assert "attention" not in lay.reason and "keeps it" not in lay.reason
