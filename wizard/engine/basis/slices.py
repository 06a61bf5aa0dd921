"""The slices of a GPU a one-GPU replica or job can run on under a sharing mode: MIG instances
with their compute slices and their memory slices' bandwidth, or time-sliced vGPU profiles with
their share of time when every vGPU on the GPU is busy; and the share of a GPU an instance or a
vGPU takes, which the demand (slices) and the placement (packing GPUs) both count."""

from __future__ import annotations

from dataclasses import dataclass

from wizard.model.catalog import Gpu, MigProfile, VgpuProfile
from wizard.model.design import MIG_MODES, SharingMode

SOURCE = (
    "NVIDIA Multi-Instance GPU User Guide, 'Terminology' and 'Supported Profiles': an instance "
    "has its compute slices and its memory slices with their share of memory bandwidth; NVIDIA "
    "Virtual GPU Software User Guide, 'Time-Sliced vGPU Scheduling': under load each vGPU gets "
    "its time slice of the whole GPU"
)


@dataclass(frozen=True)
class Slice:
    mode: SharingMode
    profile: str
    label: str
    memory_gb: float
    compute: float  # share of the GPU's compute it gives
    bandwidth: float  # share of the GPU's memory bandwidth it gives
    share: float  # share of a physical GPU it takes from others


def mig_share(gpu: Gpu, p: MigProfile) -> float:
    """Share of the GPU an instance takes: the larger of its compute and memory share."""
    assert gpu.mig is not None
    return max(p.compute_slices / gpu.mig.compute_slices, p.placement_size / gpu.mig.memory_slices)


def vgpu_share(gpu: Gpu, p: VgpuProfile) -> float:
    """Share of the GPU a vGPU takes: its framebuffer, or its time slice with the profile's
    maximum count sharing the GPU, whichever is larger."""
    return min(1.0, max(p.framebuffer_gb / gpu.memory_gb, 1 / p.max_per_gpu))


def slices(gpu: Gpu, mode: SharingMode) -> list[Slice]:
    """Every fractional slice the mode offers on ``gpu``, smallest share first."""
    out: list[Slice] = []
    if mode in MIG_MODES and gpu.mig is not None:
        m = gpu.mig
        for p in m.profiles:
            if "+" in p.name or p.placement_size >= m.memory_slices:
                continue
            c, b = p.compute_slices / m.compute_slices, p.memory_slices / m.memory_slices
            label = (
                f"MIG {p.name} instance of the {gpu.name}: {p.compute_slices} of "
                f"{m.compute_slices} compute slices, {p.memory_slices} of {m.memory_slices} "
                "memory slices and their bandwidth"
            )
            out.append(Slice(mode, p.name, label, p.memory_gb, c, b, mig_share(gpu, p)))
    if mode is SharingMode.VGPU and gpu.vgpu is not None:
        for v in gpu.vgpu.profiles:
            sh = vgpu_share(gpu, v)
            if sh >= 1:
                continue
            label = (
                f"{v.name} time-sliced vGPU of the {gpu.name}: {sh:.0%} of its compute and "
                "bandwidth when every vGPU on it is busy"
            )
            out.append(Slice(mode, v.name, label, v.framebuffer_gb, sh, sh, sh))
    return sorted(out, key=lambda s: (s.share, s.memory_gb))
