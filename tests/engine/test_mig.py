"""MIG profiles, placements and the layout validator.

Placements follow the `nvidia-smi mig -lgipp` output in NVIDIA's MIG User Guide ('Getting
Started with MIG'): on A100/H100, 1g {0..6}:1, 2g {0,2,4}:2, 3g {0,4}:4, 4g {0}:4, 7g {0}:8.
"""

import pytest

from wizard.engine import mig
from wizard.engine.mig import Instance, MigState, parse_layout, validate_layout

MIG_GPUS = [
    "a30", "a100-pcie-40gb", "a100-pcie-80gb", "a100-sxm4-40gb", "a100-sxm4-80gb",
    "h100-pcie-80gb", "h100-sxm5-80gb", "h100-nvl-94gb", "h200-sxm-141gb", "h200-nvl-141gb",
    "b200-sxm", "b300-sxm", "rtx-pro-6000-bse",
]  # fmt: skip


def test_every_mig_capable_catalog_gpu_is_covered(catalog):
    assert sorted(g.id for g in catalog.gpus.values() if g.mig_capable) == sorted(MIG_GPUS)


@pytest.mark.parametrize("gpu_id", MIG_GPUS)
def test_each_profile_places_exactly_its_maximum_count(catalog, gpu_id):
    """Filling an empty GPU with one profile reaches the catalog's maximum, at valid starts, and
    the validator agrees; one more instance anywhere is refused with a reason."""
    gpu = catalog.gpus[gpu_id]
    for p in gpu.mig.profiles:
        state = MigState()
        while (nxt := state.place(gpu, p)) is not None:
            state = nxt
        placed = list(state.instances)
        assert len(placed) == p.max_count, (gpu_id, p.name)
        assert all(i.start in p.placement_starts for i in placed)
        assert validate_layout(gpu, placed) == []
        for start in range(gpu.mig.memory_slices):
            assert validate_layout(gpu, [*placed, Instance(start, p.name)]), (p.name, start)


@pytest.mark.parametrize(
    "layout",
    [
        "7g.40gb@0",
        "3g.20gb@0 + 3g.20gb@4",
        "3g.20gb@0 + 2g.10gb@4 + 1g.5gb@6",
        "4g.20gb@0 + 2g.10gb@4 + 1g.5gb@6",
        "4g.20gb@0 + 1g.5gb@4 + 1g.5gb@5 + 1g.5gb@6",
        "2g.10gb@0 + 2g.10gb@2 + 2g.10gb@4 + 1g.5gb@6",
        " + ".join(f"1g.5gb@{s}" for s in range(7)),
        "1g.10gb@0 + 1g.10gb@2 + 1g.10gb@4 + 1g.10gb@6",
        "1g.5gb+me@3 + 3g.20gb@4",
    ],
)
def test_layouts_nvidia_allows_are_accepted(catalog, layout):
    assert validate_layout(catalog.gpus["a100-sxm4-40gb"], parse_layout(layout)) == []


@pytest.mark.parametrize(
    ("layout", "reason"),
    [
        ("1g.5gb@7", "may start only at memory slice 0, 1, 2, 3, 4, 5, 6"),
        ("3g.20gb@2", "may start only at memory slice 0, 4"),
        ("2g.10gb@6", "may start only at memory slice 0, 2, 4"),
        ("3g.20gb@0 + 2g.10gb@2", "memory slice 2 is already used by 3g.20gb@0"),
        ("7g.40gb@0 + 1g.5gb@6", "memory slice 6 is already used by 7g.40gb@0"),
        ("3g.20gb@0 + 3g.20gb@4 + 1g.5gb@6", "already used"),
        ("1g.5gb+me@0 + 1g.5gb+me@1", "at most 1 per GPU"),
        ("1g.20gb@0", "has no MIG profile '1g.20gb'"),
    ],
)
def test_layouts_nvidia_refuses_are_rejected_with_the_reason(catalog, layout, reason):
    problems = validate_layout(catalog.gpus["a100-sxm4-40gb"], parse_layout(layout))
    assert any(reason in p for p in problems), problems


def test_compute_slices_are_counted(catalog):
    """A30: 4 compute slices. 2g.12gb@0 + 2g.12gb@2 uses them all; a 1g cannot be added."""
    a30 = catalog.gpus["a30"]
    assert validate_layout(a30, parse_layout("2g.12gb@0 + 2g.12gb@2")) == []
    assert validate_layout(a30, parse_layout("4g.24gb@0 + 1g.6gb@3"))


def test_non_mig_gpu_and_unreadable_layout(catalog):
    assert validate_layout(catalog.gpus["l40s"], [Instance(0, "1g.10gb")]) == [
        "the NVIDIA L40S does not support MIG"
    ]
    with pytest.raises(ValueError, match="not PROFILE@START"):
        parse_layout("3g.40gb")


@pytest.mark.parametrize(
    ("memory_gb", "compute", "profile"),
    [
        (10, 1 / 8, "1g.10gb"),
        (11, 0.1, "1g.20gb"),  # more than 10 GB: the next memory step
        (11, 0.2, "2g.20gb"),  # 0.2 x 7 = 1.4 compute slices -> 2
        (37.9, 0.24, "3g.40gb"),
        (40, 0.5, "4g.40gb"),  # 0.5 x 7 = 3.5 -> 4 compute slices
        (41, 0.1, "7g.80gb"),
        (81, 0.1, None),
    ],
)
def test_profile_choice_from_memory_and_compute(catalog, memory_gb, compute, profile):
    p = mig.choose_profile(catalog.gpus["h100-sxm5-80gb"], memory_gb, compute)
    assert (p.name if p else None) == profile


def test_layout_text_orders_by_start():
    text = mig.layout_text([Instance(6, "1g.10gb"), Instance(0, "3g.40gb"), Instance(4, "2g.20gb")])
    assert text == "3g.40gb@0 + 2g.20gb@4 + 1g.10gb@6"
