"""The storage need in words: a total the engine adds from the known needs reads "at least" that
total and names the groups whose need is not known, or "not known" when nothing of it is known,
so no reader prints 0 for a figure nobody gave ("an optimistic figure is a wrong figure"). The
terminal, the window and the proposal all word it here."""

from __future__ import annotations

from wizard.base.numbers import num, some

NOT_KNOWN = "not known"


def total(shown: str, value: float, not_known: list[str]) -> str:
    """``shown`` (``value`` formatted by the reader) as it stands when every need is known;
    "at least 3.2 GB/s, not known for A, B" when some are not; "not known for A, B" when
    the known ones add up to nothing."""
    if not not_known:
        return shown
    names = some(not_known)
    if value <= 0:
        return f"{NOT_KNOWN} for {names}"
    return f"at least {shown}, {NOT_KNOWN} for {names}"


def cell(shown: str, value: float | None) -> str:
    """One group's figure in a table: ``shown``, or "not known"."""
    return NOT_KNOWN if value is None else shown


def nodes_for(n: int | None) -> str:
    """Storage nodes a need takes, or "not known" where nothing of the need is known (so no
    node count stands for it)."""
    return NOT_KNOWN if n is None else f"{n:,}"


def rate(value: float, unit: str) -> str:
    """A read rate to two decimals, as the window's column of rates shows them, or to its
    significant digits where two decimals would show a need of 3.7 x 10^-4 GB/s as 0.00."""
    text = num(value) if 0 < value < 0.005 else f"{value:,.2f}"
    return f"{text} {unit}" if unit else text
