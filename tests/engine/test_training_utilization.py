"""The training utilization a group is timed at (``sizer.model_utilization``): the design's
achievable share of peak (the 0.5 default, stated and editable), scaled only by what a preset
measured against transformers. ResNet-50's NVIDIA DeepLearningExamples figure: 2,470 img/s on
one A100 x 3 passes x 8.18 GFLOPs / 312 TFLOPS = 0.194 of peak = 0.39 x 0.5."""

from __future__ import annotations

import pytest

from wizard.app.io import design_from_dict
from wizard.engine.demand.sizer import model_utilization

HARDWARE = {"gpu": "h100-sxm5-80gb", "server": "dell-xe9680", "gpus_per_host": 8}


def design(utilization: float | None = None):
    doc: dict = {"workloads": [], "hardware": HARDWARE}
    if utilization is not None:
        doc["assumptions"] = {"achievable_utilization": utilization}
    return design_from_dict(doc).assumptions


def preset(catalog, name: str):
    return catalog.models[name]


def test_without_a_preset_the_design_utilization_holds(catalog):
    """A custom model: the design's 0.5, or the 0.4 the design states."""
    assert model_utilization(design(), None)[0] == 0.5
    assert model_utilization(design(0.4), None)[0] == 0.4


def test_a_preset_without_a_measurement_keeps_the_design_utilization(catalog):
    """Llama 3 8B carries no relative utilization: the transformer default stands."""
    llama = preset(catalog, "llama-3-8b")
    assert not llama.relative_utilization
    assert model_utilization(design(), llama)[0] == 0.5


def test_a_cnn_preset_scales_it_by_its_measurement(catalog):
    """ResNet-50: 0.5 x 0.39 = 0.195; at a stated 0.4, 0.4 x 0.39 = 0.156."""
    resnet = preset(catalog, "resnet-50")
    assert model_utilization(design(), resnet)[0] == pytest.approx(0.195)
    assert model_utilization(design(0.4), resnet)[0] == pytest.approx(0.156)


def test_the_scaled_utilization_cites_the_measurement(catalog):
    """The figure's source is the measurement it was scaled by (DeepLearningExamples), not the
    paper the model comes from; a preset that states no measurement's source cites its own."""
    resnet = preset(catalog, "resnet-50")
    source = model_utilization(design(), resnet)[1]
    assert "DeepLearningExamples" in source and "He et al." not in source
    bare = resnet.model_copy(update={"relative_utilization_source": None})
    assert model_utilization(design(), bare)[1] == resnet.source
