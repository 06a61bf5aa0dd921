"""The stated spread of the efficiency assumptions: where a figure stands between the pessimistic
and the optimistic end. The ranges of the plan and the serving planner's choice of how many
requests a replica holds read it from here, so both judge a target by the same end."""

from __future__ import annotations

from wizard.model.design import Assumptions

SPREADS = {
    "achievable_utilization": "achievable_utilization_range",
    "decode_bandwidth_efficiency": "decode_bandwidth_efficiency_range",
    "prefill_compute_efficiency": "prefill_compute_efficiency_range",
}


def assumptions_at(a: Assumptions, t: float) -> Assumptions:
    """The assumptions at position ``t`` of their spreads: 0 the pessimistic end, 1 the
    optimistic one; a point estimate outside its stated spread widens the spread to it."""
    update = {}
    for name, spread in SPREADS.items():
        point = getattr(a, name)
        lo, hi = getattr(a, spread)
        lo, hi = min(lo, point), max(hi, point)
        update[name] = float(lo + t * (hi - lo))
    return a.model_copy(update=update)
