"""Print the project's requirements without Qt and the report libraries (reportlab,
python-docx, pypdfium2), for the core test environment.

    python scripts/core_requirements.py > requirements.txt

Read from pyproject.toml, so the versions stay the ones the project declares.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LEFT_OUT = ("pyside6", "reportlab", "python-docx", "pypdfium2")
TEST_TOOLS = ("pytest", "hypothesis")


def _name(requirement: str) -> str:
    for sep in "<>=!~;[ ":
        requirement = requirement.split(sep)[0]
    return requirement.strip().lower()


def main() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    runtime = [r for r in project["dependencies"] if not _name(r).startswith(LEFT_OUT)]
    tests = [r for r in project["optional-dependencies"]["test"] if _name(r) in TEST_TOOLS]
    print("\n".join(runtime + tests))


if __name__ == "__main__":
    main()
