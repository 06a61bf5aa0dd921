"""Options made, compared and proposed in the window, as a configurator keeps alternatives: the
Review and Export pages then show and write the proposed option, not the design being edited."""

from __future__ import annotations

import csv

from tests.gui.helpers import click
from wizard.base.bundled import example_text
from wizard.engine.size import size
from wizard.gui.prompts import PromptKind
from wizard.gui.wizard import PageId
from wizard.model.design import HaLevel


def _review_options(qtbot, window, tmp_path):
    path = tmp_path / "enterprise.json"
    path.write_text(example_text("enterprise"))
    assert window.open_path(path)
    assert window.wizard.go_to(PageId.REVIEW)
    page = window.wizard.page_of(PageId.REVIEW)
    page.tabs.setCurrentIndex(page.options_tab)
    return page


def _choose(view, name: str) -> None:
    at = view.choice.findData(name)
    assert at >= 0, name
    view.choice.setCurrentIndex(at)


def _servers(bom_csv: str, server_id: str) -> int:
    """The bill's count of the design's server (the CSV names the catalog item)."""
    rows = list(csv.DictReader(bom_csv.splitlines()))
    return sum(
        int(r["quantity"])
        for r in rows
        if r["category"] == "server" and r["item"] == f"server:{server_id}"
    )


def test_save_compare_propose_and_export_the_proposed_option(qtbot, window, prompts, catalog,
                                                             tmp_path):  # fmt: skip
    page = _review_options(qtbot, window, tmp_path)
    view = page.options
    saved = window.doc.design()
    assert saved is not None and saved.ha.level is HaLevel.N1

    # save the design (n+1) as an option
    prompts.answers.append("  One spare  host ")  # spaces as a person types them
    click(qtbot, view.save)
    design = window.doc.design()
    assert [o.name for o in design.options] == ["One spare host"]
    assert design.option("One spare host").ha == saved.ha
    assert design.proposed is None

    # edit the design: two spare hosts; the option keeps one
    window.doc.set("ha", saved.ha.model_copy(update={"level": HaLevel.N2}))
    window.live.refresh()
    with_two = size(window.doc.design(), catalog).cluster.hosts_total
    with_one = size(saved, catalog).cluster.hosts_total
    assert with_two == with_one + 1  # n+2 holds one host more than n+1 for the same demand

    # compared side by side: the hosts row differs and is shaded
    page._maybe_compare()
    qtbot.waitUntil(lambda: view.table.columnCount() == 2, timeout=20_000)
    hosts = next(
        y for y in range(view.table.rowCount())
        if view.table.verticalHeaderItem(y).text().lower().startswith("hosts")
    )  # fmt: skip
    assert view.table.item(hosts, 0).text() != view.table.item(hosts, 1).text()
    assert view.table.item(hosts, 1).background().color().name() == "#e8eef7"

    # make the option the proposal: the figures are the option's, the note says so
    _choose(view, "One spare host")
    assert view.propose.isEnabled()
    click(qtbot, view.propose)
    assert window.doc.design().proposed == "One spare host"
    window.live.refresh()
    (one,) = window.live.plan.clusters
    assert one.result.cluster.hosts_total == with_one
    assert page.cards.cards["hosts"].value.text() == f"{with_one:,}"
    assert page.proposal_note.isVisible() and "'One spare host'" in page.proposal_note.text()
    assert not view.propose.isEnabled()  # it is the proposal already
    assert "Proposed option 'One spare host'" in window.status.text()

    # the Export page writes the proposed option's bill
    assert window.wizard.go_to(PageId.EXPORT)
    export = window.wizard.page_of(PageId.EXPORT)
    assert "'One spare host'" in export.summary.text()
    out = tmp_path / "bom.csv"
    prompts.answers.append(str(out))
    click(qtbot, export.bom.button)
    assert _servers(out.read_text(), saved.hardware.server) == with_one

    # the design file holds the proposed option's design on its pages, and the option
    kept = tmp_path / "kept.json"
    prompts.answers.append(str(kept))
    click(qtbot, export.json.button)
    text = kept.read_text()
    assert '"proposed": "One spare host"' in text and '"level": "n+2"' not in text

    # one undo returns the proposal to the design as it stood (two spare hosts)
    window.doc.undo_stack.undo()
    assert window.doc.design().proposed is None
    assert window.doc.design().ha.level is HaLevel.N2


def test_removing_the_proposed_option_proposes_the_design_in_one_step(qtbot, window, prompts,
                                                                     tmp_path):  # fmt: skip
    page = _review_options(qtbot, window, tmp_path)
    view = page.options
    prompts.answers.append("Kept")
    click(qtbot, view.save)
    _choose(view, "Kept")
    click(qtbot, view.propose)
    assert window.doc.design().proposed == "Kept"
    page._maybe_compare()
    _choose(view, "Kept")
    click(qtbot, view.remove)
    design = window.doc.design()
    assert design is not None and design.options == [] and design.proposed is None
    window.doc.undo_stack.undo()  # one step: the option and its proposal come back together
    design = window.doc.design()
    assert design is not None and design.proposed == "Kept"


def test_an_option_name_the_design_holds_is_refused_by_name(qtbot, window, prompts, tmp_path):
    page = _review_options(qtbot, window, tmp_path)
    view = page.options
    prompts.answers.append("Kept")
    click(qtbot, view.save)
    for name, why in (("kept", "already an option"), ("As designed", "the design itself"),
                      ("   ", "give a name")):  # fmt: skip
        prompts.answers.append(name)
        click(qtbot, view.save)
        error = prompts.asked[-1]
        assert error.kind is PromptKind.ERROR and why in error.text, name
        assert "Name of the option" in error.text
        assert [o.name for o in window.doc.design().options] == ["Kept"]


def test_cancelling_the_name_saves_nothing(qtbot, window, prompts, tmp_path):
    page = _review_options(qtbot, window, tmp_path)
    prompts.answers.append(None)
    click(qtbot, page.options.save)
    assert window.doc.design().options == []
    assert not window.doc.dirty


def test_an_option_is_saved_with_what_it_is_in_words_the_user_can_change(qtbot, window, prompts,
                                                                        tmp_path):  # fmt: skip
    """The second question fills in what the option is (enterprise.json: 4 V100 SXM2 32GB per
    Dell C4140 host, N+1); the user's words are kept, a line break pasted from Word made plain,
    and they head the comparison. Cancel saves nothing; a control character is refused by the
    field's label."""
    page = _review_options(qtbot, window, tmp_path)
    view = page.options

    prompts.answers.extend(["Cancelled", None])
    click(qtbot, view.save)
    assert window.doc.design().options == []
    asked = prompts.asked[-1]
    assert asked.kind is PromptKind.TEXT_BLOCK and "'Cancelled'" in asked.text
    assert asked.default.startswith(
        "NVIDIA Tesla V100 SXM2 32GB, 4 per host, in the Dell PowerEdge C4140, N+1. "
    )

    prompts.answers.extend(["Bell", "Rings\x07"])
    click(qtbot, view.save)
    error = prompts.asked[-1]
    assert error.kind is PromptKind.ERROR and error.text.startswith("What the option is: ")
    assert "U+0007" in error.text
    assert window.doc.design().options == []

    prompts.answers.extend(["Lean", "Fewer hosts\vsame GPUs  "])
    click(qtbot, view.save)
    (option,) = window.doc.design().options
    assert (option.name, option.note) == ("Lean", "Fewer hosts\nsame GPUs")
    page._maybe_compare()
    qtbot.waitUntil(lambda: view.table.columnCount() == 2, timeout=20_000)
    assert view.table.verticalHeaderItem(0).text() == "What it is"
    assert view.table.item(0, 1).text() == "Fewer hosts\nsame GPUs"
