"""Designs that cannot be satisfied get a clear warning or error, never an exception."""

import pytest

from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict
from wizard.base.errors import DesignError
from wizard.engine.size import size


def _size(doc, catalog):
    return size(design_from_dict(doc), catalog)


def test_model_too_big_for_any_layout_is_an_error_warning(catalog):
    doc = design_dict("gpt3-175b")
    doc["hardware"].update(gpu="t4", server="dell-r740xd", gpus_per_host=4, nvlink=False,
                           gpudirect_rdma=False, nic="cx5-25g-2p", fabric="25gbe", rdma="none")  # fmt: skip
    doc["workloads"][0]["model"] = {"custom": {"parameters": 1e14, "layers": 4, "hidden_size": 4096,
                                               "heads": 32}}  # fmt: skip
    r = _size(doc, catalog)
    assert any(w.code == "model-does-not-fit" and w.severity == "error" for w in r.warnings)


def test_impossible_target_time_warns(catalog):
    doc = design_dict("bert-large-25gbe")
    doc["workloads"][0]["training"]["target_hours"] = 0.05
    doc["workloads"][0]["parallelism"] = {}
    doc["workloads"][0]["training"]["iterations_per_epoch"] = 30000
    r = _size(doc, catalog)
    (w,) = r.workloads
    # With a fixed count of iterations each added replica adds its own samples: the time per
    # iteration does not fall, so no number of GPUs meets 3 minutes, and the engine says so
    # rather than planning a cluster that would not help.
    assert w.training.gpus_for_target_time is None
    assert any(x.code == "target-time-missed" for x in r.warnings)


def test_target_time_beyond_one_design_is_refused_naming_it(catalog):
    """BERT-Large in FP32 over 1e12 tokens in 3.6 seconds: 6 x 340e6 x 1e12 FLOPs at 0.5 of an
    A100 PCIe's 19.5 TFLOPS need about 58 million GPUs, more than one design holds, so the
    target is named rather than a cluster of that size built."""
    doc = design_dict("bert-large-25gbe")
    training = doc["workloads"][0]["training"]
    training.pop("iterations_per_epoch")
    training.update(dataset_tokens=1e12, epochs=1, target_hours=0.001)
    doc["workloads"][0]["parallelism"] = {}
    with pytest.raises(DesignError) as info:
        _size(doc, catalog)
    (line,) = info.value.problems
    assert line.startswith("workloads[0].training.target_hours: ")
    asked = int(line.split(" GPU allocation")[0].rsplit(" ", 1)[-1].replace(",", ""))
    assert asked > 6 * 340e6 * 1e12 / (3.6 * 19.5e12 * 0.5) and "65,536" in line


def test_hardware_that_cannot_host_the_gpu_is_a_design_error(catalog):
    doc = design_dict("starter")
    doc["hardware"]["gpu"] = "h100-sxm5-80gb"
    with pytest.raises(DesignError) as info:
        _size(doc, catalog)
    assert "hardware.server" in info.value.problems[0]


def test_communication_bound_training_warns(catalog):
    doc = design_dict("bert-large-25gbe")
    doc["hardware"]["fabric"] = "10gbe"
    doc["assumptions"] = {"achievable_utilization": 0.9}
    r = _size(doc, catalog)
    assert any(x.code == "communication-bound" for x in r.warnings)


def test_n_plus_0_warns_capacity_after_failure(sized):
    assert any(
        w.code == "capacity-below-demand-after-failure" for w in sized["bert-large-25gbe"].warnings
    )


def test_zero_members_is_not_an_error(catalog):
    doc = design_dict("enterprise")
    for g in doc["workloads"]:
        g["count"] = 0
    r = _size(doc, catalog)
    assert r.cluster.gpus_demand == 0 and r.cluster.hosts_for_capacity == 0


def test_a_thousand_groups_give_messages_that_fit_a_page(catalog):
    """The schema allows 1,000 groups; a warning naming every one of them overflowed the
    proposal's table cell. Lists of names stop after a few and say how many more."""
    from wizard.base.numbers import some

    assert some([f"g{i}" for i in range(3)]) == "g0, g1, g2"
    assert some([f"g{i}" for i in range(20)]) == "g0, g1, g2, g3, g4, g5, g6, g7 and 12 more"
    doc = design_dict("starter")
    group = doc["workloads"][0]
    doc["workloads"] = [{**group, "name": f"Group {i:04d}", "count": 1} for i in range(1000)]
    r = _size(doc, catalog)
    assert max(len(w.message) for w in r.warnings) < 1500
    assert max(len(d.text) + len(d.reason) for d in r.decisions) < 1500
