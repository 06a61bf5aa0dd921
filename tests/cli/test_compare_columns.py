"""The terminal's side-by-side comparison: each option's column is as wide as its widest name or
figure plus a two-space gap, and never narrower than 16 characters, so columns never touch."""

from __future__ import annotations

from wizard.app.summary import LABEL_COLUMN, compare_lines
from wizard.model.options import OptionRow


def _row(name: str, gpus: int = 16) -> OptionRow:
    return OptionRow(name=name, note="", proposed=False, clusters=1, hosts=2, gpus=gpus)


def _widths(lines: list[str]) -> set[int]:
    return {len(line) for line in lines}


def test_short_names_and_figures_get_the_16_character_minimum():
    """Names 'A', 'B' (1 + 2 = 3) and figures of at most 4 characters ('0.0', '16') are all
    below 16, so each of the 2 columns is 16 wide: every line is 44 + 2 x 16 = 76 characters."""
    lines = compare_lines([_row("A"), _row("B")])
    assert _widths(lines) == {LABEL_COLUMN + 2 * 16} == {76}
    assert lines[0] == " " * 44 + " " * 15 + "A" + " " * 15 + "B"


def test_a_long_name_widens_every_column_to_its_length_plus_two():
    """'Option with a long name' is 23 characters: width max(16, 23 + 2) = 25, every line
    44 + 2 x 25 = 94 characters, and the name stands two spaces after the column before it."""
    name = "Option with a long name"
    assert len(name) == 23
    lines = compare_lines([_row("A"), _row(name)])
    assert _widths(lines) == {LABEL_COLUMN + 2 * 25} == {94}
    assert lines[0].endswith("A" + "  " + name)


def test_a_long_figure_widens_every_column_to_its_length_plus_two():
    """GPUs 123456789012345678901 reads '123,456,789,012,345,678,901': 21 digits and 6 commas,
    27 characters, so the width is 27 + 2 = 29 and every line 44 + 2 x 29 = 102 characters."""
    wide = "123,456,789,012,345,678,901"
    assert len(wide) == 27
    lines = compare_lines([_row("A", gpus=123_456_789_012_345_678_901), _row("B")])
    assert _widths(lines) == {LABEL_COLUMN + 2 * 29} == {102}
    gpus = next(line for line in lines if line.startswith("GPUs "))
    assert gpus[LABEL_COLUMN:] == "  " + wide + " " * 27 + "16"
