"""The power-per-rack chart draws at most 30 bars (each a run of like racks); a design whose
racks fall into more groups than that says how many are shown, so no rack is dropped without a
word. 40 racks alternating between 3 kW and 4 kW make 40 groups: 30 drawn, the note says 30 of
40; 30 such racks make 30 groups and no note."""

from __future__ import annotations

from reportlab.graphics.shapes import String

from reports.diagrams.charts import power_chart
from wizard.model.buildout import Rack, RackItem


def _racks(n: int) -> list[Rack]:
    out = []
    for i in range(n):
        watts = 3000 if i % 2 else 4000  # alternate, so no two neighbours form one group
        item = RackItem(name=f"host-{i + 1:02d}", kind="server", model="m", u_position=1,
                        height_u=2, power_w=watts, host=i)  # fmt: skip
        out.append(Rack(name=f"R{i + 1:02d}", role="hosts", height_u=42, power_limit_w=15000,
                        used_u=2, power_w=watts, hosts=[i], items=[item]))  # fmt: skip
    return out


def _texts(n: int) -> list[str]:
    d = power_chart(_racks(n), 480)
    assert d is not None
    return [s.text for s in d.getContents() if isinstance(s, String)]


def test_more_groups_than_bars_are_said():
    texts = _texts(40)
    assert sum(t.startswith("R") and len(t) == 3 for t in texts) == 30
    assert (
        "The first 30 of 40 groups of racks are shown; the per-rack table lists every rack."
        in texts
    )


def test_as_many_groups_as_bars_need_no_note():
    texts = _texts(30)
    assert sum(t.startswith("R") and len(t) == 3 for t in texts) == 30
    assert not any("groups of racks are shown" in t for t in texts)
