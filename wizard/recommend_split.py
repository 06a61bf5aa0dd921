""" "Recommend for me" across clusters: the same demand on one cluster and on two (users who
share GPUs on one, multi-GPU jobs on another), each recommended and sized, with the difference
in hosts, GPUs and power, and which one to take and why.

Power decides while no price list is given: it is the figure the design can stand behind; with
prices, the cost of the two bills of materials would (the options view compares them).
"""

from __future__ import annotations

from dataclasses import dataclass

from wizard.engine.estate import size_estate
from wizard.engine.size import size
from wizard.errors import UserError
from wizard.model.catalog import Catalog
from wizard.model.design import ClusterRole, ClusterSpec, Design, SharingMode, WorkloadGroup
from wizard.model.estate import Estate
from wizard.numbers import count
from wizard.recommend import recommend

SHARED_NAME = "Shared-GPU cluster"
MULTI_NAME = "Multi-GPU cluster"
SHARED_MODES = (SharingMode.VGPU, SharingMode.MIG, SharingMode.REMOTE)


@dataclass(frozen=True)
class Split:
    one: Estate
    two: Estate
    design_one: Design
    design_two: Design
    take_two: bool
    why: str


def partition(design: Design, catalog: Catalog) -> tuple[list[WorkloadGroup], list[WorkloadGroup]]:
    """Groups that share GPUs (one GPU or less per member, under vGPU, MIG or a pool) and the
    rest (jobs of several GPUs, or whole GPUs), as the design sizes them today."""
    result = size(design, catalog)
    shared, multi = [], []
    for g, w in zip(design.workloads, result.workloads, strict=True):
        if w.gpus_per_replica <= 1 and g.sharing_mode in SHARED_MODES:
            shared.append(g)
        else:
            multi.append(g)
    return shared, multi


def recommend_split(design: Design, catalog: Catalog) -> Split:
    """One cluster against two for ``design``'s demand. Raises :class:`UserError` when the
    demand does not divide (every group shares GPUs, or none does)."""
    if not design.is_single_cluster():
        raise UserError("clusters: the design already has several clusters")
    shared, multi = partition(design, catalog)
    if not shared or not multi:
        raise UserError(
            "workloads: every group "
            + ("shares GPUs" if shared else "uses whole or several GPUs")
            + ", so there is nothing to split between two clusters"
        )
    one = _recommended(design, catalog)
    a = _recommended(design.model_copy(update={"workloads": shared}), catalog)
    b = _recommended(design.model_copy(update={"workloads": multi}), catalog)
    two = design.model_copy(
        update={
            "hardware": a.hardware,
            "cluster_name": SHARED_NAME,
            "workloads": [g.model_copy(update={"cluster": SHARED_NAME}) for g in shared]
            + [g.model_copy(update={"cluster": MULTI_NAME}) for g in multi],
            "clusters": [
                ClusterSpec(
                    name=MULTI_NAME, role=ClusterRole.GPU, hardware=b.hardware, ha=design.ha
                )
            ],
        }
    )
    e1, e2 = size_estate(one, catalog), size_estate(two, catalog)
    t1, t2 = e1.totals, e2.totals
    take_two = t2.total_kw < t1.total_kw
    gpu1 = catalog.gpus[one.hardware.gpu].name
    gpu_a, gpu_b = catalog.gpus[a.hardware.gpu].name, catalog.gpus[b.hardware.gpu].name
    why = (
        f"One cluster of {gpu1}: {count(t1.hosts, 'host')}, {count(t1.gpus, 'GPU')}, "
        f"{t1.total_kw:,.1f} kW. Two clusters ({', '.join(g.name for g in shared)} on {gpu_a}; "
        f"{', '.join(g.name for g in multi)} on {gpu_b}): {count(t2.hosts, 'host')}, "
        f"{count(t2.gpus, 'GPU')}, {t2.total_kw:,.1f} kW, each cluster keeping its own HA "
        "reserve. "
        + (
            f"Two clusters, since they draw {t1.total_kw - t2.total_kw:,.1f} kW less."
            if take_two
            else f"One cluster, since two would draw {t2.total_kw - t1.total_kw:,.1f} kW more; "
            "a price list can still favour two when their hosts cost enough less."
        )
    )
    return Split(e1, e2, one, two, take_two, why)


def _recommended(design: Design, catalog: Catalog) -> Design:
    rec = recommend(design, catalog, keep_gpu=False)
    return design.model_copy(update={"hardware": rec.hardware})
