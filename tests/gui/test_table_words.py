"""A result table too narrow for its columns wraps their text between words and never cuts a
word short: a column gives way down to its heading and its longest word ('Licensing', not
'Licens…'), and the stretch column keeps a third of the width."""

from __future__ import annotations

from wizard.gui.widgets.result_tables import CELL_PADDING, fill, fit_columns, table


def _narrow(qtbot, width: int):
    t = table(("Layer", "Component", "Version", "Needed for"), stretch=3)
    qtbot.addWidget(t)
    fill(t, [["Licensing", "NVIDIA AI Enterprise subscription", "NVIDIA AI Enterprise 9",
              "One licence per physical GPU, whatever the sharing mode " * 3],
             ["ESXi host", "VMware vSphere (ESXi hosts, vCenter)", "vSphere 8.0 Update 3",
              "Every GPU host"]])  # fmt: skip
    t.resize(width, 300)
    t.show()
    fit_columns(t)
    return t


def test_no_word_is_cut_in_a_narrow_table(qtbot):
    t = _narrow(qtbot, 520)
    words = t.fontMetrics()
    for c, word in ((0, "Licensing"), (1, "subscription"), (2, "Enterprise")):
        assert t.columnWidth(c) >= words.horizontalAdvance(word) + CELL_PADDING, (c, word)
    assert t.columnWidth(3) >= t.viewport().width() // 3 - 1


def test_a_wide_table_keeps_each_column_as_wide_as_its_text(qtbot):
    """Negative case: with room to spare nothing gives way, the whole phrase on one line."""
    t = _narrow(qtbot, 1400)
    words = t.fontMetrics()
    assert t.columnWidth(2) >= words.horizontalAdvance("vSphere 8.0 Update 3")
