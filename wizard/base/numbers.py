"""How numbers read wherever a customer sees them: thousands separators, a unit after a space,
plurals that agree ("1 host", "2 hosts") and one mark for a missing value."""

from __future__ import annotations

import math

MISSING = "–"  # a figure not known (yet), in tables, the terminal and the proposal alike

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def num(value: float | int | None, digits: int | None = None) -> str:
    """A number for a reader: integers with separators, floats to 3-4 significant digits (or
    ``digits`` decimals), very large or small ones as a × 10ⁿ."""
    if value is None:
        return MISSING
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int) or (float(value).is_integer() and abs(value) < 1e15):
        return f"{int(value):,}"
    v = float(value)
    if not math.isfinite(v):
        return str(v)
    a = abs(v)
    if a >= 1e7 or a < 1e-3:
        # the mantissa from the decimal form: 10 ** exp underflows to 0 for subnormal numbers
        mant, exp = f"{v:.2e}".split("e")
        return f"{float(mant):g} × 10{str(int(exp)).translate(_SUPERSCRIPT)}"
    if digits is None:
        digits = 0 if a >= 1000 else 1 if a >= 100 else 2 if a >= 1 else 3
    return f"{v:,.{digits}f}"


def fixed(value: float | int | None, unit: str = "", digits: int = 1) -> str:
    """A figure in a column of like figures: integers whole, floats to ``digits`` decimals, so
    the decimals line up; the unit after a space."""
    if value is None:
        return MISSING
    text = f"{value:,.{digits}f}" if isinstance(value, float) else f"{value:,}"
    return f"{text} {unit}" if unit else text


def ratio(value: float) -> str:
    """A ratio's first term, as in "0.73:1" or "3:1": two decimals at most, trailing zeros
    dropped (a switch's oversubscription is quoted so, never as 0.733333)."""
    return f"{round(value, 2):g}"


def value(v: float | int | str | bool | None) -> str:
    """Any Result or design value: numbers through :func:`num`, the rest as text."""
    if isinstance(v, bool) or v is None:
        return num(v)
    if isinstance(v, int | float):
        return num(v)
    if v in ("True", "False"):
        return "yes" if v == "True" else "no"
    return str(v)


def unit(v: float | int | None, u: str, digits: int | None = None) -> str:
    return f"{num(v, digits)} {u}" if v is not None else MISSING


def pct(share: float | None) -> str:
    return MISSING if share is None else f"{share * 100:.0f} %"


def plural(n: float | int, noun: str, many: str | None = None) -> str:
    """The noun that agrees with ``n``: one host, 0 or 2 hosts; ``many`` for irregular plurals."""
    return noun if n == 1 else many or f"{noun}s"


def count(n: float | int | None, noun: str, many: str | None = None) -> str:
    """'1 host', '2 hosts', '1,024 GPUs': the number and the noun that agrees with it."""
    if n is None:
        return f"{MISSING} {many or noun + 's'}"
    return f"{num(n)} {plural(n, noun, many)}"


# Count units of the calculation log and their singular, for a value of exactly one
_SINGULAR = {
    "GPUs": "GPU",
    "GPU allocations": "GPU allocation",
    "hosts": "host",
    "racks": "rack",
    "nodes": "node",
    "ports": "port",
    "switches": "switch",
    "replicas": "replica",
    "iterations": "iteration",
    "sequences": "sequence",
    "parameters": "parameter",
    "core licences": "core licence",
    "users or jobs": "user or job",
    "micro-batches per iteration": "micro-batch per iteration",
    "tokens per sequence": "token per sequence",
}


def with_unit(v: float | int, u: str) -> str:
    """A logged value with its unit, the unit agreeing with the value: '1 host', '2 hosts'; a
    yes-or-no figure logged as 1 or 0 with a unit '1 = A, 0 = B' reads 'A (1)' or 'B (0)'."""
    if u.startswith("1 = ") and ", 0 = " in u and v in (0, 1):
        yes, no = u.removeprefix("1 = ").split(", 0 = ", 1)
        return f"{yes if v == 1 else no} ({num(v)})"
    return f"{num(v)} {_SINGULAR.get(u, u) if v == 1 else u}"


def figure(value: float, unit: str) -> str:
    """A figure with sensible precision: whole numbers from 100 up, one decimal below (none for
    a whole number, as a target is typed: 50 ms, not 50.0 ms)."""
    whole = abs(value) >= 100 or float(value).is_integer()
    text = f"{value:,.0f}" if whole else f"{value:,.1f}"
    return f"{text} {unit}"


def some(names: list[str], most: int = 8, sep: str = ", ") -> str:
    """A list of names a message can hold: the first few, then how many more, so a design
    with a thousand groups still gives a warning that fits a page."""
    if len(names) <= most:
        return sep.join(names)
    return f"{sep.join(names[:most])} and {len(names) - most:,} more"
