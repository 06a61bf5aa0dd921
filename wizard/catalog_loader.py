"""Load the shipped catalogs and the user's overrides into a validated :class:`Catalog`.

Shipped data is read through ``importlib.resources`` so an installed wheel works from any
directory. The user catalog directory holds files of the same names; an entry whose id matches
a shipped one replaces it, any other entry is added. Both go through the same validation.
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from wizard.errors import CatalogError, describe_validation_error
from wizard.model.catalog import CATALOG_KINDS, Catalog, Sourced
from wizard.safe_read import decode_utf8, read_limited

MAX_CATALOG_BYTES = 5_000_000


def user_catalog_dir() -> Path:
    """Where a user's own catalog files live (per-user data directory)."""
    from platformdirs import user_data_path

    return user_data_path("gpuwizard", appauthor=False) / "catalogs"


def _parse(text: str, where: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(f"{where}: not valid TOML: {exc}") from None
    except RecursionError:
        raise CatalogError(f"{where}: nested too deeply to be a catalog") from None
    except ValueError as exc:  # an integer with more digits than Python converts
        raise CatalogError(f"{where}: a number in it cannot be read ({exc})") from None


def _entries(doc: dict[str, Any], kind: str, where: str) -> list[Any]:
    unknown = sorted(set(doc) - {kind})
    if unknown:
        raise CatalogError(f"{where}: unknown top-level key(s) {unknown}; expected [[{kind}]]")
    items = doc.get(kind, [])
    if not isinstance(items, list):
        raise CatalogError(f"{where}: '{kind}' must be an array of tables ([[{kind}]])")
    return items


def parse_entries(text: str, kind: str, where: str) -> dict[str, Sourced]:
    """Validate every entry of one catalog file; report all bad entries, not just the first."""
    model = CATALOG_KINDS[kind]
    out: dict[str, Sourced] = {}
    problems: list[str] = []
    for index, raw in enumerate(_entries(_parse(text, where), kind, where)):
        label = raw.get("id") if isinstance(raw, dict) else None
        entry_name = f"entry '{label}'" if isinstance(label, str) else f"entry #{index + 1}"
        try:
            entry = model.model_validate(raw)
        except ValidationError as exc:
            problems += describe_validation_error(exc, prefix=f"{where}: {entry_name}: ")
            continue
        if entry.id in out:
            problems.append(f"{where}: {entry_name}: duplicate id '{entry.id}'")
            continue
        out[entry.id] = entry
    if problems:
        raise CatalogError(problems)
    return out


def _read_user_file(path: Path) -> str:
    data = read_limited(path, MAX_CATALOG_BYTES, "catalog file", CatalogError)
    return decode_utf8(data, str(path), CatalogError)


def shipped_text(kind: str) -> str:
    return resources.files("wizard.catalogs").joinpath(f"{kind}.toml").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _shipped() -> dict[str, dict[str, Sourced]]:
    return {
        kind: parse_entries(shipped_text(kind), kind, f"wizard/catalogs/{kind}.toml")
        for kind in CATALOG_KINDS
    }


def load_catalog(user_dir: Path | None = None, *, include_user: bool = True) -> Catalog:
    """The shipped catalog, overridden and extended by the user's files when present."""
    merged = {kind: dict(entries) for kind, entries in _shipped().items()}
    if include_user:
        directory = user_catalog_dir() if user_dir is None else user_dir
        problems: list[str] = []
        if user_dir is not None and not directory.is_dir():
            raise CatalogError([f"{directory}: no such catalog directory"])
        if directory.is_dir():
            names = {f"{kind}.toml" for kind in CATALOG_KINDS}
            problems += [
                f"{p}: not a catalog file name; the names are {', '.join(sorted(names))}"
                for p in sorted(directory.glob("*.toml"))
                if p.name not in names
            ]
        for kind in CATALOG_KINDS:
            path = directory / f"{kind}.toml"
            if not path.exists():
                continue
            if not path.is_file():
                problems.append(f"{path}: not a regular file, so it is not read")
                continue
            try:
                merged[kind].update(parse_entries(_read_user_file(path), kind, str(path)))
            except CatalogError as exc:
                problems += exc.problems
        if problems:
            raise CatalogError(problems)
    try:
        return Catalog.model_validate(merged)
    except ValidationError as exc:  # pragma: no cover - entries are validated above
        raise CatalogError(describe_validation_error(exc)) from None
