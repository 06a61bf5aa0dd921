"""Measurements used: for each group calibrated on the customer's own benchmark results, the
files (what, when, which tool), the factors fitted against their defaults and how well the
calibrated model meets the measured points, so a reader sees what is measured and what is not."""

from __future__ import annotations

from reports.doctree import Block
from reports.story import Story
from wizard.base.numbers import count, num
from wizard.measure.fit import LABELS, factor_words
from wizard.model.calibration import Calibration

METRIC = {k: v[0].upper() + v[1:] for k, v in LABELS.items()}


def build(st: Story) -> list[Block] | None:
    calibrated = [g for g in st.data.design.workloads if g.calibration is not None]
    if not calibrated:
        return None
    flow: list[Block] = [
        st.p(
            "These groups were calibrated on the customer's own benchmark runs: the engine's "
            "efficiency factors were fitted to the measured points by least squares, within "
            "physical bounds, and the calibration was refused had any point been further from "
            "the model than the stated tolerance. Elsewhere in this proposal a figure reads "
            "measured where a run measured it at the planned load, calibrated where the fitted "
            "model gives it, and estimated where it rests on the stated defaults."
        )
    ]
    for g in calibrated:
        assert g.calibration is not None
        flow += st.h2(g.name)
        flow += _group(st, g.calibration)
    return flow


def _group(st: Story, cal: Calibration) -> list[Block]:
    out: list[Block] = []
    rows: list[list] = [["File", "Tool", "Run", "Imported", "Points", "SHA-256"]]
    rows += [
        [s.file, s.tool + (f" {s.version}" if s.version else ""), s.run_date or "not stated",
         s.imported.isoformat(), num(s.points), s.sha256[:12] + "…"]
        for s in cal.sources
    ]  # fmt: skip
    out.append(st.table(rows, [2.3, 1.5, 1.2, 1.0, 0.7, 1.4], right=(4,)))
    rows = [["Factor", "Default", "Fitted", "Spread used for the ranges"]]
    rows += [
        [factor_words(f.name), num(f.default) if f.default is not None else "–", num(f.value),
         f"{num(f.low)} to {num(f.high)}"]
        for f in cal.factors
    ]  # fmt: skip
    out.append(st.table(rows, [3, 1.2, 1.2, 2.6], right=(1, 2)))
    out.append(
        st.p(
            f"The calibrated model is within {cal.worst_error:.0%} of every fitted point "
            f"({count(len(cal.measured), 'measured figure')} in all). A time to first token "
            "measured under load is shown, not fitted: there it is mostly the wait in the queue, "
            "which the model reads low."
            if any(not m.fitted for m in cal.measured)
            else f"The calibrated model is within {cal.worst_error:.0%} of every fitted point "
            f"({count(len(cal.measured), 'measured figure')} in all)."
        )
    )
    if cal.measured:
        rows = [["Figure", "Load", "Measured", "Calibrated model"]]
        for m in cal.measured:
            load = (
                f"{num(m.concurrency)} in flight, {num(m.input_tokens)} / "
                f"{num(m.output_tokens)} tokens"
                if m.concurrency and m.input_tokens and m.output_tokens
                else "–"
            )
            what = METRIC[m.metric] + ("" if m.fitted else ", shown, not fitted (queueing)")
            rows.append([what, load, num(m.value), num(m.predicted)])
        out.append(st.table(rows, [2.6, 2.8, 1.2, 1.4], right=(2, 3)))
    return out
