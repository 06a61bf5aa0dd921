"""The plausibility cautions in the window: a head count typed as members and a design for
10^8 people each show their caution under the field that causes it and in the Review; a
sensible design shows none. A service has no member count to type: its people say how many."""

from __future__ import annotations

import json

from wizard.base.bundled import example_text
from wizard.gui.wizard import PageId


def _open(window, tmp_path, users: int, count: int = 1):
    d = json.loads(example_text("llm-serving"))
    g = d["workloads"][0]
    g["count"] = count
    g["inference"] = {
        "input_tokens": 1024,
        "output_tokens": 256,
        "people": {"users": users, "active_share": 0.1, "requests_per_hour": 6},
    }
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(d), encoding="utf-8")
    assert window.open_path(path)
    window.live.refresh()
    assert window.wizard.go_to(PageId.WORKLOADS)
    page = window.wizard.page_of(PageId.WORKLOADS)
    page.table.selectRow(0)
    return page


def _field_caution(page) -> str:
    row = page.editor.errors.rows["inference.people.users"][1]
    return row.caution.text() if row.caution.isVisibleTo(page.editor) else ""


def _review_caution(window) -> str:
    assert window.wizard.go_to(PageId.REVIEW)
    review = window.wizard.page_of(PageId.REVIEW)
    note = review.cautions_note
    return note.text() if note.isVisibleTo(review) else ""


def test_members_500_with_people_500_is_cautioned_at_the_field_and_in_the_review(
    qtbot, window, tmp_path
):
    page = _open(window, tmp_path, 500, count=500)
    ed = page.editor
    # a service sized from its model has no member count on screen, and the table says so
    assert not ed.count.isVisibleTo(ed)
    assert page.table.item(0, 2).text() == "1 service"
    text = _field_caution(page)
    assert text.startswith("Members 500 does not multiply a service")
    # the demand's arithmetic and the requests in flight it gives, as numbers:
    # 500 x 10 % x 6 / 3,600 = 0.083 requests a second
    note = ed.people_note.text()
    assert "= 0.083 requests a second" in note
    assert "by Little's law the service holds" in note and "requests in flight" in note
    assert "Members 500 does not multiply a service" in _review_caution(window)


def test_a_hundred_million_people_is_cautioned_at_the_field_and_in_the_review(
    qtbot, window, tmp_path
):
    page = _open(window, tmp_path, 99_999_999)
    assert "99,999,999 people use" in _field_caution(page)
    assert "more than the 2,200,000 who work for the largest employer" in _review_caution(window)


def test_a_sensible_service_has_no_caution(qtbot, window, tmp_path):
    page = _open(window, tmp_path, 500)
    assert _field_caution(page) == ""
    assert _review_caution(window) == ""


def test_jobs_and_notebook_users_are_counted_in_their_own_words(qtbot, window):
    from tests.gui.helpers import click, pick, type_into
    from wizard.model.design import WorkloadKind

    type_into(qtbot, window.wizard.page_of(PageId.PROJECT).project_name, "Counts")
    page = window.wizard.page_of(PageId.WORKLOADS)
    assert window.wizard.go_to(PageId.WORKLOADS)
    click(qtbot, page.add_button)
    ed = page.editor
    assert ed.errors.rows["count"][0] == "Jobs" and ed.count.isVisibleTo(ed)
    pick(ed.kind, WorkloadKind.DEVELOPMENT)
    assert ed.errors.rows["count"][0] == "Users"
    assert ed.by_count.text() == "Known GPUs per user:"
    pick(ed.kind, WorkloadKind.INFERENCE)
    assert not ed.count.isVisibleTo(ed)
    assert window.doc.get("workloads")[0].count == 1
