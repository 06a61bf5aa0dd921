"""MIG profiles, placements and the layout validator.

Placements follow the `nvidia-smi mig -lgipp` output in NVIDIA's MIG User Guide ('Getting
Started with MIG'): on A100/H100, 1g {0..6}:1, 2g {0,2,4}:2, 3g {0,4}:4, 4g {0}:4, 7g {0}:8.
"""

import pytest

from wizard.engine.placement import mig
from wizard.engine.placement.mig import Instance, MigState, parse_layout, validate_layout

MIG_GPUS = [
    "a30", "a100-pcie-40gb", "a100-pcie-80gb", "a100-sxm4-40gb", "a100-sxm4-80gb",
    "h100-pcie-80gb", "h100-sxm5-80gb", "h100-nvl-94gb", "h200-sxm-141gb", "h200-nvl-141gb",
    "b200-sxm", "b300-sxm", "rtx-pro-6000-bse", "rtx-pro-4500-bse",
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


def _h100_with_1g_at_slice_7(catalog):
    """An H100 whose 1g.10gb may also start at memory slice 7, a placement NVIDIA does not offer.

    With NVIDIA's real placements the compute rule never decides alone: the profiles with as many
    compute as memory slices (1g.10gb, 2g.20gb, 4g.40gb) start no later than slices 6, 4 and 0, so
    they cover at most slices 0-6, 7 slices, and the others (1g.20gb, 3g.40gb, 7g.80gb) take more
    memory than compute slices; any memory-disjoint layout then needs at most 7 of the 7 compute
    slices. Slice 7 open to a 1g instance gives a layout whose memory fits and whose compute does
    not, which isolates the rule."""
    gpu = catalog.gpus["h100-sxm5-80gb"]
    profiles = [
        p.model_copy(update={"placement_starts": [*p.placement_starts, 7]})
        if p.name == "1g.10gb"
        else p
        for p in gpu.mig.profiles
    ]
    return gpu.model_copy(update={"mig": gpu.mig.model_copy(update={"profiles": profiles})})


def test_compute_slices_are_counted(catalog):
    """MIG user guide: a layout's compute slices add up to no more than the GPU has (7 on H100).
    2g.20gb x 3 (slices 0-5) + 1g.10gb@6 + 1g.10gb@7 share no memory slice, every start is allowed
    on the variant, every count is within its maximum (3 and 7), yet 2 + 2 + 2 + 1 + 1 = 8 > 7.
    Dropping either 1g instance leaves 7: accepted."""
    gpu = _h100_with_1g_at_slice_7(catalog)
    three_2g = "2g.20gb@0 + 2g.20gb@2 + 2g.20gb@4"
    assert validate_layout(gpu, parse_layout(f"{three_2g} + 1g.10gb@7")) == []
    assert validate_layout(gpu, parse_layout(f"{three_2g} + 1g.10gb@6")) == []
    assert validate_layout(gpu, parse_layout(f"{three_2g} + 1g.10gb@6 + 1g.10gb@7")) == [
        "the instances need 8 compute slices; the NVIDIA H100 SXM5 80GB has 7"
    ]


def test_placing_stops_when_compute_slices_run_out(catalog):
    """The same rule while packing: after 2g x 3 + 1g@6 (7 of 7 compute slices) slice 7 is free
    and a valid 1g start on the variant, but a 1g.10gb instance does not fit; on an empty GPU it
    goes to slice 0."""
    gpu = _h100_with_1g_at_slice_7(catalog)
    profiles = {p.name: p for p in gpu.mig.profiles}
    state = MigState()
    for name in ("2g.20gb", "2g.20gb", "2g.20gb", "1g.10gb"):
        state = state.place(gpu, profiles[name])
    assert mig.layout_text(state.instances) == "2g.20gb@0 + 2g.20gb@2 + 2g.20gb@4 + 1g.10gb@6"
    assert (state.compute, state.free_slices(gpu)) == (7, 1)
    assert state.place(gpu, profiles["1g.10gb"]) is None
    assert MigState().place(gpu, profiles["1g.10gb"]).instances == (Instance(0, "1g.10gb"),)


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


def test_counts_text_gives_no_start_slice():
    """vSphere creates MIG instances itself (NVIDIA: 'If you are using VMware vSphere, omit this
    task'), so a layout a proposal shows is counts per GPU, in memory-slice order."""
    text = mig.counts_text(
        [Instance(6, "1g.10gb"), Instance(0, "3g.40gb"), Instance(4, "1g.10gb"),
         Instance(5, "1g.10gb")]
    )  # fmt: skip
    assert text == "3g.40gb + 1g.10gb x3"
    assert mig.counts_text([]) == "MIG enabled, empty"


def test_vsphere_places_a_3g_instance_to_keep_room_for_a_4g(catalog):
    """F. Denneman (VMware), 'MIG Partitioning, Placement Geometry, and Stranded Capacity': on an
    H100 'the first VM was placed on GPU 0, placement id 4, leaving space for a future 4g.40gb
    profile'."""
    h100 = catalog.gpus["h100-pcie-80gb"]
    p = next(x for x in h100.mig.profiles if x.name == "3g.40gb")
    state = mig.vsphere_place(h100, mig.MigState(), p)
    assert state is not None and state.instances == (Instance(4, "3g.40gb"),)


def test_a_layout_vsphere_fits_only_in_some_orders_is_found(catalog):
    """3g.40gb + 2g.20gb + 2 x 1g.10gb is a valid H100 layout (3g at 4, 2g at 2, 1g at 0 and 1),
    but vSphere never moves an instance: some power-on order leaves no room for the last. The
    order found replays to exactly that; two 3g.40gb fit in any order (negative case)."""
    h100 = catalog.gpus["h100-pcie-80gb"]
    layout = ("3g.40gb", "2g.20gb", "1g.10gb", "1g.10gb")
    assert (
        validate_layout(h100, parse_layout("1g.10gb@0 + 1g.10gb@1 + 2g.20gb@2 + 3g.40gb@4")) == []
    )
    order = mig.order_dependent(h100, layout)
    assert order is not None and sorted(order) == sorted(layout)
    by_name = {p.name: p for p in h100.mig.profiles}
    state: mig.MigState | None = mig.MigState()
    for name in order[:-1]:
        assert state is not None
        state = mig.vsphere_place(h100, state, by_name[name])
    assert state is not None and mig.vsphere_place(h100, state, by_name[order[-1]]) is None
    assert mig.order_dependent(h100, ("3g.40gb", "3g.40gb")) is None


def test_vsphere_keeps_the_4g_block_whole_when_placing_a_1g_beside_a_2g(catalog):
    """NVIDIA's H100 placements (nvidia-smi mig -lgipp): 4g.40gb starts only at memory slice 0
    and spans slices 0-3; 2g.20gb starts at 0, 2 or 4; 1g.10gb at 0-6. vSphere places each
    instance where it keeps the most placements open (Denneman, as above). A 2g.20gb on an empty
    H100 goes to slice 4 (keeping 0-3 for a 4g.40gb); a 1g.10gb then has slices 0-3 and 6 free,
    and goes to 6: at 3 it would break the 0-3 block and no 4g.40gb could follow. So 2g, 1g, 4g
    (2 + 1 + 4 = 7 compute slices) fit in that power-on order, and in every other."""
    h100 = catalog.gpus["h100-pcie-80gb"]
    by_name = {p.name: p for p in h100.mig.profiles}
    state = mig.vsphere_place(h100, mig.MigState(), by_name["2g.20gb"])
    assert state is not None and state.instances == (Instance(4, "2g.20gb"),)
    state = mig.vsphere_place(h100, state, by_name["1g.10gb"])
    assert state is not None and Instance(6, "1g.10gb") in state.instances
    state = mig.vsphere_place(h100, state, by_name["4g.40gb"])
    assert state is not None and Instance(0, "4g.40gb") in state.instances
    assert mig.order_dependent(h100, ("2g.20gb", "1g.10gb", "4g.40gb")) is None
