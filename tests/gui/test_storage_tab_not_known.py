"""The Review's Storage tab says "not known" for a need nobody gave, never 0: the starter's two
development groups have no dataset size and no read rate, so the capacity and read lines name
them and their rows say "not known" where the tab printed 0.0 GB and 0.00 GB/s. Negative case:
ImageNet on ResNet-50 derives both (1.28 M images x 110 kB = 140.8 GB a version, 2 kept =
281.6 GB), so its figures stand plainly."""

from __future__ import annotations

from tests.gui.test_review_one_shape import _review
from wizard.base.bundled import example_text


def _summary(view) -> dict[str, str]:
    t = view.summary
    return {t.item(r, 0).text(): t.item(r, 1).text() for r in range(t.rowCount())}


def _rows(view) -> list[list[str]]:
    t = view.needs
    return [[t.item(r, c).text() for c in range(t.columnCount())] for r in range(t.rowCount())]


def test_starter_storage_tab_says_not_known(qtbot, window, tmp_path):
    page = _review(window, tmp_path, "starter.json", example_text("starter"))
    got = _summary(page.storage)
    both = "not known for Data scientists, Developers"
    assert got["Capacity needed (with headroom)"] == both
    assert got["Datasets (all versions)"] == both
    assert got["Read throughput needed"] == both
    assert got["Busiest host's read"] == both
    assert got["Nodes for capacity / for throughput"] == "not known / not known"
    for row in _rows(page.storage):
        assert row[1] == "not known" and row[4] == "not known", row
        assert "data.dataset_gb" not in row[5] and "Dataset size on the Hardware page" in row[5]
    assert not [v for v in got.values() if v.startswith("0.00 GB/s")]


def test_imagenet_storage_tab_states_its_figures(qtbot, window, tmp_path):
    page = _review(window, tmp_path, "imagenet.json", example_text("imagenet-resnet50"))
    got = _summary(page.storage)
    assert got["Datasets (all versions)"] == "281.6 GB"
    assert not [v for v in got.values() if "not known" in v]
    assert [r[1] for r in _rows(page.storage)] == ["140.8 GB"]
