"""Liquid cooling: where a direct-liquid-cooled server's heat goes, and the coolant distribution
units (CDUs) and facility water that carry it away.

A direct-liquid-cooled server gives the share of its heat its vendor states to the coolant
(cold plates on GPUs, CPUs and switches) and the rest to the room air (memory, drives, power
supplies); switches and storage are air-cooled. A CDU moves the coolant's heat into the facility
water; the water flow follows from the heat and the temperature rise the unit is rated at:
heat = mass flow x specific heat x rise.
"""

from __future__ import annotations

from wizard.base.numbers import count
from wizard.engine.basis import sources
from wizard.engine.basis.expr import Formula
from wizard.engine.basis.record import Recorder
from wizard.engine.fitout import confirm
from wizard.model import buildout as bo
from wizard.model.catalog import Cdu, CduPlacement, Cooling, Parts, Server
from wizard.model.result import DecisionTopic

WATER_CP = 4186.0  # J/(kg K), liquid water near 25-35 C
WATER_DENSITY = 995.0  # kg/m3 at about 30 C
WATER_SOURCE = (
    "Water near 30 C: specific heat 4.186 kJ/(kg K), density 995 kg/m3 (NIST Chemistry WebBook, "
    "Thermophysical Properties of Fluid Systems, water at 0.1 MPa, "
    "https://webbook.nist.gov/chemistry/fluid/); heat = mass flow x specific heat x "
    "temperature rise"
)
FLOW = Formula("coolant_heat_w / (water_specific_heat * temperature_rise * water_density) * 60000")
IN_ROW_UNITS = Formula("ceil(coolant_heat_w / unit_capacity_w) + spare_units")


def liquid_share(server: Server) -> float:
    """The share of a host's heat its coolant carries: the vendor's figure, 0 when air-cooled."""
    if server.cooling is not Cooling.LIQUID:
        return 0.0
    return server.liquid_heat_share or 0.0


def in_rack_units(catalog: Parts) -> list[Cdu]:
    """The catalog's in-rack CDUs, smallest first."""
    return sorted(
        (c for c in catalog.cooling.values() if c.placement is CduPlacement.IN_RACK),
        key=lambda c: (c.capacity_kw, c.id),
    )


def pick_in_rack(
    catalog: Parts, server: Server, host_w: float, height_u: int, limit_w: float
) -> Cdu | None:
    """The smallest in-rack CDU that carries the coolant heat of a rack as full as its room
    allows (the unit's own height and power taken from the rack), None for an air-cooled
    server or when no in-rack unit is large enough (the planner then plans in-row units)."""
    share = liquid_share(server)
    if not share or not host_w:
        return None
    for c in in_rack_units(catalog):
        room = height_u - (c.rack_units or 0)
        if room < server.rack_units or (c.power_w or 0.0) + host_w > limit_w:
            continue  # the unit leaves no room (or power) for a host beside it
        hosts = min(room // server.rack_units, int((limit_w - (c.power_w or 0.0)) // host_w))
        if max(hosts, 1) * host_w * share <= c.capacity_kw * 1000:
            return c
    return None


def pick_in_row(catalog: Parts) -> Cdu | None:
    """The largest in-row CDU (fewest units for the row)."""
    row = [c for c in catalog.cooling.values() if c.placement is CduPlacement.IN_ROW]
    return max(row, key=lambda c: (c.capacity_kw, c.id)) if row else None


def cooling(
    racks: list[bo.Rack], catalog: Parts, cdu: Cdu | None, spares: int, rec: Recorder
) -> bo.Cooling | None:
    """The distribution units and facility water for the racks' coolant heat, None when no
    rack holds a liquid-cooled server. ``cdu`` is the unit the rack placement reserved room
    for (in-rack), or None to plan in-row units."""
    liquid = [r for r in racks if r.liquid_w > 0]
    if not liquid:
        return None
    liquid_w = sum(r.liquid_w for r in liquid)
    air_w = sum(r.air_w for r in liquid)
    densest = max(r.liquid_w for r in liquid)
    unit = cdu or pick_in_row(catalog)
    if unit is None:
        rec.warn(
            "no-cdu-in-catalog",
            f"The racks' coolant carries {liquid_w / 1000:,.1f} kW, but the catalog has no "
            "coolant distribution unit to plan for it; plan the CDUs with the facility",
        )
        return None
    rec.expr(
        "cooling.coolant_heat_w",
        Formula("racks_coolant_heat_w"),
        {"racks_coolant_heat_w": liquid_w},
        "W",
        f"{sources.DERIVED}: each liquid-cooled host's planning power x the share of its heat "
        "its vendor states goes to the coolant (catalog servers, liquid_heat_share), summed "
        "over the racks",
    )
    if unit.placement is CduPlacement.IN_RACK:
        units, spare = sum(1 for r in liquid for i in r.items if i.kind == "cdu"), 0
        rec.expr(
            "cooling.distribution_units",
            Formula("liquid_cooled_racks"),
            {"liquid_cooled_racks": units},
            "units",
            f"{unit.product_name}: one in each rack of liquid-cooled servers "
            f"(catalog cooling/{unit.id})",
        )
    else:
        spare = spares
        units = int(
            rec.expr(
                "cooling.distribution_units",
                IN_ROW_UNITS,
                {
                    "coolant_heat_w": liquid_w,
                    "unit_capacity_w": unit.capacity_kw * 1000,
                    "spare_units": spares,
                },
                "units",
                confirm.flag(
                    f"{unit.product_name} rated {unit.capacity_kw:g} kW "
                    f"(catalog cooling/{unit.id}); spares: {sources.ASSUMPTION}",
                    unit,
                    "capacity_kw",
                ),
            )
        )
    flow = rec.expr(
        "cooling.facility_water_flow",
        FLOW,
        {
            "coolant_heat_w": liquid_w,
            "water_specific_heat": WATER_CP,
            "temperature_rise": unit.facility_delta_t_c,
            "water_density": WATER_DENSITY,
        },
        "l/min",
        confirm.flag(
            f"{WATER_SOURCE}; temperature rise {unit.facility_delta_t_c:g} C at the "
            f"{unit.product_name}'s rated capacity",
            unit,
            "facility_delta_t_c",
        ),
    )
    if unit.placement is CduPlacement.IN_RACK and densest > unit.capacity_kw * 1000:
        rec.warn(
            "cdu-over-capacity",
            f"The densest rack's coolant carries {densest / 1000:,.1f} kW, over the "
            f"{unit.capacity_kw:g} kW of its {unit.product_name}; plan fewer hosts per "
            "rack or in-row units",
        )
    rec.decide(
        f"{count(units, 'coolant distribution unit')} ({unit.product_name}"
        + (", one per rack" if unit.placement is CduPlacement.IN_RACK else ", in the row")
        + f") {'carries' if units == 1 else 'carry'} {liquid_w / 1000:,.1f} kW from the coolant of "
        f"{count(len(liquid), 'rack')} into {flow:,.0f} l/min of facility water; the same racks "
        f"give {air_w / 1000:,.1f} kW to the room air.",
        "The servers are cooled by liquid on their processors and GPUs, the rest of their heat "
        "(memory, drives, power supplies) and the switches' go to the air"
        + (
            f"; {count(spare, 'spare unit')} keeps cooling while a unit is serviced"
            if spare
            else ""
        )
        + ".",
        DecisionTopic.RACKS,
        implication=confirm.flag(
            f"The facility provides water for {flow:,.0f} l/min at a "
            f"{unit.facility_delta_t_c:g} °C rise and air cooling for {air_w / 1000:,.1f} kW",
            unit,
            "facility_delta_t_c",
        )
        + (
            confirm.flag(
                f"; the units' own {(unit.power_w or 0) * units:,.0f} W come from the facility's "
                "supply",
                unit,
                "power_w",
            )
            if unit.placement is CduPlacement.IN_ROW and unit.power_w
            else ""
        )
        + ".",
    )
    return bo.Cooling(
        cdu=unit.id,
        model=unit.product_name,
        placement=unit.placement.value,
        units=units,
        spares=spare,
        racks=len(liquid),
        liquid_kw=liquid_w / 1000,
        air_kw=air_w / 1000,
        densest_rack_liquid_kw=densest / 1000,
        facility_flow_lpm=flow,
        facility_delta_t_c=unit.facility_delta_t_c,
        cdu_power_w=(unit.power_w or 0.0) * units,
    )


def cooling_lines(c: bo.Cooling | None, catalog: Parts) -> list[bo.BomLine]:
    """The distribution units as the bill orders them."""
    if c is None or c.cdu not in catalog.cooling:
        return []
    unit = catalog.cooling[c.cdu]
    where = "in the rack it cools" if c.placement == "in-rack" else "in-row, serving the racks"
    return [
        bo.BomLine(
            category=bo.BomCategory.COOLING,
            item=f"cooling:{unit.id}",
            part_number=unit.part_number,
            description=f"{unit.product_name} coolant distribution unit, "
            f"{unit.capacity_kw:g} kW, {where}"
            + (f" ({count(c.spares, 'spare')})" if c.spares else ""),
            quantity=c.units,
            unit="each",
            source=unit.source,
        )
    ]
