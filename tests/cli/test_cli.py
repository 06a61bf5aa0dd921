"""The headless CLI as a user runs it: exit codes, messages, never a traceback."""

import json

import pytest

from tests.conftest import ROOT, run_cli
from tests.io.test_design_files import minimal
from wizard.base.catalog_kinds import KINDS


def test_help_lists_every_subcommand():
    proc = run_cli("--help")
    assert proc.returncode == 0
    for name in ("size", "report", "bom", "validate", "catalog", "schema", "example"):
        assert name in proc.stdout


def test_catalog_gpus_table_and_json():
    proc = run_cli("catalog", "gpus")
    assert proc.returncode == 0, proc.stderr
    assert "h100-sxm5-80gb" in proc.stdout and "BF16 TFLOPS" in proc.stdout
    proc = run_cli("catalog", "models", "--json")
    assert proc.returncode == 0
    models = {m["id"]: m for m in json.loads(proc.stdout)}
    assert models["llama-3-70b"]["kv_heads"] == 8
    assert all(m["source"] for m in models.values())


@pytest.mark.parametrize("kind", KINDS)
def test_catalog_every_kind(kind):
    proc = run_cli("catalog", kind)
    assert proc.returncode == 0, proc.stderr
    assert len(proc.stdout.splitlines()) > 3
    assert "to confirm" in proc.stdout.splitlines()[0]


def test_catalog_says_which_figures_to_confirm():
    """The Q3400's estimated power is listed beside it, with the other figures to confirm."""
    lines = run_cli("catalog", "switches").stdout.splitlines()
    q3400 = next(ln for ln in lines if ln.startswith("nvidia-q3400-ra "))
    assert q3400.rstrip().endswith("rack_units, power_w, part_number, sharp")


def test_catalog_servers_lists_processors_with_their_cores():
    """NVIDIA DGX B200 User Guide: 2 x Intel Xeon Platinum 8570, 56 cores each."""
    proc = run_cli("catalog", "servers")
    assert proc.returncode == 0, proc.stderr
    header, _, *rows = proc.stdout.splitlines()
    assert "processors (cores per socket)" in header and "cooling" in header
    (dgx,) = [r for r in rows if r.startswith("nvidia-dgx-b200 ")]
    assert "Intel Xeon Platinum 8570 (56)" in dgx


def test_example_list_write_and_validate(tmp_path):
    proc = run_cli("example", "--list")
    assert proc.returncode == 0
    names = proc.stdout.split()
    assert {"starter", "enterprise"} <= set(names)
    for name in names:
        out = tmp_path / f"{name}.json"
        proc = run_cli("example", name, "-o", str(out))
        assert proc.returncode == 0, proc.stderr
        proc = run_cli("validate", str(out))
        assert proc.returncode == 0, proc.stderr
        assert "valid" in proc.stdout


def test_unknown_example_is_bad_input():
    proc = run_cli("example", "nope")
    assert proc.returncode == 2
    assert "unknown example 'nope'" in proc.stderr


def _validate(tmp_path, text: str):
    path = tmp_path / "d.json"
    path.write_text(text)
    return run_cli("validate", str(path))


@pytest.mark.parametrize(
    "mutate, expect",
    [
        (lambda d: "{not json", "not valid JSON"),
        (lambda d: d["hardware"].update(gpus_per_host="two"), "hardware.gpus_per_host"),
        (lambda d: d["project"].update(favourite="x"), "project.favourite: unknown field"),
        (lambda d: d["workloads"][0].update(count=-1), "workloads[0].count"),
        (lambda d: d["hardware"].update(gpu="gtx-1080"), "unknown GPU 'gtx-1080'"),
        (lambda d: d["hardware"].update(gpus_per_host=16), "hardware.gpus_per_host: 16 is more"),
    ],
)
def test_malformed_design_exits_2_naming_the_field(tmp_path, mutate, expect):
    doc = minimal()
    result = mutate(doc)
    text = result if isinstance(result, str) else json.dumps(doc)
    proc = _validate(tmp_path, text)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert expect in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout


def test_incompatible_hardware_is_named(tmp_path):
    doc = minimal()
    doc["hardware"].update(gpu="h100-sxm5-80gb", server="dell-r750xa")
    proc = _validate(tmp_path, json.dumps(doc))
    assert proc.returncode == 2
    # the server and the GPU by their names, not their catalog ids
    assert "hardware.server: the Dell PowerEdge R750xa cannot hold the NVIDIA H100" in proc.stderr


def test_missing_file_is_bad_input(tmp_path):
    proc = run_cli("validate", str(tmp_path / "nope.json"))
    assert proc.returncode == 2 and "cannot be read" in proc.stderr


def test_schema_design_is_json_schema():
    proc = run_cli("schema", "design")
    assert proc.returncode == 0
    schema = json.loads(proc.stdout)
    assert "workloads" in schema["properties"]


def test_usage_errors_exit_2():
    proc = run_cli("catalog", "toasters")
    assert proc.returncode == 2
    assert "invalid choice" in proc.stderr


def test_bad_user_catalog_is_bad_input(tmp_path):
    (tmp_path / "gpus.toml").write_text("[[gpus]]\nid = 'X bad'\n")
    proc = run_cli("--catalog-dir", str(tmp_path), "catalog", "gpus")
    assert proc.returncode == 2
    assert "gpus.toml: entry 'X bad': id:" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_size_text_and_json_for_every_example(tmp_path):
    names = run_cli("example", "--list").stdout.split()
    for name in names:
        path = tmp_path / f"{name}.json"
        run_cli("example", name, "-o", str(path))
        proc = run_cli("size", str(path))
        assert proc.returncode == 0, proc.stderr
        assert "hosts total" in proc.stdout
        proc = run_cli("size", str(path), "--json")
        assert proc.returncode == 0, proc.stderr
        estate = json.loads(proc.stdout)  # one shape for every design: the estate
        result = estate["clusters"][0]["result"]
        assert result["cluster"]["hosts_total"] >= 1
        assert estate["totals"]["hosts"] == sum(c["hosts"] for c in estate["clusters"])
        assert result["calculations"]


def test_schema_result_names_the_required_keys():
    proc = run_cli("schema", "result")
    assert proc.returncode == 0
    schema = json.loads(proc.stdout)
    assert {"cluster", "workloads", "calculations", "warnings", "decisions"} <= set(
        schema["properties"]
    )


def test_a_reader_that_stops_early_gets_no_error(tmp_path):
    """`gpuwizard size d.json --json | head` ends quietly, as Unix tools do."""
    import subprocess
    import sys

    path = tmp_path / "d.json"
    run_cli("example", "enterprise", "-o", str(path))
    proc = subprocess.run(
        f"'{sys.executable}' -m wizard size '{path}' --json | head -c 10",
        shell=True,
        capture_output=True,
        text=True,
    )
    assert proc.stdout == '{\n  "schem'
    assert "error" not in proc.stderr


def test_escape_sequences_in_a_design_never_reach_the_terminal(tmp_path):
    """A group named '\\x1b[2J\\x1b[31mred' used to clear and recolour the terminal when
    `gpuwizard size` printed it. Such a name is now refused by the text gate, naming the field
    and the character; the refusal itself shows the name's control characters as escapes."""
    import json

    from tests.conftest import ROOT

    doc = json.loads((ROOT / "resources/examples/starter.json").read_text())
    doc["workloads"][0]["name"] = "\x1b[2J\x1b[31mred\x07\x9b"
    path = tmp_path / "d.json"
    path.write_text(json.dumps(doc))
    for args in (("size", str(path)), ("validate", str(path)), ("mig-config", str(path))):
        proc = run_cli(*args)
        out = proc.stdout + proc.stderr
        assert not any(c in out for c in "\x1b\x07\x9b"), args
    proc = run_cli("size", str(path))
    assert proc.returncode == 2 and "workloads[0].name" in proc.stderr
    assert "U+001B" in proc.stderr and "\\x1b[2J\\x1b[31mred" in proc.stderr


def test_the_summary_prints_the_white_paper_starter_figures():
    """White paper 8.4.1: 14 GPUs, 2 per host, N+1: 7 hosts for capacity + 1 for HA = 8 hosts,
    16 GPUs, 16 - 2 = 14 left after one host fails."""
    proc = run_cli("--no-user-catalog", "size", str(ROOT / "resources/examples/starter.json"))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    for label, value in [("GPU demand", "14"), ("hosts for capacity", "7"), ("hosts for HA", "1"),
                         ("hosts total", "8"), ("GPUs total", "16"),
                         ("GPUs after failures", "14 (1 host failure tolerated)")]:  # fmt: skip
        assert f"  {label:<22}{value}" in lines, (label, lines[:8])
