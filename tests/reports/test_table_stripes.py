"""Tables carry light zebra stripes: every other body row is shaded, starting with the second,
so the first body row sits on white under the tinted header and no two shaded rows touch."""

from __future__ import annotations

from reports.styles import ACCENT_LIGHT, ZEBRA, table_style


def _shaded(style, colour) -> list[int]:
    """The rows a BACKGROUND command of ``colour`` covers (each command spans one row)."""
    rows = []
    for cmd in style.getCommands():
        if cmd[0] == "BACKGROUND" and cmd[3] == colour:
            (_, r0), (_, r1) = cmd[1], cmd[2]
            assert r0 == r1
            rows.append(r0)
    return rows


def test_every_other_body_row_is_shaded_from_the_second():
    """Seven rows with a header: row 0 is the header (tinted), body rows 1..6, shaded 2, 4 and 6.
    Six rows without a header: body rows 0..5, shaded 1, 3 and 5."""
    headed = table_style(header=True, rows=7)
    assert _shaded(headed, ACCENT_LIGHT) == [0]
    assert _shaded(headed, ZEBRA) == [2, 4, 6]
    assert _shaded(table_style(header=False, rows=6), ZEBRA) == [1, 3, 5]
    assert _shaded(table_style(header=True, zebra=False, rows=7), ZEBRA) == []
