"""The CLI never shows a traceback: any design, any bytes, any arguments give exit 0 or 2 with
one line per problem (exit 1 is reserved for internal errors, which these inputs must not cause)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hardening.strategies import broken_designs, designs
from wizard.cli import main


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["--no-user-catalog", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _one_line_problems(code: int, err: str) -> None:
    assert "Traceback" not in err and "internal error" not in err, err
    assert code in (0, 2), (code, err)
    if code == 2:
        lines = err.splitlines()
        assert lines and all(line.startswith("error: ") and line[7:].strip() for line in lines), err


def _strict_json(text: str):
    def refuse(name):
        raise AssertionError(f"{name} in the JSON output")

    return json.loads(text, parse_constant=refuse)


fixture_ok = settings(suppress_health_check=[HealthCheck.function_scoped_fixture])


@settings(max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(designs(buildable_only=False), broken_designs().map(lambda case: case[0])))
def test_size_and_validate_never_show_a_traceback(capsys, doc):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "d.json"
        path.write_text(json.dumps(doc, allow_nan=True), encoding="utf-8")
        code, out, err = _run(capsys, "size", str(path), "--json")
        _one_line_problems(code, err)
        if code == 0:
            assert _strict_json(out)["totals"]["gpus"] >= 0
        vcode, _, verr = _run(capsys, "validate", str(path))
        _one_line_problems(vcode, verr)
        assert vcode == code  # validate refuses exactly what size refuses


@fixture_ok
@given(st.binary(max_size=2000) | st.text(max_size=2000).map(lambda t: t.encode("utf-8")))
def test_any_bytes_as_a_design_file(capsys, data):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "d.json"
        path.write_bytes(data)
        code, _, err = _run(capsys, "validate", str(path))
        _one_line_problems(code, err)


COMMANDS = ["size", "validate", "bom", "catalog", "schema", "example"]  # not the window
TOKENS = [
    *COMMANDS, "--json", "--list", "-o",
    "gpus", "models", "design", "result", "starter", "nonsense", "d.json", "out.csv",
    "out.pdf", "--prices", "--help", "-x", "", "--catalog-dir",
]  # fmt: skip


@fixture_ok
@given(
    st.builds(
        lambda c, rest: [c, *rest],
        st.sampled_from(COMMANDS),
        st.lists(st.sampled_from(TOKENS), max_size=5),
    )
)
def test_any_arguments(capsys, tmp_path_factory, argv):
    cwd = tmp_path_factory.mktemp("cli")
    import os

    here = os.getcwd()
    os.chdir(cwd)
    try:
        code, _, err = _run(capsys, *argv)
    finally:
        os.chdir(here)
    assert "Traceback" not in err and "internal error" not in err, (argv, err)
    assert code in (0, 2), (argv, code, err)
