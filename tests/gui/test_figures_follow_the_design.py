"""Figures on the pages follow the design they show.

No group's sized figures are shown while a page holds an answer the design does not take yet
(they would be of a design the pages no longer show); a growth headroom stored as a share
(design.py: "0.25 = 25 %") is shown in percent on the hardware page.
"""

from __future__ import annotations

import json

from wizard.base.bundled import example_text
from wizard.gui.wizard import PageId


def _open(window, tmp_path, doc: dict) -> None:
    path = tmp_path / "design.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert window.open_path(path)
    window.live.refresh()


def test_no_group_figures_while_a_page_holds_an_answer_the_design_does_not_take(window, tmp_path):
    """The enterprise example sizes: every group has figures. Once a page holds an answer
    back, the same sized plan's figures are withheld, per group and per cluster; released
    again, they return."""
    doc = json.loads(example_text("enterprise"))
    _open(window, tmp_path, doc)
    live = window.live
    names = {g["name"] for g in doc["workloads"]}
    assert live.plan is not None and set(live.workload_results()) == names
    live.held_back = lambda: ["Workloads: a group name is missing"]
    live.pages_changed()
    assert live.plan is not None  # the plan is still there; its figures may not be shown
    assert live.workload_results() == {}
    live.held_back = list
    live.pages_changed()
    assert set(live.workload_results()) == names


def test_the_growth_headroom_share_is_shown_in_percent(window, tmp_path):
    """growth_headroom 0.4 is 0.4 x 100 = 40 %; 1.5 is 150 %; 0 is 0 %. Shown, it is not
    changed: the design still holds the share it was opened with."""
    for share, percent in ((0.4, 40), (1.5, 150), (0.0, 0)):
        doc = json.loads(example_text("enterprise"))
        doc["data"] = {"growth_headroom": share}
        _open(window, tmp_path, doc)
        window.wizard.go_to(PageId.HARDWARE)
        page = window.wizard.page_of(PageId.HARDWARE)
        assert page.headroom.value() == percent
        assert window.doc.get("data").growth_headroom == share
