"""The bill of materials as CSV or XLSX: one row per line, then totals per category when the
lines carry prices."""

from __future__ import annotations

import csv
import io

from wizard.base.numbers import count
from wizard.engine import PortLink
from wizard.model.buildout import Bom, BomCategory, BomLine
from wizard.present import labels

COLUMNS = (
    "category",
    "item",
    "part_number",
    "description",
    "quantity",
    "unit",
    "unit_price",
    "total_price",
    "currency",
    "source",
)


# A cell that starts like a formula is run as one by spreadsheet programs (OWASP ASVS 5.0,
# 1.2.10: '=', '+', '-', '@', tab, carriage return and NUL): such text is quoted in the CSV and
# typed as text in the workbook, so a catalog entry or a name can never become a live formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\x00")


def csv_cell(value: str) -> str:
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def with_kept(bom: Bom, kept: list[BomLine]) -> list[tuple[BomLine, int]]:
    """The bill's lines each with the count of it the estate already has and keeps, and after
    each existing cluster's bought lines its kept lines that buy nothing (quantity 0): the
    whole cluster on consecutive rows, as an installer walks it, while the quantity column
    stays what is bought, as a buyer's tool sums it. An existing cluster with nothing bought
    comes first, as the plan lists the existing clusters first."""
    have: dict[tuple[str | None, str], int] = {}
    for ln in kept:
        have[(ln.cluster, ln.item)] = have.get((ln.cluster, ln.item), 0) + ln.quantity
    used: set[tuple[str | None, str]] = set()
    last: dict[str | None, int] = {ln.cluster: i for i, ln in enumerate(bom.lines) if ln.cluster}

    def only_kept(cluster: str | None) -> list[tuple[BomLine, int]]:
        return [
            (ln.model_copy(update={"quantity": 0, "included": 0}), ln.quantity)
            for ln in kept
            if ln.cluster == cluster and (ln.cluster, ln.item) not in used
        ]

    out = [p for c in dict.fromkeys(ln.cluster for ln in kept) if c not in last
           for p in only_kept(c)]  # fmt: skip
    for i, ln in enumerate(bom.lines):
        out.append((ln, have.get((ln.cluster, ln.item), 0)))
        used.add((ln.cluster, ln.item))
        if last.get(ln.cluster) == i:
            out += only_kept(ln.cluster)
    return out


def bom_rows(bom: Bom, kept: list[BomLine] | None = None) -> list[list[str | int | float | None]]:
    """One row per line; a bill of several clusters gets a first column naming each line's
    cluster (empty for what the clusters share, such as the network). An expansion's bill
    (``kept``, the existing hosts' lines) gets a 'kept' column after the quantity: what the
    estate has and keeps; its kept lines stand with their cluster, quantity 0 to buy."""
    pairs: list[tuple[BomLine, int | None]] = (
        list(with_kept(bom, kept)) if kept else [(ln, None) for ln in bom.lines]
    )
    columns: list[str | int | float | None] = list(COLUMNS)
    if kept:
        columns.insert(columns.index("quantity") + 1, "kept")
    rows: list[list[str | int | float | None]] = [columns]
    for ln, held in pairs:
        row: list[str | int | float | None] = [
            ln.category.value,
            ln.item,
            ln.part_number,
            ln.description,
            ln.quantity,
            ln.unit,
            ln.unit_price,
            ln.total_price,
            bom.currency if ln.unit_price is not None else None,
            ln.source,
        ]
        if kept:
            row.insert(5, held)
        rows.append(row)
    if bom.currency:
        pad: list[str | int | float | None] = [None] if kept else []
        for cat, total in bom.totals_by_category.items():
            rows.append(["total", cat, "", f"total {cat}", None, *pad, "", None, total,
                         bom.currency, ""])  # fmt: skip
        # what is bought once and what is paid every year are never added together
        rows.append(["total", "one-off", "", "total bought once (priced lines)", None, *pad, "",
                     None, bom.one_off, bom.currency, ""])  # fmt: skip
        rows.append(["total", "per-year", "", "total per year: subscriptions (priced lines)",
                     None, *pad, "", None, bom.per_year, bom.currency, ""])  # fmt: skip
        if bom.unpriced_items:
            unpriced = "no price for: " + ", ".join(bom.unpriced_items)
            rows.append(["note", "", "", unpriced, None, *pad, *[""] * 5])
    clusters = any(ln.cluster for ln, _ in pairs)
    if clusters:
        names = [None] + [ln.cluster or "shared" for ln, _ in pairs]
        names += [""] * (len(rows) - len(names))
        rows = [["cluster" if i == 0 else names[i], *row] for i, row in enumerate(rows)]
    return rows


def bom_csv(bom: Bom, kept: list[BomLine] | None = None) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for row in bom_rows(bom, kept):
        writer.writerow(
            [
                ""
                if v is None
                else f"{v:.2f}"
                if isinstance(v, float)
                else csv_cell(v)
                if isinstance(v, str)
                else v
                for v in row
            ]
        )
    return out.getvalue()


# The workbook is for people (buyers, installers): headers and categories in words, the price
# list's item keys and the catalog references left to the CSV, which is for tools.
XLSX_COLUMNS = ("Category", "Part number", "Description", "Quantity", "Unit", "Unit price",
                "Line total", "Currency")  # fmt: skip
XLSX_WIDTHS = (16, 20, 80, 10, 14, 14, 16, 10)


def xlsx_rows(bom: Bom) -> list[list[str | int | float | None]]:
    """The workbook's rows: one per line, then the totals bought once and per year."""
    clusters = any(ln.cluster for ln in bom.lines)
    head: list[str | int | float | None] = ["Cluster"] if clusters else []
    rows: list[list[str | int | float | None]] = [[*head, *XLSX_COLUMNS]]
    for ln in bom.lines:
        row: list[str | int | float | None] = [
            labels.BOM_CATEGORY[ln.category],
            ln.part_number,
            ln.description,
            ln.quantity,
            ln.unit,
            ln.unit_price,
            ln.total_price,
            bom.currency if ln.unit_price is not None else None,
        ]
        rows.append([ln.cluster or "Shared", *row] if clusters else row)
    if bom.currency:
        pad: list[str | int | float | None] = [None] if clusters else []

        def total(text: str, value: float | None) -> list[str | int | float | None]:
            return [*pad, None, None, text, None, None, None, value, bom.currency]

        for cat, value in bom.totals_by_category.items():
            rows.append(total(f"Total: {labels.BOM_CATEGORY[BomCategory(cat)]}", value))
        rows.append(total("Total bought once (priced lines)", bom.one_off))
        rows.append(total("Total per year: subscriptions (priced lines)", bom.per_year))
        if bom.unpriced_items:
            n = count(len(bom.unpriced_items), "item")
            rows.append([*pad, None, None, f"Not in the price list, so not in the totals: {n}"])
    return rows


KEPT_COLUMNS = ["Cluster", "Category", "Part number", "Description", "Kept", "Unit"]
KEPT_WIDTHS = (22, 16, 18, 80, 8, 14)


def kept_rows(kept: list[BomLine]) -> list[list[str | int | float | None]]:
    """The existing hosts' lines: what the estate already has, not bought, not priced."""
    rows: list[list[str | int | float | None]] = [list(KEPT_COLUMNS)]
    for ln in kept:
        rows.append(
            [ln.cluster or "", labels.BOM_CATEGORY[ln.category], ln.part_number,
             ln.description, ln.quantity, ln.unit]
        )  # fmt: skip
    return rows


PORT_COLUMNS = ["Rack", "Device", "Port", "Network", "To rack", "To device", "To port", "Cable"]
PORT_WIDTHS = (22, 18, 12, 28, 22, 18, 16, 60)


def port_rows(links: list[PortLink]) -> list[list[str | int | float | None]]:
    """The port map as the spreadsheet's second sheet: one cable a row, in words."""
    from reports.sections.cabling import network

    rows: list[list[str | int | float | None]] = [list(PORT_COLUMNS)]
    rows += [[ln.rack, ln.device, ln.port, network(ln.network), ln.to_rack, ln.to_device,
              ln.to_port, ln.cable] for ln in links]  # fmt: skip
    return rows


def bom_xlsx(
    bom: Bom, links: list[PortLink] | None = None, kept: list[BomLine] | None = None
) -> bytes:
    """The bill of materials, with ``links`` the port map on a second sheet, and with ``kept``
    (an expansion) the existing hosts' lines, kept and not bought, on a sheet of their own."""
    from openpyxl import Workbook
    from openpyxl.worksheet.worksheet import Worksheet

    wb = Workbook()
    ws = wb.active
    assert isinstance(ws, Worksheet), "a new workbook opens on one worksheet"
    ws.title = "Bill of materials"
    rows = xlsx_rows(bom)
    shift = 1 if rows[0][0] == "Cluster" else 0
    _fill(ws, rows, ([22] if shift else []) + list(XLSX_WIDTHS))
    for prices in ws.iter_rows(min_row=2, min_col=6 + shift, max_col=7 + shift):
        for cell in prices:
            cell.number_format = "#,##0.00"
    if links:
        _fill(wb.create_sheet("Port map"), port_rows(links), list(PORT_WIDTHS))
    if kept:
        _fill(wb.create_sheet("Existing (kept)"), kept_rows(kept), list(KEPT_WIDTHS))
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


ROW_PT = 15.0  # one line of 11 pt Calibri, as spreadsheets space it


def row_lines(row: list[str | int | float | None], widths: list[int]) -> int:
    """The lines the row's tallest cell wraps to: its words laid on lines of the column's width
    in characters (a word longer than the width takes lines of its own)."""
    most = 1
    for value, width in zip(row, widths, strict=False):
        if not isinstance(value, str) or not value:
            continue
        room = max(int(width) - 1, 1)
        lines, used = 1, 0
        for word in value.split():
            need = len(word) + (1 if used else 0)
            if used and used + need > room:
                lines, used = lines + 1, 0
                need = len(word)
            while need > room:  # a word wider than the column wraps within itself
                lines, need = lines + 1, need - room
            used += need
        most = max(most, lines)
    return most


def _fill(ws, rows: list[list[str | int | float | None]], widths: list[int]) -> None:
    """Write ``rows`` (the first a header), text as text, and print the sheet as office users
    expect: landscape, one page wide, the header row on every page."""
    from openpyxl.styles import Alignment, Font
    from openpyxl.worksheet.properties import PageSetupProperties

    for r, row in enumerate(rows, start=1):
        for c, value in enumerate(row, start=1):
            cell = ws.cell(row=r, column=c)
            cell.value = value
            if isinstance(value, str):
                cell.data_type = "s"  # text, even when it starts like a formula
                cell.alignment = Alignment(wrap_text=True, vertical="top")
    for cell in ws[1]:
        cell.font = Font(bold=True)
    for i, width in enumerate(widths):
        ws.column_dimensions[chr(ord("A") + i)].width = width
    # LibreOffice does not grow a row to its wrapped text on opening: each row gets the height
    # of its tallest cell, its lines counted at the column's width in characters
    for r, row in enumerate(rows, start=1):
        ws.row_dimensions[r].height = ROW_PT * row_lines(row, widths)
    ws.freeze_panes = "A2"
    ws.page_setup.orientation = "landscape"
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
    ws.print_title_rows = "1:1"
    ws.print_options.gridLines = True
