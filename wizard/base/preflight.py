"""Checks made before Qt starts, because a Qt platform plugin that cannot load aborts the process
instead of raising: better to print the exact ``apt-get install`` line first."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

# Shared libraries the Qt ``xcb`` platform plugin loads, with the Debian package of each.
XCB_LIBRARIES: dict[str, str] = {
    "xcb-cursor": "libxcb-cursor0",
    "xcb-icccm": "libxcb-icccm4",
    "xcb-keysyms": "libxcb-keysyms1",
    "xcb-image": "libxcb-image0",
    "xcb-randr": "libxcb-randr0",
    "xcb-render-util": "libxcb-render-util0",
    "xcb-shape": "libxcb-shape0",
    "xcb-xkb": "libxcb-xkb1",
    "xkbcommon-x11": "libxkbcommon-x11-0",
    "EGL": "libegl1",
    "GL": "libgl1",
    "fontconfig": "libfontconfig1",
    "dbus-1": "libdbus-1-3",
}


def has_display(environ: dict[str, str] | None = None) -> bool:
    """Whether a window can be shown: always on Windows and macOS; on Linux, X11 or Wayland."""
    env = os.environ if environ is None else environ
    if sys.platform != "linux":
        return True
    if env.get("QT_QPA_PLATFORM", "").startswith(("offscreen", "minimal", "vnc")):
        return True
    return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))


def missing_packages(find: Callable[[str], str | None] | None = None) -> list[str]:
    """Debian packages whose libraries the Qt xcb plugin needs and this machine lacks."""
    if sys.platform != "linux" or (
        os.environ.get("WAYLAND_DISPLAY") and not os.environ.get("DISPLAY")
    ):
        return []
    if find is None:
        import ctypes.util  # imported only here: a start that does not use xcb skips it

        find = ctypes.util.find_library
    return [pkg for lib, pkg in XCB_LIBRARIES.items() if find(lib) is None]


def uses_xcb(environ: dict[str, str] | None = None) -> bool:
    """Whether Qt will load its xcb plugin (not when told to render offscreen, say)."""
    env = os.environ if environ is None else environ
    return not env.get("QT_QPA_PLATFORM", "").startswith(("offscreen", "minimal", "vnc"))


def apt_line(packages: list[str]) -> str:
    return "sudo apt-get install -y " + " ".join(packages)
