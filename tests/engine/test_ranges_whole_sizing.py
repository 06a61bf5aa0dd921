"""The serving ranges size only the serving groups again at each point of the spread; their
figures must be those of sizing the whole design there (the reference this test computes with
``size()``), on every bundled example that serves a model, so the speed costs no figure."""

from __future__ import annotations

import numpy as np
import pytest

from wizard.app.io import design_from_text
from wizard.base.bundled import example_names, example_text
from wizard.engine.basis.spread import assumptions_at
from wizard.engine.decide.ranges import GRID, figure_ranges, pinned
from wizard.engine.size import size

SERVING = ("ttft_ms", "itl_ms", "tokens_per_s_total")


def _whole_sizings(design, catalog, result):
    """Each grid point's figures from ``size()`` of the whole pinned design there."""
    fixed = pinned(design, result)
    out = []
    for t in np.linspace(0.0, 1.0, GRID):
        trial = fixed.model_copy(
            update={
                "assumptions": assumptions_at(design.assumptions, float(t)),
                "workloads": [
                    g.model_copy(update={"calibration": g.calibration.at(float(t))})
                    if g.calibration is not None
                    else g
                    for g in fixed.workloads
                ],
            }
        )
        out.append({w.name: w.serving for w in size(trial, catalog).workloads if w.serving})
    return out


def _serving_examples():
    return [n for n in example_names() if '"inference"' in example_text(n)]


@pytest.mark.parametrize("name", _serving_examples())
def test_each_serving_range_is_that_of_the_whole_sizing(catalog, name):
    design = design_from_text(example_text(name))
    result = size(design, catalog)
    ranges = {(x.workload, x.figure): x for x in figure_ranges(design, catalog, result)}
    whole = _whole_sizings(design, catalog, result)
    served = [w for w in result.workloads if w.serving is not None]
    assert served, f"{name} serves no model"
    for w in served:
        for figure in SERVING:
            seen = [getattr(p[w.name], figure) for p in whole] + [getattr(w.serving, figure)]
            x = ranges[(w.name, figure)]
            assert (x.low, x.high) == (min(seen), max(seen)), (name, w.name, figure)


def test_the_reference_moves_over_the_spread(catalog):
    """Negative case of the comparison above: the whole sizings differ from point to point, so
    a range that ignored the spread (the point estimate alone) would fail it."""
    design = design_from_text(example_text("llm-serving"))
    result = size(design, catalog)
    whole = _whole_sizings(design, catalog, result)
    name = next(w.name for w in result.workloads if w.serving is not None)
    itl = [p[name].itl_ms for p in whole]
    assert min(itl) < max(itl)
    x = next(r for r in figure_ranges(design, catalog, result)
             if r.workload == name and r.figure == "itl_ms")  # fmt: skip
    assert x.low < x.value or x.high > x.value
