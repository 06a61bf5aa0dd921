"""A customer's export read without trusting it: a regular file of bounded size, a zip whose
members are bounded before anything is inflated, and XML that may not declare entities (no
exponential expansion, no external file read), each refusal one line naming the file."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path
from xml.etree import ElementTree
from xml.parsers import expat

from wizard.base.errors import UserError
from wizard.base.safe_read import read_limited

# An RVTools workbook of a large vCenter (tens of thousands of VMs) is tens of megabytes; a
# nvidia-smi report of an eight-GPU host is a few hundred kilobytes.
MAX_WORKBOOK_BYTES = 200_000_000
MAX_TEXT_BYTES = 20_000_000
# What the workbook's members may inflate to, as their zip directory declares it (a member that
# inflates past its declared size fails its check): all together, and each against its packed
# size. A sheet packs about 10 to 1 (a real export here: 1.4 MB from 150 kB); deflate cannot pass
# about 1,032 to 1, so a member declaring more was packed some other way to be a bomb.
MAX_INFLATED_BYTES = 1_000_000_000
MAX_INFLATE_RATIO = 1_100


class EstateFileError(UserError):
    """A file named for import cannot be read as what it claims to be."""


def read_bytes(path: str | os.PathLike[str], limit: int, what: str) -> bytes:
    return read_limited(path, limit, what, EstateFileError)


def checked_zip(path: Path, data: bytes, what: str) -> zipfile.ZipFile:
    """The zip in ``data``, refused before any member is inflated when it is not a zip or its
    members would inflate past the limits."""
    if not data.startswith(b"PK\x03\x04"):
        raise EstateFileError(
            f"{path}: not an {what} (an .xlsx file is a zip archive; this is not)"
        )
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError) as exc:
        raise EstateFileError(f"{path}: a broken zip archive, so not an {what} ({exc})") from None
    total = 0
    for m in members:
        total += m.file_size
        if m.file_size > MAX_INFLATE_RATIO * max(m.compress_size, 1) + 1_000_000:
            raise EstateFileError(
                f"{path}: member {m.filename!r} would inflate {m.file_size:,} bytes from "
                f"{m.compress_size:,}; refused as a zip bomb"
            )
    if total > MAX_INFLATED_BYTES:
        raise EstateFileError(
            f"{path}: its members would inflate to {total:,} bytes, more than the "
            f"{MAX_INFLATED_BYTES:,} an {what} is read to"
        )
    return archive


def refuse_doctype(path: Path, member: str, head: bytes) -> None:
    """A spreadsheet part never declares a document type; one that does may define entities."""
    if b"<!DOCTYPE" in head or b"<!ENTITY" in head:
        raise EstateFileError(
            f"{path}: part {member!r} declares a document type or entities, which no "
            "spreadsheet written by Excel or RVTools does; refused"
        )


def parse_xml(path: Path, data: bytes, what: str) -> ElementTree.Element:
    """The XML document in ``data``; entity declarations are refused before the tree is built,
    so a 'billion laughs' file costs nothing and no external entity is ever fetched. A document
    type that only names its DTD (nvidia-smi writes ``<!DOCTYPE nvidia_smi_log SYSTEM
    "nvsmi_device_v12.dtd">``) is allowed: expat does not read it."""

    def refuse_entity(*_args: object) -> None:
        raise EstateFileError(
            f"{path}: the XML declares entities, which {what} never does; refused"
        )

    probe = expat.ParserCreate()
    probe.EntityDeclHandler = refuse_entity
    probe.UnparsedEntityDeclHandler = refuse_entity
    probe.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    try:
        probe.Parse(data, True)
        return ElementTree.fromstring(data)
    except (expat.ExpatError, ElementTree.ParseError) as exc:
        raise EstateFileError(f"{path}: not well-formed XML, so not {what} ({exc})") from None
