"""User catalogs drawn across their whole range: one number of one shipped entry, rewritten in
the user's folder (same id, so it replaces the shipped entry) to a value drawn from its field's
bounds or just past them. A legal value loads and every bundled example sizes or is refused by
a rule (exit 0 or 2, never 1); a value past a bound is refused naming the entry and the field."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hardening.test_whole_ranges import _legal_and_illegal
from wizard.app.catalog_loader import load_catalog, shipped_text
from wizard.base.bundled import example_names, example_text
from wizard.base.errors import CatalogError
from wizard.cli import main
from wizard.model.catalog import CATALOG_KINDS

NUMBER_LINE = re.compile(r"^(?P<key>[a-z_0-9]+) = (?P<value>-?[0-9][0-9_.eE+-]*)$", re.M)


def _entries(kind: str) -> list[str]:
    """The shipped file cut into its top-level entries ([[kind]] blocks)."""
    text = shipped_text(kind)
    marker = f"[[{kind}]]"
    return [marker + part for part in text.split(marker)[1:]]


def _top_level(entry: str) -> str:
    """The entry's own lines (its [[kind]] line included), before any sub-table of it."""
    first, rest = entry.split("\n", 1)
    return first + "\n" + re.split(r"^\[", rest, maxsplit=1, flags=re.M)[0]


CASES = []
for _kind, _model in CATALOG_KINDS.items():
    _props = _model.model_json_schema().get("properties", {})
    for _i, _entry in enumerate(_entries(_kind)):
        for _m in NUMBER_LINE.finditer(_top_level(_entry)):
            schema = _props.get(_m["key"])
            if schema is not None:
                options = [o for o in schema.get("anyOf", [schema]) if "type" in o]
                numeric = [o for o in options if o["type"] in ("integer", "number")]
                if numeric:
                    CASES.append((_kind, _i, _m["key"], numeric[0]))


def _format(value: float | int) -> str:
    return str(value) if isinstance(value, int) else repr(float(value))


def _write(folder: Path, kind: str, index: int, key: str, value: float | int) -> None:
    entry = _entries(kind)[index]
    head = _top_level(entry)
    new_head = re.sub(rf"^{key} = .*$", f"{key} = {_format(value)}", head, count=1, flags=re.M)
    (folder / f"{kind}.toml").write_text(new_head + entry[len(head) :], encoding="utf-8")


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_a_user_catalog_number_across_its_whole_range(capsys, data):
    kind, index, key, schema = data.draw(st.sampled_from(CASES))
    inside, outside = _legal_and_illegal(schema)
    value = data.draw(inside)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _write(folder, kind, index, key, value)
        try:
            load_catalog(folder)
        except CatalogError as exc:  # a rule across fields of the entry; said, not crashed
            assert exc.problems and all(f"{kind}.toml" in p for p in exc.problems), exc.problems
        else:
            name = data.draw(st.sampled_from(example_names()))
            design = folder / "d.json"
            design.write_text(example_text(name), encoding="utf-8")
            capsys.readouterr()
            code = main(["--no-user-catalog", "--catalog-dir", str(folder), "size", str(design)])
            err = capsys.readouterr().err
            assert code in (0, 2) and "internal error" not in err, (kind, key, value, name, err)
        for bad in outside:
            _write(folder, kind, index, key, bad)
            try:
                load_catalog(folder)
            except CatalogError as exc:
                assert any(key in p for p in exc.problems), (kind, key, bad, exc.problems)
            else:
                raise AssertionError(f"{kind}.toml {key} = {bad} was accepted")


def test_the_cases_cover_every_catalog_kind():
    """Not vacuous: numbers of every kind of catalog are drawn (GPUs, servers, switches...)."""
    assert {kind for kind, *_ in CASES} == set(CATALOG_KINDS) - _kinds_without_numbers()
    assert len(CASES) > 100


def _kinds_without_numbers() -> set[str]:
    return {k for k in CATALOG_KINDS if not NUMBER_LINE.search(shipped_text(k))}
