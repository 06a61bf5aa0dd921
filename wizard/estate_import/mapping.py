"""Product names as exports print them, matched to the catalog without guessing.

A name maps when its words equal a catalog entry's (order, case, hyphens and the maker's own
words aside: 'NVIDIA A100-SXM4-40GB' is the catalog's 'NVIDIA A100 SXM4 40GB'); a GPU name that
leaves out only the memory size maps when one entry fits and the memory the file reports agrees.
Anything else is left unmapped, with the entries it could have been when there are several."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from wizard.model.catalog import Catalog

# The maker's and the product line's words that some exports print and others leave out.
_GPU_NOISE = {"nvidia", "tesla", "corporation"}
_SERVER_NOISE = {"poweredge", "proliant", "thinksystem", "superserver"}
# The vendor strings ESXi reports (SMBIOS) and the catalog's vendor they mean.
_VENDORS = {
    "dell": "dell",
    "hpe": "hpe",
    "hp": "hpe",
    "hewlett": "hpe",
    "lenovo": "lenovo",
    "supermicro": "supermicro",
    "super": "supermicro",
    "cisco": "cisco",
    "nvidia": "nvidia",
    "asus": "asus",
    "asustek": "asus",
}
_MEMORY_WORD = re.compile(r"^\d+gb$")
# Lenovo appends the machine type in brackets: 'ThinkSystem SR650 -[7X06CTO1WW]-'.
_LENOVO_MT = re.compile(r"-?\[[^\]]*\]-?")
_PARENS = re.compile(r"\([^)]*\)")
_SPLIT = re.compile(r"[\s\-_/,]+")
# The PCI ID database's form, which ESXi's device names follow: 'GA100 [A100 PCIe 80GB]'.
_BRACKETED = re.compile(r"\[([^\]]+)\]")


@dataclass(frozen=True)
class Match:
    """What a product name read from a file became: a catalog id, or none and why."""

    read_as: str
    catalog_id: str | None
    how: str  # the rule that matched, or why nothing did, in plain words
    candidates: tuple[str, ...] = field(default=())

    @property
    def mapped(self) -> bool:
        return self.catalog_id is not None


def _words(text: str, noise: set[str]) -> frozenset[str]:
    return frozenset(w for w in _SPLIT.split(text.lower()) if w and w not in noise)


def gpu_words(name: str) -> frozenset[str]:
    inner = _BRACKETED.search(name)
    return _words(inner.group(1) if inner else name, _GPU_NOISE)


def match_gpu(name: str, catalog: Catalog, memory_mib: float | None = None) -> Match:
    """The catalog GPU a product name (nvidia-smi's, or ESXi's device name) is."""
    read = gpu_words(name)
    if not read:
        return Match(name, None, "no product name in the file")
    entries = {gid: gpu_words(_PARENS.sub(" ", g.name)) for gid, g in catalog.gpus.items()}
    exact = sorted(gid for gid, words in entries.items() if words == read)
    if len(exact) == 1:
        return Match(name, exact[0], "by name")
    if len(exact) > 1:
        return Match(name, None, "the name fits several catalog GPUs", tuple(exact))
    # The name leaves out only the memory size ('NVIDIA H100 NVL' for the 94GB board).
    near = sorted(
        gid
        for gid, words in entries.items()
        if read < words and all(_MEMORY_WORD.match(w) for w in words - read)
    )
    if len(near) > 1:
        return Match(name, None, "the name fits several catalog GPUs", tuple(near))
    if len(near) == 1:
        gid = near[0]
        if memory_mib is None:
            return Match(
                name, None, "the name leaves out the memory size and the file gives none", (gid,)
            )
        # NVIDIA's board memory sizes are binary: the A100 40GB reports 40,960 MiB (a real
        # report in tests/data/estate), 40 GiB. nvidia-smi shows what is left after the driver's
        # reservations, so a little under the size in the name, never over it.
        memory_gib = memory_mib / 1024
        listed = catalog.gpus[gid].memory_gb
        if 0.9 * listed <= memory_gib <= 1.01 * listed:
            return Match(name, gid, f"by name and memory ({memory_mib:,.0f} MiB)")
        return Match(
            name,
            None,
            f"the name fits one catalog GPU, but not its memory ({memory_mib:,.0f} MiB)",
            (gid,),
        )
    return Match(name, None, "no catalog GPU has this name")


def _vendor(text: str) -> str | None:
    first = (
        _SPLIT.split(text.strip().lower().replace(".", " "), maxsplit=1)[0] if text.strip() else ""
    )
    return _VENDORS.get(first)


def _model_names(model: str) -> list[str]:
    """The names a catalog model goes by: itself without its note in brackets, and for an
    enclosure that houses a node ('Apollo 6500 Gen10 Plus with ProLiant XL675d Gen10 Plus') the
    node's name, which is what the host reports."""
    plain = _PARENS.sub(" ", model)
    names = [plain]
    if " with " in plain:
        names.append(plain.split(" with ", 1)[1])
    return names


def match_server(vendor: str, model: str, catalog: Catalog) -> Match:
    """The catalog server a host's vendor and model (as ESXi reports them) are."""
    shown = f"{vendor} {model}".strip()
    if not model.strip():
        return Match(shown, None, "no model in the file")
    want_vendor = _vendor(vendor)
    read = _words(_LENOVO_MT.sub(" ", model), _SERVER_NOISE)
    hits = sorted(
        sid
        for sid, s in catalog.servers.items()
        if _vendor(s.vendor) == want_vendor
        and any(_words(n, _SERVER_NOISE) == read for n in _model_names(s.model))
    )
    if len(hits) == 1:
        return Match(shown, hits[0], "by vendor and model")
    if len(hits) > 1:
        return Match(shown, None, "the model fits several catalog servers", tuple(hits))
    return Match(shown, None, "no catalog server has this vendor and model")


# NVIDIA's vGPU type names: time-sliced 'A100-4C', MIG-backed 'A100-3-20C' (GPU instance slices,
# then framebuffer GB, then the series letters); vSphere prefixes them 'grid_' or 'nvidia_' and
# nvidia-smi 'GRID ' or 'NVIDIA '.
_VGPU_PREFIXES = re.compile(r"^(grid|nvidia)[ _]", re.IGNORECASE)
_MIG_BACKED = re.compile(r"^(?P<board>.+?)-(?P<slices>\d+)-(?P<fb>\d+)(?P<series>[A-Z]+)$")
_TIME_SLICED = re.compile(r"^(?P<board>.+?)-(?P<fb>\d+)(?P<series>[A-Z]+)$")


@dataclass(frozen=True)
class VgpuType:
    """A vGPU type as a file names it, read by NVIDIA's naming rule."""

    read_as: str
    name: str  # NVIDIA's type name, e.g. A100D-3-40C
    mig_backed: bool | None  # None where the name follows neither form
    series: str  # C compute, Q workstation, B and A virtual PC and apps
    gpus: tuple[str, ...]  # catalog GPUs whose boards carry this type prefix


def vgpu_type(read_as: str, catalog: Catalog) -> VgpuType:
    words = _VGPU_PREFIXES.sub("", read_as.strip()).split()
    # nvidia-smi prints the board's words before the type ('RTX Pro 6000 Blackwell DC-3Q'); the
    # type is the last word, and the others narrow the boards that share a type prefix.
    name = words[-1].upper() if words else ""
    board_words = gpu_words(" ".join(words[:-1]))
    found = _MIG_BACKED.match(name) or _TIME_SLICED.match(name)
    if not found:
        return VgpuType(read_as, name, None, "", ())
    board = found.group("board")
    gpus = tuple(
        sorted(
            gid
            for gid, g in catalog.gpus.items()
            if g.vgpu and g.vgpu.type_prefix == board and board_words <= gpu_words(g.name)
        )
    )
    return VgpuType(read_as, name, "slices" in found.groupdict(), found.group("series"), gpus)
