"""Arithmetic the calculation log can both show and re-check.

A logged formula is a plain arithmetic expression over its named inputs, so the figure it records
is computed *from* the formula: the log cannot drift from its values. Only numbers, the names
given, ``+ - * / **`` and a few functions are allowed; nothing else is ever evaluated.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Mapping
from functools import lru_cache
from types import CodeType

FUNCTIONS: dict[str, Callable[..., float]] = {
    "min": min,
    "max": max,
    "ceil": math.ceil,
    "floor": math.floor,
    "sqrt": math.sqrt,
    "log2": math.log2,
}

_OPS: dict[type, Callable[[float, float], float]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.Pow: lambda a, b: a**b,
}


class ExpressionError(ValueError):
    """A formula that is not plain arithmetic over its inputs."""


def evaluate(formula: str, inputs: Mapping[str, float | int | str]) -> float:
    """The value of ``formula`` with ``inputs`` substituted: a slow, self-contained walk of the
    syntax tree that anyone can use to re-check a logged figure."""
    try:
        tree = ast.parse(formula, mode="eval")
    except SyntaxError as exc:
        raise ExpressionError(f"not an expression: {formula!r}") from exc
    return float(_eval(tree.body, inputs, formula))


class Formula:
    """A formula the engine computes with and logs verbatim.

    The text is checked once to be plain arithmetic over named inputs (the same rules as
    :func:`evaluate`), then compiled, so searching over many layouts stays fast."""

    def __init__(self, text: str) -> None:
        self.names, self._code = _compiled(text)
        self.text = text

    def __call__(self, **inputs: float) -> float:
        missing = set(self.names) - inputs.keys()
        if missing:
            raise ExpressionError(f"{self.text!r}: no value for {', '.join(sorted(missing))}")
        return float(eval(self._code, {"__builtins__": {}, **FUNCTIONS}, inputs))

    def __repr__(self) -> str:
        return f"Formula({self.text!r})"


@lru_cache(maxsize=4096)
def _compiled(text: str) -> tuple[list[str], CodeType]:
    """The input names and code of ``text``, checked once per text: the engine builds the same
    formulas in every sizing, and the live Review sizes again after each edit. A text that is
    not a formula raises each time (an error is not cached)."""
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise ExpressionError(f"not an expression: {text!r}") from exc
    names = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} - FUNCTIONS.keys())
    _eval(tree.body, dict.fromkeys(names, 1.0), text, check_only=True)
    return names, compile(tree, "<formula>", "eval")


def _eval(
    node: ast.AST,
    inputs: Mapping[str, float | int | str],
    formula: str,
    check_only: bool = False,
) -> float:
    """Evaluate, or with ``check_only`` only check that every node is allowed."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return node.value
    if isinstance(node, ast.Name):
        value = inputs.get(node.id)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ExpressionError(f"{formula!r}: '{node.id}' is not a numeric input")
        return value
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        left = _eval(node.left, inputs, formula, check_only)
        right = _eval(node.right, inputs, formula, check_only)
        return 1.0 if check_only else _OPS[type(node.op)](left, right)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_eval(node.operand, inputs, formula, check_only)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in FUNCTIONS
        and not node.keywords
    ):
        args = [_eval(a, inputs, formula, check_only) for a in node.args]
        return 1.0 if check_only else FUNCTIONS[node.func.id](*args)
    raise ExpressionError(f"{formula!r}: '{ast.unparse(node)}' is not allowed in a formula")
