"""A randomized walk through the wizard: many random edits (plausible and hostile text, spin box
extremes, every enabled choice, check boxes), page moves forward, back and through the step
list, and workload groups added, duplicated, selected and removed. It must end with no exception
(pytest-qt fails the test on any exception raised inside Qt) and a Design that still validates,
saves and loads back, and that the engine sizes or refuses with field-naming problems."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QApplication,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QLineEdit,
    QRadioButton,
    QSpinBox,
    QWidget,
)

from tests.gui.helpers import back_button, next_button
from wizard.app.io import load_design, save_design
from wizard.base.bundled import example_text
from wizard.base.errors import DesignError
from wizard.engine.size import size
from wizard.gui.prompts import CANCEL, REMOVE
from wizard.gui.wizard import PageId
from wizard.model.design import Design

TEXTS = [
    "", "0", "1", "-1", "4096", "1000000", "1e999", "NaN", "abc", "0.5", "  ", "Société",
    "x" * 300, "../../etc/passwd", "a\tb", "日本語", "DROP TABLE", "80", "2.5e3",
]  # fmt: skip
STEPS = 300
SEGMENTS = 5


def _interactive(page: QWidget) -> list[QWidget]:
    out = []
    for w in page.findChildren(QWidget):
        if not (w.isVisibleTo(page) and w.isEnabled()):
            continue
        if isinstance(w, QLineEdit) and isinstance(w.parent(), QAbstractSpinBox | QComboBox):
            continue  # edited through its spin box or combo box
        if isinstance(w, QLineEdit | QAbstractSpinBox | QComboBox | QCheckBox | QRadioButton):
            out.append(w)
    return out


def _enabled_items(combo: QComboBox) -> list[int]:
    model = combo.model()
    return [
        i
        for i in range(combo.count())
        if model.flags(model.index(i, 0)) & Qt.ItemFlag.ItemIsEnabled
    ]


def _type(qtbot, edit: QLineEdit, text: str) -> None:
    """Key by key for short ASCII text (QTest types ASCII only); longer or non-ASCII text
    arrives as a paste would."""
    edit.setFocus()
    edit.selectAll()
    if text.isascii() and len(text) <= 40:
        qtbot.keyClicks(edit, text)
    else:
        edit.insert(text)
        edit.textEdited.emit(edit.text())


def _edit(qtbot, rng: random.Random, w: QWidget) -> None:
    if isinstance(w, QComboBox):
        items = _enabled_items(w)
        if items:
            w.setCurrentIndex(rng.choice(items))
        if w.isEditable() and rng.random() < 0.3:
            _type(qtbot, w.lineEdit(), rng.choice(TEXTS))
    elif isinstance(w, QSpinBox | QDoubleSpinBox):
        choice = rng.random()
        if choice < 0.3:
            w.setValue(w.minimum())
        elif choice < 0.5:
            w.setValue(w.maximum())
        elif choice < 0.8:
            w.setValue(rng.uniform(w.minimum(), min(w.maximum(), 10_000)))
        else:  # typed junk, which the spin box must reject or clamp
            _type(qtbot, w.lineEdit(), rng.choice(TEXTS))
            w.interpretText()
    elif isinstance(w, QLineEdit):
        _type(qtbot, w, rng.choice(TEXTS))
        w.editingFinished.emit()
    elif isinstance(w, QAbstractButton):
        w.click()


def _workload_action(rng: random.Random, page, prompts) -> None:
    buttons = [page.add_button, page.dup_button, page.remove_button]
    choice = rng.choice(buttons)
    if choice.isEnabled():
        if choice is page.remove_button:  # the removal is confirmed, or (sometimes) not
            prompts.answers.appendleft(rng.choice([REMOVE, CANCEL]))
        choice.click()
    rows = page.table.rowCount()
    if rows and rng.random() < 0.5:
        page.table.selectRow(rng.randrange(rows))


def _move(rng: random.Random, window) -> None:
    wiz = window.wizard
    r = rng.random()
    if r < 0.5 and next_button(window).isEnabled():
        next_button(window).click()
    elif r < 0.8 and back_button(window).isEnabled():
        back_button(window).click()
    else:
        steps = window.findChild(QWidget, "steps")
        if steps is not None and steps.count():
            item = steps.item(rng.randrange(steps.count()))
            if item.flags() & Qt.ItemFlag.ItemIsEnabled:
                steps.setCurrentItem(item)
                steps.itemClicked.emit(item)
    assert wiz.currentId() in set(PageId)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_walk_ends_with_a_valid_design(qtbot, window, prompts, tmp_path, catalog, seed):
    rng = random.Random(seed)
    start = tmp_path / "start.json"
    start.write_text(example_text(rng.choice(["enterprise", "mig-shared", "llm-serving"])))
    prompts.answers.extend(["OK"] * 1000)  # any information or error box is acknowledged
    visited, edits, group_actions = set(), 0, 0
    # A random edit often leaves a page with an error, which keeps Next disabled as it should;
    # so the walk reopens the design (as a user would) a few times and jumps ahead first.
    for _segment in range(SEGMENTS):
        assert window.open_path(start, ask=False)
        for _ in range(rng.randrange(len(PageId))):
            if next_button(window).isEnabled():
                next_button(window).click()
        for _ in range(STEPS // SEGMENTS):
            page = window.wizard.currentPage()
            visited.add(window.wizard.currentId())
            r = rng.random()
            if r < 0.2:
                _move(rng, window)
            elif r < 0.35 and window.wizard.currentId() == PageId.WORKLOADS:
                _workload_action(rng, page, prompts)
                group_actions += 1
            else:
                widgets = _interactive(page)
                if widgets:
                    _edit(qtbot, rng, rng.choice(widgets))
                    edits += 1
            QApplication.processEvents()
    qtbot.wait(50)
    assert len(visited) >= 4 and edits >= 100, (visited, edits, group_actions)

    design = window.doc.design()
    assert design is not None, window.doc.design_problems()
    again = Design.model_validate(design.model_dump())
    assert again == design
    path = tmp_path / "walked.json"
    save_design(design, path)
    assert load_design(path) == design
    try:
        size(design, catalog)
    except DesignError as exc:
        assert all(": " in line for line in exc.problems)
