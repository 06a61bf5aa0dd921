"""Planning on the customer's existing clusters from its own facts: the clusters as imported, the
names of the design's groups, the service fabric and the assumptions, built here by hand (no
design). The cluster is the expansion sample's (tests/data/estate/expansion.json): three Dell
R750xa hosts of four A100 PCIe 80GB, six A100D-3-40C vGPUs in use (two a host), each naming the
group "Notebooks"."""

from __future__ import annotations

import json
import math

import pytest

from tests.conftest import ROOT
from wizard.engine.basis.expr import evaluate
from wizard.engine.basis.record import Recorder
from wizard.engine.decide.existing import ExistingFacts, kept_clusters
from wizard.engine.decide.kept_build import as_is
from wizard.model.design import Assumptions, Fabric
from wizard.model.existing import ExistingCluster

SAMPLE = ROOT / "tests" / "data" / "estate" / "expansion.json"


def _cluster(**host_update) -> ExistingCluster:
    doc = json.loads(SAMPLE.read_text(encoding="utf-8"))["existing"]["clusters"][0]
    for i, h in enumerate(doc["hosts"]):
        h.update({k: v[i] for k, v in host_update.items()})
    return ExistingCluster.model_validate(doc)


def _facts(cluster: ExistingCluster, groups=("Notebooks",), **update) -> ExistingFacts:
    base = {
        "clusters": (cluster,),
        "groups": frozenset(groups),
        "service_fabric": Fabric.GBE_100,
        "assumptions": Assumptions(),
    }
    return ExistingFacts(**(base | update))


def test_vgpus_of_a_group_of_the_design_run_it(catalog):
    """Every vGPU in use names "Notebooks", a group of the facts: the cluster runs it and holds
    no host for anything else."""
    rec = Recorder()
    (kept,) = kept_clusters(_facts(_cluster()), catalog, rec)
    assert (kept.runs, kept.held_hosts) == (("Notebooks",), 0)
    assert "existing-workload-unknown" not in {w.code for w in rec.warnings}


def test_vgpus_of_no_group_are_capacity_already_taken(catalog):
    """With no group of that name the six 40 GB vGPUs (half an 80 GB A100 each) are capacity
    taken: 6 x 0.5 = 3 GPUs, ceil(3 / 4) = 1 host held; the names are warned about."""
    rec = Recorder()
    (kept,) = kept_clusters(_facts(_cluster(), groups=()), catalog, rec)
    assert (kept.runs, kept.held_hosts) == ((), math.ceil(6 * 0.5 / 4))
    assert "existing-workload-unknown" in {w.code for w in rec.warnings}


@pytest.mark.parametrize("fabric", [Fabric.GBE_25, Fabric.GBE_100])
def test_the_kept_hosts_stay_on_the_service_fabric_of_the_facts(catalog, fabric):
    (kept,) = kept_clusters(_facts(_cluster(), service_fabric=fabric), catalog, Recorder())
    assert kept.hardware.service_fabric is fabric
    assert (kept.hardware.gpu, kept.hardware.gpus_per_host) == ("a100-pcie-80gb", 4)


@pytest.mark.parametrize(("kw", "racks"), [(40, 2), (0.1, 3)])
def test_hosts_kept_as_they_are_fill_racks_by_the_assumed_power(catalog, kw, racks):
    """Hosts of 4, 4 and 2 GPUs differ, so the cluster is kept as it is: its hosts are racked by
    kind, each kind ceil(hosts / hosts a rack). At 40 kW a rack holds either kind whole: 1 + 1
    = 2 racks; at 0.1 kW one host a rack (never none): 2 + 1 = 3."""
    cluster = _cluster(gpus=[4, 4, 2])
    rec = Recorder()
    (kept,) = as_is(_facts(cluster, assumptions=Assumptions(max_rack_power_kw=kw)), catalog, rec)
    assert kept.reason.startswith("its hosts differ") and kept.host_racks == racks
    for c in rec.calculations:
        assert evaluate(c.formula, c.inputs) == pytest.approx(c.value), c.id
    assert kept_clusters(_facts(cluster), catalog, Recorder()) == []
