"""The one search the sizing repeats: the smallest whole number for which a monotone test holds
(replicas that meet a target, requests in flight that carry a rate)."""

from __future__ import annotations

from collections.abc import Callable


def first_true(test: Callable[[int], bool], lo: int, hi: int) -> int | None:
    """The smallest n in [lo, hi] for which ``test`` holds, assuming it stays true once it
    holds; None when it does not hold even at ``hi``."""
    if lo > hi or not test(hi):
        return None
    while lo < hi:
        mid = (lo + hi) // 2
        if test(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo
