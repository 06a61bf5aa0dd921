"""The slices of a GPU a one-GPU job can be planned on: a time-sliced vGPU profile that takes
the whole GPU is the GPU itself, not a slice of it."""

from __future__ import annotations

from wizard.engine.basis.slices import slices
from wizard.model.design import SharingMode


def test_a_vgpu_profile_of_the_whole_gpu_is_not_a_slice(catalog):
    """H100 SXM5 80GB: H100XM-80C (80 of 80 GB, one per GPU) takes the whole GPU, so the slices
    stop at H100XM-40C (40 / 80 = half, two per GPU). Every GPU with vGPU profiles: each slice
    takes less than the whole GPU, and only the profiles that do are left out."""
    h100 = catalog.gpus["h100-sxm5-80gb"]
    names = [s.profile for s in slices(h100, SharingMode.VGPU)]
    assert "H100XM-80C" not in names and names[-1] == "H100XM-40C"
    assert [s.share for s in slices(h100, SharingMode.VGPU)][-1] == 40 / 80
    for gpu in catalog.gpus.values():
        if gpu.vgpu is None:
            continue
        listed = {s.profile for s in slices(gpu, SharingMode.VGPU)}
        for p in gpu.vgpu.profiles:
            whole = p.framebuffer_gb >= gpu.memory_gb or p.max_per_gpu == 1
            assert (p.name not in listed) is whole, (gpu.id, p.name)
