"""Where each workload group of a design runs: each GPU cluster seen as a design of one (its
hardware, HA policy and groups), groups an existing cluster runs or takes first (the rule in
wizard.engine.decide.existing), then the cluster where a group meets its targets with the least
GPU power, and the design the new hosts are chosen for."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial

from wizard.base.errors import DesignError
from wizard.engine.basis.expr import Formula
from wizard.engine.basis.record import Recorder
from wizard.engine.decide import existing as existing_
from wizard.engine.platform.releases import ReleaseFacts, release_choice
from wizard.engine.size import size
from wizard.model.catalog import Catalog
from wizard.model.design import ClusterRole, Design, HaPolicy, Hardware, WorkloadGroup
from wizard.model.estate import Estate, Placement
from wizard.model.existing import ExistingEstate
from wizard.model.result import Result

PLACEMENT_SOURCE = (
    "Placement rule: a group not pinned to a cluster runs where it meets its targets with the "
    "least GPU power (GPUs it takes after packing x GPU board power), the first cluster listed "
    "on a tie"
)
GPU_KW = Formula("gpus_allocated * gpu_w / 1000")


@dataclass(frozen=True)
class GpuSpec:
    name: str
    hardware: Hardware
    ha: HaPolicy
    path: str = ""  # where the cluster sits in the design file: "" for the first, "clusters[i]."


def view(design: Design, spec: GpuSpec, groups: list[WorkloadGroup]) -> Design:
    """The design as one cluster: this cluster's hardware, HA policy and groups."""
    return design.model_copy(
        update={
            "hardware": spec.hardware,
            "ha": spec.ha,
            "cluster_name": spec.name,
            "clusters": [],
            "existing": ExistingEstate(),
            "workloads": [g.model_copy(update={"cluster": None}) for g in groups],
        }
    )


def cluster_design(design: Design, estate: Estate, name: str) -> Design:
    """The design as the GPU cluster ``name`` of ``estate`` sees it: the design its Result was
    sized from, for readers that show one cluster at a time."""
    spec = next((s for s in gpu_specs(design) if s.name == name), None)
    if spec is None:  # an existing cluster: its hardware as imported
        c = next(c for c in design.existing.clusters if c.name == name)
        hw = existing_.kept_hardware(design.hardware.service_fabric, c)
        spec = GpuSpec(name, hw, design.ha, "existing.")
    where = {p.workload: p.cluster for p in estate.placements}
    return view(design, spec, [g for g in design.workloads if where[g.name] == name])


def gpu_specs(design: Design) -> list[GpuSpec]:
    return [GpuSpec(design.cluster_name, design.hardware, design.ha)] + [
        GpuSpec(c.name, c.hardware, c.ha, f"clusters[{i}].")
        for i, c in enumerate(design.clusters)
        if c.role is ClusterRole.GPU and c.hardware is not None
    ]


_FIELD = re.compile(r"^(workloads\[(\d+)\]|[a-z_]+)([.\w\[\]]*): (.*)$", re.S)
_OWN = ("hardware", "ha")  # the fields each GPU cluster has of its own


def in_cluster(problem: str, spec: GpuSpec, index: list[int]) -> tuple[str, str]:
    """A problem of the one-cluster view as the design file names it: its field path (the
    group's own index, the cluster's own hardware and HA policy) and the message."""
    m = _FIELD.match(problem)
    if m is None:
        return "", problem
    head, group, rest, text = m.groups()
    if group is not None:
        path = f"workloads[{index[int(group)]}]"
    else:
        path = spec.path + head if head in _OWN else head
    return path + rest, text


def new_hosts_design(design: Design, catalog: Catalog) -> Design:
    """The design as its new hosts see it: an expansion without its existing estate and without
    the groups the plan keeps on or places on existing clusters (what hardware to buy is chosen
    for the rest); a design without an estate as it is."""
    if not design.existing.clusters:
        return design
    rec = Recorder()
    kept = existing_.kept_clusters(existing_.ExistingFacts.of(design), catalog, rec)
    placed = place(design, catalog, gpu_specs(design), rec, kept)
    away = {p.workload for p in placed if p.cluster in {k.name for k in kept}}
    return design.model_copy(
        update={
            "existing": ExistingEstate(),
            "workloads": [g for g in design.workloads if g.name not in away],
        }
    )


def kept_spec(design: Design, k: existing_.Kept) -> GpuSpec:
    return GpuSpec(k.name, k.hardware, design.ha, "existing.")


def _trial(
    design: Design, catalog: Catalog, k: existing_.Kept, groups: list[WorkloadGroup]
) -> Result:
    """The groups sized alone on an existing cluster's hardware, for the placement rule."""
    return size(view(design, kept_spec(design, k), groups), catalog)


def place(
    design: Design,
    catalog: Catalog,
    specs: list[GpuSpec],
    rec: Recorder,
    kept: list[existing_.Kept] | None = None,
) -> list[Placement]:
    out = []
    names = [s.name for s in specs]
    on_kept: dict[str, list[WorkloadGroup]] = {k.name: [] for k in kept or []}
    release = release_choice(ReleaseFacts.of(design, catalog))[0] if kept else None
    for i, g in enumerate(design.workloads):
        runs = next((k for k in kept or [] if g.name in k.runs), None)
        if runs is not None:
            on_kept[runs.name].append(g)
            out.append(Placement(workload=g.name, cluster=runs.name, chosen_by_engine=False,
                                 reason="where it runs today, as imported"))  # fmt: skip
            continue
        if g.cluster is not None and g.cluster in on_kept:
            on_kept[g.cluster].append(g)
        passed_over = ""
        if g.cluster is None and kept:
            p = existing_.on_kept(
                kept, on_kept, g, catalog, release, rec, partial(_trial, design, catalog)
            )
            if isinstance(p, Placement):
                out.append(p)
                continue
            passed_over = f"; {p}"
        if g.cluster is not None:
            out.append(Placement(workload=g.name, cluster=g.cluster, chosen_by_engine=False,
                                 reason="as the design says"))  # fmt: skip
            continue
        if len(specs) == 1:
            out.append(Placement(workload=g.name, cluster=names[0], chosen_by_engine=False,
                                 reason="the design's only new GPU cluster" + passed_over
                                 if kept else "the design's only GPU cluster"))  # fmt: skip
            continue
        out.append(_best_cluster(design, catalog, specs, i, g, rec))
    return out


def _best_cluster(
    design: Design,
    catalog: Catalog,
    specs: list[GpuSpec],
    index: int,
    g: WorkloadGroup,
    rec: Recorder,
) -> Placement:
    tried: list[tuple[bool, float, int, str, str, float, float]] = []
    refused = []
    for n, spec in enumerate(specs):
        try:
            r = size(view(design, spec, [g]), catalog)
        except DesignError as exc:
            said = "; ".join(in_cluster(p, spec, [index])[1] for p in exc.problems)
            refused.append(f"'{spec.name}': {said}")
            continue
        (w,) = r.workloads
        gpu = catalog.gpus[spec.hardware.gpu]
        met = _targets_met(r)
        kw = GPU_KW(gpus_allocated=w.sharing.gpus_allocated, gpu_w=gpu.tdp_w)
        text = f"{w.sharing.gpus_allocated:,.2f} {gpu.name} ({kw:,.2f} kW of GPU power)" + (
            "" if met else ", missing its targets"
        )
        tried.append((not met, kw, n, spec.name, text, w.sharing.gpus_allocated, gpu.tdp_w))
    if not tried:
        raise DesignError(
            f"workloads[{index}].cluster: no GPU cluster of the design can run '{g.name}' ("
            + "; ".join(refused)
            + ")"
        )
    best = min(tried)
    others = [f"{t[4]} on '{t[3]}'" for t in tried if t is not best]
    reason = (
        f"it takes {best[4]} there"
        + (f", against {', '.join(others)}" if others else "")
        + (f"; not possible on {', '.join(refused)}" if refused else "")
    )
    rec.expr(
        f"placement.{g.name}.gpu_kw", GPU_KW,
        {"gpus_allocated": best[5], "gpu_w": best[6]}, "kW", PLACEMENT_SOURCE,
    )  # fmt: skip
    rec.decide(
        f"'{g.name}' runs on '{best[3]}'.",
        reason[0].upper() + reason[1:] + ".",
        implication=f"The group's VMs are placed on the hosts of '{best[3]}'; moving it is a "
        "change of the design.",
    )
    return Placement(workload=g.name, cluster=best[3], chosen_by_engine=True, reason=reason)


_targets_met = existing_.targets_met
