"""A save replaces its file by a rename, which POSIX allows even over a file nobody may write;
so the program refuses the save itself when the file is read-only, and keeps the file. A file is
read-only to the program when its mode has no write bit at all (0444: a read-only mark even root
respects), or when the user saving it may not write it (POSIX access(2): the owner class's bits
apply to the owner, and root passes that check)."""

from __future__ import annotations

import errno
import os

import pytest

from wizard.app.io import atomic_write_bytes


def _file(tmp_path, mode: int):
    path = tmp_path / "d.json"
    path.write_bytes(b"old")
    path.chmod(mode)
    return path


def test_a_file_with_no_write_bit_is_refused_and_kept(tmp_path):
    path = _file(tmp_path, 0o444)
    try:
        with pytest.raises(PermissionError) as refused:
            atomic_write_bytes(path, b"new")
        assert refused.value.errno == errno.EACCES and "read-only" in str(refused.value)
        assert path.read_bytes() == b"old"
    finally:
        path.chmod(0o644)


def test_a_file_its_owner_may_write_is_replaced(tmp_path):
    """Negative case: 0644, owned by the user saving it."""
    path = _file(tmp_path, 0o644)
    atomic_write_bytes(path, b"new")
    assert path.read_bytes() == b"new"


def test_a_write_bit_for_others_only_does_not_let_the_owner_write(tmp_path):
    """0020: only the group may write. The owner (this user) may not, so the save is refused;
    root may write any file with a write bit, so as root it is replaced."""
    path = _file(tmp_path, 0o020)
    try:
        if os.geteuid() == 0:
            atomic_write_bytes(path, b"new")
            assert path.read_bytes() == b"new"
        else:
            with pytest.raises(PermissionError):
                atomic_write_bytes(path, b"new")
            path.chmod(0o644)
            assert path.read_bytes() == b"old"
    finally:
        path.chmod(0o644)
