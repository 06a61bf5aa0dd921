"""One number formatter for the terminal, the wizard and the proposal."""

import pytest

from wizard.base.numbers import (
    MISSING,
    count,
    fixed,
    num,
    pct,
    plural,
    ratio,
    unit,
    value,
    with_unit,
)


@pytest.mark.parametrize(
    ("n", "text"),
    [(0, "0 hosts"), (1, "1 host"), (2, "2 hosts"), (1234, "1,234 hosts"), (1.0, "1 host")],
)
def test_count_agrees_with_its_number(n, text):
    assert count(n, "host") == text


def test_irregular_plurals():
    assert count(1, "PCIe switch", "PCIe switches") == "1 PCIe switch"
    assert count(3, "PCIe switch", "PCIe switches") == "3 PCIe switches"
    assert plural(1, "GPU") == "GPU" and plural(0, "GPU") == "GPUs"


def test_one_mark_for_a_missing_value():
    assert MISSING == "–"
    assert num(None) == fixed(None) == fixed(None, "GB") == unit(None, "GB") == pct(None) == MISSING
    assert value(None) == MISSING
    assert count(None, "host") == f"{MISSING} hosts"


def test_fixed_lines_up_decimals_and_keeps_integers_whole():
    assert fixed(37.94, "GB") == "37.9 GB"
    assert fixed(1234.5) == "1,234.5"
    assert fixed(0.0421, "s", 3) == "0.042 s"
    assert fixed(62500) == "62,500"
    assert fixed(8, "GB") == "8 GB"


def test_num_reads_like_a_person_writes():
    assert num(14) == "14" and num(14.0) == "14" and num(1_000_000) == "1,000,000"
    assert num(3.14159) == "3.14" and num(123.456) == "123.5" and num(0.5) == "0.500"
    assert num(2.5e20) == "2.5 × 10²⁰" and num(1e-5) == "1 × 10⁻⁵"
    assert num(True) == "yes" and value("False") == "no" and value("RoCE") == "RoCE"
    assert unit(25, "Gb/s") == "25 Gb/s" and pct(0.814) == "81 %"


@pytest.mark.parametrize(
    ("value", "unit", "text"),
    [
        (1, "hosts", "1 host"),
        (2, "hosts", "2 hosts"),
        (1, "GPUs", "1 GPU"),
        (1, "switches", "1 switch"),
        (1, "users or jobs", "1 user or job"),
        (1, "GB", "1 GB"),  # a measure keeps its unit
        (1.5, "GPUs", "1.50 GPUs"),
        (0, "racks", "0 racks"),
        # a yes-or-no figure logged as 1 or 0 reads as its word, the logged number beside it
        (0, "1 = possible, 0 = not possible", "not possible (0)"),
        (1, "1 = possible, 0 = not possible", "possible (1)"),
        (0.5, "1 = possible, 0 = not possible", "0.500 1 = possible, 0 = not possible"),
    ],
)
def test_a_logged_value_agrees_with_its_unit(value, unit, text):
    assert with_unit(value, unit) == text


def test_warnings_are_counted_by_kind_in_the_products_words():
    """'7 warnings' that are all notes read as alarm: the status bar counts each kind."""
    from wizard.model.result import Severity
    from wizard.present.severity import tally

    assert tally([Severity.INFO] * 7) == "7 notes"
    assert tally([Severity.INFO, Severity.WARNING, Severity.INFO, Severity.ERROR]) == (
        "1 risk · 1 caution · 2 notes"
    )
    assert tally([]) == "no warnings"


def test_a_checks_message_names_values_as_the_window_does():
    """'sharing_mode 'vgpu' … (use passthrough or mig)' is the design file's spelling; the window
    says 'Sharing mode Time-sliced vGPU … (use Passthrough or MIG-backed vGPU)'."""
    from wizard.present.fields import in_words

    said = in_words(
        "sharing_mode 'vgpu' shares the GPU's compute between VMs, so it cannot give the "
        "performance isolation this group requires (use passthrough or mig)"
    )
    assert said.startswith("Sharing mode Time-sliced vGPU shares")
    assert said.endswith("(use Passthrough or MIG-backed vGPU)")
    assert "sharing_mode" not in in_words("sharing_mode 'remote' needs constraints.remote_ok")
    assert in_words("no field here") == "no field here"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0.733333, "0.73"),  # an oversubscription of 0.733333:1 is quoted as 0.73:1
        (0.916667, "0.92"),
        (1.5, "1.5"),
        (3.0, "3"),
        (2.75, "2.75"),
    ],
)
def test_a_ratio_is_quoted_to_two_decimals_at_most(value, text):
    assert ratio(value) == text
