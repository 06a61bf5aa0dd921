"""A design of one cluster is an estate of one: every reader (the window, the commands, the
proposal, the measurement fits, Recommend) walks the Plan's clusters and estate the same way
for one cluster or several. A reader that asks "is this the only cluster?" (``plan.one``,
``design.is_single_cluster()``) grows a second path that drifts from the first, so none may;
the engine and the design model, which decide how one cluster is built, are not readers."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT
from wizard.engine import Plan

READERS = ("wizard", "reports")
NOT_READERS = ("wizard/engine", "wizard/model")
FORKS = {"one", "is_single_cluster"}


def forks(source: str) -> list[str]:
    """Each ``x.one`` and ``x.is_single_cluster`` in ``source``, by line."""
    hits = [
        (node.lineno, node.attr)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Attribute) and node.attr in FORKS
    ]
    return [f"line {n}: .{attr}" for n, attr in sorted(hits)]


def reader_files() -> list[Path]:
    files = [p for top in READERS for p in sorted((ROOT / top).rglob("*.py"))]
    return [p for p in files if not p.relative_to(ROOT).as_posix().startswith(NOT_READERS)]


def test_no_reader_branches_on_the_only_cluster():
    files = reader_files()
    assert len(files) > 100  # the walk found the readers (the window, commands, reports)
    found = {
        p.relative_to(ROOT).as_posix(): hits
        for p in files
        if (hits := forks(p.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_the_plan_offers_no_only_cluster_to_branch_on():
    assert not hasattr(Plan, "one")


def test_the_check_finds_each_way_of_asking_for_the_only_cluster():
    """Negative cases: the check is not blind to the forks it forbids."""
    source = (
        "if p.one is not None:\n"
        "    r = p.one.result\n"
        "single = design.is_single_cluster()\n"
        "clusters = p.clusters  # the one path: not a fork\n"
        "one = p.clusters[0]\n"
    )
    assert forks(source) == ["line 1: .one", "line 2: .one", "line 3: .is_single_cluster"]
