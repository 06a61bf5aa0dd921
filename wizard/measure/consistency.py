"""A measurement of another model or another GPU would set the wrong factors: such a file is
refused by name. What a file does not say is taken to be the group's planned setup."""

from __future__ import annotations

import re
from collections.abc import Sequence

from wizard.base.errors import UserError
from wizard.measure.points import Run
from wizard.model.catalog import Catalog
from wizard.model.design import Design, WorkloadGroup

# "H100", "A100", "L40S", "B200", "GB200", "H200", "RTX PRO 6000"... as products are named
_GPU = re.compile(r"\b(GB\d{3}|[ABHL]\d{2,3}S?|RTX PRO \d{4}|RTX \d{4})\b", re.IGNORECASE)


def gpu_family(name: str) -> str | None:
    m = _GPU.search(name.replace("-", " "))
    return m.group(1).upper() if m else None


def model_size(name: str) -> float | None:
    """The parameter count in billions a model's name carries ("Llama-3.3-70B-Instruct": 70)."""
    for m in re.finditer(r"(?<![\d.])(\d+(?:\.\d+)?)\s?[bB](?![a-zA-Z])", name):
        return float(m.group(1))
    return None


def refuse_contradictions(design: Design, catalog: Catalog, group: WorkloadGroup,
                          runs: Sequence[tuple[str, Run]]) -> None:  # fmt: skip
    """Refuse every file whose GPU or model is not the group's, naming the file and both."""
    problems = []
    gpu = catalog.gpus.get(_gpu_of(design, group))
    model = _model_name(catalog, group)
    for name, run in runs:
        if run.gpu and gpu is not None:
            theirs, ours = gpu_family(run.gpu), gpu_family(gpu.name)
            if theirs and ours and theirs != ours:
                problems.append(f"{name}: measured on {run.gpu}, but the group runs on the "
                                f"{gpu.name}")  # fmt: skip
        if run.model and model:
            theirs_b, ours_b = model_size(run.model), model_size(model)
            if theirs_b and ours_b and abs(theirs_b / ours_b - 1) > 0.1:
                problems.append(f"{name}: measured with {run.model}, but the group serves "
                                f"{model}")  # fmt: skip
    if problems:
        raise UserError(problems)


def _gpu_of(design: Design, group: WorkloadGroup) -> str:
    if group.cluster is not None and group.cluster != design.cluster_name:
        spec = next((c for c in design.clusters if c.name == group.cluster), None)
        if spec is not None and spec.hardware is not None:
            return spec.hardware.gpu
    return design.hardware.gpu


def _model_name(catalog: Catalog, group: WorkloadGroup) -> str | None:
    if group.model is None:
        return None
    if group.model.preset:
        preset = catalog.models.get(group.model.preset)
        return preset.name if preset else None
    return None
