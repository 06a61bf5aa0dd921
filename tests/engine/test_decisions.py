"""Every design decision says what it implies for the customer (VMware's reference architectures
write decision, justification and implication), and the implications carry the design's own
figures where they name one."""

from __future__ import annotations

import pytest

from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict, design_from_text
from wizard.base.bundled import example_names, example_text
from wizard.engine.size import size


@pytest.mark.parametrize("name", example_names())
def test_every_decision_of_every_example_has_an_implication(name, catalog):
    r = size(design_from_text(example_text(name), name), catalog)
    missing = [d.text for d in r.decisions if not d.implication.strip()]
    assert not missing, missing


def test_the_ha_implication_counts_the_standby_hosts_and_gpus(catalog):
    """Enterprise: N+1 on hosts of 4 GPUs holds 1 host and 1 x 4 = 4 GPUs in standby."""
    r = size(design_from_text(example_text("enterprise"), "enterprise"), catalog)
    (ha,) = [d for d in r.decisions if d.text.startswith("Additional hosts")]
    assert ha.implication.startswith("1 host and 4 GPUs are bought, powered and licensed")


def test_the_power_implication_is_the_power_decision_figure(catalog):
    r = size(design_from_text(example_text("enterprise"), "enterprise"), catalog)
    (power,) = [d for d in r.decisions if d.topic.value == "power"]
    assert f"{r.power.total_kw:,.1f} kW" in power.implication


def test_a_roce_fabric_says_it_needs_lossless_ethernet_and_infiniband_a_subnet_manager(catalog):
    roce = size(design_from_dict(design_dict("imagenet-resnet50")), catalog)
    (fab,) = [d for d in roce.decisions if d.text.startswith("The GPU fabric")]
    assert "RoCE v2" in fab.text and "roce-v2" not in fab.text
    assert "lossless Ethernet (PFC and ECN)" in fab.implication
    ib = size(design_from_dict(design_dict("gpt3-175b")), catalog)
    (fab,) = [d for d in ib.decisions if d.text.startswith("The GPU fabric")]
    assert "subnet manager" in fab.implication and "lossless" not in fab.implication
