"""What ``python -m`` adds to the import path, made safe before any library is imported."""

from __future__ import annotations

import os
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]  # wizard/base/import_path.py -> the checkout


def drop_working_folder() -> None:
    """``python -m wizard`` puts the working folder first on the import path, and a library
    imports optional modules from it (reportlab runs a ``reportlab_mods.py`` if one is found):
    run in a folder of received files, such a file would run. The folder is dropped unless it
    is this project's own checkout."""
    cwd = Path.cwd().resolve()

    def unsafe(entry: str) -> bool:
        try:
            where = Path(entry or os.curdir).resolve()
        except (OSError, RuntimeError):
            return False
        return where == cwd and where != PROJECT

    sys.path[:] = [entry for entry in sys.path if not unsafe(entry)]
