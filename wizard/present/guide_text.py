"""The user guide as a Markdown page (docs/user-guide.md): the same sections and glossary the
wizard shows under Help, so the two are one text. `scripts/user_guide.py` writes the page and a
test keeps the file equal to what this renders."""

from __future__ import annotations

from wizard.present.glossary import named
from wizard.present.guide import GUIDE


def user_guide_markdown() -> str:
    out = [
        "# User guide",
        "",
        "What each page of the wizard asks, why it matters and what to check before moving on. "
        "The wizard shows this same text under Help (F1); it is written in "
        "`wizard/present/guide.py` and `wizard/present/glossary.py`, and this page is generated "
        "from them (`python scripts/user_guide.py`).",
        "",
    ]
    for s in GUIDE:
        out += [f"## {s.title}", ""]
        for paragraph in s.paragraphs:
            out += [paragraph, ""]
    out += ["## Glossary", "", "| Term | Meaning |", "| --- | --- |"]
    out += [f"| {name} | {text} |" for name, text in named()]
    return "\n".join(out) + "\n"
