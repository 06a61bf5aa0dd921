"""The words for how much a warning matters, the same in the wizard and the proposal: a risk
can stop the design from working, a caution costs performance or resilience, a note informs."""

from __future__ import annotations

from wizard.model.result import Severity

SEVERITY = {Severity.ERROR: "Risk", Severity.WARNING: "Caution", Severity.INFO: "Note"}
ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
MEANS = {
    Severity.ERROR: "Risk: the design may not work as intended until this is resolved",
    Severity.WARNING: "Caution: costs performance or resilience; decide whether to accept it",
    Severity.INFO: "Note: for information",
}


def tally(severities: list[Severity]) -> str:
    """How many of each kind, most severe first, in the same words: "1 risk · 2 cautions ·
    4 notes"; "no warnings" when there are none."""
    from wizard.base.numbers import count

    said = [
        count(n, SEVERITY[sev].lower())
        for sev in sorted(set(severities), key=ORDER.__getitem__)
        if (n := severities.count(sev))
    ]
    return " · ".join(said) or "no warnings"
