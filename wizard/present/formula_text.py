"""A logged formula as a customer reads it: named quantities in words, × and ÷ for the operators,
"rounded up" for ceil. The log itself keeps the formula the engine evaluated (it re-checks to
its value); this is only how the proposal prints it, term for term the same arithmetic."""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Sequence

from wizard.base.numbers import value
from wizard.model.design import Fabric
from wizard.model.result import Calculation
from wizard.present import labels

# a name's last part that is its unit: times in words, the rest as a unit in brackets
TIMES = {"s": "seconds", "ms": "milliseconds", "h": "hours"}
UNITS = {"gb": "GB", "gbs": "GB/s", "tb": "TB", "w": "W", "kw": "kW", "gbps": "Gb/s",
         "tflops": "TFLOPS"}  # fmt: skip
_OPERATOR = {ast.Add: "+", ast.Sub: "−", ast.Mult: "×", ast.Div: "÷", ast.Pow: "^"}
_PRECEDENCE = {ast.Add: 1, ast.Sub: 1, ast.Mult: 2, ast.Div: 2, ast.Pow: 3}
_CALL = {"ceil": "rounded up", "floor": "rounded down", "min": "the smaller of",
         "max": "the larger of", "sqrt": "the square root of", "log2": "log₂ of"}  # fmt: skip


def name_words(name: str) -> str:
    """An input's name as words, its unit (the last part of the name) in words or brackets:
    "gpus_per_host" reads "GPUs per host", "prefill_s" "prefill seconds", "tokens_per_s" "tokens
    per second", "host_w" "host (W)"."""
    parts = name.split("_")
    unit = ""
    if len(parts) > 2 and parts[-1] in TIMES and parts[-2] == "per":
        unit = " " + TIMES[parts.pop()].removesuffix("s")  # "tokens per second"
    elif len(parts) > 1 and parts[-1] in TIMES:
        unit = " " + TIMES[parts.pop()]
    elif len(parts) > 1 and parts[-1] in UNITS:
        unit = f" ({UNITS[parts.pop()]})"
    return labels.words(" ".join(parts)) + unit


def formula_words(formula: str) -> str:
    """``formula`` in words; a text that is not a formula is returned as it is."""
    try:
        tree = ast.parse(formula, mode="eval")
    except SyntaxError:
        return formula
    try:
        return _text(tree.body, 0)
    except ValueError:
        return formula


def inputs_words(inputs: dict[str, float | int | str]) -> str:
    return "; ".join(f"{name_words(k)} = {value(v)}" for k, v in inputs.items())


_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def _constant(x: float) -> str:
    """A number of the formula: a unit's power of ten from a million up as 10⁹ (a reader counts
    no zeros in 1,000,000,000,000), anything else as the documents print numbers."""
    if x >= 1e6:
        k = round(math.log10(x))
        if 10**k == x:
            return "10" + str(k).translate(_SUPERSCRIPT)
    return value(x)


def _text(node: ast.AST, outer: int) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return _constant(node.value)
    if isinstance(node, ast.Name):
        return name_words(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return "−" + _text(node.operand, 3)
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATOR:
        own = _PRECEDENCE[type(node.op)]
        # the right side of − and ÷ keeps its brackets at equal precedence: a − (b − c)
        right = own + (1 if isinstance(node.op, ast.Sub | ast.Div | ast.Pow) else 0)
        left = own + (1 if isinstance(node.op, ast.Pow) else 0)
        text = f"{_text(node.left, left)} {_OPERATOR[type(node.op)]} {_text(node.right, right)}"
        return f"({text})" if own < outer else text
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _CALL:
        args = ", ".join(_text(a, 0) for a in node.args)
        return f"{_CALL[node.func.id]} ({args})"
    raise ValueError("not plain arithmetic")


_GROUP = re.compile(r"workloads\[(\d+)\]\.?")
_TIME_UNITS = {"s", "ms", "h"}
_FABRICS = {f.value for f in Fabric}  # a duration's id ends in its unit; the value column shows it


def quantity(calc: Calculation, prefix: str, groups: Sequence[str] = ()) -> str:
    """A logged figure's id as words: "workloads[0].serving.decode.comm_s" under the prefix
    "workloads[0]." reads "serving: decode comm time"; a group's index reads as its name."""
    name = calc.id.removeprefix(prefix)
    head = ""
    m = _GROUP.search(name)
    named = next((g for g in groups if f".{g}." in f".{name}."), None)
    if named is not None:  # an id that holds a group's name ("cost.Chat 3.1.per_million_tokens")
        head = f"{named}: "
        name = f".{name}.".replace(f".{named}.", ".", 1)
    elif m and int(m[1]) < len(groups):
        head = f"{groups[int(m[1])]}: "
        name = name[: m.start()] + name[m.end() :]
    # a shared network's fabric ("fabric.compute.200gbe.leaves") by its name, "200 GbE"
    name = ".".join(
        labels.FABRIC[Fabric(part)] if part in _FABRICS else part for part in name.split(".")
    )
    name = name.strip(".").replace("_", " ")
    name = name.replace(".", ": ", 1).replace(".", " ")
    parts = name.split(" ")
    if len(parts) > 1 and parts[-1] in _TIME_UNITS:
        # "ttft ms" is a time already; "prefill s" reads "prefill time"
        parts[-1:] = [] if parts[-2] in ("ttft", "itl") else ["time"]
    return head + labels.words(" ".join(parts))
