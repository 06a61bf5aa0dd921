"""Cabling and port map: every cable of the design, rack by rack, from the device port it
starts at to the switch port it lands on, with the part and length the bill of materials
orders; so an installer can cable the racks from the proposal and a reviewer can check it."""

from __future__ import annotations

from collections import Counter

from reports.doctree import Block
from reports.story import Story
from wizard.base.numbers import count
from wizard.engine import PortLink
from wizard.model.design import Fabric
from wizard.present import labels

# Beyond this many cables the table runs to tens of pages; the spreadsheet holds the rest
MAX_ROWS = 600


def build(st: Story) -> list[Block] | None:
    links = st.data.plan.port_map
    return tables(st, links) if links else None


def network(name: str) -> str:
    """A plane's name as the table says it: 'compute' reads 'Compute (GPU fabric)', a shared
    network's 'compute.200gbe' 'Compute (GPU fabric), 200 GbE'."""
    kind, _, fabric = name.partition(".")
    text = labels.NETWORK_SHORT.get(kind, labels.words(kind))
    if fabric in {f.value for f in Fabric}:
        text += f", {labels.FABRIC[Fabric(fabric)]}"
    return text


def tables(st: Story, links: list[PortLink]) -> list[Block]:
    flow: list[Block] = [
        st.p(
            "Each row is one cable, from the port of a host or switch to the switch port it lands "
            "on, with the part and length the bill of materials orders. Switch ports are "
            "numbered from 1 in the order given; a twin-port OSFP cage carries two ports and a "
            "breakout splits one switch port over several host ports. Host ports are numbered "
            "per network in the order of the host's network cards."
        )
    ]
    racks = list(dict.fromkeys(ln.rack for ln in links))
    per_rack = Counter(ln.rack for ln in links)
    rows: list[list] = [["Rack", "Cables starting there", "Of which"]]
    for rk in racks:
        kinds = Counter(network(ln.network) for ln in links if ln.rack == rk)
        said = "; ".join(f"{n:,} {k[:1].lower()}{k[1:]}" for k, n in kinds.items())
        rows.append([rk, f"{per_rack[rk]:,}", said])
    flow.append(st.table(rows, [1.6, 1.2, 5], right=(1,)))
    shown = links[:MAX_ROWS]
    for rk in racks:
        mine = [ln for ln in shown if ln.rack == rk]
        if not mine:
            continue
        flow += st.h3(f"Rack {rk}")
        body: list[list] = [["Device", "Port", "Network", "To rack", "To device", "To port",
                             "Cable"]]  # fmt: skip
        for ln in mine:
            body.append([ln.device, ln.port, network(ln.network), ln.to_rack, ln.to_device,
                         ln.to_port, ln.cable])  # fmt: skip
        flow.append(st.table(body, [1.45, 0.75, 1.25, 0.6, 1.55, 0.95, 2.6]))
    if len(links) > len(shown):
        flow.append(
            st.p(
                f"The table shows the first {count(len(shown), 'cable')} of "
                f"{len(links):,}; the spreadsheet of the bill of materials holds all of them on "
                "its Port map sheet."
            )
        )
    return flow
