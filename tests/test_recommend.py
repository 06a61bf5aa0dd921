""" "Recommend for me": each choice comes from the catalog and the engine, with its reason."""

from __future__ import annotations

from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict, design_from_text
from wizard.app.recommend import recommend, recommend_nic, recommend_server
from wizard.base.bundled import example_text
from wizard.engine.platform.compat import check_design
from wizard.model.catalog import max_boards
from wizard.model.design import Fabric, Rdma


def _design(name):
    return design_from_text(example_text(name))


def test_server_holds_the_most_of_the_gpu(catalog):
    gpu = catalog.gpus["h100-sxm5-80gb"]
    server, why = recommend_server(catalog, gpu)
    most = max(max_boards(s, gpu) for s in catalog.servers.values())
    assert max_boards(server, gpu) == most == 8
    assert "holds 8" in why


def test_every_recommendation_passes_the_catalog_checks(catalog):
    for name in ("starter", "enterprise", "bert-large-25gbe", "llm-serving", "gpt3-175b"):
        design = _design(name)
        for keep in (True, False):
            rec = recommend(design, catalog, keep_gpu=keep)
            trial = design.model_copy(update={"hardware": rec.hardware})
            assert check_design(trial, catalog) == [], (name, keep)
            assert {"server", "gpus_per_host", "fabric"} <= set(rec.reasons)
            if not keep:
                assert "gpu" in rec.reasons


def test_remote_pools_get_100gbe_pvrdma_as_in_the_reference_architecture(catalog):
    rec = recommend(_design("enterprise"), catalog)
    assert rec.hardware.fabric is Fabric.GBE_100 and rec.hardware.rdma is Rdma.PVRDMA
    assert "PVRDMA" in rec.reasons["fabric"]


def test_training_across_hosts_gets_rdma_and_gpudirect(catalog):
    rec = recommend(_design("bert-large-25gbe"), catalog)
    assert rec.hardware.rdma is Rdma.ROCE
    assert rec.hardware.gpudirect_rdma
    nic = catalog.nics[rec.hardware.nic]
    assert nic.gpudirect_rdma and nic.port_speed_gbps >= 100


def test_nic_is_the_slowest_that_suffices(catalog):
    nic, _ = recommend_nic(catalog, Fabric.GBE_25, Rdma.NONE)
    assert nic.port_speed_gbps == 25
    nic, _ = recommend_nic(catalog, Fabric.IB_NDR, Rdma.INFINIBAND)
    assert "infiniband" in nic.protocols and nic.port_speed_gbps >= 400


def test_recommend_gives_vgpu_vms_gpudirect_rdma_only_through_a_listed_nic(catalog):
    """NVIDIA AI Enterprise 8.0/9.0, GPUDirect: 'network interfaces such as NVIDIA ConnectX
    SmartNICs or BlueField DPUs' carry GPUDirect RDMA into vGPU VMs (release 6: ConnectX-7, -6 and
    -5 only). gpt3-175b's vGPU replicas span hosts, so Recommend for me picks RoCE v2 and,
    with the shipped catalog, a listed ConnectX NIC with GPUDirect RDMA on; with a catalog where
    no NIC is on that list it leaves GPUDirect RDMA off, so its choice sizes without an error."""
    from wizard.engine.size import size

    design = design_from_dict(design_dict("gpt3-175b"))
    unlisted = catalog.model_copy(
        update={"nics": {k: n.model_copy(update={"gpudirect_rdma_vgpu": False})
                         for k, n in catalog.nics.items()},
                "software": {k: r.model_copy(update={"gpudirect_vgpu_nics": ["NoSuchNIC"]})
                             for k, r in catalog.software.items()}}
    )  # fmt: skip
    rec = recommend(design, unlisted)
    assert rec.hardware.rdma is Rdma.ROCE and not rec.hardware.gpudirect_rdma
    chosen = design.model_copy(update={"hardware": rec.hardware})
    assert not [w for w in size(chosen, unlisted).warnings if w.severity == "error"]
    rec = recommend(design, catalog)
    assert rec.hardware.gpudirect_rdma
    assert catalog.nics[rec.hardware.nic].model.startswith(("ConnectX", "BlueField"))


def test_a_design_of_several_gpu_clusters_is_refused_naming_the_clusters(catalog):
    """acme-two-clusters: a notebook cluster and an HGX cluster. The design's hardware is the
    first cluster's; sizing it on every cluster's groups would cite the other's (the 70B
    groups') needs, so Recommend says it chooses one cluster's hardware and where."""
    import pytest

    from tests.conftest import ROOT
    from wizard.base.errors import UserError

    design = design_from_text((ROOT / "docs" / "acme-two-clusters.json").read_text("utf-8"))
    with pytest.raises(UserError, match=r"^clusters: this design has 2 GPU clusters; Recommend"):
        recommend(design, catalog, keep_gpu=False)
    # the same design as its first cluster alone is recommended
    alone = design.model_copy(update={"clusters": [], "workloads": design.workloads[:1]})
    assert recommend(alone, catalog, keep_gpu=False).hardware.gpu
