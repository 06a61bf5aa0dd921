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
