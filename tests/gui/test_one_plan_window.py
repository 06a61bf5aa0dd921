"""The Review page states the rack count and the power of the same Plan the command line and
the proposal quote (tests/test_one_plan.py holds the others), for every bundled example and
every design in docs/."""

from __future__ import annotations

import json

from tests.conftest import ROOT
from wizard.base.bundled import example_names, example_text
from wizard.cli import main
from wizard.gui.wizard import PageId


def test_the_review_cards_state_the_racks_and_power_that_size_states(window, tmp_path, capsys):
    texts = {f"example-{n}.json": example_text(n) for n in example_names()}
    texts |= {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "docs").glob("*.json")}
    for file, text in sorted(texts.items()):
        path = tmp_path / file
        path.write_text(text, encoding="utf-8")
        assert main(["size", str(path), "--json"]) == 0
        sized = json.loads(capsys.readouterr().out)
        if "totals" in sized:  # an estate: every rack and the whole draw
            racks, kw = len(sized["racks"]), sized["totals"]["total_kw"]
        else:
            racks, kw = len(sized["racks"]["racks"]), sized["power"]["total_kw"]
        assert window.open_path(path), file
        assert window.wizard.go_to(PageId.REVIEW), file
        page = window.wizard.page_of(PageId.REVIEW)
        page.cluster_choice.setCurrentIndex(0)  # the whole design when it has several clusters
        page.cluster_choice.activated.emit(0)
        window.live.refresh()
        page.show_result()
        cards = page.cards.cards
        assert cards["racks"].value.text() == str(racks), file
        assert cards["power"].value.text() == f"{kw:,.1f}", file
