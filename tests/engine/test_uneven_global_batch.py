"""A global batch that does not divide over the data-parallel copies: a copy runs whole
micro-batches, so the step counts the most any copy runs, and the plan says so under the field
(Megatron-Core's micro-batch calculator refuses such a batch outright)."""

from __future__ import annotations

import json

import pytest

from tests.engine.conftest import calc
from wizard.app.io import design_from_dict
from wizard.base.bundled import example_text
from wizard.engine.size import size


def _sized(global_batch: int, catalog, **changes):
    """bert-large-25gbe: micro-batch 8 on a stated 16 data-parallel copies."""
    doc = json.loads(example_text("bert-large-25gbe"))
    group = doc["workloads"][0]
    assert group["micro_batch_size"] == 8 and group["parallelism"]["data_parallel"] == 16
    group["global_batch_size"] = global_batch
    group.update(changes)
    return size(design_from_dict(doc), catalog)


def test_a_batch_that_does_not_divide_counts_the_fullest_copy(catalog):
    # 392 sequences over 16 copies of 8: 392 / 128 = 3.06, so some copy runs 4 micro-batches
    r = _sized(392, catalog)
    assert calc(r, "workloads[0].micro_batches").value == 4
    said = [w for w in r.warnings if w.code == "global-batch-uneven"]
    assert len(said) == 1
    assert said[0].field == "workloads[0].global_batch_size"
    assert "Global batch size 392" in said[0].message and "up to 4 micro-batches" in said[0].message
    # the step waits for the fullest copy: 4 x 8 x 16 = 512 sequences' compute, not 392's
    even = calc(r, "workloads[0].compute_seconds_even_split").value
    fullest = calc(r, "workloads[0].compute_seconds_per_iteration").value
    assert fullest == pytest.approx(even * 512 / 392, rel=1e-12)
    # bert-large-25gbe trains under Megatron-Core (pre-training's default stack), which
    # refuses such a batch outright
    assert "Megatron-Core refuses" in said[0].message


def test_a_batch_that_divides_is_not_flagged(catalog):
    # 384 = 3 x 8 x 16: three micro-batches each, nothing to say
    r = _sized(384, catalog)
    assert calc(r, "workloads[0].micro_batches").value == 3
    assert not [w for w in r.warnings if w.code == "global-batch-uneven"]
    assert not [c for c in r.calculations if c.id.endswith("compute_seconds_even_split")]


def test_only_megatron_core_is_said_to_refuse_an_uneven_batch(catalog):
    # PyTorch's distributed sampler pads the last share instead: the caution stays, the
    # refusal does not
    r = _sized(392, catalog, training_stack="pytorch-fsdp")
    said = [w for w in r.warnings if w.code == "global-batch-uneven"]
    assert len(said) == 1 and "Megatron-Core" not in said[0].message
