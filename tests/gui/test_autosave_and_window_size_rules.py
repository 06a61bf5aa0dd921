"""Which autosaves are offered after a crash, and which size a window opens at.

Rules a user cares about: a draft left by an older release (no lock file) is offered once its
process is gone; a file that is not a whole autosave is never offered; a window keeps the size
last used on a screen while it still fits there, and only otherwise falls back to the default.
"""

from __future__ import annotations

from wizard.gui import autosave
from wizard.gui.main_window import DEFAULT_SIZE, FRAME, fitted_size

DEAD_PID = 2**30  # above Linux's largest pid_max (2**22): no process can have it
DRAFT = '{"format": "gpuwizard-autosave", "saved_at": "2026-11-23T10:00:00", "sections": {}}'


def test_an_older_releases_autosave_is_offered_once_its_process_is_gone(tmp_path):
    """autosave-<pid>-<token>.json without a lock file (older releases wrote none): the pid
    decides, and a pid no process has means the window is gone."""
    name = f"autosave-{DEAD_PID}-abcdef12.json"
    (tmp_path / name).write_text(DRAFT)
    assert [o.path.name for o in autosave.find_orphans(tmp_path)] == [name]


def test_an_older_releases_autosave_of_a_running_process_is_not_offered(tmp_path):
    """The negative case: the same file named by a live pid (this test's own) stays its own."""
    import os

    (tmp_path / f"autosave-{os.getpid()}-abcdef12.json").write_text(DRAFT)
    assert autosave.find_orphans(tmp_path) == []


def test_an_autosave_without_a_sections_object_is_not_offered(tmp_path):
    """The right format word but sections that are not an object (a list, a string, missing):
    nothing could be recovered from it, so it is skipped rather than offered."""
    for i, sections in enumerate(("[]", '"x"', "null")):
        (tmp_path / f"autosave-{DEAD_PID}-abcdef1{i}.json").write_text(
            '{"format": "gpuwizard-autosave", "saved_at": "2026-11-23T10:00:00", '
            f'"sections": {sections}}}'
        )
    assert autosave.find_orphans(tmp_path) == []
    (tmp_path / f"autosave-{DEAD_PID}-abcdef19.json").write_text(DRAFT)  # the positive case
    assert len(autosave.find_orphans(tmp_path)) == 1


def test_a_saved_window_size_that_still_fits_is_kept():
    """On a 1920 x 1080 free area the most a window may take is 1920 - frame x 1080 - title
    bar; a saved 1500 x 900 lies inside, so it is used as it was, not replaced by the default."""
    most_w, most_h = 1920 - FRAME[0], 1080 - FRAME[1]
    assert most_w >= 1500 and most_h >= 900
    assert fitted_size(1920, 1080, ["1500", "900"]) == (1500, 900)
    assert DEFAULT_SIZE != (1500, 900)


def test_a_saved_window_size_that_no_longer_fits_falls_back_to_the_default():
    """The negative case: a saved 3000 x 2000 (a larger screen before) does not fit 1920 x 1080,
    so the default is used, shrunk to the free area where it is larger."""
    most_w, most_h = 1920 - FRAME[0], 1080 - FRAME[1]
    expected = (min(DEFAULT_SIZE[0], most_w), min(DEFAULT_SIZE[1], most_h))
    assert fitted_size(1920, 1080, ["3000", "2000"]) == expected
    assert fitted_size(1920, 1080, ["0", "900"]) == expected


def test_an_offscreen_window_opens_at_the_default_size_whatever_its_virtual_screen(make_window):
    """Offscreen (headless renders of the pages) there is no real screen to fit: the window
    takes the default size and minimum even where the virtual screen's free area is smaller,
    so pages render at the product's width."""
    from PySide6.QtGui import QGuiApplication

    from wizard.gui.main_window import MINIMUM_SIZE

    assert QGuiApplication.platformName() == "offscreen"
    window = make_window()
    free = window.screen().availableGeometry()
    assert free.width() < DEFAULT_SIZE[0] or free.height() < DEFAULT_SIZE[1]
    assert (window.width(), window.height()) == DEFAULT_SIZE
    assert (window.minimumWidth(), window.minimumHeight()) == MINIMUM_SIZE
