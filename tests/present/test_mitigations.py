"""Every risk the engine can raise has a mitigation in the proposal's risk register, and the
register holds no mitigation for a risk the engine never raises."""

from __future__ import annotations

import re

import pytest

from tests.conftest import ROOT
from wizard.present.mitigations import MITIGATIONS, mitigation

_WARN = re.compile(r'\.(?:warn|caution)\(\s*(f?)"([^"]+)"(?:\s+if\s+\w+\s+else\s+"([^"]+)")?')


def raised_codes() -> set[str]:
    """The warning codes written in the engine's sources, and the error rules of the rule book;
    an f-string code is kept with its placeholder ("serving-{t.metric}-target-missed")."""
    from wizard.engine.basis.error_rules import ERROR_RULES

    codes: set[str] = set(ERROR_RULES)
    for path in [*(ROOT / "wizard" / "engine").rglob("*.py"), *(ROOT / "wizard").glob("*.py")]:
        for m in _WARN.finditer(path.read_text(encoding="utf-8")):
            codes.add(m.group(2))
            if m.group(3):
                codes.add(m.group(3))
    return codes


def test_the_source_reader_finds_the_codes():
    codes = raised_codes()
    # one plain, one conditional and one formatted code, as the engine writes them
    assert {"bitfusion-end-of-availability", "vmotion-large-vgpu"} <= codes
    assert "serving-{t.metric}-target-missed" in codes
    assert len(codes) > 50


def test_every_code_the_engine_raises_has_a_mitigation():
    missing = []
    for code in raised_codes():
        concrete = code.replace("{t.metric}", "ttft")
        try:
            mitigation(concrete)
        except KeyError:
            missing.append(code)
    assert not missing


def test_no_mitigation_waits_for_a_code_the_engine_never_raises():
    raised = {c.replace("serving-{t.metric}-", "serving-") for c in raised_codes()}
    assert set(MITIGATIONS) - raised == set()


@pytest.mark.parametrize("metric", ["ttft", "itl", "throughput"])
def test_a_missed_serving_target_of_any_metric_has_the_serving_mitigation(metric):
    assert mitigation(f"serving-{metric}-target-missed") == MITIGATIONS["serving-target-missed"]


def test_an_unknown_code_is_not_given_a_made_up_mitigation():
    with pytest.raises(KeyError):
        mitigation("no-such-risk")


def test_a_mitigation_is_a_sentence_in_plain_words():
    for code, text in MITIGATIONS.items():
        assert text[:1].isupper() and text.endswith("."), code
        assert "_" not in text and "hardware." not in text, code
