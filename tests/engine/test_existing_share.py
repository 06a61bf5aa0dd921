"""The share of a GPU a vGPU in use on an existing host holds: NVIDIA's vGPU type names end in
the frame buffer in GB and a profile letter (NVIDIA Virtual GPU Software User Guide, 'Virtual GPU
Types': A100-20C is 20 GB of an A100, A100D-3-40C a 3g.40gb MIG-backed vGPU of 40 GB); a type
without a size, or none (a GPU given whole), holds the whole GPU."""

from __future__ import annotations

import pytest

from wizard.engine.decide.existing import _share


@pytest.mark.parametrize(
    ("vgpu_type", "memory_gb", "share"),
    [
        ("A100-20C", 80, 20 / 80),  # 0.25
        ("A100D-3-40C", 80, 40 / 80),  # 0.5
        ("a100d-3-40c", 80, 0.5),  # the name is read in any case
        ("A100-80C", 80, 1.0),  # the whole frame buffer
        ("A100-40C", 40, 1.0),  # the whole frame buffer of a 40 GB A100
        ("A100-80C", 40, 1.0),  # a type larger than the GPU holds it whole, never 80 / 40 = 2
    ],
)
def test_a_sized_type_holds_its_frame_buffer_over_the_gpus_memory(vgpu_type, memory_gb, share):
    assert _share(vgpu_type, memory_gb) == pytest.approx(share)


@pytest.mark.parametrize("vgpu_type", ["", "passthrough", "NVIDIA A100 80GB PCIe"])
def test_a_type_without_a_frame_buffer_size_holds_the_whole_gpu(vgpu_type):
    """No size to read: the whole GPU, share 1 (never more, never a guess in between)."""
    assert _share(vgpu_type, 80) == 1.0
