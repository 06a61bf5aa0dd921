"""Requests in flight across a service are formed in one engine function and read everywhere
else: the Review's column, the summary's and the proposal's "Load" line and the spreads' fixed
load all print ``ServingResult.sequences_planned``. A second product of requests per replica and
replicas in a reader is how the Review and the proposal came to disagree once (one multiplied by
the group's replicas, the other divided throughput to guess them)."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from wizard.app.io import design_from_dict
from wizard.base.bundled import example_text
from wizard.engine.size import size

ROOT = Path(__file__).resolve().parents[2]
SEQUENCES = re.compile(r"sequences|in_flight|concurrent", re.I)
REPLICAS = re.compile(r"replica|data_parallel", re.I)
IN_FORMULA = re.compile(r"sequences\w*\s*\*\s*replicas")


def _names(node: ast.AST) -> str:
    """Every name and attribute under ``node``, joined: what the operand is about."""
    return " ".join(
        n.id if isinstance(n, ast.Name) else n.attr
        for n in ast.walk(node)
        if isinstance(n, ast.Name | ast.Attribute)
    )


def products(source: str) -> list[int]:
    """Lines of ``source`` that multiply requests (per replica, in flight) by replicas, in code
    or in a logged formula's text."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            left, right = _names(node.left), _names(node.right)
            if (SEQUENCES.search(left) and REPLICAS.search(right)) or (
                SEQUENCES.search(right) and REPLICAS.search(left)
            ):
                found.append(node.lineno)
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and IN_FORMULA.search(node.value)
        ):
            found.append(node.lineno)
    return found


def test_the_scan_finds_the_products_it_is_for():
    """Negative cases: the forms the product took in the readers before, each found."""
    assert products("x = s.sequences_per_replica * w.replicas") == [1]
    assert products("x = replicas * per_replica_sequences") == [1]
    assert products("c = {'k': s.sequences_per_replica * lay.data_parallel}") == [1]
    assert products("F = Formula('sequences_per_replica * replicas')") == [1]
    # and not what is no such product
    assert products("x = s.tokens_per_s_per_replica * replicas") == []
    assert products("x = sequences + replicas") == []


def test_requests_in_flight_are_multiplied_in_one_engine_function():
    """Every module of the product: the product appears once, in the engine's function that
    logs it."""
    where = []
    for path in sorted([*(ROOT / "wizard").rglob("*.py"), *(ROOT / "reports").rglob("*.py")]):
        for line in products(path.read_text(encoding="utf-8")):
            where.append(f"{path.relative_to(ROOT)}:{line}")
    assert len(where) == 1, where
    assert where[0].startswith("wizard/engine/demand/plausibility.py:")


@pytest.mark.parametrize("example", ["hgx-h200-llm", "llm-serving"])
def test_the_planned_figure_is_each_replica_s_times_the_replicas(example, catalog):
    """The figure the readers print, checked by hand against the group's own figures: requests
    per replica times the service's replicas, and the calculation log says so."""
    r = size(design_from_dict(json.loads(example_text(example))), catalog)
    served = [(i, w) for i, w in enumerate(r.workloads) if w.serving is not None]
    assert served
    for i, w in served:
        s = w.serving
        assert s.replicas == w.replicas
        assert s.sequences_planned == s.sequences_per_replica * w.replicas
        logged = next(
            c
            for c in r.calculations
            if c.id == f"workloads[{i}].serving.requests_in_flight_planned"
        )
        assert logged.inputs["sequences_per_replica"] == s.sequences_per_replica
        assert logged.inputs["replicas"] == w.replicas
        assert logged.value == s.sequences_planned
