"""The Qt binding keeps Python's reference counts: PySide6 6.12.0 dropped a reference to None on
every call of a method that returns nothing, so on Python 3.11 (where None is not immortal) a
long editing session ended in 'Fatal Python error: none_dealloc'. pyproject.toml keeps such a
release out; this test fails if one is installed."""

from __future__ import annotations

import gc
import sys

from PySide6.QtWidgets import QComboBox, QLabel


def test_methods_returning_nothing_keep_nones_reference_count(qtbot):
    combo, label = QComboBox(), QLabel()
    qtbot.addWidget(combo)
    qtbot.addWidget(label)
    gc.collect()
    before = sys.getrefcount(None)
    for i in range(300):
        combo.addItem("x", i)
        label.setText("x")
        label.setToolTip("")
    combo.clear()
    gc.collect()
    assert sys.getrefcount(None) - before > -100  # 900 calls; 6.12.0 loses 900
