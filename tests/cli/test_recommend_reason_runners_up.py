"""Recommend for me names its choice and, after "Next:", the two runners-up: enough to show the
choice was weighed without turning the reason into the whole ranking. Each runner-up is a GPU
the judgement offered, with its GPUs, hosts and kilowatts."""

from __future__ import annotations

import re

from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict
from wizard.app.recommend import judge, recommend_gpu


def test_the_reason_names_the_next_two_offered_gpus():
    from wizard.app.catalog_loader import load_catalog

    catalog = load_catalog(include_user=False)
    design = design_from_dict(design_dict("llm-serving"))
    offered, _ = judge(design, catalog)
    assert len(offered) >= 4  # more than the choice and two runners-up
    result = recommend_gpu(design, catalog)
    assert result is not None
    gpu, why = result
    next_part = why.split(". Next: ", 1)[1].split(". Not offered: ", 1)[0]
    named = next_part.split("; ")
    assert len(named) == 2, next_part
    names = {s.gpu.name for s in offered} - {gpu.name}
    for entry in named:
        m = re.fullmatch(r"(.+) \(([\d,]+) GPUs?, ([\d,]+) hosts?, ([\d,.]+) kW\)", entry)
        assert m is not None and m.group(1) in names, entry
