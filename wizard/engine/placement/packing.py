"""Packing slots onto physical GPUs and GPUs onto hosts.

Fractional slots (vGPUs, MIG instances, remote GPU shares) go onto GPUs by best-fit decreasing:
largest first, each onto the fullest GPU that still takes it. GPUs in the same state are kept
together under one hashable state, so a placement looks at the few distinct GPU states rather
than at every GPU, which keeps ten thousand users fast.

Whole-GPU units (one GPU, or a multi-GPU replica) then go onto hosts by best-fit decreasing,
never splitting a unit that fits one host; placing larger units first keeps replicas of two or
four GPUs on aligned GPU positions, which is where NVLink bridge pairs sit.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

S = TypeVar("S", bound=Hashable)
P = TypeVar("P")


@dataclass
class Item(Generic[P]):
    """``count`` identical slots of ``size`` (share of a GPU), described by ``payload``."""

    payload: P
    size: float
    count: int


@dataclass
class Bin(Generic[S, P]):
    state: S
    payloads: list[P] = field(default_factory=list)


def pack_fractional(
    items: list[Item[P]],
    empty: S,
    place: Callable[[S, P], S | None],
    fullness: Callable[[S], float],
) -> list[Bin[S, P]]:
    """Best-fit decreasing. ``place(state, payload)`` returns the state after adding one slot, or
    None when it does not fit; ``fullness(state)`` ranks candidates (fuller is a better fit)."""
    bins: list[Bin[S, P]] = []
    by_state: dict[S, list[int]] = {}
    memo: dict[tuple[S, int], S | None] = {}  # identical slots meet the same few states

    def fit(state: S, k: int, payload: P) -> S | None:
        key = (state, k)
        if key not in memo:
            memo[key] = place(state, payload)
        return memo[key]

    for k, item in enumerate(sorted(items, key=lambda i: -i.size)):
        left = item.count
        while left:
            best: tuple[float, S, S] | None = None
            for state, ids in by_state.items():
                if not ids:
                    continue
                after = fit(state, k, item.payload)
                if after is not None and (best is None or fullness(after) > best[0]):
                    best = (fullness(after), state, after)
            if best is None:
                left -= _open_bins(bins, by_state, item.payload, left, empty, place)
                continue
            left -= 1
            _, before, after = best
            index = by_state[before].pop()
            b = bins[index]
            b.state = after
            b.payloads.append(item.payload)
            by_state.setdefault(after, []).append(index)
    return bins


def _open_bins(
    bins: list[Bin[S, P]],
    by_state: dict[S, list[int]],
    payload: P,
    left: int,
    empty: S,
    place: Callable[[S, P], S | None],
) -> int:
    """Open bins for ``left`` identical slots that no open bin takes; returns how many placed.

    No open bin takes the slot, so best fit puts each following copy into the newest bin until
    it is full, then opens another: every bin fills the same way. Filling one and copying its
    state gives the same bins, and the same order of known states (which breaks ties later), as
    placing slot by slot, in time independent of the count.
    """
    chain: list[S] = []  # the states one bin passes through as it fills
    state = place(empty, payload)
    while state is not None and len(chain) < left:
        chain.append(state)
        by_state.setdefault(state, [])
        state = place(state, payload)
    if not chain:
        raise ValueError(f"{payload} does not fit an empty GPU")
    per_bin = len(chain)
    full, rest = divmod(left, per_bin)
    for n in [per_bin] * full + ([rest] if rest else []):
        bins.append(Bin(chain[n - 1], [payload] * n))
        by_state[chain[n - 1]].append(len(bins) - 1)
    return left


@dataclass
class Unit(Generic[P]):
    """GPUs that must share a host (one GPU, or the GPUs of one replica)."""

    gpus: list[P]


def place_on_hosts(units: list[Unit[P]], gpus_per_host: int) -> list[list[P | None]]:
    """Hosts with their GPU positions filled (None = free). Units larger than a host take whole
    hosts and place their remainder like any other unit."""
    hosts: list[list[P | None]] = []
    free: list[list[int]] = [[] for _ in range(gpus_per_host + 1)]  # free count -> host ids
    parts: list[list[P]] = []
    for u in units:
        rest = u.gpus
        while len(rest) > gpus_per_host:
            hosts.append(list(rest[:gpus_per_host]))
            rest = rest[gpus_per_host:]
        if rest:
            parts.append(rest)
    for part in sorted(parts, key=len, reverse=True):
        n = len(part)
        host = None
        for r in range(n, gpus_per_host + 1):
            if free[r]:
                host = free[r].pop()
                break
        if host is None:
            hosts.append([None] * gpus_per_host)
            host = len(hosts) - 1
            r = gpus_per_host
        slots = hosts[host]
        first = gpus_per_host - r
        slots[first : first + n] = part
        free[r - n].append(host)
    for h in hosts:  # hosts opened by oversize units are full; pad nothing else
        h.extend([None] * (gpus_per_host - len(h)))
    return hosts
