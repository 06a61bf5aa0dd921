"""gpuwizard import-estate as a user runs it: the findings printed, JSON on request, the
inventory script written, one line and exit 2 on bad input."""

import json

from tests.conftest import run_cli
from wizard import cli

from .conftest import DATA


def test_findings_of_a_real_export_as_printed(capsys):
    code = cli.main(["--no-user-catalog", "import-estate", str(DATA / "rvtools-4.4.3-ovh.xlsx")])
    assert code == cli.EXIT_OK
    out = capsys.readouterr().out.splitlines()
    # The 4.4.3 export: one cluster of five Supermicro X11DPi-N(T) hosts (vHost E/BZ columns),
    # 124 VMs of which 105 powered on (vInfo), none of it in the catalog.
    assert "  Cluster1: 5 hosts, HA on" in out
    assert "  Cluster1: 5 × Supermicro X11DPi-N(T) (not in the catalog)" in out
    assert "VMs: 124 (105 powered on)" in out
    assert "Not mapped: 1" in out


def test_json_holds_every_host_and_what_did_not_map(tmp_path, capsys):
    out = tmp_path / "estate.json"
    files = [str(DATA / "rvtools-4.7.1-bc.xlsx"), str(DATA / "nvidia-smi-tesla-p100.xml")]
    assert cli.main(["--no-user-catalog", "import-estate", *files, "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert [h["name"] for h in doc["hosts"]] == ["192.168.1.39", "192.168.1.40"]
    assert doc["gpus"][0]["product_name"] == "Tesla P100-PCIE-16GB"
    assert doc["gpus"][0]["gpu"]["catalog_id"] is None
    assert "GPU 'Tesla P100-PCIE-16GB' (1 GPU): no catalog GPU has this name" in doc["unmapped"]
    assert f"wrote {out}" in capsys.readouterr().err


def test_the_inventory_script_is_written(tmp_path):
    out = tmp_path / "inventory.ps1"
    proc = run_cli("--no-user-catalog", "import-estate", "--inventory-script", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "Export-Csv -Path $OutFile" in out.read_text()


def test_no_file_named_is_one_line_and_exit_2(capsys):
    assert cli.main(["--no-user-catalog", "import-estate"]) == cli.EXIT_BAD_INPUT
    (line,) = capsys.readouterr().err.splitlines()
    assert "name an RVTools .xlsx" in line


def test_the_json_output_may_not_replace_an_input(capsys):
    src = str(DATA / "nvidia-smi-tesla-p100.xml")
    assert cli.main(["--no-user-catalog", "import-estate", src, "--json", src]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "is also an input" in line
