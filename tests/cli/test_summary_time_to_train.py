"""The terminal summary's time to train: with the plan's ranges, the figure and its range over
the stated spread of the assumptions; without them, the figure alone (no range, no error)."""

from __future__ import annotations

from wizard.app.io import design_from_text
from wizard.app.summary import summary_lines
from wizard.base.bundled import example_text
from wizard.engine import FigureRange, plan


def _bert(catalog):
    """bert-large-25gbe: one BERT-Large pre-training group, whose time to train is estimated."""
    result = plan(design_from_text(example_text("bert-large-25gbe")), catalog).clusters[0].result
    (w,) = result.workloads
    assert w.training is not None and w.training.time_to_train_hours is not None
    return result, w


def _train_line(lines: list[str]) -> str:
    return next(x for x in lines if x.strip().startswith("time to train"))


def test_the_time_to_train_carries_its_range(catalog):
    """A range of 500 to 2000 h reads '(500–2,000)' after the figure."""
    result, w = _bert(catalog)
    rng = FigureRange(
        workload=w.name,
        figure="time_to_train_hours",
        value=w.training.time_to_train_hours,
        low=500.0,
        high=2000.0,
        pessimistic=2000.0,
    )
    assert "h (500–2,000); " in _train_line(summary_lines(result, [rng]))


def test_without_ranges_the_time_to_train_stands_alone(catalog):
    result, _ = _bert(catalog)
    line = _train_line(summary_lines(result))
    assert "(" not in line and "–" not in line
    assert line.strip().startswith("time to train ") and " h; " in line


def test_a_range_of_another_group_leaves_this_one_without_a_range(catalog):
    result, _ = _bert(catalog)
    other = FigureRange(workload="Another group", figure="time_to_train_hours", low=1.0, high=2.0)
    line = _train_line(summary_lines(result, [other]))
    assert "–" not in line and " h; " in line
