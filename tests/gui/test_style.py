"""Disabled controls look disabled: their text is grey, lighter than enabled text."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QPalette

from wizard.gui import style

ROLES = [
    QPalette.ColorRole.Text,
    QPalette.ColorRole.WindowText,
    QPalette.ColorRole.ButtonText,
]


@pytest.mark.parametrize("role", ROLES)
def test_disabled_text_is_lighter_than_enabled_text(qapp, role):
    p = style.palette()
    enabled = p.color(QPalette.ColorGroup.Active, role)
    disabled = p.color(QPalette.ColorGroup.Disabled, role)
    assert disabled.lightness() - enabled.lightness() >= 80, (enabled.name(), disabled.name())
