"""How numbers read in the report: few significant digits, thousands separators, no 1e+20."""

from __future__ import annotations

import math

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def num(value: float | int | None, digits: int | None = None) -> str:
    """A number for a reader: integers with separators, floats to 3-4 significant digits, very
    large or small ones as a × 10ⁿ."""
    if value is None:
        return "–"
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
    return f"{num(v, digits)} {u}" if v is not None else "–"


def pct(share: float | None) -> str:
    return "–" if share is None else f"{share * 100:.0f} %"
