"""Figures only from a plan that sized: when the sizing fails (no layout holds the model) or a
page holds an answer the design cannot take (no server chosen), every card, table and the
status bar shows the reason instead of the last figures."""

from __future__ import annotations

import json
import re

from wizard.base.bundled import example_text
from wizard.base.numbers import MISSING
from wizard.gui.wizard import PageId

# a figure as the window prints one: "3 hosts", "24 GPUs", "30.5", "282 GB"
_FIGURE = re.compile(r"\d")


def _open(window, tmp_path, **group: object):
    d = json.loads(example_text("llm-serving"))
    d["workloads"][0].update(group)
    path = tmp_path / "design.json"
    path.write_text(json.dumps(d), encoding="utf-8")
    assert window.open_path(path)
    window.live.refresh()


def _review(window):
    window.wizard.make(PageId.REVIEW)
    review = window.wizard.page_of(PageId.REVIEW)
    review.tabs.setCurrentIndex(review.calcs_tab)  # the calculation log fills while shown
    review.show_result()
    return review


def _figures_on_screen(review) -> list[str]:
    """Every sized figure the Review's cards and tables still show."""
    out = [c.value.text() for c in review.cards.cards.values() if c.value.text() != MISSING]
    if review.calcs.rowCount():
        out.append("calculations")
    for t in (review.workloads, review.serving, review.placement, review.calcs):
        out += [
            t.item(r, c).text()
            for r in range(t.rowCount())
            for c in range(t.columnCount())
            if t.item(r, c) is not None and _FIGURE.search(t.item(r, c).text())
        ]
    return out


def test_a_sizing_with_no_layout_shows_the_reason_not_the_last_figures(qtbot, window, tmp_path):
    _open(window, tmp_path)
    review = _review(window)
    assert _figures_on_screen(review)  # the design sizes: its figures are there
    assert re.match(r"\d+ hosts · \d+ GPUs", window.status.text())
    # Llama 3 70B in BF16 is 141 GB of weights: one 80 GB GPU (tensor 1, pipeline 1) holds no
    # layout of it
    _open(window, tmp_path, parallelism={"tensor_parallel": 1, "pipeline_parallel": 1})
    review = _review(window)
    assert window.live.sized() and window.live.errors  # sized, but refused by the rule book
    assert _figures_on_screen(review) == []
    assert review.problem.isVisibleTo(review)
    assert review.problem.text().startswith("No figures until this is resolved:")
    assert window.status.text().startswith("No figures: ")
    assert "GPUs" not in window.status.text() and "hosts" not in window.status.text()
    # the Workloads table's GPU column shows none either
    assert window.wizard.go_to(PageId.WORKLOADS) or True
    page = window.wizard.make(PageId.WORKLOADS)
    page.load()
    assert page.table.item(0, 3).text() == MISSING


def test_no_server_chosen_shows_the_reason_in_the_review_and_the_status_bar(
    qtbot, window, tmp_path
):
    _open(window, tmp_path)
    hw = window.wizard.make(PageId.HARDWARE)
    hw.load()
    assert re.match(r"\d+ hosts · \d+ GPUs", window.status.text())
    hw.server.put(None)  # "Choose a server…"
    assert hw.problems()
    assert window.status.text().startswith("No figures: ")
    assert "GPUs ·" not in window.status.text()
    review = _review(window)
    assert _figures_on_screen(review) == []
    assert review.problem.text().startswith("No figures until this is resolved:")
    # choosing a server again brings the figures back
    hw.server.put("dell-xe9680")
    window.live.refresh()
    assert re.match(r"\d+ hosts · \d+ GPUs", window.status.text())
    assert _figures_on_screen(_review(window))
