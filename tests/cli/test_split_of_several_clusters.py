"""Recommend split weighs one cluster against two for a one-cluster design; a design that already
has several GPU clusters (two is the smallest such case) is refused with a one-line reason; a
management domain beside its one GPU cluster is kept as it is."""

from __future__ import annotations

import pytest

from tests.conftest import ROOT
from wizard.app.io import design_from_text
from wizard.app.recommend_split import partition, recommend_split
from wizard.base.errors import UserError
from wizard.model.design import ClusterRole

REFUSED = r"^clusters: the design already has several GPU clusters$"


def _acme():
    """acme-two-clusters: a notebook cluster, an HGX cluster and a management domain."""
    return design_from_text((ROOT / "docs" / "acme-two-clusters.json").read_text("utf-8"))


def test_a_design_of_exactly_two_clusters_is_refused(catalog):
    """Without the management domain: the notebook cluster and the HGX cluster, two clusters."""
    d = _acme()
    two = d.model_copy(update={"clusters": [c for c in d.clusters if c.name == "HGX cluster"]})
    with pytest.raises(UserError, match=REFUSED):
        partition(two, catalog)
    with pytest.raises(UserError, match=REFUSED):
        recommend_split(two, catalog)


def test_a_design_of_three_clusters_is_refused(catalog):
    """The two GPU clusters and the management domain."""
    with pytest.raises(UserError, match=REFUSED):
        partition(_acme(), catalog)


def test_the_same_design_as_one_cluster_is_partitioned(catalog):
    """The first cluster alone (its one workload group) is one cluster: no refusal; its one
    group lands on one side of the partition."""
    d = _acme()
    alone = d.model_copy(update={"clusters": [], "workloads": d.workloads[:1]})
    shared, multi = partition(alone, catalog)
    assert len(shared) + len(multi) == 1


def test_a_management_domain_beside_one_gpu_cluster_is_kept_on_both_sides(catalog):
    """The notebook cluster's groups and the HGX cluster's groups as one GPU cluster, with the
    management domain beside it: not refused (one GPU cluster), and both options keep the
    management domain, so neither is shorter by its hosts."""
    d = _acme()
    one_gpu = d.model_copy(
        update={
            "clusters": [c for c in d.clusters if c.role is ClusterRole.MANAGEMENT],
            "workloads": [g.model_copy(update={"cluster": None}) for g in d.workloads],
        }
    )
    split = recommend_split(one_gpu, catalog)
    for option in (split.one, split.two):
        assert [c.role for c in option.clusters].count(ClusterRole.MANAGEMENT) == 1
    assert [c.role for c in split.two.clusters].count(ClusterRole.GPU) == 2
