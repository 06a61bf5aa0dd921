"""Which tests run each line of the program, recorded once with coverage.py, so a mutant that
its room's tests miss is next judged by the tests that reach its line before the whole suite.

The map only orders the work: a mutant the tests that run its line catch is caught (they are
part of the whole suite); one they pass still goes to the whole suite, because a test can see a
line it never runs (a value an earlier test cached, a module-level constant read after import).
So a survivor is always judged by every test. A fixture built once for several tests (session,
module or class scope) records under its own name, and its lines count for every test that uses
it, not only the first.

Recording: a pytest plugin, loaded with ``-p`` before any test module, starts coverage in each
pytest process (xdist's workers included) and names each test's lines by its node id; the
program's own subprocesses, started by tests, record under the test that started them through
the ``sitecustomize`` the mutation copy already uses (it reads ``GPUWIZARD_LINEMAP`` and
``GPUWIZARD_TEST_ID``).
"""

from __future__ import annotations

import ast
import hashlib
import json
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

DIR_ENV = "GPUWIZARD_LINEMAP"  # where the coverage data files go; unset: nothing is recorded
TEST_ENV = "GPUWIZARD_TEST_ID"  # the running test's node id, inherited by its subprocesses
PLUGIN = "gpuwizard_linemap"
FIXTURE = "fixture:"  # the context of a fixture's setup shared by several tests
SOURCES = ("wizard", "reports")

# The pytest plugin. Coverage starts when the module is imported (``-p`` imports it before
# conftest.py and the test modules), so import-time lines are recorded under no test.
PLUGIN_TEXT = """\
import json
import os

import coverage
import pytest

_DIR = os.environ.get({dir_env!r})
_COV = None
_USERS = {{}}  # each test's fixtures, its whole closure
_NOW = [""]
if _DIR:
    _COV = coverage.Coverage(
        data_file=os.path.join(_DIR, "cov"), data_suffix=True, config_file=False,
        source=[os.path.join(os.getcwd(), s) for s in {sources!r}],
    )
    _COV.start()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if _COV is not None:
        _COV.switch_context(item.nodeid)
        _NOW[0] = item.nodeid
        _USERS[item.nodeid] = list(getattr(item, "fixturenames", ()))
        os.environ[{test_env!r}] = item.nodeid
    try:
        yield
    finally:
        if _COV is not None:
            _COV.switch_context("")
            _NOW[0] = ""
            os.environ.pop({test_env!r}, None)


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef, request):
    # a fixture built once for many tests records under its name, for every test that uses it
    shared = _COV is not None and fixturedef.scope != "function"
    if shared:
        _COV.switch_context({fixture!r} + fixturedef.argname)
    try:
        yield
    finally:
        if shared:
            _COV.switch_context(_NOW[0])


def pytest_unconfigure(config):
    if _COV is not None:
        _COV.stop()
        _COV.save()
        path = os.path.join(_DIR, "users.%d.json" % os.getpid())
        with open(path, "w", encoding="utf-8") as f:
            json.dump(_USERS, f)
"""

# The end of the copy's sitecustomize: a subprocess a test starts records under that test;
# inert unless a recording set both variables.
SUBPROCESS_TEXT = """
import os as _os

if _os.environ.get({dir_env!r}) and _os.environ.get({test_env!r}):
    import atexit as _atexit

    import coverage as _coverage

    _cov = _coverage.Coverage(
        data_file=_os.path.join(_os.environ[{dir_env!r}], "cov"), data_suffix=True,
        config_file=False, context=_os.environ[{test_env!r}],
        source=[_os.path.join({copy!r}, s) for s in {sources!r}],
    )
    _cov.start()

    def _save(cov=_cov):
        cov.stop()
        cov.save()

    _atexit.register(_save)
"""


def plugin_text() -> str:
    return PLUGIN_TEXT.format(dir_env=DIR_ENV, test_env=TEST_ENV, sources=SOURCES, fixture=FIXTURE)


def subprocess_text(copy: Path) -> str:
    return SUBPROCESS_TEXT.format(
        dir_env=DIR_ENV, test_env=TEST_ENV, sources=SOURCES, copy=str(copy)
    )


def record(
    copy: Path,
    env: Mapping[str, str],
    suite: Sequence[str],
    out: Path,
    timeout: float = 6 * 3600,
) -> dict[str, dict[int, list[str]]]:
    """Run the whole suite in the copy under coverage and return, for each file of the program
    (relative to the copy), the tests that ran each of its lines."""
    import coverage  # a tool's need, not the program's: imported only when recording

    data_dir = out.parent / (out.stem + "-data")
    data_dir.mkdir(parents=True, exist_ok=True)
    for old in [*data_dir.glob("cov*"), *data_dir.glob("users.*")]:
        old.unlink()
    run_env = {**env, DIR_ENV: str(data_dir)}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", PLUGIN, *suite],
        cwd=copy,
        env=run_env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if proc.returncode != 0:
        tail = "\n".join(proc.stdout.strip().splitlines()[-15:])
        raise SystemExit(f"the suite fails under coverage (exit {proc.returncode}):\n{tail}")
    lines: dict[str, dict[int, set[str]]] = {}
    for part in sorted(data_dir.glob("cov.*")):
        data = coverage.CoverageData(basename=str(part))
        data.read()
        for measured in data.measured_files():
            path = Path(measured)
            if not path.is_relative_to(copy):
                continue
            rel = str(path.relative_to(copy))
            by_line = data.contexts_by_lineno(measured)
            target = lines.setdefault(rel, {})
            for line, contexts in by_line.items():
                target.setdefault(line, set()).update(contexts)
    users: dict[str, set[str]] = {}  # fixture -> the tests that use it
    for part in data_dir.glob("users.*.json"):
        for test, fixtures in json.loads(part.read_text(encoding="utf-8")).items():
            for name in fixtures:
                users.setdefault(name, set()).add(test)
    for of_file in lines.values():
        for line, ran in of_file.items():
            shared = {c for c in ran if c.startswith(FIXTURE)}
            if shared:
                of_file[line] = (ran - shared).union(
                    *(users.get(c[len(FIXTURE) :], set()) for c in shared)
                )
    result = {f: {n: sorted(c) for n, c in sorted(by.items())} for f, by in sorted(lines.items())}
    save(out, copy, result)
    return result


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def save(out: Path, root: Path, lines: Mapping[str, Mapping[int, Sequence[str]]]) -> None:
    """Each file's lines with the file's digest (its line numbers hold only for that text);
    each test's node id once, and each line's tests as indices into that list (written out in
    full, a line run by a thousand tests would repeat a thousand ids)."""
    names = sorted({t for by in lines.values() for tests in by.values() for t in tests})
    index = {t: i for i, t in enumerate(names)}
    files = {
        f: {
            "digest": digest(root / f),
            "lines": {n: [index[t] for t in tests] for n, tests in by.items()},
        }
        for f, by in lines.items()
    }
    tests = {str(t.relative_to(root)): digest(t) for t in sorted(root.glob("tests/**/test_*.py"))}
    out.write_text(json.dumps({"tests": names, "files": files, "test_files": tests}), "utf-8")


def changed_tests(path: Path, root: Path) -> list[str]:
    """Test files under ``root`` added or changed since the map was recorded: the map cannot
    say which lines their tests run, so they are run beside the tests it names."""
    if not path.is_file():
        return []
    known = json.loads(path.read_text(encoding="utf-8")).get("test_files", {})
    return [
        rel
        for t in sorted(root.glob("tests/**/test_*.py"))
        if known.get(rel := str(t.relative_to(root))) != digest(t)
    ]


def load(path: Path, root: Path) -> dict[str, dict[int, list[str]]] | None:
    """The map's files whose text under ``root`` is the text it was recorded on (a file changed
    since is left out: its line numbers would point at other statements), or None if there is
    no map or none of its files is unchanged."""
    if not path.is_file():
        return None
    raw = json.loads(path.read_text(encoding="utf-8"))
    names = raw["tests"]
    found = {
        f: {int(n): [names[i] for i in tests] for n, tests in entry["lines"].items()}
        for f, entry in raw["files"].items()
        if (root / f).is_file() and digest(root / f) == entry["digest"]
    }
    return found or None


def _enclosing(tree: ast.AST, line: int) -> tuple[ast.stmt | None, bool]:
    """The innermost statement holding ``line`` and whether it runs inside a function's body
    (not at import, as a decorator, a default or a module-level name does)."""
    best: ast.stmt | None = None
    in_body = False

    def visit(node: ast.AST, body: bool) -> None:
        nonlocal best, in_body
        for child in ast.iter_child_nodes(node):
            end = getattr(child, "end_lineno", None)
            start = getattr(child, "lineno", None)
            if start is None or end is None or not start <= line <= end:
                if isinstance(child, (ast.arguments, ast.comprehension)):
                    visit(child, body)
                continue
            inner = body
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = child.body[0].lineno
                decorated = child.decorator_list and line < child.lineno
                inner = body or (line >= first and not decorated)
            elif isinstance(child, ast.Lambda):
                inner = True
            if isinstance(child, ast.stmt):
                best, in_body = child, inner
            visit(child, inner)

    visit(tree, False)
    return best, in_body


def tests_for(
    linemap: Mapping[str, Mapping[int, Sequence[str]]], path: str, text: str, line: int
) -> list[str] | None:
    """The tests that ran the statement a mutant on ``line`` of ``path`` edits (empty when none
    did); None for a line that runs at import (a constant, a default, a decorator), which a
    test can read without running any line of the file, so the map cannot name its tests."""
    by_line = linemap.get(path, {})
    stmt, in_body = _enclosing(ast.parse(text), line)
    if not in_body or stmt is None:
        return None
    found = set(by_line.get(stmt.lineno, ())) | set(by_line.get(line, ()))
    return sorted(c for c in found if c)


def install(site: Path) -> None:
    """Put the plugin beside the copy's sitecustomize (which ends with ``subprocess_text``)."""
    site.mkdir(exist_ok=True)
    (site / f"{PLUGIN}.py").write_text(plugin_text(), encoding="utf-8")
