"""Recommend split weighs one cluster against two for a one-cluster design; a design that already
has several clusters (two is the smallest such case) is refused with a one-line reason."""

from __future__ import annotations

import pytest

from tests.conftest import ROOT
from wizard.app.io import design_from_text
from wizard.app.recommend_split import partition, recommend_split
from wizard.base.errors import UserError

REFUSED = r"^clusters: the design already has several clusters$"


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
