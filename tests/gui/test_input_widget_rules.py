"""The wizard's own input widgets, by the rules a user meets when typing and choosing.

An optional number's lowest real value is a value, not "not given"; a value at either end of a
field's range is never refused as out of range; any item of a choice, the first included, can be
disabled with its reason; an empty search in the help finds nothing; a risk names its cluster
only where the register shows several clusters together.
"""

from __future__ import annotations

from wizard.gui.widgets.inputs import Choice, OptionalSpin, double_spin, int_spin


def test_an_optional_numbers_lowest_value_is_a_value(qtbot):
    """OptionalSpin(1, 100): 1 is the smallest answer and reads back as 1; only the step below
    it (shown as the "not given" words) reads back as None; the top reads back as itself."""
    spin = OptionalSpin(1, 100, "not given")
    qtbot.addWidget(spin)
    spin.put(1)
    assert spin.get() == 1
    spin.put(None)
    assert spin.get() is None
    spin.put(100)
    assert spin.get() == 100
    experts = OptionalSpin(2, 4096, "none")  # a range starting above 1: 2 is a value
    qtbot.addWidget(experts)
    experts.put(2)
    assert experts.get() == 2


def _refusals(spin) -> list[str]:
    said: list[str] = []
    spin.refused.connect(said.append)
    return said


def test_a_value_at_either_end_of_the_range_is_not_refused(qtbot):
    """Typed with more decimals than the field shows, 1.0 and 10.0 are not accepted as typed by
    an integer field of 1 to 10, but they lie inside its range, so no "not taken: the allowed
    range is" message may claim otherwise; 11 and 25 are outside and are refused."""
    spin = int_spin(1, 10, 5)
    qtbot.addWidget(spin)
    said = _refusals(spin)
    for text in ("1.0", "10.0"):
        spin.validate(text, len(text))
    assert said == []
    spin.validate("11", 2)
    spin.validate("25", 2)
    assert len(said) == 2 and all("allowed range is 1 to 10" in s for s in said)


def test_a_decimal_value_at_either_end_of_the_range_is_not_refused(qtbot):
    """A 2-decimal field of 0.01 to 100: 0.010 and 100.000 (one decimal too many) lie inside
    the range; 100.01 lies outside and is refused."""
    spin = double_spin(0.01, 100, 2, 1)
    qtbot.addWidget(spin)
    said = _refusals(spin)
    for text in ("0.010", "100.000"):
        spin.validate(text, len(text))
    assert said == []
    spin.validate("100.01", 6)
    assert len(said) == 1


def test_every_item_of_a_choice_can_be_disabled_with_its_reason(qtbot):
    """The first, a middle and the last item alike: disabled, each says why; enabled again,
    the reason goes. A value not in the choice is neither enabled nor has a reason."""
    choice = Choice([("A", "a"), ("B", "b"), ("C", "c")])
    qtbot.addWidget(choice)
    for value in ("a", "b", "c"):
        assert choice.enabled(value)
        choice.set_reason(value, "not on this GPU")
        assert not choice.enabled(value)
        assert choice.reason(value) == "Not available: not on this GPU"
        choice.set_reason(value, None)
        assert choice.enabled(value)
        assert choice.reason(value) == ""
    assert not choice.enabled("z") and choice.reason("z") == ""


def test_an_empty_search_in_the_help_finds_nothing(qtbot):
    """Nothing typed: no hit and no count shown; a word of the guide ("GPU") is found."""
    from wizard.gui.help import HelpWindow

    help_window = HelpWindow()
    qtbot.addWidget(help_window)
    help_window.search.setText("")
    assert help_window.find_next() is False
    assert help_window.found.text() == ""
    help_window.search.setText("GPU")
    assert help_window.find_next() is True


def test_a_risk_names_its_cluster_only_where_several_clusters_are_shown(qtbot):
    """One register for all clusters (named) prefixes the cluster; a cluster's own register
    does not repeat it, and a risk of no cluster has no prefix either way."""
    from wizard.gui.pages.review_tables import risk_item
    from wizard.present.risk_register import Risk, Severity

    sev = next(iter(Severity))
    risk = Risk(sev, "Power", "The rack is short of power.", "Add a rack.", cluster="Training")
    assert "Training: " in risk_item(risk, named=True).text()
    assert "Training" not in risk_item(risk, named=False).text()
    alone = Risk(sev, "Power", "The rack is short of power.", "Add a rack.")
    assert risk_item(alone, named=True).text() == risk_item(alone, named=False).text()
