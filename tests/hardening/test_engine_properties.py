"""Property tests: for any design the schema accepts, the engine returns a Result whose
invariants hold, or refuses with a DesignError naming the field; a broken field is refused by
the loader with a message that names it."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given

from tests.hardening import invariants
from tests.hardening.strategies import broken_designs, catalog, designs
from wizard.app.io import design_from_dict
from wizard.base.errors import DesignError
from wizard.engine.size import size

FIELD = re.compile(
    r"^(hardware|workloads\[\d+\]|ha|data|platform|licensing|assumptions)[.\w\[\]]*: "
)


def _size_or_refuse(doc):
    design = design_from_dict(doc, "d.json")
    try:
        result = size(design, catalog())
    except DesignError as exc:
        assert exc.problems, "a DesignError with no problem in it"
        for line in exc.problems:
            assert FIELD.match(line), f"refusal does not name a field: {line!r}"
        return design, None
    return design, result


@given(designs(buildable_only=False))
def test_engine_returns_a_sound_result_or_names_the_field(doc):
    design, result = _size_or_refuse(doc)
    if result is None:
        return
    broken = invariants.check(result, design, catalog())
    assert not broken, "\n".join(broken[:20])


@given(designs())
def test_result_survives_its_own_json(doc):
    """The Result JSON is strict JSON (no NaN or Infinity) and reads back equal."""
    from wizard.model.result import Result

    _, result = _size_or_refuse(doc)
    if result is None:
        return
    text = result.model_dump_json()

    def refuse(name):
        raise AssertionError(f"{name} in the Result JSON")

    json.loads(text, parse_constant=refuse)
    assert Result.model_validate_json(text) == result


@given(broken_designs())
def test_a_broken_field_is_refused_by_name(case):
    doc, path = case
    with pytest.raises(DesignError) as info:
        design_from_dict(doc, "d.json")
    lines = info.value.problems
    assert lines
    assert any(line.startswith(f"d.json: {path}") for line in lines), (path, lines)
    assert all(line.startswith("d.json: ") and "\n" not in line for line in lines)
