"""Reading a user's file without trusting it: a regular file only, never more than a stated
number of bytes (a device, a pipe or a file that grows while read cannot make us read without
end), and text that is UTF-8, with a message that says which encoding it is when it is not."""

from __future__ import annotations

import codecs
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from wizard.base.errors import UserError

# Byte-order marks of encodings a text editor may save in, longest first.
_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)


def read_limited(
    path: str | os.PathLike[str], limit: int, what: str, error: type[UserError] = UserError
) -> bytes:
    """The bytes of ``path``, refused with ``error`` when it is not a regular file or is larger
    than ``limit`` bytes; at most ``limit + 1`` bytes are ever read."""
    p = Path(path)
    try:
        # Look before opening: opening a pipe for reading waits for a writer.
        if not stat.S_ISREG(os.stat(p).st_mode):
            raise error(f"{p}: not a regular file, so not a {what}")
        with open(p, "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise error(f"{p}: not a regular file, so not a {what}")
            if info.st_size > limit:
                raise error(
                    f"{p}: {info.st_size:,} bytes is more than the {limit:,} bytes a {what} may be"
                )
            data = handle.read(limit + 1)
    except OSError as exc:
        raise error(f"{p}: cannot be read: {exc.strerror or exc}") from None
    except ValueError as exc:  # e.g. an embedded NUL in the path
        raise error(f"{p!r}: cannot be read: {exc}") from None
    if len(data) > limit:  # grew after the size check
        raise error(f"{p}: more than the {limit:,} bytes a {what} may be")
    return data


def decode_utf8(data: bytes, where: str, error: type[UserError] = UserError) -> str:
    """UTF-8 text, with or without a byte-order mark; other encodings are named in the refusal."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            raise error(f"{where}: the text is {name}, not UTF-8; save it as UTF-8")
    if b"\x00" in data:
        raise error(
            f"{where}: not UTF-8 text (it holds NUL bytes: UTF-16 without a byte-order mark, "
            "or not text at all)"
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(
            f"{where}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "save it as UTF-8"
        ) from None


def logo_file(path_text: str, base: Path | None) -> Path:
    """Where a design's logo path points: a relative path is taken from ``base`` (the design
    file's folder), the way the design's author meant it."""
    path = Path(path_text).expanduser()
    if not path.is_absolute() and base is not None:
        path = base / path
    return path


def may_read_logo(path: Path, base: Path | None, named: Iterable[str | Path]) -> bool:
    """A design file travels between people, so the logo path it holds is not enough to read a
    file: the proposal would carry whatever the path names on the reader's machine (a private
    picture) to the customer. A logo is read when it lies in the design file's own folder, not
    one below it (links followed), or when the person running the tool named it (``--logo``,
    or chosen in the wizard)."""
    try:
        real = path.resolve()
        if base is not None and real.parent == base.resolve():
            return True
        return any(real == Path(p).expanduser().resolve() for p in named)
    except (OSError, ValueError, RuntimeError):  # a link loop, an embedded NUL
        return False
