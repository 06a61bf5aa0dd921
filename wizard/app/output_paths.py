"""Where an export may be written, one check for the command line and the wizard: never over a
file the program read (the design, a price list, a logo, a measurement or estate file, each file
of the catalog folder), whether named by its path, a symbolic link or a hard link; never a name
no file system takes, one with a control character, or one in a folder that does not exist.
Each refusal is one line naming the path, raised before anything is written."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from wizard.base.errors import UserError

STDOUT_NAMES = ("-", "/dev/stdout")
NAME_MAX = 255  # bytes in one file name on Linux, macOS and Windows file systems
PATH_MAX = 4096


def catalog_files(folder: Path | None) -> list[str]:
    """The files of a catalog folder the program reads (none when there is no folder)."""
    if folder is None:
        return []
    try:
        return [str(p) for p in sorted(folder.iterdir()) if p.is_file()]
    except OSError:
        return []


def checked_output(path: str, who: str = "-o") -> Path:
    """The output path, or a one-line refusal naming it (after ``who``, the option that named
    it): control characters, names too long for any file system, a folder that does not
    exist."""
    said = f"{who}: " if who else ""
    shown = repr(path)
    if any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in path):
        raise UserError(f"{said}the file name holds a control character ({shown})")
    encoded = os.fsencode(path) if path else b""
    if len(encoded) > PATH_MAX or any(len(part) > NAME_MAX for part in encoded.split(b"/")):
        raise UserError(
            f"{said}the file name is longer than a file system takes ({len(encoded):,} bytes, "
            f"at most {NAME_MAX} a name and {PATH_MAX:,} a path): {shown[:80]}..."
        )
    out = Path(path).expanduser()
    parent = out.parent if str(out.parent) else Path(".")
    try:
        if not parent.is_dir():
            raise UserError(f"{said}{path}: the folder {parent} does not exist")
    except OSError as exc:
        raise UserError(f"{said}{path}: {exc.strerror or exc}") from None
    return out


def refuse_input_as_output(path: str, inputs: Iterable[str]) -> None:
    """The command line's check of ``-o``: a name a file system takes, in a folder that exists,
    and none of ``inputs``."""
    if path in STDOUT_NAMES:
        return
    refuse_an_input(checked_output(path), path, inputs)


def refuse_an_input(
    out: Path, path: str, inputs: Iterable[str], who: str = "-o",
    what: str = "an input of this command",
    advice: str = "write the output to another file, so the input is not replaced",
) -> None:  # fmt: skip
    """Refuse ``out`` (named ``path``) when it is, or links to, one of ``inputs``; ``who`` (the
    option, or nothing in the wizard) starts the message, ``what`` says whose input it is and
    ``advice`` what to do."""
    for given in inputs:
        src = Path(given).expanduser()
        try:
            same = out.resolve() == src.resolve()
            if not same and out.exists() and src.exists():
                same = os.path.samefile(out, src)
        except OSError:
            same = False
        if same:
            raise UserError(f"{f'{who}: ' if who else ''}{path} is also {what} ({given}); {advice}")
