"""Design fields in the reader's words: the engine names the field a warning or a basis is
about by its path ("(hardware.storage)"), so the wizard can point at it; a reader sees the
field's label and where to find it ("Storage system on the Hardware page"). The labels are those the
wizard's forms show (a GUI test holds the two together)."""

from __future__ import annotations

import re

# path → (label as the wizard shows it, where it is edited)
FIELDS: dict[str, tuple[str, str]] = {
    "hardware.storage": ("Storage system", "on the Hardware page"),
    "hardware.rdma": ("RDMA", "on the Hardware page"),
    "hardware.nic": ("NIC", "on the Hardware page"),
    "hardware.gpudirect_rdma": ("GPUDirect", "on the Hardware page"),
    "hardware.vgpu_mixed_sizes": ("vGPU sizes", "on the Hardware page"),
    "ha.hosts_per_rack": ("Hosts per rack", "on the HA policy page"),
    "ha.passthrough_spares": ("Passthrough", "on the HA policy page"),
    "data.dataset_gb": ("Dataset size", "on the Hardware page"),
    "data.dataset_versions": ("Dataset versions", "on the Hardware page"),
    "data.checkpoint_copies": ("Checkpoints per job", "on the Hardware page"),
    "data.growth_headroom": ("Growth headroom", "on the Hardware page"),
    "data.read_gbs_per_gpu": ("Read per GPU (other groups)", "on the Hardware page"),
    "data.storage_nodes": ("Storage nodes", "on the Hardware page"),
    "assumptions.link_efficiency": ("Network link efficiency", "in the design's assumptions"),
    "assumptions.sharp": ("In-network reduction (SHARP)", "in the design's assumptions"),
}

_PATH = re.compile(r"(?<![\w.\[/-])(" + "|".join(re.escape(p) for p in FIELDS) + r")\b(?![\w.\[])")


def label_of(path: str) -> str:
    """``Storage system on the Hardware page`` for ``hardware.storage``."""
    label, where = FIELDS[path]
    return f"{label} {where}"


def in_words(text: str) -> str:
    """``text`` with every design field path it names replaced by the field's label and where it
    is edited: "give data.dataset_gb" reads "give Dataset size on the Hardware page"; a field
    quoted with its value as the design file writes it ("sharing_mode 'vgpu'", a check's
    message) reads as the window names both ("Sharing mode Time-sliced vGPU")."""
    return values_in_words(_PATH.sub(lambda m: label_of(m.group(1)), text))


def values_in_words(text: str) -> str:
    """The design file's spelling of a value in the window's words (see ``in_words``)."""
    from wizard.present import labels

    modes = {m.value: name for m, name in labels.MODE_SHORT.items()}
    levels = {h.value: name for h, name in labels.HA_LEVEL_SHORT.items()}
    kinds = {k.value: name.lower() for k, name in labels.KIND_SHORT.items()}
    fields = {"sharing_mode": ("Sharing mode", modes), "level": ("HA level", levels)}

    def field(m: re.Match[str]) -> str:
        label, values = fields[m.group(1)]
        return f"{label} {values.get(m.group(2), m.group(2))}"

    text = _QUOTED.sub(field, text)
    text = _KIND.sub(lambda m: f"{m.group(1)} {kinds.get(m.group(2), m.group(2))} group", text)
    for code, words in _CODE_WORDS.items():
        text = text.replace(code, words)
    return text


_QUOTED = re.compile(r"\b(sharing_mode|level) '([\w+.-]+)'")
_KIND = re.compile(r"\b(an?) ([a-z][a-z-]+) group\b")
# a check's own words for a field or a value the window shows under another name
_CODE_WORDS = {
    "(use passthrough or mig)": "(use Passthrough or MIG-backed vGPU)",
    "constraints.remote_ok": "Remote (network-attached) GPUs acceptable",
    "(or gpus_per_member)": "(or Known GPUs per member)",
    "needs 'shared'": "needs what each user needs (Per user or job)",
}


# "on the Hardware page", "on the HA policy page": where the wizard edits a field
_WHERE = re.compile(r",? on the (?:[A-Z][\w-]*)(?: [A-Za-z][\w-]*){0,2} page\b")


def in_document_words(text: str) -> str:
    """``text`` as a document prints it: a field by its label alone, and no page of the program
    named (the reader of a proposal is not at the wizard): "give data.dataset_gb" reads "give
    Dataset size"."""
    return _WHERE.sub("", _PATH.sub(lambda m: FIELDS[m.group(1)][0], text))
