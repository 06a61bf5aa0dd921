"""Checkpoints and model files a group keeps are known only from its model: a group sized by
its GPU count names none, so its figures are not known (None), never 0, and the totals add the
known ones and name the rest, as for datasets and read rates. A known 0 stays 0: serving writes
no checkpoints, training from scratch reads no model files, notebooks and HPC jobs keep neither
in the plan.

The enterprise example: 'High-performance researchers' (4 GPUs each) and 'Distributed ML
workers' (1 GPU each) are training groups sized by GPU count; its development and HPC groups are
too, but keep nothing the plan counts."""

from __future__ import annotations

from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict
from wizard.engine.basis.expr import evaluate
from wizard.engine.size import size

COUNTED = ["High-performance researchers", "Distributed ML workers"]


def test_training_sized_by_gpu_count_has_checkpoints_not_known(catalog):
    r = size(design_from_dict(design_dict("enterprise")), catalog)
    s = r.storage
    needs = {n.workload: n for n in s.needs}
    for name in COUNTED:
        n = needs[name]
        assert (n.checkpoint_gb, n.checkpoints_gb, n.model_files_gb) == (None, None, 0.0), name
    for name in ("Data scientists", "HPC users", "Developers"):
        n = needs[name]
        assert (n.checkpoints_gb, n.model_files_gb) == (0.0, 0.0), name
    assert s.checkpoints_not_known == COUNTED
    assert s.model_files_not_known == []
    assert s.kept_not_known == COUNTED
    # each group once, whether its dataset, its checkpoints or both are not known
    assert s.capacity_not_known == list(dict.fromkeys([*s.dataset_not_known, *COUNTED]))
    assert len(set(s.capacity_not_known)) == len(s.capacity_not_known)
    assert "storage-kept-not-known" in {w.code for w in r.warnings}


def test_a_service_sized_by_gpu_count_has_its_model_files_not_known(catalog):
    """llm-serving with its service sized by 8 GPUs a member instead of its model: no model
    files are known for it, and the total leaves it out (0 GB known, the group named)."""
    doc = design_dict("llm-serving")
    for w in doc["workloads"]:
        w["gpus_per_member"] = 8
    r = size(design_from_dict(doc), catalog)
    s = r.storage
    names = [w["name"] for w in doc["workloads"]]
    assert [n.model_files_gb for n in s.needs] == [None] * len(names)
    assert [n.checkpoints_gb for n in s.needs] == [0.0] * len(names)  # serving writes none
    assert s.model_files_not_known == s.kept_not_known == names
    assert s.checkpoints_not_known == []
    assert s.model_files_gb == 0.0


def test_the_capacity_adds_the_known_checkpoints_and_says_what_it_leaves_out(catalog):
    """With a dataset of 1,000 GB given, the logged capacity is (datasets + known checkpoints +
    known model files) x (1 + headroom) / 1000, its formula giving its value, and its source
    names the groups whose checkpoints it leaves out."""
    doc = design_dict("enterprise")
    doc.setdefault("data", {})["dataset_gb"] = 1000
    r = size(design_from_dict(doc), catalog)
    (calc,) = [c for c in r.calculations if c.id == "storage.capacity_needed_tb"]
    assert evaluate(calc.formula, calc.inputs) == r.storage.capacity_needed_tb
    known = sum(n.checkpoints_gb for n in r.storage.needs if n.checkpoints_gb is not None)
    assert calc.inputs["checkpoints_gb"] == known == r.storage.checkpoints_gb
    assert "checkpoints or model files are not known for" in calc.source
    for name in COUNTED:
        assert name in calc.source
