"""What the placement says about its sharing modes and where a mixed-size vGPU may go: the
comparison's decision weighs every mode row, the first one too, and a vGPU type without a
mixed-size maximum never shares a GPU with another size; a pooled GPU fills to its memory and
compute within their rounding."""

from __future__ import annotations

from wizard.engine.basis.record import Recorder
from wizard.engine.placement.sharing import RemoteState, SlotSpec, _Packer
from wizard.engine.placement.sharing_checks import _compare_decision
from wizard.engine.placement.vgpu import VgpuState
from wizard.model.result import ModeOption


def _row(mode: str, label: str, gpus: int, utilization: float, available: bool = True):
    return ModeOption(
        mode=mode, label=label, available=available, reason="" if available else "no",
        gpus=gpus, hosts_for_capacity=1, hosts_total=1, mean_utilization=utilization,
        isolation="", live_migration="", ha_behaviour="", licences="", caveats=[],
    )  # fmt: skip


def _decision(rows: list[ModeOption]) -> str:
    rec = Recorder()
    _compare_decision(rows, rec)
    (d,) = rec.decisions
    return d.text


def test_the_comparison_weighs_the_first_mode_row_too():
    """Rows: as designed 8 GPUs; then passthrough 3, vGPU 5, MIG 6 (the modes in their order).
    The fewest GPUs is passthrough's 3, so the decision names it, and does not add 'whole GPUs'
    a second time."""
    rows = [
        _row("as-designed", "As designed", 8, 0.5),
        _row("passthrough", "Whole GPUs", 3, 0.9),
        _row("vgpu", "Time-sliced vGPU", 5, 0.6),
        _row("mig", "MIG", 6, 0.5),
    ]
    text = _decision(rows)
    assert "Whole GPUs would take 3." in text
    assert "whole GPUs (passthrough)" not in text


def test_a_tie_on_gpus_goes_to_the_better_used_then_the_earlier_row():
    """Passthrough and vGPU both take 4 GPUs at 50 % allocated: the earlier row (passthrough)
    is named. Negative case: passthrough takes 7 and vGPU 5, so vGPU is named with passthrough's
    7 beside it."""
    rows = [
        _row("as-designed", "As designed", 4, 0.5),
        _row("passthrough", "Whole GPUs", 4, 0.5),
        _row("vgpu", "Time-sliced vGPU", 4, 0.5),
    ]
    assert "Whole GPUs would take 4." in _decision(rows)
    rows[1] = _row("passthrough", "Whole GPUs", 7, 0.5)
    rows[2] = _row("vgpu", "Time-sliced vGPU", 5, 0.5)
    text = _decision(rows)
    assert "Time-sliced vGPU would take 5 and whole GPUs (passthrough) 7." in text


def test_a_vgpu_type_without_a_mixed_size_maximum_stays_alone(catalog):
    """NVIDIA AI Enterprise, 'Virtual GPU Types for Supported GPUs': in mixed-size mode each type
    is held to its 'Maximum vGPUs per GPU in Mixed-Size Mode' (A10: A10-8C 2, A10-4C 4). A type
    the column gives no figure for (here the A10-4C with its figure removed) may not stand beside
    another size on a GPU: an A10-8C then an A10-4C is refused (4 + 8 = 12 GB would fit the
    24 GB). Negative case: with NVIDIA's figure (4) the A10-4C joins the A10-8C."""
    gpu = catalog.gpus["a10"]
    assert gpu.vgpu is not None
    by_name = {p.name: p for p in gpu.vgpu.profiles}
    c8, c4 = by_name["A10-8C"], by_name["A10-4C"]
    assert (c8.max_per_gpu_mixed, c4.max_per_gpu_mixed) == (2, 4)
    one = VgpuState().place(gpu, c8, 0.0, mixed=True)
    assert one is not None
    assert one.place(gpu, c4, 0.0, mixed=True) is not None
    bare = c4.model_copy(update={"max_per_gpu_mixed": None})
    vgpu = gpu.vgpu.model_copy(
        update={"profiles": [bare if p.name == "A10-4C" else p for p in gpu.vgpu.profiles]}
    )
    unlisted = gpu.model_copy(update={"vgpu": vgpu})
    one = VgpuState().place(unlisted, c8, 0.0, mixed=True)
    assert one is not None
    assert one.place(unlisted, bare, 0.0, mixed=True) is None


def _share(memory_gb: float, compute: float) -> SlotSpec:
    return SlotSpec("Pool", "remote", None, memory_gb, compute, compute, compute, False)


def test_a_pooled_gpu_fills_to_its_memory_and_compute_within_rounding(catalog):
    """A network-attached pool GPU keeps its shares' memory rounded to 1e-6 GB and compute to
    1e-9 of a GPU, so one rounding unit over a full GPU is the full GPU: a share that brings an
    80 GB H100 to 80 GB + 1e-6 GB, or its compute to 1 + 1e-9, still fits. Negative case: a
    real excess (80.001 GB, or 1.001 of the compute) opens another GPU."""
    gpu = catalog.gpus["h100-pcie-80gb"]
    packer = _Packer(gpu, False)
    assert gpu.memory_gb == 80
    full_memory = RemoteState(memory_gb=80.0, compute=0.5, shares=1)
    assert packer.place(full_memory, _share(1e-6, 0.1)) is not None
    assert packer.place(full_memory, _share(0.001, 0.1)) is None
    full_compute = RemoteState(memory_gb=40.0, compute=1.0, shares=1)
    assert packer.place(full_compute, _share(1.0, 1e-9)) is not None
    assert packer.place(full_compute, _share(1.0, 0.001)) is None
