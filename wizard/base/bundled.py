"""Files shipped with the program (example designs, fonts, icons), found via importlib.resources
so that an installed wheel works from any directory."""

from __future__ import annotations

from importlib import resources
from importlib.abc import Traversable

from wizard.base.errors import UserError


def _examples() -> Traversable:
    return resources.files("wizard.resources").joinpath("examples")


def example_names() -> list[str]:
    return sorted(
        p.name.removesuffix(".json") for p in _examples().iterdir() if p.name.endswith(".json")
    )


def example_text(name: str) -> str:
    if name not in example_names():
        raise UserError(f"example: unknown example '{name}' (known: {', '.join(example_names())})")
    return _examples().joinpath(f"{name}.json").read_text(encoding="utf-8")


def resource(*parts: str) -> Traversable:
    """A shipped file under ``resources/`` (the package ``wizard.resources``), e.g. ``resource("fonts", "DejaVuSans.ttf")``."""
    return resources.files("wizard.resources").joinpath(*parts)
