"""Why this option: the options section states, against each alternative, what the proposed
option gains and gives up in targets, cost, hosts and power, figures the customer can check in
the options table. Expected sentences by hand from the rows below."""

from __future__ import annotations

from wizard.model.options import OptionRow, TargetStatus
from wizard.present.options_table import reasons


def _t(met: bool, at_risk: bool = False) -> TargetStatus:
    return TargetStatus(workload="Chat", metric="ttft", value=1, target=2, unit="s", met=met,
                        at_risk=at_risk)  # fmt: skip


def _row(name, proposed, targets, hosts, kw) -> OptionRow:
    return OptionRow(name=name, note="", proposed=proposed, hosts=hosts, total_kw=kw,
                     targets=targets)  # fmt: skip


def test_the_cheaper_option_against_one_that_meets_more():
    """Proposed: 5 hosts, 14.7 kW, one target at risk; Split: 7 hosts, 43.0 kW, all met. The
    proposed option has 1 more target at risk, 2 fewer hosts, 43.0 - 14.7 = 28.3 kW less."""
    rows = [
        _row("H100 NVL with MIG", True, [_t(True), _t(True, at_risk=True)], 5, 14.7),
        _row("Split clusters", False, [_t(True), _t(True)], 7, 43.0),
    ]
    assert reasons(rows) == [
        "Against Split clusters: 1 more target at risk than Split clusters, 2 fewer hosts, "
        "28.3 kW less."
    ]


def test_a_missed_target_is_said_before_anything_else():
    rows = [
        _row("Small", True, [_t(False), _t(True)], 3, 10.0),
        _row("Large", False, [_t(True), _t(True)], 3, 10.0),
        _row("Broken", False, [], 0, 0.0).model_copy(update={"error": "no GPU fits"}),
    ]
    assert reasons(rows) == [
        "Against Large: it gives up 1 target that Large meets.",
        "Against Broken: it cannot be built as stated.",
    ]


def test_no_reasons_without_a_proposed_option_or_an_alternative():
    one = _row("Only", True, [_t(True)], 1, 1.0)
    assert reasons([one]) == []
    assert reasons([one.model_copy(update={"proposed": False}), one]) != []
    assert reasons([one.model_copy(update={"proposed": False})] * 2) == []
