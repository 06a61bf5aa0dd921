"""An RVTools export (.xlsx): hosts from vHost, VMs from vInfo, clusters from vCluster, the
RVTools version from vMetaData.

Columns are found by their header, never by position: RVTools adds, drops and moves columns
from one version to the next (3.x writes 'Provisioned MB', 4.x 'Provisioned MiB'; 4.4 has no
'Compliance Check State' and 4.7 has; an edited export may keep a handful), and with
``-DBColumnNames`` it writes database names ('Num_CPU' for '# CPU'). A header is matched with
case, spaces, underscores and '#'/'Num' aside. Memory columns are in MiB ('# Memory' of a host,
'Memory' of a VM), as RVTools' documentation gives them."""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from wizard.estate_import.files import EstateFileError, checked_zip, refuse_doctype
from wizard.estate_import.inventory import Cluster, Host, Inventory, Vm
from wizard.estate_import.mapping import match_server
from wizard.model.catalog import Catalog

# A vCenter of 50,000 VMs is far beyond any one customer's GPU estate; a sheet longer than this
# is refused rather than read for minutes.
MAX_ROWS = 200_000
# Saved through a spreadsheet program, a sheet may claim a million formatted empty rows (one
# public export here does): reading stops after this many empty rows in a row.
BLANK_RUN = 1_000

# Each field the reader takes, with the headers RVTools versions have used for it.
HOST_COLUMNS: dict[str, tuple[str, ...]] = {
    "host": ("Host",),
    "datacenter": ("Datacenter",),
    "cluster": ("Cluster",),
    "vendor": ("Vendor",),
    "model": ("Model",),
    "cpu_model": ("CPU Model",),
    "sockets": ("# CPU",),
    "cores": ("# Cores",),
    "memory_mib": ("# Memory",),
    "esxi": ("ESX Version",),
}
VM_COLUMNS: dict[str, tuple[str, ...]] = {
    "vm": ("VM",),
    "powerstate": ("Powerstate", "Power state"),
    "template": ("Template",),
    "cpus": ("CPUs",),
    "memory_mib": ("Memory",),
    "host": ("Host",),
    "cluster": ("Cluster",),
}
CLUSTER_COLUMNS: dict[str, tuple[str, ...]] = {
    "name": ("Name", "Cluster"),
    "hosts": ("NumHosts", "# Hosts"),
    "ha": ("HA enabled",),
}


def _key(header: object) -> str:
    text = str(header or "").lower().replace("#", "num")
    return re.sub(r"[^a-z0-9]", "", text)


def _columns(header: tuple[Any, ...], wanted: dict[str, tuple[str, ...]]) -> dict[str, int]:
    at = {}
    keys = [_key(h) for h in header]
    for field_name, names in wanted.items():
        for name in names:
            if _key(name) in keys:
                at[field_name] = keys.index(_key(name))
                break
    return at


def _rows(path: Path, sheet: Any, name: str, key: int) -> Iterator[tuple[Any, ...]]:
    """The sheet's data rows: those with a value in the ``key`` column. RVTools 4 writes the
    columns' totals below the table after an empty row (a real 4.4 export here: '# Cores' 144
    under five hosts), a row with no host or VM name, which is no host or VM."""
    blanks = 0
    for n, row in enumerate(sheet.iter_rows(min_row=2, values_only=True), start=2):
        if n > MAX_ROWS:
            raise EstateFileError(f"{path}: sheet {name} has more than {MAX_ROWS:,} rows; refused")
        if all(v is None or (isinstance(v, str) and not v.strip()) for v in row):
            blanks += 1
            if blanks >= BLANK_RUN:
                return
            continue
        blanks = 0
        if key < len(row) and row[key] is not None and str(row[key]).strip():
            yield row


def _text(row: tuple[Any, ...], at: dict[str, int], name: str) -> str:
    i = at.get(name)
    if i is None or i >= len(row) or row[i] is None:
        return ""
    return " ".join(str(row[i]).split())


def _int(row: tuple[Any, ...], at: dict[str, int], name: str) -> int | None:
    text = _text(row, at, name).replace(",", "")
    try:
        return round(float(text)) if text else None
    except (ValueError, OverflowError):  # a word, NaN or an infinity is no count
        return None


def _bool(row: tuple[Any, ...], at: dict[str, int], name: str) -> bool | None:
    text = _text(row, at, name).lower()
    return {"true": True, "false": False}.get(text)


def _header(
    path: Path, sheet: Any, name: str, wanted: dict[str, tuple[str, ...]], needed: str
) -> dict[str, int]:
    first = next(sheet.iter_rows(max_row=1, values_only=True), ())
    at = _columns(tuple(first), wanted)
    if needed not in at:
        raise EstateFileError(
            f"{path}: sheet {name} has no {wanted[needed][0]!r} column, which every RVTools "
            f"version writes; the columns read are {', '.join(str(h) for h in first if h)[:200]}"
        )
    return at


def read_rvtools(path: Path, data: bytes, catalog: Catalog) -> Inventory:
    import openpyxl  # the workbook reader, only when a workbook is named

    archive = checked_zip(path, data, "RVTools workbook")
    for member in archive.infolist():
        if member.filename.endswith((".xml", ".rels")):
            try:
                with archive.open(member) as part:
                    head = part.read(4096)
            except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, ValueError,
                    RuntimeError, OSError) as exc:  # fmt: skip
                # a zip directory whole but a part behind it damaged: a header's signature or
                # its deflate stream overwritten, bytes cut out so that an offset points before
                # the file (a negative seek), a part encrypted
                raise EstateFileError(
                    f"{path}: part {member.filename!r} of the workbook is damaged ({exc}), so "
                    "not a readable .xlsx workbook"
                ) from None
            refuse_doctype(path, member.filename, head)
    try:
        book = openpyxl.load_workbook(
            io.BytesIO(data), read_only=True, data_only=True, keep_links=False
        )
    except (
        Exception
    ) as exc:  # openpyxl raises many kinds for a damaged part; each is the file's fault
        raise EstateFileError(
            f"{path}: not a readable .xlsx workbook ({type(exc).__name__}: {str(exc)[:120]})"
        ) from None
    sheets = {name.lower(): name for name in book.sheetnames}
    if "vhost" not in sheets and "vinfo" not in sheets:
        raise EstateFileError(
            f"{path}: an .xlsx workbook without RVTools' vHost or vInfo sheet, so not an RVTools export"
        )
    inv = Inventory(files=[str(path)])
    source = path.name
    try:
        version = _version(book, sheets)
        inv.notes.append(
            f"{path}: RVTools {version}"
            if version
            else f"{path}: RVTools version not given (no vMetaData sheet)"
        )
        if "vhost" in sheets:
            inv.hosts = list(_hosts(path, book[sheets["vhost"]], sheets["vhost"], catalog, source))
        else:
            inv.notes.append(f"{path}: no vHost sheet, so no hosts")
        if "vinfo" in sheets:
            inv.vms = list(_vms(path, book[sheets["vinfo"]], sheets["vinfo"], source))
        if "vcluster" in sheets:
            inv.clusters = list(
                _clusters(path, book[sheets["vcluster"]], sheets["vcluster"], source)
            )
        else:
            names = sorted({h.cluster for h in inv.hosts if h.cluster})
            inv.clusters = [
                Cluster(n, sum(h.cluster == n for h in inv.hosts), None, source) for n in names
            ]
    except EstateFileError:
        raise
    except Exception as exc:  # a damaged sheet part surfaces while rows stream
        raise EstateFileError(
            f"{path}: a sheet cannot be read ({type(exc).__name__}: {str(exc)[:120]})"
        ) from None
    finally:
        book.close()
    return inv


def _version(book: Any, sheets: dict[str, str]) -> str:
    if "vmetadata" not in sheets:
        return ""
    sheet = book[sheets["vmetadata"]]
    rows = sheet.iter_rows(max_row=2, values_only=True)
    header = next(rows, ())
    values = next(rows, ())
    at = _columns(tuple(header), {"version": ("RVTools version",)})
    return _text(tuple(values), at, "version")


def _hosts(path: Path, sheet: Any, name: str, catalog: Catalog, source: str) -> Iterator[Host]:
    at = _header(path, sheet, name, HOST_COLUMNS, "host")
    for row in _rows(path, sheet, name, at["host"]):
        vendor, model = _text(row, at, "vendor"), _text(row, at, "model")
        yield Host(
            name=_text(row, at, "host"),
            cluster=_text(row, at, "cluster"),
            datacenter=_text(row, at, "datacenter"),
            vendor=vendor,
            model=model,
            cpu_model=_text(row, at, "cpu_model"),
            sockets=_int(row, at, "sockets"),
            cores=_int(row, at, "cores"),
            memory_mib=_int(row, at, "memory_mib"),
            esxi=_text(row, at, "esxi"),
            server=match_server(vendor, model, catalog),
            source=source,
        )


def _vms(path: Path, sheet: Any, name: str, source: str) -> Iterator[Vm]:
    at = _header(path, sheet, name, VM_COLUMNS, "vm")
    for row in _rows(path, sheet, name, at["vm"]):
        if _bool(row, at, "template"):
            continue  # a template runs nothing
        state = _text(row, at, "powerstate")
        yield Vm(
            name=_text(row, at, "vm"),
            host=_text(row, at, "host"),
            cluster=_text(row, at, "cluster"),
            cpus=_int(row, at, "cpus"),
            memory_mib=_int(row, at, "memory_mib"),
            powered_on=(state == "poweredOn") if state else None,
            source=source,
        )


def _clusters(path: Path, sheet: Any, name: str, source: str) -> Iterator[Cluster]:
    at = _header(path, sheet, name, CLUSTER_COLUMNS, "name")
    for row in _rows(path, sheet, name, at["name"]):
        yield Cluster(_text(row, at, "name"), _int(row, at, "hosts"), _bool(row, at, "ha"), source)
