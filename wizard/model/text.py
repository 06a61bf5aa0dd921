"""One gate for the text a user or a catalog supplies: no control character but tab and newline,
no C1 control, no Unicode noncharacter or lone surrogate (they break the Word copy, the
spreadsheet and terminals), and one Unicode form (NFC), so names that read alike compare alike."""

from __future__ import annotations

import unicodedata


def _refused(ch: str) -> bool:
    c = ord(ch)
    if c < 0x20:
        return ch not in "\t\n"
    if 0x7F <= c < 0xA0 or 0xD800 <= c <= 0xDFFF or 0xFDD0 <= c <= 0xFDEF:
        return True
    return (c & 0xFFFE) == 0xFFFE  # U+FFFE, U+FFFF and their like in every plane


def plain_text(value: str) -> str:
    """``value`` in NFC; a ValueError naming the first character a text may not hold."""
    bad = next((ch for ch in value if _refused(ch)), None)
    if bad is not None:
        at = value.index(bad)
        hint = " (a line break pasted from Word: use a plain line break)" if bad == "\v" else ""
        raise ValueError(
            f"holds the control character U+{ord(bad):04X} at position {at + 1}{hint}; give "
            "plain text"
        )
    return unicodedata.normalize("NFC", value)
