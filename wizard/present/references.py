"""Sources as a customer reads them: the vendor's or author's reference (title and address),
without the catalog's own bookkeeping.

The engine cites catalog entries by their id ("catalog servers/dell-xe9680") and the catalog's
sources carry the notes its authors keep for themselves (what was recalled, what was not
re-read, which field holds what). Those notes stay in the catalog; a proposal, and the wizard,
show the reference they rest on.
"""

from __future__ import annotations

import re
from functools import lru_cache

from wizard.model.catalog import Catalog

# Words that mark a clause as a note of the catalog's authors rather than a reference.
WORKING_NOTES = (
    "recalled",
    "re-verified",
    "re-read",
    "not confirmed",
    "NOT settled",
    "seed view",
    "source_note",
    "see its source",
    "a judgement",
    "TODO",
)

# Fixed phrases of the engine's sources that name a catalog field, in plain words.
PHRASES = {
    "Switch catalog power_w": "Switch datasheets",
    "Storage catalog power_w_per_node": "Storage datasheets, power per node",
}

_KINDS = ("gpus", "servers", "nics", "switches", "storage", "software", "licences", "cooling")
_CATALOG_REF = re.compile(r"catalog (" + "|".join(_KINDS) + r")/([\w.+-]+)(?: \([\w.]+\))?")


def customer_source(text: str, catalog: Catalog | None = None) -> str:
    """``text`` with every catalog id replaced by the entry's own reference and every working
    note left out."""
    for phrase, plain in PHRASES.items():
        text = text.replace(phrase, plain)

    def entry_reference(m: re.Match[str]) -> str:
        entry = getattr(catalog, m.group(1), {}).get(m.group(2)) if catalog else None
        reference = _clean(entry.source) if entry is not None else ""
        return reference or "vendor datasheet"

    return _clean(_CATALOG_REF.sub(entry_reference, text))


def _marked(text: str) -> bool:
    return any(note in text for note in WORKING_NOTES)


def _split(text: str) -> list[tuple[str, str]]:
    """(clause, separator) at the top level of brackets: clauses end at "; " or ". "."""
    pieces: list[tuple[str, str]] = []
    depth = start = i = 0
    while i < len(text):
        c = text[i]
        if c == "(":
            depth += 1
        elif c == ")":
            depth = max(depth - 1, 0)
        elif depth == 0 and c in ";." and text[i + 1 : i + 2] == " ":
            pieces.append((text[start:i], c + " "))
            start = i = i + 2
            continue
        i += 1
    pieces.append((text[start:], ""))
    return pieces


def _groups(clause: str) -> list[tuple[int, int]]:
    """(start, end) of every top-level bracketed group of ``clause``, brackets included."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(clause):
        if c == "(":
            if depth == 0:
                start = i
            depth += 1
        elif c == ")" and depth:
            depth -= 1
            if depth == 0:
                out.append((start, i + 1))
    return out


@lru_cache(maxsize=4096)
def _clean(text: str) -> str:
    """``text`` without its working notes (kept per text: the Review's calculation log cites the
    same sources on every redraw)."""
    kept: list[str] = []
    for clause, sep in _split(text):
        groups = _groups(clause)
        top = clause
        for a, b in reversed(groups):
            top = top[:a] + top[b:]
        if _marked(top):
            continue
        for a, b in reversed(groups):
            inner = _clean(clause[a + 1 : b - 1])
            if inner:
                clause = clause[:a] + f"({inner})" + clause[b:]
            else:
                clause = clause[:a].rstrip() + clause[b:]
        kept.append(clause + sep)
    return "".join(kept).strip().rstrip(";").strip()
