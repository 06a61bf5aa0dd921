"""A real main window per test, offscreen, with its settings and state in the test's temp
directory and every dialog answered by a script instead of a person."""

from __future__ import annotations

from collections import deque
from pathlib import Path

import pytest

from wizard.gui.prompts import Prompt, PromptKind


class ScriptedPrompts:
    """Stands in for MainWindow.prompt: records every request, answers from a queue."""

    def __init__(self) -> None:
        self.asked: list[Prompt] = []
        self.answers: deque[object] = deque()

    def __call__(self, request: Prompt) -> object:
        self.asked.append(request)
        if self.answers:
            return self.answers.popleft()
        if request.kind in (PromptKind.INFO, PromptKind.ERROR):
            return "OK"
        if request.kind is PromptKind.TEXT_BLOCK and request.default is not None:
            return request.default  # OK on the text the wizard filled in
        raise AssertionError(f"unexpected prompt: {request}")

    def kinds(self) -> list[PromptKind]:
        return [p.kind for p in self.asked]


@pytest.fixture
def prompts() -> ScriptedPrompts:
    return ScriptedPrompts()


@pytest.fixture
def make_window(qtbot, tmp_path, catalog, prompts):
    from PySide6.QtCore import QSettings

    from wizard.gui.main_window import MainWindow

    made = []

    def make(state_dir: Path | None = None, autosave_ms: int = 60_000):
        settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
        window = MainWindow(
            catalog,
            settings=settings,
            state_dir=state_dir or tmp_path / "state",
            autosave_ms=autosave_ms,
        )
        window.prompt = prompts  # the one place dialogs go through
        window.show()
        made.append(window)
        return window

    yield make
    for w in made:
        w.doc.dirty = False  # close without asking
        w.close()
        w.deleteLater()


@pytest.fixture
def window(make_window):
    return make_window()
