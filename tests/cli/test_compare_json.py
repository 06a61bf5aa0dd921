"""`gpuwizard compare --json`: the options as JSON, laid out like every JSON document the command
line writes (two-space indent), with the same figures the table and `size --json` give."""

from __future__ import annotations

import json

from tests.conftest import ROOT, run_cli

LLM = str(ROOT / "resources/examples/llm-serving.json")


def test_compare_json_gives_the_tables_figures_in_the_sizings_layout():
    proc = run_cli("--no-user-catalog", "compare", LLM, "--json")
    assert proc.returncode == 0, proc.stderr
    (row,) = json.loads(proc.stdout)  # one option: the design as it stands
    assert row["name"] == "As designed" and row["proposed"] is True
    sized = run_cli("--no-user-catalog", "size", LLM, "--json")
    (cluster,) = json.loads(sized.stdout)["clusters"]
    assert (row["hosts"], row["gpus"]) == (cluster["hosts"], cluster["gpus"])
    table = run_cli("--no-user-catalog", "compare", LLM).stdout.splitlines()
    figures = {line.split()[0]: line.split()[-1] for line in table[1:3]}
    assert figures == {"Clusters": "1", "Hosts": str(row["hosts"])}
    # the layout: a key of an option two spaces in, as in size --json
    assert proc.stdout.splitlines()[1] == '  "name": "As designed",'
    assert sized.stdout.splitlines()[1] == '  "schema_version": 1,'
