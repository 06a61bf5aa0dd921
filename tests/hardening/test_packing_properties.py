"""The fast paths of the packing give what the slot-by-slot algorithm gives.

``pack_fractional`` opens bins for many identical slots at once, and the mode comparison counts
hosts with ``hosts_needed`` on sizes rather than placing every GPU; both must agree exactly with
the plain best-fit decreasing they stand for.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from wizard.engine.placement.cluster import Demand, hosts_needed
from wizard.engine.placement.packing import Bin, Item, Unit, pack_fractional, place_on_hosts

# A GPU state: (memory used in eighths, number of slots); a slot of size k takes k eighths.
State = tuple[int, int]


def place(state: State, size: int) -> State | None:
    used, n = state
    return (used + size, n + 1) if used + size <= 8 and n < 7 else None


def fullness(state: State) -> float:
    return state[0] / 8


def slot_by_slot(items: list[Item[int]]) -> list[Bin[State, int]]:
    """Best-fit decreasing one slot at a time: the reference the fast path must match."""
    bins: list[Bin[State, int]] = []
    for item in sorted(items, key=lambda i: -i.size):
        for _ in range(item.count):
            best = None
            for b in bins:
                after = place(b.state, item.payload)
                if after is not None and (best is None or fullness(after) > best[0]):
                    best = (fullness(after), b, after)
            if best is None:
                after = place((0, 0), item.payload)
                assert after is not None
                bins.append(Bin(after, [item.payload]))
            else:
                _, b, after = best
                b.state = after
                b.payloads.append(item.payload)
    return bins


items = st.lists(
    st.builds(lambda k, n: Item(k, k / 8, n), st.integers(1, 8), st.integers(1, 300)),
    max_size=6,
)


def _summary(bins):
    return sorted((b.state, tuple(sorted(b.payloads))) for b in bins)


@given(items)
def test_many_identical_slots_pack_as_one_by_one(item_list):
    fast = pack_fractional(item_list, (0, 0), place, fullness)
    assert _summary(fast) == _summary(slot_by_slot(item_list))
    assert sum(len(b.payloads) for b in fast) == sum(i.count for i in item_list)


@given(
    st.lists(st.tuples(st.integers(1, 40), st.integers(0, 50)), max_size=6),
    st.integers(1, 16),
)
def test_counting_hosts_matches_placing_every_gpu(sizes, gpus_per_host):
    units = [Unit(list(range(g))) for g, count in sizes for _ in range(count)]
    placed = place_on_hosts(units, gpus_per_host)
    assert hosts_needed([Demand(g, c) for g, c in sizes], gpus_per_host) == len(placed)
    assert sum(1 for h in placed for cell in h if cell is not None) == sum(g * c for g, c in sizes)
