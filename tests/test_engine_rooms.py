"""The engine reads as its pipeline: at most eight entries at its top (its package file, size.py
and the rooms), every module in a room, and each room importing only the rooms beneath it (the
layers contract in pyproject.toml, which tests/test_layering.py runs)."""

from __future__ import annotations

import tomllib

from tests.conftest import ROOT

ENGINE = ROOT / "wizard" / "engine"


def _entries() -> list[str]:
    return sorted(p.name for p in ENGINE.iterdir() if p.name != "__pycache__")


def test_the_engine_has_at_most_eight_entries_at_its_top():
    entries = _entries()
    assert len(entries) <= 8, entries
    loose = [e for e in entries if e.endswith(".py")]
    assert loose == ["__init__.py", "size.py"]


def test_every_room_is_in_the_contract_that_orders_them():
    """A room added without its place in the order would escape the contract."""
    rooms = {e for e in _entries() if (ENGINE / e).is_dir()}
    doc = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (contract,) = [
        c
        for c in doc["tool"]["importlinter"]["contracts"]
        if c.get("containers") == ["wizard.engine"]
    ]
    layered = {name.strip() for layer in contract["layers"] for name in layer.split("|")}
    assert layered == rooms | {"size"}
    for room in rooms:
        assert (ENGINE / room / "__init__.py").read_text(encoding="utf-8").startswith('"""')


# A module this long holds more than one job; its parts go to modules named for them.
MAX_MODULE_LINES = 800


def test_every_module_of_the_product_is_under_800_lines():
    """Every module of the product (wizard/, reports/) and of its scripts and benchmarks: a
    refactoring that grows one past the limit splits it by job instead."""
    long = {
        str(p.relative_to(ROOT)): n
        for top in ("wizard", "reports", "scripts", "benchmarks")
        for p in (ROOT / top).rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) >= MAX_MODULE_LINES
    }
    assert long == {}
