"""Liquid cooling in one sentence, as the window and the terminal summary say it (the proposal
lays the same figures out as a table)."""

from __future__ import annotations

from wizard.base.numbers import count, num
from wizard.model.buildout import Cooling


def cooling_sentence(c: Cooling) -> str:
    """'1 × Vertiv CoolChip CDU 121 (XDU100B) in the rack: 36.0 kW to the coolant, 23.7 kW to
    the room air; facility water 52 l/min at a 10 °C rise.'"""
    where = "in the rack" if c.placement == "in-rack" else "in the row"
    spares = f" ({count(c.spares, 'spare')})" if c.spares else ""
    return (
        f"{num(c.units)} × {c.model} {where}{spares}: {c.liquid_kw:,.1f} kW to the coolant, "
        f"{c.air_kw:,.1f} kW to the room air; facility water {num(round(c.facility_flow_lpm))} "
        f"l/min at a {c.facility_delta_t_c:g} °C rise."
    )
