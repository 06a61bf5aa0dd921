"""A logged formula in words: the same arithmetic term for term, names read as words with their
unit in brackets, × and ÷ for the operators, brackets only where the order needs them."""

from __future__ import annotations

import pytest

from wizard.engine.basis.expr import evaluate
from wizard.present.formula_text import formula_words, inputs_words, name_words


def test_the_stun_formula_reads_in_words():
    assert formula_words(
        "framebuffer_gb * stun_seconds_per_gb_over_10gbps * 10 / vmotion_gbps"
    ) == ("framebuffer (GB) × stun seconds per GB over 10 Gb/s × 10 ÷ vMotion (Gb/s)")


@pytest.mark.parametrize(
    ("formula", "words"),
    [
        ("a - (b - c)", "a − (b − c)"),  # the brackets that change the value stay
        ("(a - b) - c", "a − b − c"),  # and those that do not go
        ("a / (b * c)", "a ÷ (b × c)"),
        ("a * b / c", "a × b ÷ c"),
        ("(a + b) * c", "(a + b) × c"),
        ("ceil(hosts / per_rack)", "rounded up (hosts ÷ per rack)"),
        ("max(stated, minimum)", "the larger of (stated, minimum)"),
        ("-a * b", "−a × b"),
    ],
)
def test_brackets_only_where_the_order_needs_them(formula, words):
    assert formula_words(formula) == words


def test_dropping_a_needed_bracket_would_change_the_value():
    """The words keep the value: 'a − (b − c)' with 10, 4, 3 is 9, 'a − b − c' would be 3."""
    inputs = {"a": 10, "b": 4, "c": 3}
    assert evaluate("a - (b - c)", inputs) == 9 != evaluate("a - b - c", inputs)
    assert "(" in formula_words("a - (b - c)")


def test_names_and_inputs():
    assert name_words("gpus_per_host") == "GPUs per host"
    assert name_words("prefill_s") == "prefill seconds"
    assert name_words("s") == "s"  # a name that is only a unit stays itself
    assert inputs_words({"host_w": 1200, "gpus": 8}) == "host (W) = 1,200; GPUs = 8"


def test_a_text_that_is_not_a_formula_is_kept():
    assert formula_words("see the vendor's table") == "see the vendor's table"
    assert formula_words("__import__('os')") == "__import__('os')"


@pytest.mark.parametrize(
    ("formula", "words"),
    [
        ("flops / (gpus * 1e12 * mfu)", "FLOPs ÷ (GPUs × 10¹² × mfu)"),  # tera
        ("bytes / 1e9", "bytes ÷ 10⁹"),
        ("x * 1e6", "x × 10⁶"),
        # negative cases: below a million, and a multiple that is no power of ten, as numbers
        ("x * 1000", "x × 1,000"),
        ("x * 2e9", "x × 2,000,000,000"),
        ("x / 1e9 * 3", "x ÷ 10⁹ × 3"),
    ],
)
def test_a_power_of_ten_from_a_million_reads_as_one(formula, words):
    """A reader counts no zeros: 10¹² is 1,000,000,000,000 (twelve zeros), the same value."""
    assert 10**12 == 1_000_000_000_000
    assert formula_words(formula) == words
