"""Kept for imports written before numbers moved to ``wizard.numbers``."""

from wizard.numbers import *  # noqa: F403
from wizard.numbers import MISSING, count, fixed, num, pct, plural, unit, value, with_unit

__all__ = ["MISSING", "count", "fixed", "num", "pct", "plural", "unit", "value", "with_unit"]
