"""Risks from one source: the summary's top risks and the Risks section read one register, so no
proposal says "no risk" while a target is at risk or a caution stands. Each rule of the register
has a case that raises it and one that does not."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from reports.data import build_data
from reports.document import ReportOptions, build_pdf
from reports.sections.summary import performance, risk_list
from tests.engine.conftest import design_dict
from tests.reports.conftest import FIXED_DATE, squash
from wizard.app.io import design_from_dict
from wizard.base.bundled import example_names
from wizard.model.result import Severity
from wizard.present.risk_register import network_risks


def _text(data) -> str:
    pdf = build_pdf(data, ReportOptions(date=FIXED_DATE))
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)


@pytest.mark.parametrize("name", example_names())
def test_no_proposal_says_no_risk_while_one_stands(name, example_data):
    """Over every bundled example: a target at risk or a warning/error means the summary names
    risks and not 'no risk'; every target at risk is in the register."""
    data = example_data(name)
    at_risk = [t for t in performance(data) if t.met and t.at_risk]
    serious = [w for w in data.result.warnings if w.severity is not Severity.INFO]
    register = risk_list(data)
    for t in at_risk:
        assert any(t.workload in r.text and "pessimistic" in r.text for r in register)
    text = squash(_text(data))
    if at_risk or serious:
        assert squash("no risk or caution") not in text
        assert squash("no risk, caution") not in text


def test_a_target_met_only_as_estimated_is_a_caution(catalog):
    """mig-shared's BERT fine-tuning is estimated under its 24 h target; stated at 1 h more than
    the estimate the pessimistic end passes it: a Caution in the register. With the target far
    above the pessimistic end (10,000 h) nothing is said (negative case)."""
    doc = design_dict("mig-shared")
    data = build_data(design_from_dict(doc), catalog)
    (t,) = [t for t in performance(data) if t.metric == "time to train"]
    assert t.pessimistic is not None and t.pessimistic > t.value
    i = next(i for i, g in enumerate(doc["workloads"]) if g["name"] == t.workload)
    doc["workloads"][i]["training"]["target_hours"] = t.value + (t.pessimistic - t.value) / 2
    tight = risk_list(build_data(design_from_dict(doc), catalog))
    (r,) = [r for r in tight if r.topic == "Target at risk: time to train"]
    assert r.severity is Severity.WARNING and t.workload in r.text
    doc["workloads"][i]["training"]["target_hours"] = 10_000
    loose = risk_list(build_data(design_from_dict(doc), catalog))
    assert not [r for r in loose if r.topic == "Target at risk: time to train"]


def test_storage_chosen_without_data_is_an_assumption_to_confirm(catalog):
    """A storage system chosen while no group states data is sized at its minimum, not for a
    need: a Caution. The same design without storage says nothing of it (negative case)."""
    doc = design_dict("llm-serving")
    doc["workloads"] = [
        {"name": "Notebooks", "kind": "development", "count": 4,
         "shared": {"gpu_memory_gb": 10}, "sharing_mode": "vgpu"}
    ]  # fmt: skip
    doc["hardware"]["storage"] = "dell-powerscale-f900"
    data = build_data(design_from_dict(doc), catalog)
    assert data.result.storage.capacity_needed_tb == 0 and data.result.storage.nodes
    assert [r for r in risk_list(data) if r.topic == "Storage sized without data"]
    doc["hardware"].pop("storage")
    data = build_data(design_from_dict(doc), catalog)
    assert not [r for r in risk_list(data) if r.topic == "Storage sized without data"]


def _plane(name, leaves):
    from wizard.model.buildout import Plane, SwitchTier

    tier = SwitchTier.model_construct(role="leaf", model="Switch X", count=leaves)
    return Plane.model_construct(name=name, tiers=[tier])


def test_one_switch_for_several_hosts_is_a_single_point_of_failure():
    """One leaf for several hosts: a Caution naming the network; a pair of leaves, one host, or
    the out-of-band network (the site's own, not sized) say nothing (negative cases)."""
    (r,) = network_risks([_plane("compute", 1)], hosts=2)
    assert r.severity is Severity.WARNING and "GPU fabric" in r.topic and "Switch X" in r.text
    (r,) = network_risks([_plane("service.25gbe", 1)], hosts=3)
    assert "service network" in r.topic
    assert network_risks([_plane("compute", 2)], hosts=2) == []
    assert network_risks([_plane("compute", 1)], hosts=1) == []
    assert network_risks([_plane("oob", 1)], hosts=4) == []


def _rack(storage_w: float):
    from wizard.model.buildout import Rack, RackItem

    items = [
        RackItem(name="host-01", kind="server", model="m", u_position=1, height_u=2,
                 power_w=3000, host=0),
        RackItem(name="storage-01", kind="storage", model="s", u_position=5, height_u=2,
                 power_w=storage_w),
    ]  # fmt: skip
    return Rack(name="R01", role="hosts", height_u=42, power_limit_w=15000, used_u=4,
                power_w=3000 + storage_w, hosts=[0], items=items)  # fmt: skip


def test_a_rack_with_storage_of_unknown_power_is_at_risk():
    """A storage node without a published figure is placed at 0 W: the rack's total leaves it
    out, so the rack is said to be at risk; with the figure known, it is not."""
    from wizard.present.risk_register import rack_power_risks

    (risk,) = rack_power_risks([_rack(0.0)])
    assert risk.severity is Severity.WARNING
    assert "Rack R01 holds 1 storage node" in risk.text and "3.0 kW" in risk.text
    assert rack_power_risks([_rack(800.0)]) == []


def test_the_enterprise_example_names_its_rack_and_the_chart_says_so(example_data):
    """enterprise: 4 nodes of a storage system without a published power figure share rack R01
    with the hosts: the register and the power chart both say the rack's total leaves them
    out."""
    from reports.diagrams.charts import power_chart
    from tests.reports.test_diagrams import _strings

    data = example_data("enterprise")
    risks = [r for r in risk_list(data) if r.topic == "Rack power not fully counted"]
    assert [r.text.split(" whose")[0] for r in risks] == ["Rack R01 holds 4 storage nodes"]
    drawing = power_chart(data.result.racks.racks)
    texts = [s.text for s in _strings(drawing)]
    assert "14.2 kW *" in texts  # 14,146 W and the rack's 100 W out-of-band switch
    assert "* R01: the total leaves out 4 storage nodes without a published power figure" in texts
