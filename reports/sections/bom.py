"""Bill of materials: every line with its part number, quantity and source, priced where the
design's price list has prices."""

from __future__ import annotations

from collections import Counter

from reportlab.platypus import Flowable

from reports.sections import calculations
from reports.story import Story
from wizard.base.numbers import MISSING, count, num
from wizard.engine import PDUS_PER_RACK, PortLink, oob_switches
from wizard.model.buildout import Bom, Rack
from wizard.present import labels
from wizard.present.cost_text import unpriced_words


def _money(value: float | None) -> str:
    return MISSING if value is None else f"{value:,.2f}"


def build(st: Story) -> list[Flowable] | None:
    # the order as priced, when the proposal has a price list
    bom = st.data.plan.priced or st.data.plan.estate.bom
    links = st.data.plan.port_map
    return (
        table(st, bom)
        + per_rack(st, st.data.result.racks.racks, links)
        + calculations.block(st, "bom.")
    )


def per_rack(st: Story, racks: list[Rack], links: list[PortLink]) -> list[Flowable]:
    """What the installer puts in each rack: its servers, switches and storage by model, the
    out-of-band switches and PDUs, and the cables that start there (the port map's rows)."""
    if len(racks) < 2:
        return []
    cables = Counter(ln.rack for ln in links)
    rows: list[list] = [["Rack", "Servers", "Switches", "Storage", "Out-of-band switches",
                         "PDUs", "Cables"]]  # fmt: skip
    for r in racks:
        kinds = {k: Counter(i.model for i in r.items if i.kind == k)
                 for k in ("server", "switch", "storage")}  # fmt: skip
        said = {k: "; ".join(f"{n} × {m}" for m, n in v.items()) or MISSING
                for k, v in kinds.items()}  # fmt: skip
        rows.append([r.name, said["server"], said["switch"], said["storage"],
                     num(oob_switches(r)),
                     num(PDUS_PER_RACK), num(cables.get(r.name, 0))])  # fmt: skip
    return [*st.h3("Per rack"), st.table(rows, [1.2, 1.9, 1.9, 1.0, 1.35, 0.7, 0.8],
                                         right=(4, 5, 6))]  # fmt: skip


def table(st: Story, bom: Bom, cluster_column: bool = False) -> list[Flowable]:
    """The lines, priced where the price list has prices; with ``cluster_column``, the cluster
    each line is for ("shared" for the network the clusters share)."""
    priced = bom.total is not None
    header = ["Category", "Part number", "Description", "Qty", "Unit"]
    widths = [1, 1.5, 3.6, 0.6, 1]
    if cluster_column:
        header.insert(0, "Cluster")
        widths.insert(0, 1.2)
    if priced:
        header += [f"Unit price ({bom.currency})", f"Total ({bom.currency})"]
        widths += [1.1, 1.1]
    header.append("Src.")
    widths.append(0.6)
    rows: list[list] = [header]
    for line in bom.lines:
        row = [labels.BOM_CATEGORY[line.category], line.part_number or MISSING, line.description, num(line.quantity),
               line.unit]  # fmt: skip
        if cluster_column:
            row.insert(0, line.cluster or "shared")
        if priced:
            row += [_money(line.unit_price), _money(line.total_price)]
        row.append(st.cite(line.source))
        rows.append(row)
    shift = 1 if cluster_column else 0
    right = tuple(c + shift for c in ((3, 5, 6) if priced else (3,)))
    flow: list[Flowable] = [st.table(rows, widths, right=right)]
    if priced:
        totals = [
            (labels.name(labels.BOM_CATEGORY, k), _money(v))
            for k, v in bom.totals_by_category.items()
        ]
        # bought once and paid every year are two sums, never one
        totals.append(("Bought once", f"{_money(bom.one_off)} {bom.currency}"))
        totals.append(("Subscriptions per year", f"{_money(bom.per_year)} {bom.currency}"))
        flow.append(st.pairs(totals))
    if bom.unpriced_items:
        flow.append(st.p(unpriced_sentence(bom)))
    return flow


def unpriced_sentence(bom: Bom) -> str:
    """The lines the price list has no price for, by what they are (not by their keys)."""
    what = unpriced_words(bom)
    return (
        f"Not in the price list, so not in the totals ({count(len(what), 'line')}): "
        + "; ".join(what)
        + "."
    )
