"""One rule book: each hardware rule answers "why not" once, in the words the wizard shows next
to the option and check_design gives as the problem. Each rule with a case it allows and a case
it refuses, the refusal isolated from the other rules."""

from __future__ import annotations

from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict
from wizard.engine.platform.compat import (
    ProblemKind,
    check_design,
    gpudirect_reason,
    nic_reason,
    nvlink_reason,
    rdma_reason,
    sharing_mode_reason,
)
from wizard.model.design import Fabric, Rdma, SharingMode


def test_nvlink(catalog):
    l40s, a100, h100 = (catalog.gpus[g] for g in ("l40s", "a100-pcie-80gb", "h100-sxm5-80gb"))
    bridged, plain = catalog.servers["dell-r750xa"], catalog.servers["dell-dss8440"]
    assert nvlink_reason(l40s, bridged) == "the NVIDIA L40S has no NVLink"
    assert nvlink_reason(a100, plain) == (
        "the DSS 8440 has no adjacent double-width slots for NVLink bridges"
    )
    assert nvlink_reason(a100, bridged) is None
    assert nvlink_reason(h100, catalog.servers["dell-xe9680"]) is None  # on the baseboard


def test_rdma_follows_the_fabric_and_the_nic(catalog):
    assert rdma_reason(Rdma.ROCE, Fabric.IB_NDR) == "RoCE runs over Ethernet"
    assert rdma_reason(Rdma.INFINIBAND, Fabric.GBE_100) == "needs an InfiniBand fabric"
    assert rdma_reason(Rdma.ROCE, Fabric.GBE_100) is None
    assert rdma_reason(Rdma.INFINIBAND, Fabric.IB_NDR) is None
    no_roce = catalog.nics["cx5-25g-2p"].model_copy(update={"rdma": []})
    assert rdma_reason(Rdma.ROCE, Fabric.GBE_25, no_roce) == (
        f"the {no_roce.model} does not support RoCE v2"
    )


def test_gpudirect_needs_rdma_and_a_nic_that_does_it(catalog):
    good = catalog.nics["cx5-25g-2p"]
    bad = good.model_copy(update={"gpudirect_rdma": False})
    assert gpudirect_reason(Rdma.NONE, good) == "needs RDMA (RoCE v2 or InfiniBand)"
    assert gpudirect_reason(Rdma.ROCE, good) is None
    assert gpudirect_reason(Rdma.ROCE, bad) == f"the {bad.model} does not support it"


def test_a_nic_speaks_the_fabric_at_its_speed(catalog):
    ib = catalog.nics["cx7-ndr-1p"]
    eth25 = catalog.nics["cx5-25g-2p"]
    assert nic_reason(ib, Fabric.IB_NDR) is None
    assert nic_reason(eth25, Fabric.IB_NDR) == f"the {eth25.model} does not speak InfiniBand"
    assert nic_reason(eth25, Fabric.GBE_100) == ("its ports run at 25 Gb/s, below the fabric's 100")
    assert nic_reason(eth25, Fabric.GBE_25) is None


def test_sharing_modes_need_the_gpu_to_do_them(catalog):
    l40s, h100 = catalog.gpus["l40s"], catalog.gpus["h100-sxm5-80gb"]
    assert sharing_mode_reason(SharingMode.MIG, l40s) == ("the NVIDIA L40S does not support MIG")
    assert sharing_mode_reason(SharingMode.MIG, h100) is None
    assert sharing_mode_reason(SharingMode.PASSTHROUGH, l40s) is None


def test_an_nvswitch_board_runs_time_sliced_vgpu_only(catalog):
    """The HGX H100 board of a Dell XE9680 refuses passthrough and MIG-backed vGPU under
    vSphere (NVIDIA AI Enterprise 8.0, 'NVIDIA NVSwitch'); the same GPU on the server named
    nowhere, or time-sliced vGPU on the board, is not refused by this rule."""
    h100, xe9680 = catalog.gpus["h100-sxm5-80gb"], catalog.servers["dell-xe9680"]
    for mode, name in ((SharingMode.PASSTHROUGH, "GPU passthrough"),
                       (SharingMode.MIG, "MIG-backed vGPU")):  # fmt: skip
        why = sharing_mode_reason(mode, h100, xe9680)
        assert why is not None and "NVSwitch board" in why and name in why
        assert sharing_mode_reason(mode, h100) is None
    assert sharing_mode_reason(SharingMode.VGPU, h100, xe9680) is None


def test_check_design_gives_the_same_words_and_a_kind(catalog):
    doc = design_dict("bert-large-25gbe")
    doc["hardware"].update({"server": "dell-dss8440", "gpu": "a100-pcie-40gb", "nvlink": True,
                            "nic": "cx5-25g-2p", "fabric": "25gbe", "rdma": "roce-v2",
                            "gpudirect_rdma": True})  # fmt: skip
    nic = catalog.nics["cx5-25g-2p"].model_copy(update={"gpudirect_rdma": False})
    catalog = catalog.model_copy(update={"nics": {**catalog.nics, nic.id: nic}})
    problems = check_design(design_from_dict(doc), catalog)
    by_field = {p.field: p for p in problems}
    server = catalog.servers["dell-dss8440"]
    assert by_field["hardware.nvlink"].message == nvlink_reason(
        catalog.gpus["a100-pcie-40gb"], server
    )
    assert by_field["hardware.gpudirect_rdma"].message == gpudirect_reason(Rdma.ROCE, nic)
    assert {p.kind for p in problems} == {ProblemKind.HARDWARE}
    doc["hardware"]["gpu"] = "no-such-gpu"
    kinds = {p.field: p.kind for p in check_design(design_from_dict(doc), catalog)}
    assert kinds["hardware.gpu"] is ProblemKind.REFERENCE
