"""Liquid cooling: the coolant distribution units, the heat each rack gives to its coolant and to
the room air, and the facility water the units need."""

from __future__ import annotations

from reports.doctree import Block
from reports.story import Story
from wizard.base.numbers import count, num
from wizard.model.buildout import Cooling, Rack
from wizard.model.unsettled import flag

WHERE = {
    "in-rack": "one in each rack of liquid-cooled servers, at its foot",
    "in-row": "in the row, serving the racks",
}


def block(st: Story, cooling: Cooling | None, racks: list[Rack]) -> list[Block]:
    """The liquid-cooling subsection, or nothing for an air-cooled design."""
    if cooling is None:
        return []
    c = cooling
    spares = f", {count(c.spares, 'spare')} among them" if c.spares else ""
    unit = st.data.catalog.cooling.get(c.cdu)  # its figures the catalog leaves unsettled
    flow = st.h3("Liquid cooling")
    flow.append(
        st.pairs(
            [
                ("Coolant distribution units", flag(f"{num(c.units)} × {c.model}, {WHERE.get(c.placement, c.placement)}{spares}", unit, "capacity_kw", "rack_units")),
                ("Heat to the coolant", f"{c.liquid_kw:,.1f} kW from {count(c.racks, 'rack')} (the densest {c.densest_rack_liquid_kw:,.1f} kW)"),
                ("Heat to the room air", f"{c.air_kw:,.1f} kW from the same racks (memory, drives, power supplies, switches)"),
                ("Facility water", flag(f"{num(round(c.facility_flow_lpm))} l/min at a {c.facility_delta_t_c:g} °C rise", unit, "facility_delta_t_c")),
                ("The units' own power", flag(f"{num(c.cdu_power_w)} W", unit, "power_w") if c.cdu_power_w else "not published: ask the vendor"),
                *([("To confirm with the vendor", "; ".join(c.to_confirm) + " (estimated or "
                    "not published: the heat, units and water above follow from them)")]
                  if c.to_confirm else []),
            ]
        )
    )  # fmt: skip
    rows: list[list] = [["Rack", "To the coolant (kW)", "To the air (kW)", "Total (kW)"]]
    rows += [
        [r.name, f"{r.liquid_w / 1000:,.1f}", f"{r.air_w / 1000:,.1f}", f"{r.power_w / 1000:,.1f}"]
        for r in racks
        if r.liquid_w > 0
    ]
    flow.append(st.table(rows, [2.2, 1.4, 1.4, 1.2], right=(1, 2, 3)))
    return flow
