"""Property tests over designs of several clusters: every group runs on exactly one GPU cluster
(where the design pins it), each GPU cluster is the design sized alone, totals are the sums of
the clusters, the management domain keeps its minimum, and the bill of materials bills each
cluster's hosts and GPUs; or the engine refuses with a message naming the field."""

from __future__ import annotations

import re

from hypothesis import given

from tests.hardening import invariants
from tests.hardening.strategies import catalog, estates
from wizard.app.io import design_from_dict
from wizard.base.errors import DesignError
from wizard.engine.decide.cpu_clusters import MANAGEMENT_MIN_HOSTS
from wizard.engine.decide.estate import cluster_design, size_estate
from wizard.model.buildout import BomCategory
from wizard.model.design import ClusterRole

FIELD = re.compile(
    r"^(hardware|clusters\[\d+\]|workloads\[\d+\]|ha|data|platform|licensing|assumptions)[.\w\[\]]*: "
)


def _estate_or_refusal(doc):
    design = design_from_dict(doc, "d.json")
    try:
        return design, size_estate(design, catalog())
    except DesignError as exc:
        assert exc.problems, "a DesignError with no problem in it"
        for line in exc.problems:
            assert FIELD.match(line), f"refusal does not name a field: {line!r}"
        return design, None


@given(estates())
def test_every_group_runs_on_one_gpu_cluster_and_pins_hold(doc):
    design, estate = _estate_or_refusal(doc)
    if estate is None:
        return
    gpu_names = {design.cluster_name} | {
        c.name for c in design.clusters if c.role is ClusterRole.GPU
    }
    placed = [p.workload for p in estate.placements]
    assert sorted(placed) == sorted(g.name for g in design.workloads)
    where = {p.workload: p.cluster for p in estate.placements}
    for g in design.workloads:
        assert where[g.name] in gpu_names
        if g.cluster is not None:
            assert (
                where[g.name] == g.cluster
                and not next(p for p in estate.placements if p.workload == g.name).chosen_by_engine
            )
    built = {c.name: c for c in estate.clusters}
    for name in set(where.values()):
        assert g_names(built[name]) == sorted(n for n, c in where.items() if c == name)


def g_names(cluster):
    return sorted(cluster.workloads)


@given(estates())
def test_each_gpu_cluster_is_the_design_sized_alone(doc):
    design, estate = _estate_or_refusal(doc)
    if estate is None:
        return
    for c in estate.clusters:
        if c.role is not ClusterRole.GPU:
            assert c.result is None and c.gpus == 0
            continue
        assert c.result is not None
        alone = cluster_design(design, estate, c.name)
        broken = invariants.check(c.result, alone, catalog())
        assert not broken, "\n".join(broken[:20])
        assert c.hosts == c.result.cluster.hosts_total
        assert c.gpus == c.result.cluster.gpus_total
        assert 0 <= c.gpus_demand <= c.gpus and c.gpus_idle == c.gpus - c.gpus_demand


@given(estates())
def test_totals_are_the_sums_and_the_bill_covers_every_cluster(doc):
    design, estate = _estate_or_refusal(doc)
    if estate is None:
        return
    t = estate.totals
    assert t.hosts == sum(c.hosts for c in estate.clusters)
    assert t.gpus == sum(c.gpus for c in estate.clusters)
    assert t.gpus_idle == t.gpus - t.gpus_demand
    assert (
        abs(t.total_kw - (sum(c.hosts_kw for c in estate.clusters) + t.network_kw + t.storage_kw))
        < 1e-9
    )
    for c in estate.clusters:
        lines = [ln for ln in estate.bom.lines if ln.cluster == c.name]
        servers = sum(ln.quantity for ln in lines if ln.category is BomCategory.SERVER)
        boards = sum(ln.quantity for ln in lines if ln.category is BomCategory.GPU)
        per_board = catalog().gpus[c.result.gpu].gpus_per_board if c.result else 1
        assert servers == c.hosts, f"{c.name}: {servers} servers billed for {c.hosts} hosts"
        # GPUs are billed by the board (an A16 board carries four GPUs)
        assert boards * per_board == c.gpus, f"{c.name}: {boards} boards billed for {c.gpus} GPUs"
        if c.role is ClusterRole.MANAGEMENT:
            assert c.hosts >= MANAGEMENT_MIN_HOSTS
        if c.role is ClusterRole.COMPUTE:
            spec = next(s for s in design.clusters if s.name == c.name)
            assert c.hosts == spec.hosts
