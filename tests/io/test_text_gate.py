"""One text gate for what a design holds (issue: control characters crashed the Word copy and
the spreadsheet; a year 0026 passed; --json wrote a terminal escape inside a JSON string; an
output could replace an input)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli
from wizard.app.io import design_from_dict
from wizard.base.bundled import example_text
from wizard.base.errors import DesignError


def _doc() -> dict:
    return json.loads(example_text("starter"))


@pytest.mark.parametrize("ch", ["\x00", "\x08", "\x0b", "\x0c", "\x1f", "\x7f", "\x85", "\ufffe",
                                "\uffff", "\ufdd0"])  # fmt: skip
def test_a_control_character_is_refused_by_field(ch):
    doc = _doc()
    doc["project"]["customer"] = f"Acme{ch}Corp"
    with pytest.raises(DesignError) as info:
        design_from_dict(doc)
    (line,) = info.value.problems
    assert line.startswith("design: project.customer: ") and f"U+{ord(ch):04X}" in line


def test_tab_newline_and_ordinary_unicode_pass():
    doc = _doc()
    doc["project"]["notes"] = "Line one\n\tindented, Café, 東京, émoji 🙂"
    doc["workloads"][0]["name"] = "Data scientists – Zürich"
    design_from_dict(doc)


def test_names_are_one_unicode_form():
    """'Café' typed as e + combining accent (NFD) and as é (NFC) is one name."""
    doc = _doc()
    doc["workloads"][0]["name"] = "Cafe\u0301"
    assert design_from_dict(doc).workloads[0].name == "Caf\u00e9"


def _two_groups(first: str, second: str) -> dict:
    doc = _doc()
    extra = dict(doc["workloads"][0], name=second)
    doc["workloads"][0]["name"] = first
    doc["workloads"].append(extra)
    return doc


@pytest.mark.parametrize(
    ("first", "second"),
    [("Cafe\u0301", "Caf\u00e9"), ("Chat", "chat"), ("STRASSE", "strasse")],
    ids=["nfd-nfc", "case", "case-upper"],
)
def test_names_that_read_alike_are_one_name(first, second):
    """NFD and NFC 'Café' print identically, and so do 'Chat' and 'chat' in a heading: a second
    group by either spelling is refused, naming both."""
    with pytest.raises(DesignError) as info:
        design_from_dict(_two_groups(first, second))
    (line,) = info.value.problems
    assert line.startswith("design: workloads: ") and "workload group name" in line
    assert "Caf\u00e9" in line if "Caf" in second else (first in line and second in line)


def test_names_that_differ_pass():
    """The negative case: 'Chat' and 'Chat 2' are two names."""
    names = [g.name for g in design_from_dict(_two_groups("Chat", "Chat 2")).workloads]
    assert names[0] == "Chat" and names[-1] == "Chat 2"


def test_cluster_and_option_names_are_compared_the_same_way():
    doc = _doc()
    doc["cluster_name"] = "GPU cluster"
    doc["clusters"] = [
        {"name": "gpu Cluster", "role": "management-domain", "server": "dell-r760xa"}
    ]
    with pytest.raises(DesignError) as info:
        design_from_dict(doc)
    assert "cluster name 'gpu Cluster' is 'GPU cluster' in another case" in info.value.problems[0]


@pytest.mark.parametrize(("date", "ok"), [("0026-11-02", False), ("1999-12-31", False),
                                          ("2026-11-02", True), ("2101-01-01", False)])  # fmt: skip
def test_a_proposal_date_is_of_this_era(date, ok):
    doc = _doc()
    doc["project"]["date"] = date
    if ok:
        design_from_dict(doc)
    else:
        with pytest.raises(DesignError, match=r"project\.date"):
            design_from_dict(doc)


def test_json_output_is_json_whatever_a_text_holds(capsys):
    """A user catalog's text may hold a C1 control or DEL (the design gate does not see it): the
    JSON printer escapes them as JSON does, so the output parses and the terminal gets no raw
    control character (the human-text filter wrote a bare '\\x85' inside a JSON string)."""
    from wizard.cli.common import _out_json

    _out_json(json.dumps({"name": "Acme\u0085\u007fCorp\u001b[2J"}, ensure_ascii=False))
    out = capsys.readouterr().out
    assert json.loads(out) == {"name": "Acme\u0085\u007fCorp\u001b[2J"}
    assert not any(0x7F <= ord(c) < 0xA0 or (ord(c) < 0x20 and c != "\n") for c in out)


def test_an_output_never_replaces_an_input(tmp_path):
    design = tmp_path / "d.json"
    design.write_text(example_text("mig-shared"))
    before = design.read_bytes()
    proc = run_cli("--no-user-catalog", "vsphere-steps", str(design), "-o", str(design))
    assert proc.returncode == 2 and "is also an input" in proc.stderr
    prices = tmp_path / "prices.csv"
    prices.write_text("item,price\nserver:dell-r760xa,1000\n")
    proc = run_cli("--no-user-catalog", "bom", str(design), "-o", str(prices), "--prices",
                   str(prices))  # fmt: skip
    assert proc.returncode == 2 and "is also an input" in proc.stderr
    assert design.read_bytes() == before
    assert prices.read_text().startswith("item,price")


def test_a_user_catalog_text_passes_the_same_gate():
    """A user catalog's name with a C1 control (TOML allows it as an escape) is refused naming
    the file, the entry and the field; the Word copy and the spreadsheet never see it."""
    from wizard.app.catalog_loader import parse_entries
    from wizard.base.errors import CatalogError

    text = (
        '[[software]]\nid = "x"\nname = "bad\\u0085name"\nrelease = "9.9"\nvgpu_branch = 30\n'
        'driver_branch = "R999"\nsource = "test"\n'
    )
    with pytest.raises(CatalogError) as info:
        parse_entries(text, "software", "software.toml")
    message = str(info.value)
    assert "software.toml" in message and "'x'" in message and "name: " in message
    assert "U+0085" in message
