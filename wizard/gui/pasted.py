"""Text pasted into the wizard from a word processor: Word's manual line break (U+000B) and the
Unicode line and paragraph separators become plain line breaks before the design checks the
text, so a paste is taken as the user meant it; a design file holding them is refused instead,
naming the field (wizard.model.text)."""

from __future__ import annotations

from typing import Any

_BREAKS = str.maketrans({"\v": "\n", "\u2028": "\n", "\u2029": "\n"})


def as_typed(value: Any) -> Any:
    """``value`` with every string's pasted line breaks made plain, dicts and lists walked."""
    if isinstance(value, str):
        return value.translate(_BREAKS)
    if isinstance(value, dict):
        return {k: as_typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_typed(v) for v in value]
    return value
