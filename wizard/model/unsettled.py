"""Which catalog figures are unsettled, and the one mark that says so wherever one is printed.

An entry's ``unsettled`` list names the figures the vendor does not publish or that are
estimated, recalled or read from a third party. Every reader that prints such a figure (a bill
line, a proposal's row, a drawing's legend, a calculation, the terminal) asks ``unsettled`` and
adds ``tagged``'s mark, so 'to confirm with the vendor' appears exactly where the catalog says a
figure is not settled, in the same words in every format."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from wizard.model.catalog_base import Sourced

WORDS = {
    "part_number": "part number",
    "nvlink.bridge_part_number": "part number",
    "nvlink.bridges_per_group": "bridges per group",
    "rack_units": "rack units",
    "rack_units_per_node": "rack units",
    "psu_w": "power supply rating",
    "psu_count": "power supplies",
    "power_w": "power",
    "power_w_per_node": "power",
    "usable_capacity_tb_per_node": "usable capacity",
    "read_throughput_gbs_per_node": "read throughput",
    "memory_gb": "memory",
    "port_speed_gbps": "port speed",
    "cpu_options": "processor",
    "liquid_heat_share": "share of heat to the liquid",
    "tdp_w": "power",
    "baseline_power_w": "platform power",
    "memory_bandwidth_gbs": "memory bandwidth",
    "pcie_gen": "PCIe generation",
    "pcie_topology": "PCIe layout",
    "ports": "ports",
    "cpu_interconnect_gbs": "CPU interconnect bandwidth",
    "nvlink.bandwidth_gbs": "NVLink bandwidth",
    "nvlink": "NVLink",
    "memory_type": "memory type",
    "parameters": "parameter count",
    "sharp": "in-network reduction (SHARP)",
    "unit": "licence unit",
    "min_units": "minimum count",
    "term": "subscription terms",
    "hgx_gpus": "GPUs its board takes",
    "nvaie_included_years": "years included with the GPU",
    "capacity_kw": "capacity",
    "facility_delta_t_c": "design water temperature rise",
}


def words(field: str) -> str:
    """A catalog field as a reader says it: 'part number', not 'part_number'."""
    head = field.split(".")[0]
    return WORDS.get(field) or WORDS.get(head, head.replace("_", " "))


MARK = "to confirm with the vendor"


def unsettled(entry: Sourced | None, fields: Iterable[str]) -> list[str]:
    """The one rule of the mark: the figures among ``fields`` (a field, or a block whose
    figures count, such as ``nvlink``) that ``entry`` marks unsettled, in words, once each;
    [] for a settled figure or no entry. Every place a catalog figure is printed asks it."""
    if entry is None:
        return []
    shown = set(fields)
    heads = {s.split(".")[0] for s in shown}
    # a figure shown, a block shown whose figure it is, or a block left unsettled whole
    said = [words(f) for f in entry.unsettled
            if f in shown or f.split(".")[0] in shown or f in heads]  # fmt: skip
    return list(dict.fromkeys(said))


def tagged(text: str, said: Sequence[str]) -> str:
    """``text`` with the mark naming the figures ``said`` (unchanged when there are none), in
    the words every format prints: '... (to confirm with the vendor: power)'."""
    return f"{text} ({MARK}: {', '.join(said)})" if said else text


def said_in(text: str) -> list[str]:
    """The figures a text marked by ``tagged`` names; [] for an unmarked text (a calculation's
    source carries the mark of the catalog figures it reads, and its row shows it)."""
    head = f"({MARK}: "
    if not text.endswith(")") or head not in text:
        return []
    return text[text.rindex(head) + len(head) : -1].split(", ")


def flag(text: str, entry: Sourced | None, *fields: str) -> str:
    """``text``, which prints ``entry``'s ``fields``, marked where the catalog leaves any of
    them unsettled."""
    return tagged(text, unsettled(entry, fields))
