"""The fit as the terminal prints it and as --json gives it: each factor (default, fitted, its
spread and bounds) and each point (measured, the defaults' figure, the calibrated figure)."""

from __future__ import annotations

import json
import math

from wizard.measure.fit import LABELS, FitReport, factor_words
from wizard.model.calibration import FACTORS


def _num(v: float) -> str:
    return f"{v:,.3g}" if abs(v) < 100 else f"{v:,.0f}"


def fit_lines(report: FitReport) -> list[str]:
    out = [f"Calibration of '{report.group}'"]
    out.append("Factors:")
    for f in report.factors:
        low, high = FACTORS[f.name]
        default = f"{f.default:.3g}" if f.default is not None else "–"
        out.append(
            f"  {factor_words(f.name)}: {f.value:.3g} (default {default}; spread "
            f"{f.low:.3g} to {f.high:.3g}; bounds {low:g} to {high:g})"
        )
    out.append(f"Points (error of the calibrated model; tolerance {report.tolerance:.0%}):")
    for p in report.points:
        after = _num(p.after) if math.isfinite(p.after) else "–"
        error = f"{p.error:+.0%}" if math.isfinite(p.after) else "–"
        mark = "" if not p.fitted else ("  DISAGREES" if abs(p.error) > report.tolerance else "")
        out.append(
            f"  {p.where}: {LABELS[p.metric]} measured {_num(p.measured)}, defaults "
            f"{_num(p.before)} ({p.error_before:+.0%}), calibrated {after} ({error}){mark}"
            + (f" [{p.note}]" if p.note else "")
        )
    for line in report.at_bound:
        out.append(f"Caution: {line}")
    for line in report.refused:
        out.append(f"Not used: {line}")
    for note in report.notes:
        out.append(f"Note: {note}")
    return out


def _finite(value: object) -> object:
    """``value`` with every float that is not a number (NaN, infinity) as null: JSON has no
    such numbers, and a reader would choke on them."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


def fit_json(report: FitReport) -> str:
    data = {
        "group": report.group,
        "tolerance": report.tolerance,
        "explained": not report.disagreeing,
        "factors": [
            {
                "name": f.name,
                "default": f.default,
                "fitted": f.value,
                "spread": [f.low, f.high],
                "bounds": list(FACTORS[f.name]),
            }
            for f in report.factors
        ],
        "points": [
            {
                "where": p.where,
                "metric": p.metric,
                "measured": p.measured,
                "predicted_before": p.before,
                "note": p.note or None,
                "predicted_after": p.after if math.isfinite(p.after) else None,
                "fitted": p.fitted,
                "disagrees": p.fitted and abs(p.error) > report.tolerance,
            }
            for p in report.points
        ],
        "sources": [s.model_dump(mode="json") for s in report.sources],
        "at_bound": report.at_bound,
        "not_used": report.refused,
        "notes": report.notes,
    }
    return json.dumps(_finite(data), indent=2, allow_nan=False)
