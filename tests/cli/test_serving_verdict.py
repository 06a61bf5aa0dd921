"""A serving target's verdict as the terminal, the wizard and the proposal word it: a target the
design meets reads as met, one it misses says by how much, never the other way round."""

from __future__ import annotations

from wizard.app.serving_text import target_text, verdict
from wizard.model.result import TargetCheck


def _check(value: float, met: bool, shortfall: float) -> TargetCheck:
    return TargetCheck(
        metric="itl", target=100.0, value=value, unit="ms", met=met, shortfall=shortfall
    )


def test_a_met_target_reads_met_as_estimated():
    """80 ms between tokens against 'at most 100 ms': met, nothing missed."""
    t = _check(80.0, met=True, shortfall=0.0)
    assert verdict(t) == "met as estimated"
    assert "missed" not in target_text(t)


def test_a_missed_target_says_by_how_much():
    """125 ms against 'at most 100 ms' misses by (125 - 100) / 100 = 25%."""
    t = _check(125.0, met=False, shortfall=0.25)
    assert verdict(t) == "missed by 25%"
    assert target_text(t).endswith(": missed by 25%")
    assert "met" not in verdict(t)
