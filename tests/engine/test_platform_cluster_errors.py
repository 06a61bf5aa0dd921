"""Where a sizing error of a design of several clusters is shown: an error of the design's own
(first) cluster under the field that fixes it, one of a further cluster under that cluster's
entry, named by the cluster, since the first cluster's field would not fix it."""

from __future__ import annotations

from tests.engine.test_estate import H100, L40S, acme
from wizard.app.io import design_from_dict
from wizard.engine.decide.estate import size_estate
from wizard.engine.platform.compat import ProblemKind, sizing_errors

# NVIDIA AI Enterprise 6, GPUDirect RDMA and GPUDirect Storage: 'GPUDirect technology is
# supported on the following network interface cards: NVIDIA ConnectX-7 SmartNIC; Mellanox
# Connect-X 6 SmartNIC; Mellanox Connect-X 5 Ethernet adapter card'. A BlueField-3 is not one.
BLUEFIELD = {"nic": "bf3-400g-2p", "fabric": "400gbe", "rdma": "roce-v2", "gpudirect_rdma": True}


def _errors(doc: dict, catalog):
    doc["platform"]["nvaie_release"] = "nvaie-6"
    d = design_from_dict(doc)
    return sizing_errors(d, None, size_estate(d, catalog))


def test_an_error_of_a_further_cluster_is_shown_under_that_cluster(catalog):
    """The HGX cluster (a further GPU cluster) gives its vGPU VMs GPUDirect RDMA through a
    BlueField-3: the error is the HGX cluster's, under 'clusters', named by the cluster."""
    doc = acme()
    doc["clusters"][0]["hardware"] = dict(H100, **BLUEFIELD)
    (p,) = [p for p in _errors(doc, catalog) if "GPUDirect RDMA" in p.message]
    assert (p.field, p.kind) == ("clusters", ProblemKind.CLUSTER)
    assert p.message.startswith("HGX cluster: ") and "BlueField-3" in p.message


def test_an_error_of_the_first_cluster_is_shown_under_its_field(catalog):
    """Negative case: the same NIC on the design's own cluster (the notebooks' L40S hosts) is
    an error of the design's hardware, under GPUDirect RDMA (hardware.gpudirect_rdma)."""
    doc = acme()
    doc["hardware"] = dict(L40S, **BLUEFIELD)
    (p,) = [p for p in _errors(doc, catalog) if "GPUDirect RDMA" in p.message]
    assert (p.field, p.kind) == ("hardware.gpudirect_rdma", ProblemKind.HARDWARE)
    assert not p.message.startswith("Notebook cluster: ")
