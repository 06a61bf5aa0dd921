"""The size limits docs/robustness.md states, at their edges: a design file of 10 MB (10,000,000
bytes), a catalog file and a price list of 5 MB (5,000,000 bytes) each are read; one byte more is
refused on its size, naming the limit. The files are padding (spaces) around a small valid
document, so the edge is the size and nothing else."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT
from wizard.app.catalog_loader import _read_user_file
from wizard.app.io import load_design
from wizard.app.pricing import load_prices
from wizard.base.errors import UserError

DESIGN = (ROOT / "resources/examples/starter.json").read_text(encoding="utf-8")
PRICES = 'currency = "EUR"\n[prices]\n"gpu:t4" = 1000\n'


def _padded(path: Path, text: str, size: int) -> Path:
    data = text.encode("utf-8")
    path.write_bytes(data + b" " * (size - len(data)))
    assert path.stat().st_size == size
    return path


@pytest.mark.parametrize(
    ("name", "text", "read", "limit"),
    [
        ("design.json", DESIGN, load_design, 10_000_000),
        ("catalog.toml", "", _read_user_file, 5_000_000),
        ("prices.toml", PRICES, load_prices, 5_000_000),
    ],
)
def test_a_file_at_its_stated_limit_is_read_and_one_byte_more_is_refused(
    tmp_path, name, text, read, limit
):
    read(_padded(tmp_path / name, text, limit))
    with pytest.raises(UserError, match=f"more than the {limit:,} bytes"):
        read(_padded(tmp_path / name, text, limit + 1))
