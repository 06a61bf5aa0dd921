"""Which NVIDIA AI Enterprise release a design runs: the one it names, else the newest that
supports its GPU. Releases are written here, not read from the shipped catalog, so each rule is
tested on its own."""

from __future__ import annotations

import pytest

from tests.engine.conftest import design_dict
from wizard.engine.compat import check_design
from wizard.engine.software import release_choice
from wizard.io import design_from_dict
from wizard.model.catalog import SoftwareRelease


def _release(rid: str, branch: int, archs: list[str]) -> SoftwareRelease:
    return SoftwareRelease(
        id=rid,
        name=f"Release {rid}",
        release=f"{branch}.0",
        vgpu_branch=branch,
        driver_branch="R550",
        gpu_architectures=archs,
        source="written in the test",
    )


# "Support for Volta ... is removed" in a newer release: the older one keeps it.
OLD = _release("old", 17, ["Volta", "Ampere", "Hopper"])
NEW = _release("new", 20, ["Ampere", "Hopper", "Blackwell"])
UNSTATED = _release("unstated", 21, [])


def _catalog(catalog, *releases):
    return catalog.model_copy(update={"software": {r.id: r for r in releases}})


@pytest.mark.parametrize(
    ("example", "expected", "why"),
    [
        ("enterprise", "old", "Volta"),  # V100: the newest release that still lists Volta
        ("llm-serving", "new", "Hopper"),  # H100: the newest release of all
    ],
)
def test_the_newest_release_that_supports_the_gpu(catalog, example, expected, why):
    design = design_from_dict(design_dict(example))
    release, reason = release_choice(design, _catalog(catalog, OLD, NEW))
    assert release is not None and release.id == expected
    assert why in reason


def test_a_release_that_lists_the_gpu_beats_a_newer_one_that_does_not_say(catalog):
    design = design_from_dict(design_dict("llm-serving"))
    release, _ = release_choice(design, _catalog(catalog, OLD, NEW, UNSTATED))
    assert release is not None and release.id == "new"
    design = design_from_dict(design_dict("enterprise"))
    release, reason = release_choice(design, _catalog(catalog, NEW, UNSTATED))
    assert release is not None and release.id == "unstated"
    assert "check that it supports" in reason


def test_a_named_release_is_kept_but_refused_when_it_drops_the_gpu(catalog):
    doc = design_dict("enterprise")  # V100
    doc.setdefault("platform", {})["nvaie_release"] = "new"
    design = design_from_dict(doc)
    cat = _catalog(catalog, OLD, NEW)
    assert release_choice(design, cat)[0] is NEW
    problems = [p for p in check_design(design, cat) if p.field == "platform.nvaie_release"]
    assert len(problems) == 1
    assert "does not support Volta GPUs" in problems[0].message
    assert "choose Release old" in problems[0].message


def test_a_named_release_that_supports_the_gpu_is_no_problem(catalog):
    doc = design_dict("enterprise")
    doc.setdefault("platform", {})["nvaie_release"] = "old"
    design = design_from_dict(doc)
    assert not [
        p
        for p in check_design(design, _catalog(catalog, OLD, NEW))
        if p.field == "platform.nvaie_release"
    ]
