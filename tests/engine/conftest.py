import json

import pytest

from wizard.bundled import example_names, example_text
from wizard.engine.size import size
from wizard.io import design_from_text


@pytest.fixture(scope="session")
def sized(catalog):
    """Every bundled example, sized once."""
    return {name: size(design_from_text(example_text(name)), catalog) for name in example_names()}


def calc(result, key):
    matches = [c for c in result.calculations if c.id == key]
    assert matches, f"no calculation {key}"
    return matches[0]


def design_dict(name: str) -> dict:
    return json.loads(example_text(name))
