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
