"""Bill of materials: every line with its part number, quantity and source, priced where the
design's price list has prices."""

from __future__ import annotations

from collections import Counter

from reports.doctree import Block
from reports.fonts import SANS, text_width
from reports.sections import calculations, delta
from reports.story import Story
from wizard.base.numbers import MISSING, count, num
from wizard.engine import PortLink
from wizard.model.buildout import Bom, Rack
from wizard.present import labels
from wizard.present.cost_text import unpriced_words


def _money(value: float | None) -> str:
    return MISSING if value is None else f"{value:,.2f}"


def build(st: Story) -> list[Block] | None:
    # the order as priced, when the proposal has a price list
    e = st.data.plan.estate
    bom = st.data.plan.priced or e.bom
    links = st.data.plan.port_map
    return (
        table(st, bom, cluster_column=any(ln.cluster for ln in bom.lines))
        + delta.kept_table(st, e)
        + per_rack(st, e.racks, links)
        + calculations.block(st, "bom.")
    )


def per_rack(st: Story, racks: list[Rack], links: list[PortLink]) -> list[Block]:
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
                     num(r.oob_switches), num(r.pdus),
                     num(cables.get(r.name, 0))])  # fmt: skip
    return [*st.h3("Per rack"), st.table(rows, [1.2, 1.9, 1.9, 1.0, 1.35, 0.7, 0.8],
                                         right=(4, 5, 6))]  # fmt: skip


def table(st: Story, bom: Bom, cluster_column: bool = False) -> list[Block]:
    """The lines, priced where the price list has prices; with ``cluster_column``, the cluster
    each line is for ("shared" for the network the clusters share)."""
    priced = bom.total is not None
    header = ["Category", "Part number", "Description", "Quantity"]
    if priced:
        header += [f"Unit price ({bom.currency})", f"Total ({bom.currency})"]
    header.append("Src.")
    rows: list[list] = [header]
    spans: list[tuple[int, int, int]] = []
    # a design of several clusters: each cluster's lines under a row naming it, the shared
    # network's last (a column would take the room part numbers and amounts need)
    groups: dict[str | None, list] = {}
    for line in bom.lines:
        groups.setdefault(line.cluster if cluster_column else None, []).append(line)
    order = [k for k in groups if k is not None] + ([None] if None in groups else [])
    for key in order:
        if cluster_column:
            spans.append((len(rows), 0, len(header) - 1))
            rows.append([key or "Shared by the clusters", *[""] * (len(header) - 1)])
        for line in groups[key]:
            row = [labels.BOM_CATEGORY[line.category], line.part_number or MISSING,
                   line.description, _quantity(line.quantity, line.included, line.unit)]  # fmt: skip
            if priced:
                row += [_money(line.unit_price), _money(line.total_price)]
            row.append(st.cite(line.source))
            rows.append(row)
    widths = _widths(st, rows, priced, skip={r for r, _, _ in spans})
    right = (3, 4, 5) if priced else (3,)
    flow: list[Block] = [st.table(rows, widths, right=right, spans=spans)]
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
    return flow + to_confirm(st, bom)


def _head(text: str) -> str:
    """A description up to its first comma outside parentheses: the part's name."""
    depth = 0
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            return text[:i]
    return text


def to_confirm(st: Story, bom: Bom) -> list[Block]:
    """One table of the bill's figures the catalog marks unsettled (and the part numbers read
    from a third party), for the customer's vendor to confirm before the order."""
    seen: dict[tuple[str, str], list[str]] = {}
    for line in bom.lines:
        if line.to_confirm:
            what = _head(line.description.split(" (to confirm")[0])
            seen.setdefault((line.part_number or MISSING, what), line.to_confirm)
    if not seen:
        return []
    rows: list[list] = [["Part number", "Item", "To confirm with the vendor"]]
    rows += [[pn, what, ", ".join(fig)] for (pn, what), fig in seen.items()]
    return [
        *st.h3("Figures to confirm with the vendor"),
        st.p("The catalog marks these figures as not settled (estimated, read from a third "
             "party, or with an order-code suffix to choose); the bill shows them as stated and "
             "marks each line."),
        st.table(rows, [1.4, 3.6, 2]),
    ]  # fmt: skip


# columns whose every cell is kept on one line: part numbers, quantities, amounts, sources
PAD = 8 + 1  # the cell's left and right padding, and a point to spare


def _widths(st: Story, rows: list[list], priced: bool, skip: set[int]) -> list[float]:
    """Column widths in points: a part number, an amount or a source never split over two
    lines, a quantity's number and each word of a category or a unit never cut; the description
    takes what is left. ``skip``: rows that span the table (a cluster's name)."""
    size = st.s.cell.fontSize
    bold = st.s.cell_bold.fontName
    body = [r for i, r in enumerate(rows) if i and i not in skip]

    def widest(col: int, words: bool) -> float:
        head = max(text_width(w, bold, size) for w in str(rows[0][col]).split())
        cells = [str(r[col]) for r in body]
        if words:
            cells = [w for c in cells for w in c.split()]
        return max([head, *(text_width(c, SANS, size) for c in cells)]) + PAD

    out = [0.0] * len(rows[0])
    for c in [1, *([4, 5] if priced else []), len(rows[0]) - 1]:
        out[c] = widest(c, words=False)
    for c in (0, 3):
        out[c] = widest(c, words=True)
    out[2] = max(st.width - sum(out), st.width * 0.25)
    return out


def _quantity(quantity: int, included: int, unit: str) -> str:
    """'16 each', '512 core licences'; a line that comes with another part says so, never '0'."""

    def said(n: int) -> str:
        return f"{num(n)} each" if unit == "each" else count(n, unit)

    if quantity or not included:
        return said(quantity)
    return f"{said(included)}, included"


def unpriced_sentence(bom: Bom) -> str:
    """The lines the price list has no price for, by what they are (not by their keys)."""
    what = unpriced_words(bom)
    return (
        f"Not in the price list, so not in the totals ({count(len(what), 'line')}): "
        + "; ".join(what)
        + "."
    )
