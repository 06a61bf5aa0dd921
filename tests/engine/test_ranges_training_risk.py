"""The rule for a training target at risk, on plain figures: a target the expected time meets
but the pessimistic end of the efficiency spread misses is at risk; one both meet is not; one the
expected time already misses is not this risk (the plan misses it outright); a target equal to
the expected time is met by it."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from wizard.engine.decide.ranges import FigureRange, TargetRisk, training_at_risk

NAME = "Pretraining"


def _risks(hours: float, target: float | None, pessimistic: float) -> list[TargetRisk]:
    """One training group whose time is ``hours`` at the point estimate and ``pessimistic`` at
    the worse end of the spread, with ``target`` hours asked."""
    design = SimpleNamespace(workloads=[SimpleNamespace(training=SimpleNamespace(
        target_hours=target))])  # fmt: skip
    result = SimpleNamespace(workloads=[SimpleNamespace(
        name=NAME, training=SimpleNamespace(time_to_train_hours=hours))])  # fmt: skip
    rng = FigureRange(NAME, "time_to_train_hours", hours, hours * 0.9, pessimistic, pessimistic)
    return training_at_risk(design, result, [rng])


def test_met_as_expected_but_missed_at_the_pessimistic_end_is_at_risk():
    """100 h expected, 110 h asked, 120 h at the pessimistic end: 100 <= 110 < 120."""
    assert _risks(100, 110, 120) == [TargetRisk(NAME, "time to train", 110, 120, "h")]


def test_a_target_equal_to_the_expected_time_is_met_there_so_at_risk():
    """The boundary: 100 h expected and 100 h asked is met (100 <= 100); 120 h misses it."""
    assert _risks(100, 100, 120) == [TargetRisk(NAME, "time to train", 100, 120, "h")]


@pytest.mark.parametrize(
    ("hours", "target", "pessimistic"),
    [
        (100, 130, 120),  # met at both ends: no risk
        (100, 120, 120),  # the pessimistic end exactly on the target meets it
        (100, 99.5, 120),  # missed by the expected time already: not this risk
        (100, None, 120),  # no target asked
        (100, 0, 120),  # a target of 0 is no target
    ],
)
def test_no_risk_where_the_rule_does_not_hold(hours, target, pessimistic):
    assert _risks(hours, target, pessimistic) == []
