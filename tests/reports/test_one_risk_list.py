"""One risk list: `gpuwizard size` prints the proposal's risk register, every risk and caution
the PDF lists (warnings, targets at risk, storage, network and rack power), in the same words."""

from __future__ import annotations

import pytest

from reports.sections.summary import risk_list
from wizard.app.summary import plan_lines
from wizard.base.bundled import example_names


@pytest.mark.parametrize("name", example_names())
def test_size_prints_every_risk_of_the_proposal(name, example_data):
    data = example_data(name)
    text = "\n".join(plan_lines(data.plan))
    risks = risk_list(data)
    assert risks
    for r in risks:
        assert f"{r.topic}: {r.text}" in text, (name, r.topic)
