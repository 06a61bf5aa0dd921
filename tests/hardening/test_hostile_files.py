"""Hostile and broken files: each gives a clear error naming the file (and the field where there
is one), executes nothing, writes nothing, and never reads more than the stated limit."""

from __future__ import annotations

import codecs
import json
import os
from pathlib import Path

import pytest

from tests.conftest import run_cli
from wizard.app.catalog_loader import MAX_CATALOG_BYTES, load_catalog
from wizard.app.io import MAX_DESIGN_BYTES, load_design
from wizard.app.pricing import MAX_PRICE_FILE_BYTES, load_prices
from wizard.base import safe_read
from wizard.base.bundled import example_text
from wizard.base.errors import CatalogError, DesignError, UserError

ENTERPRISE = example_text("enterprise")


def _refused(path: Path) -> list[str]:
    with pytest.raises(DesignError) as info:
        load_design(path)
    lines = info.value.problems
    assert lines and all(line.startswith(str(path)) and "\n" not in line for line in lines)
    return lines


def _cli_refuses(path: Path, *extra: str) -> str:
    """Through the real entry point: exit 2, one 'error:' line per problem, no traceback."""
    proc = run_cli(*extra, "validate", str(path))
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert lines and all(line.startswith("error: ") for line in lines), proc.stderr
    return proc.stderr


# ------------------------------------------------------------------------------ truncated


def test_every_truncation_of_a_design_is_refused_as_invalid_json(tmp_path):
    path = tmp_path / "d.json"
    body = ENTERPRISE.rstrip()
    for cut in range(1, len(body) - 1, 37):
        path.write_text(body[:cut], encoding="utf-8")
        (line,) = _refused(path)
        assert "not valid JSON" in line, (cut, line)


def test_truncated_file_through_the_cli(tmp_path):
    path = tmp_path / "d.json"
    path.write_text(ENTERPRISE[: len(ENTERPRISE) // 2], encoding="utf-8")
    assert "not valid JSON" in _cli_refuses(path)


# ------------------------------------------------------------------------------ too large


def test_a_100_mb_file_is_refused_before_it_is_read(tmp_path, monkeypatch):
    path = tmp_path / "huge.json"
    with open(path, "wb") as handle:  # sparse: 100 MB on paper, nothing on disk
        handle.truncate(100 * 1024 * 1024)
    reads = []
    real_open = open

    def spy_open(file, mode="r", *args, **kwargs):
        handle = real_open(file, mode, *args, **kwargs)
        real_read = handle.read

        def read(n=-1):
            reads.append(n)
            return real_read(n)

        handle.read = read
        return handle

    monkeypatch.setattr(safe_read, "open", spy_open, raising=False)
    (line,) = _refused(path)
    assert f"104,857,600 bytes is more than the {MAX_DESIGN_BYTES:,} bytes" in line
    assert reads == []  # refused on its size alone


def test_a_file_that_grows_after_the_size_check_is_cut_off(tmp_path, monkeypatch):
    path = tmp_path / "growing.json"
    path.write_bytes(b" " * (MAX_DESIGN_BYTES + 10))
    real_fstat = os.fstat

    def small_fstat(fd):
        info = real_fstat(fd)
        return os.stat_result((info.st_mode, *info[1:6], 10, *info[7:]))

    monkeypatch.setattr(safe_read.os, "fstat", small_fstat)
    (line,) = _refused(path)
    assert "more than the" in line


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_device_is_not_read_at_all(device):
    with pytest.raises(DesignError, match="not a regular file"):
        load_design(device)


def test_a_pipe_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "d.json"
    os.mkfifo(fifo)
    with pytest.raises(DesignError, match="not a regular file"):
        load_design(fifo)  # opening a pipe for reading would block forever


def test_a_directory_is_refused(tmp_path):
    with pytest.raises(DesignError, match="not a regular file"):
        load_design(tmp_path)


# --------------------------------------------------------------------------- structure


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000 + "]" * 100_000,
        '{"a":' * 50_000 + "1" + "}" * 50_000,
        '{"project": {"notes": ' + "[" * 70 + "]" * 70 + "}}",
    ],
    ids=["lists", "objects", "just-past-the-limit"],
)
def test_deeply_nested_json_is_refused(tmp_path, text):
    path = tmp_path / "d.json"
    path.write_text(text, encoding="utf-8")
    (line,) = _refused(path)
    assert "nested" in line or "not valid JSON" in line


def test_deep_nesting_through_the_cli(tmp_path):
    path = tmp_path / "d.json"
    path.write_text("[" * 200_000, encoding="utf-8")
    _cli_refuses(path)


@pytest.mark.parametrize(
    ("literal", "shown"),
    [
        ("NaN", "NaN"),
        ("Infinity", "Infinity (or a number too large for one)"),
        ("-Infinity", "-Infinity"),
        ("1e999", "Infinity (or a number too large for one)"),
    ],
)
def test_non_finite_numbers_are_refused_naming_the_field(tmp_path, literal, shown):
    doc = json.loads(ENTERPRISE)
    text = json.dumps(doc).replace('"gpus_per_host": 4', f'"gpus_per_host": {literal}')
    assert literal in text
    path = tmp_path / "d.json"
    path.write_text(text, encoding="utf-8")
    (line,) = _refused(path)
    assert line == f"{path}: hardware.gpus_per_host: {shown} is not a number a design can hold"


def test_non_finite_numbers_deep_in_a_list_are_named(tmp_path):
    doc = json.loads(ENTERPRISE)
    doc["workloads"][0]["count"] = float("nan")
    path = tmp_path / "d.json"
    path.write_text(json.dumps(doc, allow_nan=True), encoding="utf-8")
    (line,) = _refused(path)
    assert ": workloads[0].count: NaN is not" in line


def test_an_integer_with_too_many_digits_is_refused(tmp_path):
    """Python refuses to convert integers of more than 4,300 digits with a ValueError."""
    path = tmp_path / "d.json"
    path.write_text(ENTERPRISE.replace('"count": 3', '"count": ' + "9" * 5000), "utf-8")
    assert '"count": 999' in path.read_text()
    (line,) = _refused(path)
    assert "a number in it cannot be read" in line
    assert "Traceback" not in _cli_refuses(path)


# ----------------------------------------------------------------------------- encodings


@pytest.mark.parametrize(
    ("encoding", "bom", "expected"),
    [
        ("utf-16-le", codecs.BOM_UTF16_LE, "the text is UTF-16, not UTF-8"),
        ("utf-16-be", codecs.BOM_UTF16_BE, "the text is UTF-16, not UTF-8"),
        ("utf-32-le", codecs.BOM_UTF32_LE, "the text is UTF-32, not UTF-8"),
        ("utf-16-le", b"", "NUL bytes: UTF-16 without a byte-order mark"),
    ],
)
def test_wide_encodings_are_named(tmp_path, encoding, bom, expected):
    path = tmp_path / "d.json"
    path.write_bytes(bom + ENTERPRISE.encode(encoding))
    (line,) = _refused(path)
    assert expected in line


def test_latin1_bytes_are_refused_with_the_offset(tmp_path):
    path = tmp_path / "d.json"
    data = ENTERPRISE.replace("Example Corp", "Société Générale").encode("latin-1")
    path.write_bytes(data)
    offset = data.index("é".encode("latin-1"))
    (line,) = _refused(path)
    assert f"byte 0xe9 at offset {offset}" in line


def test_a_utf8_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "d.json"
    path.write_bytes(codecs.BOM_UTF8 + ENTERPRISE.encode("utf-8"))
    assert load_design(path).project.customer == "Example Corp"


def test_binary_garbage_is_refused(tmp_path):
    path = tmp_path / "d.json"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    _refused(path)
    _cli_refuses(path)


# ---------------------------------------------------------------------------------- logo


@pytest.mark.parametrize(
    ("logo", "expected"),
    [
        ("logo\x00.png", "control character '\\x00'"),
        ("logo\n.png", "control character '\\n'"),
        ("   ", "logo_path is empty"),
        ("x" * 5000, "at most 4096 characters"),
    ],
)
def test_a_logo_path_that_cannot_name_a_file_is_refused_at_load(tmp_path, logo, expected):
    doc = json.loads(ENTERPRISE)
    doc["project"]["logo_path"] = logo
    path = tmp_path / "d.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    (line,) = _refused(path)
    assert line.startswith(f"{path}: project.logo_path: ") and expected in line


@pytest.mark.parametrize("logo", ["/dev/zero", "../../../../etc/passwd", "/nonexistent/huge.png"])
def test_loading_a_design_never_opens_its_logo(tmp_path, monkeypatch, logo):
    """The logo is the report's to read and check (size, pixels, format); loading the design
    only keeps the path, so a hostile path costs nothing at load."""
    doc = json.loads(ENTERPRISE)
    doc["project"]["logo_path"] = logo
    path = tmp_path / "d.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    opened = []
    real_open = open
    monkeypatch.setattr(
        safe_read,
        "open",
        lambda f, *a, **k: opened.append(str(f)) or real_open(f, *a, **k),
        raising=False,
    )
    assert load_design(path).project.logo_path == logo
    assert opened == [str(path)]


# ------------------------------------------------------------------------ user catalogs

GPU = """
[[gpus]]
id = "{id}"
name = "Test GPU"
architecture = "Test"
memory_gb = {memory}
memory_type = "HBM"
memory_bandwidth_gbs = 1000
tdp_w = 300
form_factor = "pcie"
slot_width = 2
pcie_gen = 4
nvaie_supported = true
source = "test datasheet"
[gpus.tflops]
fp32 = 10
"""


def _catalog_problems(tmp_path: Path, name: str, text: str | bytes) -> list[str]:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(CatalogError) as info:
        load_catalog(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing written
    lines = info.value.problems
    assert lines and all(line.startswith(str(path)) and "\n" not in line for line in lines)
    return lines


def test_a_good_user_gpu_loads(tmp_path):
    (tmp_path / "gpus.toml").write_text(GPU.format(id="test-gpu", memory=40), "utf-8")
    assert load_catalog(tmp_path).gpus["test-gpu"].memory_gb == 40


@pytest.mark.parametrize(
    ("memory", "field"),
    [("-40", "memory_gb"), ("nan", "memory_gb"), ("inf", "memory_gb"), ('"lots"', "memory_gb")],
)
def test_a_bad_figure_names_file_entry_and_field(tmp_path, memory, field):
    (line,) = _catalog_problems(tmp_path, "gpus.toml", GPU.format(id="test-gpu", memory=memory))
    assert "entry 'test-gpu': " + field in line


def test_duplicate_ids_in_a_user_file_are_refused(tmp_path):
    text = GPU.format(id="test-gpu", memory=40) + GPU.format(id="test-gpu", memory=80)
    (line,) = _catalog_problems(tmp_path, "gpus.toml", text)
    assert "duplicate id 'test-gpu'" in line


def test_every_bad_entry_is_reported(tmp_path):
    text = (
        GPU.format(id="one", memory=-1)
        + GPU.format(id="Bad Id!", memory=40)
        + GPU.format(id="two", memory=40).replace('source = "test datasheet"\n', "")
        + GPU.format(id="three", memory=40).replace("pcie_gen = 4", "pcie_gen = 4\ncolour = 1")
    )
    lines = _catalog_problems(tmp_path, "gpus.toml", text)
    joined = "\n".join(lines)
    assert "entry 'one': memory_gb" in joined
    assert "entry 'Bad Id!': id" in joined
    assert "entry 'two': source: required field is missing" in joined
    assert "entry 'three': colour: unknown field" in joined


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[[gpus]]\nid = "a"\nid = "b"\n', "not valid TOML"),  # duplicate key
        ("import os; os.system('touch pwned')\n", "not valid TOML"),
        ("gpus = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
        ("x = " + "9" * 5000 + "\n", "a number in it cannot be read"),
        ('[[servers]]\nid = "a"\n', "unknown top-level key(s) ['servers']"),
        ('gpus = "all of them"\n', "must be an array of tables"),
        ("gpus = [1, 2]\n", "entry #1"),
        (codecs.BOM_UTF16_LE + "gpus = []".encode("utf-16-le"), "UTF-16, not UTF-8"),
    ],
    ids=[
        "duplicate-key",
        "code",
        "deep",
        "huge-integer",
        "wrong-kind",
        "not-a-list",
        "not-tables",
        "utf-16",
    ],
)
def test_broken_catalog_files_are_refused(tmp_path, monkeypatch, text, expected):
    monkeypatch.chdir(tmp_path)
    lines = _catalog_problems(tmp_path, "gpus.toml", text)
    assert any(expected in line for line in lines), lines
    assert not (tmp_path / "pwned").exists()  # nothing executed


def test_a_huge_catalog_file_is_refused_unread(tmp_path):
    path = tmp_path / "gpus.toml"
    with open(path, "wb") as handle:
        handle.truncate(MAX_CATALOG_BYTES + 1)
    with pytest.raises(CatalogError) as info:
        load_catalog(tmp_path)
    (line,) = info.value.problems
    assert line == (
        f"{path}: {MAX_CATALOG_BYTES + 1:,} bytes is more than the {MAX_CATALOG_BYTES:,} bytes "
        "a catalog file may be"
    )


def test_a_bad_user_catalog_through_the_cli(tmp_path):
    cat = tmp_path / "catalogs"
    cat.mkdir()
    (cat / "gpus.toml").write_text(GPU.format(id="test-gpu", memory=-1), "utf-8")
    design = tmp_path / "d.json"
    design.write_text(ENTERPRISE, encoding="utf-8")
    before = sorted(p.name for p in tmp_path.rglob("*"))
    err = _cli_refuses(design, "--catalog-dir", str(cat))
    assert "entry 'test-gpu': memory_gb" in err
    assert sorted(p.name for p in tmp_path.rglob("*")) == before


# ---------------------------------------------------------------------------- price lists


@pytest.mark.parametrize(
    ("name", "data", "expected"),
    [
        ("p.toml", 'currency = "EUR"\n[prices]\nx = ' + "9" * 5000, "cannot be read as a price"),
        ("p.csv", "item,unit_price,currency\n" + "x" * 200_000 + ",1,EUR\n", "not a readable CSV"),
        ("p.csv", "item,unit_price,currency\nx,nan,EUR\n", "prices.x"),
        ("p.toml", 'currency = "EUR"\n[prices]\nx = inf\n', "prices.x"),
    ],
    ids=["huge-integer", "huge-field", "csv-nan", "toml-inf"],
)
def test_hostile_price_lists_are_refused(tmp_path, name, data, expected):
    path = tmp_path / name
    path.write_text(data, encoding="utf-8")
    with pytest.raises(UserError) as info:
        load_prices(path)
    assert any(expected in line for line in info.value.problems), info.value.problems


def test_a_huge_price_list_is_refused_unread(tmp_path):
    path = tmp_path / "p.toml"
    with open(path, "wb") as handle:
        handle.truncate(MAX_PRICE_FILE_BYTES + 1)
    with pytest.raises(UserError, match="bytes a price list may be"):
        load_prices(path)
