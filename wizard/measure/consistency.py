"""A measurement of another model or another GPU would set the wrong factors: such a file is
refused, naming the cause in words (another vendor, GPU family, form factor or memory size;
another model family, generation or size). What a file does not say is taken to be the group's
planned setup."""

from __future__ import annotations

import re
from collections.abc import Sequence

from wizard.base.errors import UserError
from wizard.measure.points import Run
from wizard.model.catalog import Catalog, Gpu
from wizard.model.design import Design, WorkloadGroup

# "H100", "A100", "L40S", "B200", "GB200", "GH200", "H200", "RTX PRO 6000", "MI300X"... as
# products are named
_GPU = re.compile(
    r"\b(GB\d{3}|GH\d{3}|MI\d{3}[A-Z]?|[ABHLV]\d{2,3}S?|[ALT]\d|RTX PRO \d{4}|RTX \d{4})\b",
    re.IGNORECASE,
)
_OTHER_VENDORS = (
    (re.compile(r"\b(AMD|Instinct|Radeon|MI\d{3}[A-Z]?)\b", re.IGNORECASE), "AMD"),
    (re.compile(r"\b(Intel|Gaudi|Habana|Ponte Vecchio)\b", re.IGNORECASE), "Intel"),
    (re.compile(r"\b(TPU|Trainium|Inferentia)\b", re.IGNORECASE), "another maker"),
)
_MEMORY = re.compile(r"(?<![\d.])(\d{2,3})\s?G(?:B|iB)?\b", re.IGNORECASE)
# model families as names and Hugging Face ids spell them; the group's family must hold the word
_FAMILIES = (
    "deepseek", "llama", "mixtral", "mistral", "qwen", "gemma", "phi", "gpt-oss", "gpt-3",
    "gpt-j", "gpt-neox", "falcon", "granite", "nemotron", "bert", "resnet", "stable-diffusion",
    "dlrm", "command", "yi", "baichuan", "glm", "kimi",
)  # fmt: skip


def gpu_family(name: str) -> str | None:
    m = _GPU.search(name.replace("-", " ").replace("_", " "))
    return m.group(1).upper() if m else None


def gpu_vendor(name: str) -> str:
    """The GPU's maker as a name gives it: 'NVIDIA' unless it names another."""
    return next((vendor for pattern, vendor in _OTHER_VENDORS if pattern.search(name)), "NVIDIA")


def form_factor(name: str) -> str | None:
    """'PCIe', 'NVL' or 'SXM' as a GPU's name says (nvidia-smi calls an H100 SXM 'NVIDIA H100
    80GB HBM3'); None when it does not say."""
    upper = name.upper().replace("-", " ").replace("_", " ")
    if "PCIE" in upper:
        return "PCIe"
    if re.search(r"\bNVL\b", upper):
        return "NVL"
    if re.search(r"\b(SXM\d?|HGX|DGX)\b", upper) or re.search(r"\bH100 80GB HBM3\b", upper):
        return "SXM"
    return None


def memory_gb(name: str) -> float | None:
    m = _MEMORY.search(name.replace("-", " ").replace("_", " "))
    return float(m.group(1)) if m else None


def model_size(name: str) -> float | None:
    """The parameter count in billions a model's name carries ("Llama-3.3-70B-Instruct": 70)."""
    for m in re.finditer(r"(?<![\d.])(\d+(?:\.\d+)?)\s?[bB](?![a-zA-Z])", name):
        return float(m.group(1))
    return None


def model_family(name: str) -> str | None:
    lower = re.sub(r"gpt-?3", "gpt-3", name.lower().replace("_", "-").replace(" ", "-"))
    return next((f for f in _FAMILIES if re.search(rf"(?<![a-z]){re.escape(f)}", lower)), None)


def _llama_generation(name: str) -> str | None:
    m = re.search(r"llama[\s_-]?(\d)(?:[._](\d))?", name.lower())
    return m.group(1) if m else None


def gpu_differences(theirs: str, ours: Gpu, memory: bool = True) -> list[str]:
    """What sets the GPU named ``theirs`` apart from ``ours``, in words (empty when nothing the
    name says does); ``memory``: whether a different memory size matters (not to a link's
    bandwidth)."""
    out = []
    if gpu_vendor(theirs) != "NVIDIA":
        return [f"another maker's GPU ({gpu_vendor(theirs)})"]
    family, own = gpu_family(theirs), gpu_family(ours.name)
    if family and own and family != own:
        out.append(f"another GPU family ({family}, not {own})")
    form, own_form = form_factor(theirs), form_factor(ours.name)
    if form and own_form and form != own_form:
        out.append(f"another form factor ({form}, not {own_form})")
    size = memory_gb(theirs) if memory else None
    if size and ours.memory_gb and abs(size / ours.memory_gb - 1) > 0.1:
        out.append(f"another memory size ({size:g} GB, not {ours.memory_gb:g} GB)")
    return out


def model_differences(theirs: str, ours: str, family: str | None) -> list[str]:
    """What sets the model named ``theirs`` apart from the group's (``ours``, of ``family``)."""
    out = []
    fam, own = model_family(theirs), model_family(f"{family or ''} {ours}")
    if fam and own and fam != own:
        out.append(f"another model family ({fam}, not {own})")
    elif fam == own == "llama":
        gen, own_gen = _llama_generation(theirs), _llama_generation(f"{family or ''} {ours}")
        if gen and own_gen and gen != own_gen:
            out.append(f"another model generation (Llama {gen}, not Llama {own_gen})")
    theirs_b, ours_b = model_size(theirs), model_size(ours)
    if theirs_b and ours_b and abs(theirs_b / ours_b - 1) > 0.1:
        out.append(f"another model size ({theirs_b:g}B, not {ours_b:g}B parameters)")
    return out


def refuse_contradictions(design: Design, catalog: Catalog, group: WorkloadGroup,
                          runs: Sequence[tuple[str, Run]]) -> None:  # fmt: skip
    """Refuse every file whose GPU or model is not the group's, naming the file, both and how
    they differ."""
    problems = []
    gpu = catalog.gpus.get(gpu_of(design, group))
    model, family = _model_name(catalog, group)
    for name, run in runs:
        if run.gpu and gpu is not None:
            why = gpu_differences(run.gpu, gpu, memory=run.kind != "collective")
            if why:
                problems.append(f"{name}: measured on {run.gpu}, but the group runs on the "
                                f"{gpu.name}: {'; '.join(why)}")  # fmt: skip
        if run.model and model:
            why = model_differences(run.model, model, family)
            if why:
                problems.append(f"{name}: measured with {run.model}, but the group runs "
                                f"{model}: {'; '.join(why)}")  # fmt: skip
    if problems:
        raise UserError(problems)


def gpu_of(design: Design, group: WorkloadGroup) -> str:
    if group.cluster is not None and group.cluster != design.cluster_name:
        spec = next((c for c in design.clusters if c.name == group.cluster), None)
        if spec is not None and spec.hardware is not None:
            return spec.hardware.gpu
    return design.hardware.gpu


def _model_name(catalog: Catalog, group: WorkloadGroup) -> tuple[str | None, str | None]:
    if group.model is None:
        return None, None
    if group.model.preset:
        preset = catalog.models.get(group.model.preset)
        return (preset.name, getattr(preset, "family", None)) if preset else (None, None)
    return None, None
