"""MIG instances: choosing a profile, checking a layout against NVIDIA's rules, placing instances.

A GPU instance occupies ``placement_size`` memory slices starting at one of its profile's valid
start positions, and ``compute_slices`` of the GPU's compute slices. A layout is valid when every
start is allowed for its profile, no two instances share a memory slice, the compute slices add up
to no more than the GPU has, and no profile exceeds its maximum count. These are the rules the
``nvidia-smi mig -lgipp`` placements in NVIDIA's MIG user guide encode.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from wizard.model.catalog import Gpu, Mig, MigProfile

SOURCE = (
    "NVIDIA Multi-Instance GPU User Guide: 'Supported MIG Profiles' (profiles, maximum counts) "
    "and 'Getting Started with MIG' (nvidia-smi mig -lgipp placements: start:size in memory slices)"
)


@dataclass(frozen=True, order=True)
class Instance:
    """One GPU instance at a memory-slice start position."""

    start: int
    profile: str

    def __str__(self) -> str:
        return f"{self.profile}@{self.start}"


def layout_text(instances: list[Instance] | tuple[Instance, ...]) -> str:
    """NVIDIA-style layout string, instances in memory-slice order: '3g.40gb@0 + 1g.10gb@6'."""
    return " + ".join(str(i) for i in sorted(instances)) if instances else "MIG enabled, empty"


def counts_text(instances: list[Instance] | tuple[Instance, ...]) -> str:
    """The instances of one GPU as counts, in memory-slice order: '3g.40gb + 1g.10gb x2'. On
    vSphere this is what a plan can say: vSphere places each instance itself when its VM powers
    on, so a start slice is the planner's model, never a setting."""
    counts: dict[str, int] = {}
    for i in sorted(instances):
        counts[i.profile] = counts.get(i.profile, 0) + 1
    parts = [name if n == 1 else f"{name} x{n}" for name, n in counts.items()]
    return " + ".join(parts) if parts else "MIG enabled, empty"


def parse_layout(text: str) -> list[Instance]:
    """Read '3g.40gb@0 + 2g.20gb@4'; raises ValueError naming the part it cannot read."""
    out = []
    for part in (p.strip() for p in text.split("+ ")):
        name, sep, start = part.rpartition("@")
        if not sep or not name or not start.isdigit():
            raise ValueError(f"'{part}' is not PROFILE@START (e.g. 3g.40gb@4)")
        out.append(Instance(int(start), name.strip()))
    return out


def _profiles(mig: Mig) -> dict[str, MigProfile]:
    return {p.name: p for p in mig.profiles}


def validate_layout(gpu: Gpu, instances: list[Instance]) -> list[str]:
    """Every reason NVIDIA would refuse ``instances`` on ``gpu``; empty when the layout is valid."""
    if gpu.mig is None:
        return [f"the {gpu.name} does not support MIG"]
    mig = gpu.mig
    profiles = _profiles(mig)
    problems: list[str] = []
    used: dict[int, Instance] = {}
    compute = 0
    counts: dict[str, int] = {}
    for inst in sorted(instances):
        p = profiles.get(inst.profile)
        if p is None:
            problems.append(
                f"{inst}: the {gpu.name} has no MIG profile '{inst.profile}' "
                f"(it has {', '.join(profiles)})"
            )
            continue
        if inst.start not in p.placement_starts:
            problems.append(
                f"{inst}: {p.name} may start only at memory slice "
                f"{', '.join(map(str, p.placement_starts))}"
            )
            continue
        for s in range(inst.start, inst.start + p.placement_size):
            if s in used:
                problems.append(f"{inst}: memory slice {s} is already used by {used[s]}")
                break
            used[s] = inst
        compute += p.compute_slices
        counts[p.name] = counts.get(p.name, 0) + 1
    if compute > mig.compute_slices:
        problems.append(
            f"the instances need {compute} compute slices; the {gpu.name} has {mig.compute_slices}"
        )
    for name, n in counts.items():
        if n > profiles[name].max_count:
            problems.append(f"{n} x {name}: at most {profiles[name].max_count} per GPU")
    media = sum(n for name, n in counts.items() if "+me" in name)
    if media > 1:
        problems.append(f"{media} media-extension (+me) instances: at most one per GPU")
    return problems


def choose_profile(gpu: Gpu, memory_gb: float, compute_share: float) -> MigProfile | None:
    """The smallest profile (fewest memory slices, then compute slices) that holds ``memory_gb``
    and gives at least ``compute_share`` of the GPU's compute and memory bandwidth. Profiles with
    media extensions are left for explicit choice. ``None`` when no instance is large enough."""
    if gpu.mig is None:
        return None
    mig = gpu.mig
    need_c = math.ceil(compute_share * mig.compute_slices - 1e-9)
    need_m = math.ceil(compute_share * mig.memory_slices - 1e-9)
    fits = [
        p
        for p in mig.profiles
        if "+" not in p.name
        and p.memory_gb >= memory_gb - 1e-9
        and p.compute_slices >= need_c
        and p.placement_size >= need_m
    ]
    if not fits:
        return None
    return min(fits, key=lambda p: (p.placement_size, p.compute_slices, p.memory_gb))


def full_profile(gpu: Gpu) -> MigProfile | None:
    """The instance that takes the whole GPU (e.g. 7g.80gb)."""
    if gpu.mig is None:
        return None
    return max((p for p in gpu.mig.profiles if "+" not in p.name), key=lambda p: p.placement_size)


@dataclass(frozen=True)
class MigState:
    """What is placed on one GPU; hashable so identical GPUs share one entry while packing."""

    instances: tuple[Instance, ...] = ()
    mask: int = 0
    compute: int = 0

    def place(self, gpu: Gpu, p: MigProfile) -> MigState | None:
        """This GPU with one more ``p`` at its lowest free valid start, or None if it cannot."""
        starts = self.free_starts(gpu, p)
        return self.with_instance(p, starts[0]) if starts else None

    def free_starts(self, gpu: Gpu, p: MigProfile) -> list[int]:
        """The valid starts where one more ``p`` fits (its compute, its maximum count and its
        memory slices allowing); empty when it does not fit."""
        assert gpu.mig is not None
        if self.compute + p.compute_slices > gpu.mig.compute_slices:
            return []
        if sum(1 for i in self.instances if i.profile == p.name) >= p.max_count:
            return []
        span = (1 << p.placement_size) - 1
        return [s for s in p.placement_starts if not self.mask & (span << s)]

    def with_instance(self, p: MigProfile, start: int) -> MigState:
        return MigState(
            tuple(sorted((*self.instances, Instance(start, p.name)))),
            self.mask | ((1 << p.placement_size) - 1) << start,
            self.compute + p.compute_slices,
        )

    def free_slices(self, gpu: Gpu) -> int:
        assert gpu.mig is not None
        return gpu.mig.memory_slices - bin(self.mask).count("1")


# ------------------------------------------------------------------ vSphere's own placement


def _options(gpu: Gpu, mask: int) -> int:
    """Valid placements of every profile still free on a GPU whose used slices are ``mask``."""
    assert gpu.mig is not None
    return sum(
        1
        for q in gpu.mig.profiles
        for s in q.placement_starts
        if not mask & (((1 << q.placement_size) - 1) << s)
    )


def vsphere_place(gpu: Gpu, state: MigState, p: MigProfile) -> MigState | None:
    """``p`` placed as vSphere places a MIG-backed vGPU when its VM powers on: at the free valid
    start that keeps the most placements open for later instances, the higher start on a tie (a
    3g.40gb on an empty H100 goes to slice 4, keeping 0-3 for a 4g.40gb, as observed); None
    when it does not fit. Instances are never moved afterwards."""
    free = state.free_starts(gpu, p)
    if not free:
        return None
    span = (1 << p.placement_size) - 1
    start = max(free, key=lambda s: (_options(gpu, state.mask | span << s), s))
    return state.with_instance(p, start)


def order_dependent(gpu: Gpu, profiles: tuple[str, ...]) -> tuple[str, ...] | None:
    """A power-on order of ``profiles`` (the instances planned on one GPU) in which vSphere's
    placement cannot fit them all, or None when every order fits. The planned counts are valid
    for some placement; whether vSphere finds it depends on the order VMs start in, since it
    never moves an instance."""
    if gpu.mig is None:
        return None
    by_name = {p.name: p for p in gpu.mig.profiles}
    failing: tuple[str, ...] | None = None
    seen: set[tuple[MigState, tuple[str, ...]]] = set()

    def walk(state: MigState, left: tuple[str, ...], order: tuple[str, ...]) -> None:
        nonlocal failing
        if failing is not None or not left or (state, left) in seen:
            return
        seen.add((state, left))
        for name in sorted(set(left)):
            nxt = vsphere_place(gpu, state, by_name[name])
            rest = list(left)
            rest.remove(name)
            if nxt is None:
                failing = (*order, name)
                return
            walk(nxt, tuple(rest), (*order, name))

    walk(MigState(), tuple(sorted(profiles)), ())
    return failing
