"""The rule-planted mutation run: sites found by rule, a reproducible draw, equivalent mutants
left out, a broken formula caught and the file restored. No test here runs pytest: the runner
is a plain function that checks a formula by hand arithmetic."""

from __future__ import annotations

import ast
import importlib
import math
import os
import shutil
from pathlib import Path

import pytest

from tests.conftest import ROOT
from wizard.engine.basis.expr import Formula


@pytest.fixture(scope="module")
def mr():
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(ROOT / "scripts"))
        yield importlib.import_module("mutation_rules")


SOURCE = """\
def f(a, b):
    if not a < b and a == 0:
        return True
    return a + b * 2.5


X = Formula("ceil(hosts / per_rack - 1e-9)")
"""


def _by_what(mr, text: str) -> dict[str, object]:
    return {s.what: s for s in mr.sites("m.py", text)}


def test_each_rule_plants_its_edit_at_its_token(mr):
    found = _by_what(mr, SOURCE)
    expected = {  # what -> (line, the line after the edit)
        "drop not a < b": (2, "    if a < b and a == 0:"),
        "< -> <=": (2, "    if not a <= b and a == 0:"),
        "and -> or": (2, "    if not a < b or a == 0:"),
        "== -> !=": (2, "    if not a < b and a != 0:"),
        "0 -> 1": (2, "    if not a < b and a == 1:"),
        "return True -> False": (3, "        return False"),
        "+ -> -": (4, "    return a - b * 2.5"),
        "drop + b * 2.5": (4, "    return a"),
        "* -> /": (4, "    return a + b / 2.5"),
        "2.5 -> 5.0": (4, "    return a + b * 5.0"),
        "formula / -> *": (7, 'X = Formula("ceil(hosts * per_rack - 1e-9)")'),
        "formula - -> +": (7, 'X = Formula("ceil(hosts / per_rack + 1e-9)")'),
        "formula drop - 1e-9": (7, 'X = Formula("ceil(hosts / per_rack)")'),
    }
    assert set(found) == set(expected)  # 1e-9 is a rounding guard: no "1e-9 -> 2e-09"
    for what, (line, after) in expected.items():
        site = found[what]
        assert site.line == line, what
        assert site.apply(SOURCE).splitlines()[line - 1] == after, what
    assert found["< -> <="].id == "m.py::f::< -> <=#0"
    assert found["formula / -> *"].id == "m.py::X::formula / -> *#0"


def test_text_sequences_annotations_and_fstrings_are_left_alone(mr):
    text = (
        "def g(n: int = 3) -> list[int]:\n"
        '    s = "a" + str(n)\n'
        "    row = [0] * n\n"
        '    return f"{n + 1} hosts"\n'
    )
    # no swap of the text's + or the list's *, nothing inside the f-string; the constants stay
    assert [(s.line, s.what) for s in mr.sites("g.py", text)] == [(1, "3 -> 4"), (3, "0 -> 1")]


def test_a_site_keeps_its_id_when_code_above_it_moves(mr):
    moved = "import math\n\n\n" + SOURCE
    before = {s.id: s.line for s in mr.sites("m.py", SOURCE)}
    after = {s.id: s.line for s in mr.sites("m.py", moved)}
    assert before.keys() == after.keys()
    assert all(after[k] == before[k] + 3 for k in before)


def test_every_site_of_an_engine_room_plants_valid_python(mr):
    room = next(r for r in mr.rooms(ROOT) if r.name == "placement")
    found = mr.room_sites(ROOT, room)
    assert len(found) >= 40
    assert len({s.id for s in found}) == len(found)
    for s in found:
        text = (ROOT / s.path).read_text(encoding="utf-8")
        mutated = s.apply(text)
        assert mutated != text, s.id
        ast.parse(mutated)


def test_the_rooms_hold_every_engine_module_once_and_the_readers(mr):
    rooms = mr.rooms(ROOT)
    names = [r.name for r in rooms]
    assert names[-3:] == ["cli+app", "gui", "reports"]
    assert "size+decide" in names
    owned = [f for r in rooms for f in r.files(ROOT)]
    engine = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "wizard/engine").rglob("*.py"))
    assert sorted(f for f in owned if f.startswith("wizard/engine/")) == engine
    assert "wizard/engine/size.py" in next(r for r in rooms if r.name == "size+decide").files(ROOT)
    assert len(owned) == len(set(owned))
    for r in rooms:
        assert len(mr.room_sites(ROOT, r)) >= 40, r.name
        assert all((ROOT / t).exists() for t in r.tests), r.name
    cli_app = next(r for r in rooms if r.name == "cli+app")
    assert {"tests/cli", "tests/io", "tests/test_recommend.py"} <= set(cli_app.tests)


def _sites(n: int, mr) -> list:
    return [mr.Site(f"p{i % 3}.py", i, "f", f"{i} -> {i + 1}", ((0, 1, "x"),)) for i in range(n)]


def test_the_same_seed_draws_the_same_mutants_in_any_listing_order(mr):
    candidates = _sites(200, mr)
    first, _ = mr.draw(candidates, 4848, 40, {})
    again, _ = mr.draw(list(reversed(candidates)), 4848, 40, {})
    other, _ = mr.draw(candidates, 4849, 40, {})
    assert [s.id for s in first] == [s.id for s in again]
    assert len(first) == 40 and len({s.id for s in first}) == 40
    assert [s.id for s in other] != [s.id for s in first]


def test_an_equivalent_entry_is_listed_with_its_reason_and_never_run(mr, tmp_path, monkeypatch):
    candidates = _sites(50, mr)
    plain, _ = mr.draw(candidates, 7, 5, {})
    equivalent = {plain[1].id: "the same number either way"}
    judged, skipped = mr.draw(candidates, 7, 5, equivalent)
    assert [s.id for s in skipped] == [plain[1].id]
    assert [s.id for s in judged][:4] == [plain[0].id, *(s.id for s in plain[2:])]
    assert len(judged) == 5  # the draw takes the next site in its place

    for i in range(3):
        (tmp_path / f"p{i}.py").write_text("y = 1\n")
    ran = []

    def runner(copy, tests, timeout):
        ran.append((copy / "p0.py").read_text() + (copy / "p1.py").read_text())
        return "failed"

    room = mr.Room("toy", ("p*.py",), ("tests",))
    result = mr.run_room(tmp_path, room, (50, judged, skipped), runner, (1, 1))
    assert len(ran) == 5 and result.caught == 5
    assert [s.id for s in result.equivalent] == [plain[1].id]
    monkeypatch.setattr(mr, "EQUIVALENT", equivalent)
    table = mr.markdown(
        [result],
        {
            "seed": "7",
            "per_room": "5",
            "commit": "abc1234",
            "date": "2026-12-05",
            "duration": "1 min",
        },
    )
    assert f"`p{plain[1].line % 3}.py:{plain[1].line}`" in table
    assert "the same number either way" in table
    assert "| toy | 3 | 50 | 6 | 1 | 5 | 0 | 0 | 5/5 (100 %) |" in table


CLUSTER = "wizard/engine/placement/cluster.py"


def _percent_reserve_holds(copy: Path) -> bool:
    """The test the fake runner runs: a reserve of 50 % of the cluster doubles the 8 capacity
    hosts (8 reserve hosts of 16), and 20 % of 10 hosts is 2 reserve hosts for 8."""
    tree = ast.parse((copy / CLUSTER).read_text(encoding="utf-8"))
    text = next(
        n.value.args[0].value
        for n in tree.body
        if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "PERCENT_RESERVE"
    )
    try:
        half = Formula(text)(hosts_for_capacity=8, reserve_percent=50)
        fifth = Formula(text)(hosts_for_capacity=8, reserve_percent=20)
    except Exception:
        return False
    return math.isclose(half, 8) and math.isclose(fifth, 2)


def test_a_mutant_that_breaks_an_engine_formula_is_caught_and_the_file_restored(mr, tmp_path):
    (tmp_path / CLUSTER).parent.mkdir(parents=True)
    shutil.copy(ROOT / CLUSTER, tmp_path / CLUSTER)
    original = (tmp_path / CLUSTER).read_text(encoding="utf-8")
    found = {s.id: s for s in mr.sites(CLUSTER, original)}
    stages = []

    def runner(copy, tests, timeout):
        stages.append(tuple(tests))
        return "passed" if _percent_reserve_holds(copy) else "failed: the reserve test"

    assert _percent_reserve_holds(tmp_path)
    broken = found[f"{CLUSTER}::PERCENT_RESERVE::formula - -> +#0"]  # 100 + reserve_percent
    v = mr.judge(tmp_path, broken, ("tests/engine",), runner, (60, 60), whole=("tests",))
    assert v.outcome == "caught by room tests" and v.how == "failed: the reserve test"
    assert stages == [("tests/engine",)]
    assert (tmp_path / CLUSTER).read_text(encoding="utf-8") == original

    stages.clear()  # a mutant the runner's test does not reach goes on to the whole suite
    elsewhere = found[f"{CLUSTER}::N_PLUS_K::formula * -> /#0"]
    v = mr.judge(tmp_path, elsewhere, ("tests/engine",), runner, (60, 60), whole=("tests",))
    assert v.outcome == "survived"
    assert stages == [("tests/engine",), ("tests",)]
    assert (tmp_path / CLUSTER).read_text(encoding="utf-8") == original


def test_the_file_is_restored_when_the_runner_fails(mr, tmp_path):
    (tmp_path / "m.py").write_text(SOURCE)
    site = _by_what(mr, SOURCE)["< -> <="]

    def runner(copy, tests, timeout):
        assert "a <= b" in (copy / "m.py").read_text()
        raise SystemExit("pytest exited 4")

    with pytest.raises(SystemExit):
        mr.judge(tmp_path, site, ("tests",), runner, (1, 1))
    assert (tmp_path / "m.py").read_text() == SOURCE


def test_the_first_failing_test_is_read_from_the_short_summary(mr):
    out = (
        "..F\n=== short test summary info ===\n"
        "FAILED tests/cli/test_cli.py::test_size[a-b] - AssertionError: x - y: 3 != 4\n"
        "ERROR tests/gui/test_x.py - ImportError\n1 failed, 2 passed\n"
    )
    assert mr.first_failure(out) == "tests/cli/test_cli.py::test_size[a-b]"
    assert mr.first_failure("ERROR tests/gui/test_x.py - ImportError\n") == "tests/gui/test_x.py"
    assert mr.first_failure("3 passed\n") == "(no summary line)"


def _bare_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "repo"
    for pkg in ("wizard", "reports", "catalogs", "resources"):
        (copy / pkg).mkdir(parents=True)
        (copy / pkg / "__init__.py").write_text("")
    return copy


def test_the_copy_reads_its_own_catalogs_and_shipped_files(mr, tmp_path):
    """The editable install maps wizard.catalogs and wizard.resources to the working tree; the
    run's environment points them at the copy, and the check refuses a copy that leaks."""
    copy = _bare_copy(tmp_path)
    assert mr.imports_the_copy(copy)
    # the suite's import-linter test looks for lint-imports beside the interpreter on PATH
    path = mr.copy_environment(copy)["PATH"].split(os.pathsep)
    assert shutil.which("lint-imports", path=path[0])


def test_a_copy_that_reads_the_working_tree_is_refused(mr, tmp_path, monkeypatch):
    monkeypatch.setattr(mr, "SITECUSTOMIZE", "")
    assert not mr.imports_the_copy(_bare_copy(tmp_path))


LINES = """\
import functools

LIMIT = 3


@functools.cache
def g(a=LIMIT):
    x = a + 1
    return (x
            * 2)
"""


def test_the_line_map_names_the_tests_of_a_statement_and_none_for_import_time_lines(mr):
    """A line in a function's body is judged first by the tests that ran its statement (a
    continuation line by its statement's first line); a line that runs at import (a constant,
    a default, a decorator) by every test that ran any line of the file."""
    lm = importlib.import_module("mutation_linemap")
    linemap = {"m.py": {3: [""], 8: ["t::a", ""], 9: ["t::a", "t::b"], 7: ["t::c"]}}
    assert lm.tests_for(linemap, "m.py", LINES, 8) == ["t::a"]
    assert lm.tests_for(linemap, "m.py", LINES, 10) == ["t::a", "t::b"]  # `* 2` of line 9
    # a line run at import can be read without running any line of the file: no test named
    assert lm.tests_for(linemap, "m.py", LINES, 3) is None  # LIMIT = 3
    assert lm.tests_for(linemap, "m.py", LINES, 7) is None  # the default a=LIMIT
    assert lm.tests_for(linemap, "m.py", LINES, 6) is None  # the decorator
    assert lm.tests_for(linemap, "other.py", LINES, 8) == []


def test_the_tests_that_run_a_line_catch_first_and_never_decide_a_survivor(mr, tmp_path):
    """With a line map: the room's tests that run the line, then the other tests that run it,
    then the whole suite, which alone can call a mutant a survivor."""
    (tmp_path / "m.py").write_text(SOURCE)
    site = _by_what(mr, SOURCE)["< -> <="]
    whole = ("-n", "2", "tests")
    calls = []

    def runner(copy, tests, timeout):
        calls.append((tuple(tests), timeout))
        assert "a <= b" in (copy / "m.py").read_text()
        return "failed: tests/gui/t.py::b" if "tests/gui/t.py::b" in tests else "passed"

    def judge(near):
        calls.clear()
        return mr.judge(tmp_path, site, ("tests/engine",), runner, (1, 9), whole, lambda s, t: near)

    v = judge(["tests/engine/t.py::a", mr.LINT, "tests/gui/t.py::b"])
    assert v.outcome == "caught by whole suite" and v.how == "failed: tests/gui/t.py::b"
    assert calls == [
        (("-n", "0", "tests/engine/t.py::a"), 1),
        (("-n", "0", "tests/gui/t.py::b"), 9),  # ruff's check is never a catch
    ]
    assert (tmp_path / "m.py").read_text() == SOURCE

    v = judge(["tests/engine/t.py::a"])  # they pass: the rest of the whole suite judges it
    assert v.outcome == "survived"
    rest = ("-n", "2", "--deselect", "tests/engine/t.py::a", "tests")
    assert calls == [(("-n", "0", "tests/engine/t.py::a"), 1), (rest, 9)]

    def deferred(near):  # a run that defers the rest of the whole suite, and says so
        calls.clear()
        return mr.judge(
            tmp_path, site, ("tests/engine",), runner, (1, 9), whole, lambda s, t: near, True
        )

    v = deferred(["tests/engine/t.py::a", "x::y"])
    assert v.outcome == mr.PENDING
    assert calls == [(("-n", "0", "tests/engine/t.py::a"), 1), (("-n", "0", "x::y"), 9)]
    v = deferred(["tests/engine/t.py::a", "tests/gui/t.py::b"])  # caught outside the room
    assert v.outcome == "caught by whole suite"
    v = deferred([])  # no test runs the line: nothing is run, and nothing is claimed
    assert v.outcome == mr.PENDING and calls == []
    v = mr.judge(tmp_path, site, ("tests/engine",), runner, (1, 9), whole, None, True)
    assert v.outcome == mr.PENDING and calls == [(("tests/engine",), 1)]  # no map: the room's

    v = judge([])  # no test runs the line: straight to the whole suite
    assert v.outcome == "survived" and calls == [(whole, 9)]

    many = [f"tests/engine/t.py::a{i}" for i in range(40)]  # enough to spread over workers
    assert mr.stages(("tests/engine",), whole, many)[0] == (("-n", "2", *many), mr.ROOM_CATCH)
    # without a map: the room's tests whole, then the suite
    assert mr.stages(("tests/engine",), whole, None) == [
        (("tests/engine",), mr.ROOM_CATCH),
        (whole, mr.SUITE_CATCH),
    ]
    # a test file beside the room's folder with a longer name is not the room's
    assert mr.stages(("tests/engine",), whole, ["tests/engine_x.py::t"])[0][1] == mr.SUITE_CATCH


def test_the_line_map_records_each_test_and_the_subprocesses_it_starts(mr, tmp_path):
    """A real recording in a small copy: a line one test runs in its own process and a line
    another test runs in a subprocess of the program, each under its test; import-time lines
    under none."""
    lm = importlib.import_module("mutation_linemap")
    copy = _bare_copy(tmp_path)
    (copy / "wizard" / "mod.py").write_text(
        "K = 2\n\n\ndef direct():\n    return K + 1\n\n\ndef child():\n    return K * 5\n"
    )
    (copy / "tests").mkdir()
    (copy / "tests" / "test_m.py").write_text(
        "import subprocess, sys\n"
        "from wizard import mod\n\n\n"
        "def test_direct():\n    assert mod.direct() == 3\n\n\n"
        "def test_child():\n"
        "    code = 'from wizard import mod; assert mod.child() == 10'\n"
        "    subprocess.run([sys.executable, '-c', code], check=True)\n"
    )
    # a session fixture built in the first test that asks for it, read by the second too
    (copy / "tests" / "conftest.py").write_text(
        "import pytest\nfrom wizard import mod\n\n\n"
        "@pytest.fixture(scope='session')\ndef built():\n    return mod.child()\n"
    )
    (copy / "tests" / "test_s.py").write_text(
        "def test_first(built):\n    assert built\n\n\n"
        "def test_second(built):\n    assert built == 10\n"
    )
    env = mr.copy_environment(copy)
    lm.install(mr._site(copy))
    out = tmp_path / "map.json"
    found = lm.record(copy, env, ("-n", "0", "tests"), out, timeout=120)
    lines = found["wizard/mod.py"]
    assert lines[5] == ["tests/test_m.py::test_direct"]
    assert lines[9] == [
        "tests/test_m.py::test_child",
        "tests/test_s.py::test_first",
        "tests/test_s.py::test_second",  # never ran the line, but reads what it built
    ]
    assert "" in lines[1]  # K = 2, at import
    assert lm.load(out, copy) == found
    # tests added or changed since are named apart: the map cannot say what they run
    assert lm.changed_tests(out, copy) == []
    (copy / "tests" / "test_new.py").write_text("def test_n():\n    pass\n")
    (copy / "tests" / "test_s.py").write_text("def test_first():\n    pass\n")
    assert lm.changed_tests(out, copy) == ["tests/test_new.py", "tests/test_s.py"]
    # a file changed since points at other lines: left out, the unchanged ones kept
    (copy / "wizard" / "other.py").write_text("X = 1\n")
    (copy / "tests" / "test_o.py").write_text(
        "from wizard import other\n\ndef test_o():\n    assert other.X\n"
    )
    found = lm.record(copy, env, ("-n", "0", "tests"), out, timeout=120)
    assert {"wizard/mod.py", "wizard/other.py"} <= set(found)
    (copy / "wizard" / "other.py").write_text("\nX = 1\n")
    assert set(found) - set(lm.load(out, copy) or {}) == {"wizard/other.py"}
    for f in found:
        (copy / f).write_text("\n")
    assert lm.load(out, copy) is None


def test_every_hand_written_mutant_still_finds_its_snippet():
    """The hand-written mutants (scripts/mutants.py) name an exact snippet of the source; when
    the code moves and a snippet no longer occurs exactly once the run stops before any test,
    so a refactoring that moves one is caught here, not the next time someone runs it."""
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(ROOT / "scripts"))
        mutants = importlib.import_module("mutants")
    lost = [
        f"{m.name}: {(ROOT / m.path).read_text(encoding='utf-8').count(m.old)} times in {m.path}"
        for m in mutants.MUTANTS
        if (ROOT / m.path).read_text(encoding="utf-8").count(m.old) != 1
    ]
    assert not lost


def test_every_equivalent_mutant_names_a_site_of_the_code(mr):
    """An equivalent mutant is named by its site (file, function, change, occurrence); when code
    moves its reason must move with it, or the draw would judge it again as a survivor and an
    old name would linger for a site that is gone."""
    ids = {s.id for room in mr.rooms(ROOT) for s in mr.room_sites(ROOT, room)}
    assert sorted(k for k in mr.EQUIVALENT if k not in ids) == []
