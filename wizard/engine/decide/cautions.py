"""The cautions of a plan under the design's fields: warnings a rule recorded about one field
(the plausibility rules), named by the design's own group positions whether the design is one
cluster or several, so the wizard shows each under the field that caused it."""

from __future__ import annotations

import re
from collections.abc import Iterable

from wizard.engine.platform.compat import Problem
from wizard.model.design import Design
from wizard.model.result import Result, Severity

_GROUP = re.compile(r"^workloads\[(\d+)\](.*)$")


def field_cautions(design: Design, results: Iterable[Result]) -> list[Problem]:
    """Each warning recorded with a field, its group path mapped from the cluster's own group
    order to the design's (a cluster of several sizes only its own groups)."""
    index = {g.name: k for k, g in enumerate(design.workloads)}
    out: list[Problem] = []
    for r in results:
        for w in r.warnings:
            if w.severity is not Severity.WARNING or not w.field:
                continue
            field = w.field
            m = _GROUP.match(field)
            if m is not None and int(m.group(1)) < len(r.workloads):
                k = index.get(r.workloads[int(m.group(1))].name)
                if k is None:
                    continue
                field = f"workloads[{k}]{m.group(2)}"
            out.append(Problem(field, w.message))
    return out
