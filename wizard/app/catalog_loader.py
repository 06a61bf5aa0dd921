"""Load the shipped catalogs and the user's overrides into a validated :class:`Catalog`.

Shipped data is read through ``importlib.resources`` so an installed wheel works from any
directory. The user catalog directory holds files of the same names; an entry whose id matches
a shipped one replaces it, any other entry is added. Both go through the same validation.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from wizard.base.catalog_kinds import KINDS
from wizard.base.errors import CatalogError, describe_validation_error
from wizard.base.safe_read import decode_utf8, read_limited

if TYPE_CHECKING:  # the models are imported when a catalog is read, not with this module
    from wizard.model.catalog import Catalog, Sourced

MAX_CATALOG_BYTES = 5_000_000


def user_catalog_dir() -> Path:
    """Where a user's own catalog files live (per-user data directory)."""
    from platformdirs import user_data_path

    return user_data_path("gpuwizard", appauthor=False) / "catalogs"


def _parse(text: str, where: str) -> dict[str, Any]:
    import tomllib

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
    from wizard.model.catalog import CATALOG_KINDS

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


def cache_path() -> Path:
    """Where the parsed shipped catalog is kept between starts (per-user cache directory)."""
    from platformdirs import user_cache_path

    return user_cache_path("gpuwizard", appauthor=False) / "shipped-catalog.json"


def _cache_key(texts: dict[str, str]) -> str:
    """What the cached catalog was made from: the shipped files, the models that read them and
    the pydantic that dumped them; any change gives another key."""
    import hashlib

    import pydantic

    from wizard import model

    digest = hashlib.sha256(f"gpuwizard catalog cache 1, pydantic {pydantic.VERSION}".encode())
    for kind, text in texts.items():
        digest.update(f"\0{kind}\0{len(text)}\0{text}".encode())
    for source in sorted(Path(model.__file__).parent.glob("*.py")):
        digest.update(f"\0{source.name}\0".encode() + source.read_bytes())
    return digest.hexdigest()


def _from_cache(path: Path, key: str) -> dict[str, dict[str, Sourced]] | None:
    """The cached catalog when ``path`` holds one made under ``key``; None otherwise (missing,
    stale, unreadable or damaged: the caller parses the files again)."""
    from wizard.model.catalog import Catalog

    try:
        if path.stat().st_size > MAX_CATALOG_BYTES:  # no shipped catalog is near this size
            return None
        head, _, body = path.read_text(encoding="utf-8").partition("\n")
        if head != key:
            return None
        catalog = Catalog.model_validate_json(body)
    except (OSError, UnicodeDecodeError, ValueError):  # ValidationError is a ValueError
        return None
    return {kind: dict(getattr(catalog, kind)) for kind in KINDS}


def _to_cache(path: Path, key: str, entries: dict[str, dict[str, Sourced]]) -> None:
    """Keep the parsed catalog for the next start; a cache that cannot be written is skipped."""
    import contextlib
    import os
    import tempfile

    from wizard.model.catalog import Catalog

    text = f"{key}\n{Catalog.model_validate(entries).model_dump_json()}"
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".shipped-catalog-", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, path)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


@lru_cache(maxsize=1)
def _shipped() -> dict[str, dict[str, Sourced]]:
    """The shipped catalog. Parsing its TOML and validating every entry is most of a start's
    catalog time, so the result is kept in the user's cache directory under a hash of the files
    and the models; the TOML stays the source, the cache is only ever a copy made from it."""
    texts = {kind: shipped_text(kind) for kind in KINDS}
    key = _cache_key(texts)
    path = cache_path()
    cached = _from_cache(path, key)
    if cached is not None:
        return cached
    entries = {
        kind: parse_entries(text, kind, f"catalogs/{kind}.toml") for kind, text in texts.items()
    }
    _to_cache(path, key, entries)
    return entries


def load_catalog(user_dir: Path | None = None, *, include_user: bool = True) -> Catalog:
    """The shipped catalog, overridden and extended by the user's files when present."""
    from wizard.model.catalog import Catalog

    merged = {kind: dict(entries) for kind, entries in _shipped().items()}
    if include_user:
        directory = user_catalog_dir() if user_dir is None else user_dir
        problems: list[str] = []
        if user_dir is not None and not directory.is_dir():
            raise CatalogError([f"{directory}: no such catalog directory"])
        if directory.is_dir():
            names = {f"{kind}.toml" for kind in KINDS}
            problems += [
                f"{p}: not a catalog file name; the names are {', '.join(sorted(names))}"
                for p in sorted(directory.glob("*.toml"))
                if p.name not in names
            ]
        for kind in KINDS:
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
