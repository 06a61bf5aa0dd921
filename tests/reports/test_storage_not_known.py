"""The proposal never prints 0 for checkpoints or model files nobody can know: a group sized by
its GPU count shows "not known" in those cells, the capacity needed reads "at least", naming the
groups it leaves out, and the summary says which figures are not known (the enterprise example:
two training groups sized by GPU count; see tests/engine/test_storage_kept_not_known.py)."""

from __future__ import annotations

import html

from reports import doctree as t
from reports.data import data_of
from reports.sections import storage
from reports.sections.summary import _not_known
from reports.story import Story
from reports.styles import make_styles
from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict
from wizard.engine import plan

COUNTED = ["High-performance researchers", "Distributed ML workers"]


def _tables(catalog, doc) -> list[list[list[str]]]:
    story = Story(data_of(plan(design_from_dict(doc), catalog)), make_styles(), 480)
    blocks = storage.build(story) or []
    return [
        [[html.unescape(c.text) for c in row] for row in b.rows]
        for b in blocks
        if isinstance(b, t.Table)
    ]


def test_a_group_sized_by_gpu_count_shows_its_checkpoints_as_not_known(catalog):
    doc = design_dict("enterprise")
    doc.setdefault("data", {})["dataset_gb"] = 1000  # a capacity is stated: it reads "at least"
    needs, pairs = _tables(catalog, doc)[:2]
    head = needs[0]
    rows = {r[0]: dict(zip(head, r, strict=True)) for r in needs[1:]}
    for name in COUNTED:
        assert rows[name]["Check­points GB"] == "not known", name
        assert rows[name]["Models GB"] == "0", name  # training from scratch reads none
    assert rows["Data scientists"]["Check­points GB"] == "0"
    capacity = next(r[1] for r in pairs if r[0] == "Capacity needed")
    assert capacity.startswith("at least ")
    assert all(name in capacity for name in COUNTED)


def test_the_summary_names_what_is_not_known_with_the_right_verb():
    assert _not_known([], [], ["A"]) == "the checkpoints or model files of A are not known"
    assert _not_known(["A"], [], []) == "the dataset size of A is not known"
    assert _not_known(["A"], ["A"], []) == (
        "the dataset size and read throughput of A are not known"
    )
    assert _not_known(["A"], ["B"], ["C"]) == (
        "the dataset size of A and the read throughput of B and the checkpoints or model files "
        "of C are not known"
    )


def test_the_verb_follows_the_figures_not_a_groups_name():
    """One group named 'Search and chat' whose dataset size alone is not known: one figure,
    'is'; its checkpoints or model files: 'are'."""
    assert _not_known(["Search and chat"], [], []) == (
        "the dataset size of Search and chat is not known"
    )
    assert _not_known([], [], ["Search or chat"]) == (
        "the checkpoints or model files of Search or chat are not known"
    )
