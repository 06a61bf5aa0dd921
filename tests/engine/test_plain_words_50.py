"""The words a reviewer flagged in the Acme proposals (issue 50), pinned for every example:
no catalog or design field name in a warning, decision or bill source, no limit written as a
data-parallel size of 10^12, no maintenance risk where enough GPUs remain, and warning topics
that read as topics."""

from __future__ import annotations

import pytest

from tests.engine.test_port_ends import CASES, design_of
from wizard.engine.decide.estate import size_estate
from wizard.engine.size import size
from wizard.present import labels

FLAGGED = (
    "nvlink.bridges_per_group",
    "data.read_gbs_per_gpu",
    "give Read per GPU",
    "set the failure domain to rack",
    "ha.hosts_per_rack",
)


def _results(name, catalog):
    d = design_of(name)
    if d.clusters:
        e = size_estate(d, catalog)
        return [c.result for c in e.clusters if c.result is not None]
    return [size(d, catalog)]


@pytest.mark.parametrize("name", CASES)
def test_no_flagged_words_and_no_trillion_wide_ring(name, catalog):
    for r in _results(name, catalog):
        texts = [w.message for w in r.warnings] + [
            x.text + x.reason + x.implication for x in r.decisions
        ]
        texts += [ln.source + ln.description for ln in r.bom.lines]
        # the calculation log names a design field by its id, which the documents turn into
        # its wizard label; a catalog field has no label, so it never stands there
        assert not [c for c in r.calculations if "nvlink.bridges_per_group" in c.source]
        for word in FLAGGED:
            assert not [t for t in texts if word in t], (name, word)
        for c in r.calculations:
            assert c.inputs.get("data_parallel", 0) < 1e9, (name, c.id)


@pytest.mark.parametrize("name", CASES)
def test_a_maintenance_risk_only_when_gpus_fall_short(name, catalog):
    """'leaves 8 GPUs for a demand of 6' is no risk: the warning stands only where the GPUs
    left with one host failed and one in maintenance are fewer than the demand."""
    for r in _results(name, catalog):
        left = next((c.value for c in r.calculations
                     if c.id == "cluster.gpus_after_failures_and_maintenance"), None)  # fmt: skip
        warned = any(w.code == "failure-during-maintenance" for w in r.warnings)
        if left is not None and left >= r.cluster.gpus_demand:
            assert not warned, name


def test_warning_topics_read_as_topics():
    assert labels.topic("nvlink-bridge-2u") == "NVLink bridges in a 2U server"
    assert labels.topic("storage-need-not-modelled") == "Storage demand not modelled"
    assert labels.topic("mmio-setting-needed") == "MMIO setting needed"  # the rule for the rest
