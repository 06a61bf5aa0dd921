"""'To confirm' travels: a figure the catalog marks unsettled (an entry's ``unsettled`` list) is
marked on every bill line that states it, and a part number read from a third party or given
with a suffix to choose is marked on its cabling line, so a buyer knows what to confirm with
the vendor before ordering."""

from __future__ import annotations

from wizard.model import buildout as bo
from wizard.model.catalog import Parts, Sourced

# the one rule of the mark lives with the catalog's figures, where every reader finds it; the
# engine's messages and calculation sources use it from here
from wizard.model.unsettled import MARK as MARK
from wizard.model.unsettled import WORDS as WORDS
from wizard.model.unsettled import flag as flag
from wizard.model.unsettled import said_in as said_in
from wizard.model.unsettled import tagged, unsettled, words

# The catalog kind of a bill line's item, by the item's head, and the figures the line states
SHOWN: dict[str, tuple[str, tuple[str, ...]]] = {
    "server": ("servers", ("rack_units", "sockets", "cpu_options", "cooling", "hgx_gpus")),
    "server-psu": ("servers", ("psu_w", "psu_count")),
    "gpu": ("gpus", ("memory_gb", "memory_type", "slot_width", "gpus_per_board")),
    "nic": ("nics", ("part_number", "ports", "port_speed_gbps")),
    "switch": ("switches", ("part_number", "ports", "port_speed_gbps", "rack_units")),
    "storage": ("storage", ("usable_capacity_tb_per_node", "read_throughput_gbs_per_node",
                            "rack_units_per_node")),
    "licence": ("licences", ("part_number", "unit", "min_units", "term")),
    "nvlink-bridge": ("gpus", ("nvlink",)),  # its part number and bridges per group
}  # fmt: skip


def entry_of(catalog: Parts, item: str) -> tuple[Sourced, tuple[str, ...]] | None:
    """The catalog entry a bill line is for, and the figures the line states."""
    head, _, rest = item.partition(":")
    kind = SHOWN.get(head)
    if kind is None:
        return None
    entries = getattr(catalog, kind[0])
    entry = entries.get(rest.split(":")[0])
    return (entry, kind[1]) if entry is not None else None


def marked(line: bo.BomLine, catalog: Parts, extra: tuple[str, ...] = ()) -> bo.BomLine:
    """The line with the unsettled figures it states; a cabling part number whose source says
    to confirm it is marked too. ``extra``: figures of another entry the line states (the
    NVIDIA AI Enterprise years a GPU ships with, on the licence line)."""
    found = entry_of(catalog, line.item)
    out: list[str] = []
    if found is not None:
        out = unsettled(*found)
    elif line.part_number and "confirm" in line.source.lower():
        out = ["part number"]
    out = list(dict.fromkeys([*out, *extra]))
    if not out or line.to_confirm:
        return line
    # in the line's own words, so every format of the bill (PDF, Word, workbook, CSV) says it
    said = tagged(line.description, out)
    return line.model_copy(update={"to_confirm": out, "description": said})


def mark(bom: bo.Bom, catalog: Parts) -> bo.Bom:
    return bom.model_copy(update={"lines": [marked(ln, catalog) for ln in bom.lines]})


# The power figure of each kind of entry a power item draws on
POWER_FIELDS = {"switches": ("power_w",), "storage": ("power_w_per_node",),
                "cooling": ("power_w",), "servers": ("baseline_power_w",)}  # fmt: skip
POWER_MARK = " (power to confirm with the vendor)"


def power_entry(catalog: Parts, item: str) -> Sourced | None:
    """The catalog entry a power item is for, by the product name it starts with (the longest
    name that matches, so 'SN4600C' is not taken for a shorter name)."""
    best: Sourced | None = None
    length = 0
    for kind in POWER_FIELDS:
        for entry in getattr(catalog, kind).values():
            name = entry.product_name
            if item.startswith(name) and len(name) > length:
                best, length = entry, len(name)
    return best


def mark_power(power: bo.Power, catalog: Parts) -> bo.Power:
    """Each power item whose catalog entry marks its power unsettled says so in its name: the
    host's platform baseline, a switch's typical power, a storage node's or a distribution
    unit's."""
    return power.model_copy(update={"items": mark_items(power.items, catalog)})


def mark_items(items: list[bo.PowerItem], catalog: Parts) -> list[bo.PowerItem]:
    """``items``, each whose catalog entry (by the product name it starts with) marks its power
    unsettled saying so in its name."""
    out = []
    for it in items:
        entry = power_entry(catalog, it.item)
        kind = next((k for k in POWER_FIELDS if entry is not None
                     and entry.id in getattr(catalog, k)), None)  # fmt: skip
        fields = POWER_FIELDS.get(kind or "", ())
        if unsettled(entry, fields):
            it = it.model_copy(update={"item": it.item + POWER_MARK})
        out.append(it)
    return out


def mark_cooling(
    cooled: bo.Cooling | None, catalog: Parts, servers: list[Sourced]
) -> bo.Cooling | None:
    """The liquid-cooling figures whose inputs the catalog marks unsettled: the liquid-cooled
    servers' share of heat to the liquid (it sets the coolant's heat, the units and the water
    flow), the unit's capacity, own power and design rise."""
    if cooled is None:
        return None
    out: list[str] = []
    for server in servers:
        if "liquid_heat_share" in server.unsettled:
            out.append(f"{words('liquid_heat_share')} of the {getattr(server, 'product_name', '')}")
    unit = catalog.cooling.get(cooled.cdu)
    if unit is not None:
        out += [f"{words(f)} of the {unit.product_name}" for f in unit.unsettled
                if f in ("capacity_kw", "power_w", "facility_delta_t_c")]  # fmt: skip
    return cooled.model_copy(update={"to_confirm": list(dict.fromkeys(out))})
