"""A field's bounds are the ones written beside it. A field typed with a bounded alias (Positive,
PositiveFloat) and given its own Field(le=...) carries two upper bounds, and pydantic keeps the
alias's (1e15 or 1e18), so the narrower one written beside the field was silently not enforced: a
person making 200,000 requests an hour, or a CDU of 50,000 kW, was taken. No model field may carry
two bounds of one kind, and the three that did refuse values past the bound they state."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import annotated_types as at
import pytest
from pydantic import BaseModel, ValidationError

import wizard.model
from wizard.model.workloads import PeopleDemand


def _models() -> list[type[BaseModel]]:
    found: dict[str, type[BaseModel]] = {}
    for info in pkgutil.iter_modules(wizard.model.__path__):
        module = importlib.import_module(f"wizard.model.{info.name}")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, BaseModel) and cls.__module__.startswith("wizard.model"):
                found[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return list(found.values())


def test_no_field_carries_two_bounds_of_one_kind():
    models = _models()
    assert len(models) > 50
    twice = [
        (m.__name__, name, kind.__name__)
        for m in models
        for name, info in m.model_fields.items()
        for kind in (at.Ge, at.Gt, at.Le, at.Lt)
        if sum(isinstance(x, kind) for x in info.metadata) > 1
    ]
    assert twice == []


@pytest.mark.parametrize(
    ("value", "taken"), [(0.009, False), (0.01, True), (100_000, True), (100_001, False)]
)
def test_requests_per_hour_runs_from_0_01_to_100_000(value, taken):
    """The wizard's input takes 0.01 to 100,000 requests an hour (two decimals); a design file
    is held to the same range, so the window never shows a figure the file does not hold."""

    def make():
        return PeopleDemand(users=10, active_share=0.1, requests_per_hour=value)

    if taken:
        assert make().requests_per_hour == value
    else:
        with pytest.raises(ValidationError, match="requests_per_hour"):
            make()


@pytest.mark.parametrize(("field", "edge"), [("capacity_kw", 10_000), ("facility_delta_t_c", 40)])
def test_a_cdus_capacity_and_water_rise_stop_at_their_stated_bounds(catalog, field, edge):
    cdu = next(iter(catalog.cooling.values()))
    cls, doc = type(cdu), cdu.model_dump()
    assert getattr(cls.model_validate({**doc, field: edge}), field) == edge
    with pytest.raises(ValidationError, match=field):
        cls.model_validate({**doc, field: edge + 1})
