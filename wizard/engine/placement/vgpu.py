"""Time-sliced NVIDIA vGPU (C-series): choosing a profile and what one physical GPU can hold.

In the default equal-size mode every vGPU on a physical GPU has the same profile, up to the
profile's maximum per GPU. Releases and GPUs that support mixed sizes let profiles of different
framebuffer sizes share a GPU, with each profile's mixed-size maximum and the framebuffer adding
up to no more than the GPU's.
"""

from __future__ import annotations

from dataclasses import dataclass

from wizard.model.catalog import Gpu, VgpuProfile

SOURCE = (
    "NVIDIA AI Enterprise / NVIDIA vGPU user guide: 'Virtual GPU Types for Supported GPUs' "
    "(C-series framebuffer sizes and maximum vGPUs per GPU, equal-size and mixed-size modes)"
)
MULTI_VGPU_SOURCE = (
    "NVIDIA Virtual GPU Software User Guide, 'Multiple vGPU support': a VM with several vGPUs is "
    "supported with full-framebuffer vGPU types on every vGPU-capable GPU; fractional multi-vGPU "
    "depends on the GPU and release, so the engine plans full-framebuffer types for them"
)


def choose_profile(gpu: Gpu, memory_gb: float) -> VgpuProfile | None:
    """The smallest C-series profile whose framebuffer holds ``memory_gb``."""
    if gpu.vgpu is None:
        return None
    fits = [p for p in gpu.vgpu.profiles if p.framebuffer_gb >= memory_gb - 1e-9]
    return min(fits, key=lambda p: p.framebuffer_gb) if fits else None


def full_profile(gpu: Gpu) -> VgpuProfile | None:
    if gpu.vgpu is None:
        return None
    return max(gpu.vgpu.profiles, key=lambda p: p.framebuffer_gb)


def mixed_supported(gpu: Gpu) -> bool:
    return gpu.vgpu is not None and any(p.max_per_gpu_mixed for p in gpu.vgpu.profiles)


@dataclass(frozen=True)
class VgpuState:
    """The vGPUs on one physical GPU: (profile name, count) pairs, plus the compute promised."""

    counts: tuple[tuple[str, int], ...] = ()
    framebuffer_gb: float = 0.0
    compute: float = 0.0

    def place(
        self, gpu: Gpu, p: VgpuProfile, compute_share: float, mixed: bool
    ) -> VgpuState | None:
        """This GPU with one more ``p`` vGPU, or None when the rules or the compute budget say no.

        Time slicing shares the GPU's engines, so the compute the workloads need must also fit:
        a vGPU promised half a GPU's throughput leaves room for vGPUs needing the other half.
        """
        counts = dict(self.counts)
        counts[p.name] = counts.get(p.name, 0) + 1
        if len(counts) == 1:  # one size on this GPU: equal-size mode and its maximum
            if counts[p.name] > p.max_per_gpu:
                return None
        else:
            if not mixed:
                return None
            assert gpu.vgpu is not None
            by_name = {q.name: q for q in gpu.vgpu.profiles}
            if any(n > (by_name[name].max_per_gpu_mixed or 0) for name, n in counts.items()):
                return None
        fb = self.framebuffer_gb + p.framebuffer_gb
        if fb > gpu.memory_gb + 1e-6:
            return None
        if self.compute + compute_share > 1 + 1e-9:
            return None
        return VgpuState(tuple(sorted(counts.items())), fb, self.compute + compute_share)

    def text(self) -> str:
        return " + ".join(f"{name} x{n}" for name, n in self.counts) or "vGPU, empty"
