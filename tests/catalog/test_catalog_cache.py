"""The parsed shipped catalog kept between starts: used only when it was made from the same files
and models, ignored (and made again) when stale or damaged, never a reason not to start."""

from __future__ import annotations

import pytest

from wizard.app import catalog_loader
from wizard.app.catalog_loader import cache_path, load_catalog, shipped_text
from wizard.base.catalog_kinds import KINDS
from wizard.model.catalog import CATALOG_KINDS

V100 = 'name = "NVIDIA Tesla V100 PCIe 32GB"'


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """A cache directory of the test's own, and no parsed catalog held in memory."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    catalog_loader._shipped.cache_clear()
    yield cache_path()
    catalog_loader._shipped.cache_clear()


def _parsed_from_files(monkeypatch) -> list[str]:
    """Record every file the loader parses from TOML."""
    parsed: list[str] = []
    parse = catalog_loader.parse_entries

    def recording(text, kind, where):
        parsed.append(kind)
        return parse(text, kind, where)

    monkeypatch.setattr(catalog_loader, "parse_entries", recording)
    return parsed


def test_the_kinds_named_without_the_models_are_the_models_kinds():
    assert tuple(CATALOG_KINDS) == KINDS


def test_a_second_start_reads_the_cache_and_gets_the_same_catalog(fresh, monkeypatch):
    parsed = _parsed_from_files(monkeypatch)
    first = load_catalog(include_user=False)
    assert parsed == list(KINDS) and fresh.is_file()
    catalog_loader._shipped.cache_clear()
    second = load_catalog(include_user=False)
    assert parsed == list(KINDS)  # nothing parsed again
    assert second == first
    assert second.gpus["v100-pcie-32gb"].source == first.gpus["v100-pcie-32gb"].source


def test_a_changed_file_is_parsed_again_not_read_from_the_cache(fresh, monkeypatch):
    load_catalog(include_user=False)
    catalog_loader._shipped.cache_clear()
    original = shipped_text

    def edited(kind):
        text = original(kind)
        return text.replace(V100, 'name = "Edited V100"') if kind == "gpus" else text

    monkeypatch.setattr(catalog_loader, "shipped_text", edited)
    parsed = _parsed_from_files(monkeypatch)
    catalog = load_catalog(include_user=False)
    assert parsed == list(KINDS)
    assert catalog.gpus["v100-pcie-32gb"].name == "Edited V100"


def test_a_cache_made_from_other_files_is_never_used(fresh, monkeypatch):
    load_catalog(include_user=False)
    catalog_loader._shipped.cache_clear()
    key, _, body = fresh.read_text(encoding="utf-8").partition("\n")
    # the same entries with a different name, under a key that no longer matches the files
    fresh.write_text(f"{'0' * len(key)}\n{body.replace('NVIDIA Tesla V100', 'Stale V100')}")
    catalog = load_catalog(include_user=False)
    assert catalog.gpus["v100-pcie-32gb"].name == "NVIDIA Tesla V100 PCIe 32GB"
    assert fresh.read_text(encoding="utf-8").partition("\n")[0] == key  # made again


@pytest.mark.parametrize(
    "damage",
    [
        lambda key, body: f"{key}\n{body[: len(body) // 2]}",  # cut short
        lambda key, body: f"{key}\n{{}}",  # valid JSON, not a catalog
        lambda key, body: f"{key}\n\x00\x01 not json",
        lambda key, body: "",
    ],
)
def test_a_damaged_cache_is_ignored_and_made_again(fresh, damage):
    expected = load_catalog(include_user=False)
    catalog_loader._shipped.cache_clear()
    key, _, body = fresh.read_text(encoding="utf-8").partition("\n")
    fresh.write_text(damage(key, body), encoding="utf-8")
    assert load_catalog(include_user=False) == expected
    catalog_loader._shipped.cache_clear()
    assert fresh.read_text(encoding="utf-8").startswith(f"{key}\n{{")
    assert load_catalog(include_user=False) == expected


def test_a_cache_file_that_is_not_text_is_ignored(fresh):
    expected = load_catalog(include_user=False)
    catalog_loader._shipped.cache_clear()
    fresh.write_bytes(b"\xff\xfe\xfa" * 100)
    assert load_catalog(include_user=False) == expected


def test_a_cache_directory_that_cannot_be_made_is_no_obstacle(fresh):
    fresh.parent.parent.mkdir(parents=True)
    fresh.parent.write_text("a file where the cache directory would go")
    assert load_catalog(include_user=False).gpus
    assert fresh.parent.is_file()


def test_a_cache_path_taken_by_a_folder_is_no_obstacle(fresh):
    fresh.mkdir(parents=True)
    assert load_catalog(include_user=False).gpus


def test_an_oversized_cache_file_is_not_read(fresh):
    expected = load_catalog(include_user=False)
    catalog_loader._shipped.cache_clear()
    key = fresh.read_text(encoding="utf-8").partition("\n")[0]
    fresh.write_text(f"{key}\n{' ' * catalog_loader.MAX_CATALOG_BYTES}", encoding="utf-8")
    assert load_catalog(include_user=False) == expected
