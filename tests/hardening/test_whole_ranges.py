"""Every number a design holds, drawn across its whole legal range from the design schema's own
bounds: the bounds themselves, the next representable value past each, the smallest
subnormal and anything in between. A legal value sizes or is refused by a rule that says why
(exit 0 or 2, never 1); a value past a bound is refused naming its field."""

from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hardening.strategies import designs, path_text, set_path
from wizard.cli import main
from wizard.model.design import Design

SCHEMA = Design.model_json_schema()


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = SCHEMA["$defs"][node["$ref"].rsplit("/", 1)[1]]
    return node


def _branch(node: dict[str, Any], want: str) -> dict[str, Any] | None:
    """The part of a schema node for a value of JSON type ``want`` (through refs and anyOf)."""
    node = _resolve(node)
    for option in node.get("anyOf", [node]):
        option = _resolve(option)
        kind = option.get("type")
        if kind == want or (want == "number" and kind == "integer"):
            return option
    return None


def field_schema(path: tuple[str | int, ...], leaf: Any) -> dict[str, Any] | None:
    node: dict[str, Any] | None = SCHEMA
    for part in path:
        if node is None:
            return None
        if isinstance(part, int):
            node = _branch(node, "array")
            node = node.get("items") if node else None
        else:
            node = _branch(node, "object")
            node = node.get("properties", {}).get(part) if node else None
    if node is None:
        return None
    return _branch(node, "integer" if isinstance(leaf, int) else "number")


def _numbers(doc: Any, path: tuple[str | int, ...] = ()):
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield from _numbers(value, (*path, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            yield from _numbers(value, (*path, i))
    elif isinstance(doc, int | float) and not isinstance(doc, bool):
        yield path, doc


def _legal_and_illegal(schema: dict[str, Any]) -> tuple[st.SearchStrategy, list[float | int]]:
    """Values inside the field's range (bounds and subnormals included) and just outside it."""
    integer = schema.get("type") == "integer"
    lo, hi = schema.get("minimum"), schema.get("maximum")
    xlo, xhi = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    outside: list[float | int] = []
    if integer:
        low = lo if lo is not None else (xlo + 1 if xlo is not None else -(10**6))
        high = hi if hi is not None else (xhi - 1 if xhi is not None else 10**18)
        inside = st.one_of(st.sampled_from([low, high]), st.integers(low, high))
        outside += [low - 1] if lo is not None or xlo is not None else []
        outside += [high + 1] if hi is not None or xhi is not None else []
        return inside, outside
    low = lo if lo is not None else (math.nextafter(xlo, math.inf) if xlo is not None else -1e300)
    high = hi if hi is not None else (math.nextafter(xhi, -math.inf) if xhi is not None else 1e300)
    edges = [low, high] + [5e-324 for _ in [0] if low <= 5e-324 <= high]
    inside = st.one_of(st.sampled_from(edges), st.floats(low, high, allow_nan=False))
    if lo is not None or xlo is not None:
        outside.append(math.nextafter(lo if lo is not None else xlo, -math.inf))
    if hi is not None or xhi is not None:
        outside.append(math.nextafter(hi if hi is not None else xhi, math.inf))
    return inside, outside


def _run(capsys, doc: Any, *argv: str) -> tuple[int, str]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "d.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        capsys.readouterr()
        code = main(["--no-user-catalog", *argv, str(path)])
        return code, capsys.readouterr().err


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_every_number_across_its_whole_range(capsys, data):
    doc = data.draw(designs(buildable_only=False))
    leaves = [(p, v) for p, v in _numbers(doc) if p != ("schema_version",)]
    leaves = [(p, v, s) for p, v in leaves if (s := field_schema(p, v)) is not None]
    if not leaves:
        return
    path, _, schema = data.draw(st.sampled_from(leaves))
    inside, outside = _legal_and_illegal(schema)
    legal = data.draw(inside)
    set_path(doc, path, legal)
    code, err = _run(capsys, doc, "validate")
    assert code in (0, 2) and "internal error" not in err, (path, legal, err)
    size_code, size_err = _run(capsys, doc, "size")
    assert size_code == code, (path, legal, size_err)
    if code == 2:  # refused by a rule across fields: one line each, never this field's bound
        assert all(line.startswith("error: ") for line in err.splitlines()), err
    for value in outside:
        set_path(doc, path, value)
        code, err = _run(capsys, doc, "validate")
        assert code == 2 and path_text(path) in err, (path, value, err)


def test_the_schema_gives_bounds_to_find():
    """The resolver finds the bounds the model declares (so the property above is not
    vacuous): gpus_per_host 1..16 and an inference group's input_tokens 1..10,000,000."""
    gph = field_schema(("hardware", "gpus_per_host"), 8)
    assert gph is not None and (gph["minimum"], gph["maximum"]) == (1, 16)
    tokens = field_schema(("workloads", 0, "inference", "input_tokens"), 1024)
    assert tokens is not None and (tokens["minimum"], tokens["maximum"]) == (1, 10_000_000)


def test_every_number_in_the_design_schema_is_bounded_on_both_sides():
    """A number without an upper bound lets 1e308 reach the engine; gradient_bytes is the one
    exception, held to 4, 2, 1 or 0.5 by its own check."""
    unbounded = []
    for model, node in SCHEMA["$defs"].items():
        for name, prop in node.get("properties", {}).items():
            for option in prop.get("anyOf", [prop]):
                option = _resolve(option)
                if option.get("type") not in ("number", "integer") or name == "schema_version":
                    continue
                low = "minimum" in option or "exclusiveMinimum" in option
                high = "maximum" in option or "exclusiveMaximum" in option
                if not (low and high):
                    unbounded.append(f"{model}.{name}")
    assert unbounded == ["Assumptions.gradient_bytes"]
