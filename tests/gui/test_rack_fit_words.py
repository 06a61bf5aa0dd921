"""How many hosts a rack takes reads the same in the wizard's Power tab, the terminal and the
proposal: the fullest rack's hosts and the room the binding limit leaves, never the fullest
rack's count as the limit ("at most 3 hosts per rack, limited by power" where power allows 6)."""

from __future__ import annotations

from wizard.app.catalog_loader import load_catalog
from wizard.app.io import design_from_text
from wizard.app.summary import plan_lines
from wizard.base.bundled import example_text
from wizard.engine import plan
from wizard.gui.wizard import PageId
from wizard.model.buildout import Racks
from wizard.present.racks_text import rack_fit

# mig-shared: 3 hosts of 2,400 W under a 15 kW rack limit less the 100 W out-of-band switch at
# the top of the rack: floor(14,900 / 2,400) = 6 by power, floor(41 U / 2 U) = 20 by space
MIG_SHARED = "the fullest holds 3 hosts, with room for 6, limited by power"


def test_the_words_name_the_fullest_rack_and_the_room():
    r = Racks(rack_units=42, power_limit_kw=15, hosts_per_rack=3, hosts_room=6,
              limited_by="power", failure_domain="host", host_racks=1, network_racks=0,
              racks=[])  # fmt: skip
    assert rack_fit(r) == MIG_SHARED
    # negative cases: no room known, and the failure domain in plain words
    none = r.model_copy(update={"hosts_room": 0, "limited_by": "failure-domain"})
    assert rack_fit(none) == "the fullest holds 3 hosts, limited by failure domain"


def test_the_engine_leaves_room_for_six_hosts_on_mig_shared():
    p = plan(design_from_text(example_text("mig-shared")), load_catalog(include_user=False))
    (one,) = p.clusters
    racks = one.result.racks
    assert (racks.hosts_per_rack, racks.hosts_room, racks.limited_by) == (3, 6, "power")
    assert any(MIG_SHARED in line for line in plan_lines(p))  # the terminal's summary


def test_the_power_tab_says_the_room(qtbot, window, tmp_path):
    path = tmp_path / "mig-shared.json"
    path.write_text(example_text("mig-shared"))
    assert window.open_path(path)
    assert window.wizard.go_to(PageId.REVIEW)
    review = window.wizard.page_of(PageId.REVIEW)
    window.live.refresh()
    text = review.power.racks_note.text()
    assert MIG_SHARED in text
    assert "at most" not in text
