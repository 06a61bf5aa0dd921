"""What the property test over every reader (test_every_reader.py) found, each kept as a case
that failed on the code before its fix: the reader now refuses in one line naming the file and
the field."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from tests.conftest import run_cli
from wizard.estate_import.powercli import COLUMNS


def _inventory(**cells: str) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    row = {"Record": "host", "Cluster": "GPU", "Host": "esx01", "Vendor": "Dell Inc.",
           "Model": "PowerEdge R760xa", "Sockets": "2", "Cores": "64", "MemoryMiB": "1048576",
           **cells}  # fmt: skip
    writer.writerow([row.get(c, "") for c in COLUMNS])
    return out.getvalue().encode()


@pytest.mark.parametrize(
    ("column", "text"),
    [("Sockets", "1e999"), ("MemoryMiB", "inf"), ("Cores", "9" * 400), ("MMIOSizeGB", "nan"),
     ("GpuMemoryMiB", "-Infinity"), ("Sockets", "two")],
)  # fmt: skip
def test_an_inventory_number_that_is_no_number_is_named(tmp_path: Path, column, text):
    """An infinity in a number column once ended in an OverflowError (exit 1); NaN and words
    were read as 'unknown'. The script writes numbers or nothing, so such a cell is named."""
    path = tmp_path / "inventory.csv"
    path.write_bytes(_inventory(**{column: text}))
    done = run_cli("--no-user-catalog", "import-estate", str(path))
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"error: {path}: line 2: {column} ") and "is not a number" in line
    assert text[:30] in line


def test_an_inventory_number_column_left_empty_is_unknown(tmp_path: Path):
    """The negative case: the script leaves a number it could not read empty, which is read."""
    path = tmp_path / "inventory.csv"
    path.write_bytes(_inventory(Sockets="", MMIOSizeGB=""))
    done = run_cli("--no-user-catalog", "import-estate", str(path))
    assert done.returncode == 0, done.stderr


ESTATE = Path(__file__).resolve().parents[1] / "data" / "estate"


def _second_part_header_broken(name: str) -> bytes:
    """A real workbook whose zip directory is whole but whose second part's local header has lost
    its signature ('PK\\x03\\x04' becomes 'PK\\x03\\x05'), as a byte overwritten in transfer."""
    data = (ESTATE / name).read_bytes()
    second = data.index(b"PK\x03\x04", 4)
    return data[:second] + b"PK\x03\x05" + data[second + 4 :]


@pytest.mark.parametrize("name", ["rvtools-3-sizing-workshop.xlsx", "rvtools-4.7.1-bc.xlsx"])
def test_a_workbook_with_a_damaged_part_is_named(tmp_path: Path, name):
    """The deep run's find: bytes overwritten inside a part once ended in 'internal error:
    BadZipFile: Bad magic number for file header' (exit 1); the part and the file are named."""
    path = tmp_path / name
    path.write_bytes(_second_part_header_broken(name))
    done = run_cli("--no-user-catalog", "import-estate", str(path))
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"error: {path}: part '") and "is damaged" in line, line
    assert "not a readable .xlsx workbook" in line


def test_the_same_workbook_whole_is_read(tmp_path: Path):
    """The negative case: the workbook as published is read."""
    done = run_cli("--no-user-catalog", "import-estate", str(ESTATE / "rvtools-4.7.1-bc.xlsx"))
    assert done.returncode == 0, done.stderr


def test_a_workbook_with_bytes_cut_out_is_named(tmp_path: Path):
    """The deep run's second find: bytes cut out of a workbook (its second line, split at newline
    bytes) leave the zip directory's offsets pointing before the file; this once ended in
    'internal error: ValueError: negative seek value' (exit 1)."""
    lines = (ESTATE / "rvtools-3-sizing-workshop.xlsx").read_bytes().splitlines(keepends=True)
    path = tmp_path / "cut.xlsx"
    path.write_bytes(b"".join(lines[:1] + lines[2:]))
    done = run_cli("--no-user-catalog", "import-estate", str(path))
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"error: {path}: ") and "not a readable .xlsx workbook" in line, line
