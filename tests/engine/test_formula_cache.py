"""A formula's text is checked and compiled once and kept; a text that is not plain arithmetic
is refused every time it is given, never remembered as accepted."""

from __future__ import annotations

import pytest

from wizard.engine.basis.expr import ExpressionError, Formula


def test_the_same_text_twice_gives_the_same_figures():
    a, b = Formula("ceil(x / y) + z"), Formula("ceil(x / y) + z")
    assert a.names == b.names == ["x", "y", "z"]
    assert a(x=7, y=2, z=1) == 5.0  # ceil(3.5) + 1
    assert b(x=8, y=2, z=0.5) == 4.5  # 4 + 0.5


@pytest.mark.parametrize(
    "text", ["x +", "__import__('os').system('true')", "x.real", "x if y else z"]
)
def test_a_refused_text_is_refused_each_time(text):
    for _ in range(2):
        with pytest.raises(ExpressionError):
            Formula(text)


def test_a_missing_input_is_named():
    f = Formula("a * b")
    with pytest.raises(ExpressionError, match="no value for b"):
        f(a=2)
