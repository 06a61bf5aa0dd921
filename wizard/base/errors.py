"""Typed errors a user can cause. Each carries one line per problem, naming field and value."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import ValidationError


class UserError(Exception):
    """A problem with the user's input: shown as one line per problem, never a traceback."""

    def __init__(self, problems: str | Iterable[str]) -> None:
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        super().__init__("\n".join(self.problems))


class DesignError(UserError):
    """A design file or design value is invalid."""


class CatalogError(UserError):
    """A catalog file or entry is invalid."""


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def field_path(loc: Sequence[int | str]) -> str:
    """Render a pydantic location as ``workloads[0].count``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "design"


def describe_validation_error(exc: ValidationError, prefix: str = "") -> list[str]:
    """One line per problem: ``field: message (got value)``."""
    lines = []
    for err in exc.errors(include_url=False):
        path = field_path(err["loc"])
        where = f"{prefix}{path}" if prefix else path
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            lines.append(f"{where}: unknown field (got {_short(err['input'])})")
        elif err["type"] == "missing":
            lines.append(f"{where}: required field is missing")
        else:
            value = err.get("input")
            if msg.startswith("Value error, "):  # our own validators' words say it all
                msg = msg[len("Value error, ") :]
            # a whole section is no value to quote: the message names what is wrong in it
            got = "" if isinstance(value, dict | list) else f" (got {_short(value)})"
            lines.append(f"{where}: {msg}{got}")
    return lines
