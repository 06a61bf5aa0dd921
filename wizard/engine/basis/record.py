"""Collects the calculation log, warnings and decisions while the engine runs."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from wizard.engine.basis.error_rules import ERROR_RULES
from wizard.engine.basis.expr import Formula
from wizard.model.result import Calculation, Decision, DecisionTopic, Severity, Warning_


@dataclass
class Recorder:
    calculations: list[Calculation] = field(default_factory=list)
    warnings: list[Warning_] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    _warned: set[tuple[str, str]] = field(default_factory=set, repr=False)

    def expr(
        self, id: str, formula: Formula, inputs: dict[str, float], unit: str, source: str
    ) -> float:
        """Record a figure computed from its own formula with exactly the inputs logged
        (unrounded), so anyone re-evaluating the log gets the same value."""
        value = formula(**inputs)
        if not math.isfinite(value):
            raise ValueError(f"{id}: computed a non-finite value from {inputs}")
        self.calculations.append(
            Calculation(
                id=id,
                formula=formula.text,
                inputs={k: inputs[k] for k in formula.names},
                value=value,
                unit=unit,
                source=source,
            )
        )
        return value

    def warn(self, code: str, message: str, severity: Severity = Severity.WARNING) -> None:
        """Record a warning once; a set keeps this constant-time for designs with many racks."""
        if severity is Severity.ERROR:
            raise ValueError(f"{code}: an error is recorded with Recorder.error and its field")
        self._add(Warning_(code=code, severity=severity, message=message))

    def caution(self, code: str, field: str, message: str) -> None:
        """A warning about one design field (a plausibility rule): every door shows it, the
        wizard under that field, and nothing is stopped."""
        self._add(Warning_(code=code, severity=Severity.WARNING, message=message, field=field))

    def error(self, code: str, field: str, message: str) -> None:
        """Record an error-level problem of the rule book (``wizard.engine.basis.error_rules``): the
        design cannot be built as it stands, so ``validate`` fails and the wizard shows it at
        ``field`` and keeps Next and Export shut."""
        if code not in ERROR_RULES:
            raise ValueError(f"{code}: not an error rule of wizard.engine.basis.error_rules")
        self._add(Warning_(code=code, severity=Severity.ERROR, message=message, field=field))

    def _add(self, w: Warning_) -> None:
        if (w.code, w.message) not in self._warned:
            self._warned.add((w.code, w.message))
            self.warnings.append(w)

    def decide(
        self,
        text: str,
        reason: str,
        topic: DecisionTopic = DecisionTopic.DESIGN,
        implication: str = "",
    ) -> None:
        """A design decision, its justification and what it means for the customer."""
        self.decisions.append(
            Decision(
                id=len(self.decisions) + 1,
                text=text,
                reason=reason,
                topic=topic,
                implication=implication,
            )
        )


class Chain:
    """Evaluates the formulas, and logs each one when given a recorder and a key prefix."""

    def __init__(self, rec: Recorder | None = None, key: str = "") -> None:
        self.rec = rec
        self.key = key

    def __call__(self, name: str, f: Formula, unit: str, source: str, **inputs: float) -> float:
        if self.rec is None:
            return f(**inputs)
        return self.rec.expr(f"{self.key}.{name}", f, inputs, unit, source)
