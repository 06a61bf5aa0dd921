"""Serving demand in the customer's words in the window: people, the share active in the
busiest hour and requests an hour; the requests a second are shown with their arithmetic and
reach the design."""

from __future__ import annotations

import pytest

from tests.gui.helpers import click, pick, type_into
from wizard.gui.wizard import PageId
from wizard.model.design import WorkloadKind


def _serving_group(qtbot, window, name: str):
    """A new serving group added on the Workloads page; its editor."""
    page = window.wizard.page_of(PageId.WORKLOADS)
    window.wizard.go_to(PageId.WORKLOADS)
    click(qtbot, page.add_button)
    ed = page.editor
    type_into(qtbot, ed.name, name)
    pick(ed.kind, WorkloadKind.INFERENCE)
    return ed


def test_500_employees_reach_the_design_with_their_arithmetic(qtbot, window):
    ed = _serving_group(qtbot, window, "Chat for employees")
    pick(ed.preset, "llama-3.3-70b")
    assert not ed.active.isEnabled() and not ed.people_note.isVisibleTo(ed)
    type_into(qtbot, ed.users, "500")
    assert ed.active.isEnabled() and ed.per_hour.isEnabled()
    type_into(qtbot, ed.active, "10")
    type_into(qtbot, ed.per_hour, "6")
    type_into(qtbot, ed.input_tokens, "1000")
    type_into(qtbot, ed.output_tokens, "300")
    # 500 × 10 % × 6 / 3,600 = 0.0833 requests a second
    assert "500 people × 10 % active × 6 requests an hour ÷ 3,600 seconds = 0.083" in (
        ed.people_note.text()
    )
    (group,) = window.doc.get("workloads")
    people = group.inference.people
    assert (people.users, people.active_share, people.requests_per_hour) == (500, 0.1, 6)
    assert people.requests_per_s == pytest.approx(500 * 0.1 * 6 / 3600)


def test_no_people_no_people_demand(qtbot, window):
    """Left at 'not given', the design holds no people demand (the rate stays as stated)."""
    _serving_group(qtbot, window, "Chat")
    (group,) = window.doc.get("workloads")
    assert group.inference.people is None
