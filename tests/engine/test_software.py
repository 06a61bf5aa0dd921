"""The software stack and platform readiness: components per sharing mode and Kubernetes
platform, server certification from the catalog, and the host/VM settings checklist."""

import math

import pytest

from tests.engine.conftest import calc, design_dict
from wizard.app.io import design_from_dict
from wizard.base.errors import DesignError
from wizard.engine.platform.compat import check_design
from wizard.engine.size import size
from wizard.model.catalog import Certification, max_boards


def _size(doc, catalog):
    return size(design_from_dict(doc), catalog)


def _codes(result):
    return {w.code: w for w in result.warnings}


def _settings(result):
    return {c.setting: c for c in result.software.checklist}


def _names(result):
    return [c.name for c in result.software.components]


# ------------------------------------------------------------------------- MMIO sizing


# NVIDIA AI Enterprise 6, 'Requirements for Using NVIDIA vGPU (C-Series) on GPUs Requiring 64GB
# or More of MMIO Space with Large-Memory VMs': "the VM's MMIO space must be increased to the
# amount that the GPU requires", row by row ("(all variants)" covers PCIe, SXM and NVL boards).
NVIDIA_MMIO_TABLE = {
    "h200-sxm-141gb": 512, "h200-nvl-141gb": 512,  # NVIDIA H200 (all variants) 512GB
    "h100-sxm5-80gb": 256, "h100-pcie-80gb": 256, "h100-nvl-94gb": 256,  # H100 (all) 256GB
    "a100-pcie-80gb": 256, "a100-sxm4-80gb": 256,  # NVIDIA A100 80GB (all variants) 256GB
    "a100-pcie-40gb": 128, "a100-sxm4-40gb": 128,  # NVIDIA A100 40GB (all variants) 128GB
    "l40": 128, "a40": 128,  # NVIDIA L40 128GB, NVIDIA A40 128GB
    "l4": 64, "a30": 64, "a10": 64,  # NVIDIA L4 / A30 / A10 64GB
    "v100-pcie-32gb": 64, "v100-sxm2-32gb": 64,  # Tesla V100 (all variants) 64GB
}  # fmt: skip


@pytest.mark.parametrize(("gpu", "gb"), sorted(NVIDIA_MMIO_TABLE.items()))
def test_a_one_gpu_vm_gets_nvidias_mmio(catalog, gpu, gb):
    """A VM of one GPU gets exactly the MMIO NVIDIA's table lists for that GPU, not the GPU's
    memory rounded up (which gave an H100 VM 128 instead of 256)."""
    doc = design_dict("mig-shared")
    server = next(s for s in catalog.servers.values() if max_boards(s, catalog.gpus[gpu]))
    board = catalog.gpus[gpu]
    one = board.gpus_per_board * (max_boards(server, board) if board.form_factor == "sxm" else 1)
    doc["hardware"].update(gpu=gpu, server=server.id, gpus_per_host=one, nics_per_host=1)
    for g in doc["workloads"]:
        g.update(sharing_mode="passthrough", constraints={}, count=1)
    r = _size(doc, catalog)
    assert r.software.vm_mmio and 1 in {m.gpus_per_vm for m in r.software.vm_mmio}
    for m in r.software.vm_mmio:  # one window per VM: NVIDIA's figure for each GPU it holds
        assert m.mmio_size_gb == 2 ** math.ceil(math.log2(gb * m.gpus_per_vm)), m
    assert catalog.gpus[gpu].vm_mmio_gb == gb


def test_a_gpu_missing_from_nvidias_table_follows_the_rule_of_its_rows(catalog, sized):
    """The RTX PRO 6000 Blackwell Server Edition (96 GB) is not in NVIDIA's table: its figure is
    twice its frame buffer rounded up to a power of two, 2 x 128 = 256 GB, the rule that gives the
    table's own rows (H100 80 GB: 2 x 128 = 256; H200 141 GB: 2 x 256 = 512; L4 24 GB: 2 x 32 =
    64), and the log says it is derived."""
    for gpu, gb in NVIDIA_MMIO_TABLE.items():
        memory = catalog.gpus[gpu].memory_gb
        assert 2 * 2 ** math.ceil(math.log2(memory)) == gb, gpu
    r = sized["rtx-pro-vsphere"]
    assert calc(r, "software.gpu_mmio_gb").value == 256
    assert "not in the table" in calc(r, "software.gpu_mmio_gb").source


@pytest.mark.parametrize(
    ("memory_gb", "per_gpu_gb", "bars_gb"),
    [
        (24, 64, 4 * 32),  # L4: 24 GB rounds up to a 32 GB BAR; NVIDIA lists 64 per GPU
        (1, 2, 4 * 1),  # a 1 GB frame buffer is a 1 GB BAR (2 ** 0), not 2 GB
        (0.5, 2, 4 * 1),  # under 1 GB the BAR is still at least 1 GB
    ],
)
def test_the_mmio_rules_round_each_bar_up_to_a_power_of_two_of_at_least_1_gb(
    memory_gb, per_gpu_gb, bars_gb
):
    """A GPU NVIDIA's table does not list needs twice its BAR per VM, and a host needs each of its
    GPUs' BARs (here four GPUs); the BAR is the frame buffer rounded up to a power of two, never
    below 1 GB (2 ** 0)."""
    from wizard.engine.platform.software import HOST_BARS, MMIO_PER_GPU

    assert MMIO_PER_GPU(gpu_memory_gb=memory_gb) == per_gpu_gb
    assert HOST_BARS(gpus_per_host=4, gpu_memory_gb=memory_gb) == bars_gb


def test_mmio_per_vm_from_the_gpus_it_holds(sized):
    """GPT-3 175B replicas span hosts: each VM holds the host's 8 H100, 8 x 256 = 2,048 GB (the
    setting covers the whole VM, so a VM of several GPUs needs their sum)."""
    r = sized["gpt3-175b"]
    (vm,) = r.software.vm_mmio
    assert (vm.gpus_per_vm, vm.gpu_memory_gb, vm.mmio_size_gb) == (8, 80, 2048)
    assert calc(r, "software.workloads[0].mmio_size_gb").value == 2048
    assert "2048" in _settings(r)["pciPassthru.64bitMMIOSizeGB"].value
    # The host BIOS window holds every BAR: 8 x 128 GB (80 GB rounded up to a power of two).
    assert calc(r, "software.host_mmio_gb").value == 1024


def test_small_bar_gpus_need_no_mmio_settings(sized):
    """T4 (16 GB): VMware's large-BAR steps apply only above 16 GB."""
    r = sized["starter"]
    assert r.software.vm_mmio == []
    settings = _settings(r)
    assert "pciPassthru.use64bitMMIO" not in settings
    assert "Above 4G decoding (memory-mapped I/O above 4 GB)" not in settings
    assert "mmio-setting-needed" not in _codes(r)


def test_large_bar_gpu_raises_the_mmio_note(sized):
    w = _codes(sized["imagenet-resnet50"])["mmio-setting-needed"]
    assert (
        "(256 for ResNet-50 training)" in w.message
    )  # A100 80GB: NVIDIA's 256 GB and w.severity == "info"


def test_the_mmio_note_fits_a_page_with_hundreds_of_groups(catalog):
    """200 groups with 64-character names, all with the same per-VM value: the note gives the
    value once and names 8 groups and '192 more' (200 - 8), not 15,000 characters that no
    table cell can hold."""
    import json

    from wizard.app.io import design_from_dict
    from wizard.base.bundled import example_text
    from wizard.engine.size import size

    doc = json.loads(example_text("enterprise"))
    group = doc["workloads"][1]
    doc["workloads"] = [{**group, "name": f"Group {i:03d} " + "W" * 54} for i in range(200)]
    w = _codes(size(design_from_dict(doc), catalog))["mmio-setting-needed"]
    assert "and 192 more)" in w.message and w.message.count("Group ") == 8
    assert len(w.message) < 1500


# ---------------------------------------------------------------- checklist per sharing mode


def test_passthrough_checklist(sized):
    settings = _settings(sized["imagenet-resnet50"])  # A100 80GB, passthrough
    for present in ("Intel VT-d / AMD I/O virtualization (IOMMU)", "PCI device passthrough",
                    "Above 4G decoding (memory-mapped I/O above 4 GB)", "Firmware",
                    "Memory reservation", "pciPassthru.use64bitMMIO",
                    "pciPassthru.64bitMMIOSizeGB"):  # fmt: skip
        assert present in settings, present
        assert settings[present].modes == ["passthrough"]
    for absent in ("SR-IOV", "Graphics device default type", "MIG mode",
                   "vgpu.hotmigrate.enabled", "NVIDIA AI Enterprise host driver (NVD-AIE VIB)"):  # fmt: skip
        assert absent not in settings, absent
    assert settings["pciPassthru.64bitMMIOSizeGB"].value == "256 for ResNet-50 training"


def test_vgpu_checklist(sized):
    settings = _settings(sized["llm-serving"])  # H100 SXM, vGPU
    for present in ("SR-IOV", "Graphics device default type", "vgpu.hotmigrate.enabled",
                    "NVIDIA AI Enterprise host driver (NVD-AIE VIB)", "Firmware",
                    "NVIDIA License System client configuration token"):  # fmt: skip
        assert present in settings, present
    assert "SharedPassthru" in settings["Graphics device default type"].value
    assert "PCI device passthrough" not in settings
    assert "MIG mode" not in settings


def test_mig_checklist(catalog):
    doc = design_dict("imagenet-resnet50")
    doc["workloads"][0]["sharing_mode"] = "mig"
    settings = _settings(_size(doc, catalog))
    assert settings["MIG mode"].modes == ["mig"]
    assert settings["SR-IOV"].modes == ["mig"]  # Ampere: vGPUs are SR-IOV virtual functions
    assert "Shared Direct" in settings["Graphics device default type"].value
    assert "PCI device passthrough" not in settings


def test_volta_vgpu_needs_no_sr_iov(catalog):
    """Denneman: SR-IOV in the BIOS is for Ampere and later; V100 vGPU does not use it."""
    doc = design_dict("enterprise")  # V100 SXM2, a vGPU group and remote groups
    settings = _settings(_size(doc, catalog))
    assert "SR-IOV" not in settings
    assert "Graphics device default type" in settings
    assert settings["PCI device passthrough"].modes == ["remote"]


# ---------------------------------------------------------------------------- components


def test_fabric_manager_for_passed_through_nvswitch_boards(sized, catalog):
    doc = design_dict("gpt3-175b")  # HGX H100 8-GPU
    doc["workloads"][0]["sharing_mode"] = "passthrough"
    assert "NVIDIA Fabric Manager" in _names(size(design_from_dict(doc), catalog))
    assert "NVIDIA Fabric Manager" not in _names(sized["imagenet-resnet50"])  # PCIe server


def test_passthrough_needs_no_host_driver(sized):
    names = _names(sized["imagenet-resnet50"])
    assert "NVIDIA Data Center GPU driver" in names
    assert not any("Virtual GPU Manager" in n for n in names)
    assert "GPUDirect Storage (nvidia-fs kernel module, cuFile)" in names


def test_vgpu_needs_host_manager_guest_driver_and_licence_service(sized):
    names = _names(sized["llm-serving"])
    assert "NVIDIA Virtual GPU Manager (NVD-AIE host driver for vSphere)" in names
    assert "NVIDIA vGPU for Compute guest driver" in names
    assert any(n.startswith("NVIDIA License System") for n in names)
    assert "NVIDIA Data Center GPU driver" not in names
    assert "NCCL with GPUDirect RDMA (DMA-BUF or the nvidia-peermem module)" in names


def test_pinned_release_gives_its_branches_and_versions(catalog):
    """NVIDIA AI Enterprise 5.3 release notes: vGPU 17.5, driver 550.144.02, GPU Operator
    v24.9.2, Network Operator v24.10.1."""
    doc = design_dict("llm-serving")
    doc["platform"] = {"nvaie_release": "nvaie-5", "kubernetes": "openshift"}
    r = _size(doc, catalog)
    sw = r.software
    assert (sw.vgpu_branch, sw.driver_branch) == (17, "R550")
    by_name = {c.name: c for c in sw.components}
    assert "17.5" in by_name["NVIDIA Virtual GPU Manager (NVD-AIE host driver for vSphere)"].version
    assert by_name["NVIDIA vGPU for Compute guest driver"].version.startswith("vGPU 17.x (or 16.x")
    assert by_name["NVIDIA GPU Operator (certified operator from OperatorHub)"].version == "v24.9.2"
    assert by_name["NVIDIA Network Operator (OperatorHub)"].version == "v24.10.1"
    assert "Node Feature Discovery Operator (OperatorHub)" in by_name
    assert any("NVIDIA AI Enterprise 5" in d.text for d in r.decisions)


def test_default_release_runs_the_gpu_for_the_longest_support(sized, catalog):
    """starter's T4 is a Turing GPU: NVIDIA AI Enterprise 7 (R580, long-term support to June
    2028) lists Turing; 8 (R595, production branch to March 2027) lists it too but ends sooner;
    9 lists Ampere, Ada Lovelace, Hopper and Blackwell only. No branch lasts the 3-year period
    from 2 November 2026, so the one supported longest is chosen: 7."""
    assert sized["starter"].software.nvaie_release == "nvaie-7"
    assert not catalog.software["nvaie-9"].supports("Turing")


@pytest.mark.parametrize("platform,operator", [
    ("vks", "NVIDIA GPU Operator (NVIDIA AI Enterprise helm repository https://helm.ngc.nvidia.com/nvaie)"),
    ("upstream", "NVIDIA GPU Operator (helm repository https://helm.ngc.nvidia.com/nvidia)"),
    ("openshift", "NVIDIA GPU Operator (certified operator from OperatorHub)"),
])  # fmt: skip
def test_gpu_operator_for_each_kubernetes_platform(catalog, platform, operator):
    doc = design_dict("imagenet-resnet50")
    doc["platform"] = {"kubernetes": platform}
    r = _size(doc, catalog)
    names = _names(r)
    assert operator in names
    assert any(n.startswith("NVIDIA Network Operator") for n in names)  # RoCE v2 in the design
    assert r.software.kubernetes == platform
    assert any("GPU Operator" in d.text for d in r.decisions)


def test_no_kubernetes_no_operators(sized):
    assert not any("Operator" in n for n in _names(sized["imagenet-resnet50"]))


def test_mig_on_kubernetes_adds_the_mig_manager(catalog):
    doc = design_dict("imagenet-resnet50")
    doc["workloads"][0]["sharing_mode"] = "mig"
    doc["platform"] = {"kubernetes": "upstream"}
    assert "MIG Manager (part of the GPU Operator)" in _names(_size(doc, catalog))


def test_pvrdma_is_listed_without_gpudirect(sized):
    names = _names(sized["enterprise"])
    assert "PVRDMA virtual adapters on a vSphere Distributed Switch" in names
    assert not any(n.startswith("NCCL with GPUDirect") for n in names)


def test_unknown_release_names_the_field(catalog):
    doc = design_dict("starter")
    doc["platform"] = {"nvaie_release": "nvaie-99"}
    design = design_from_dict(doc)
    (problem,) = check_design(design, catalog)
    assert str(problem).startswith("platform.nvaie_release: unknown NVIDIA AI Enterprise release")
    with pytest.raises(DesignError, match=r"platform\.nvaie_release"):
        size(design, catalog)


# -------------------------------------------------------------------------- certification


def test_certified_server_is_a_decision(sized):
    r = sized["imagenet-resnet50"]  # PowerEdge R750xa
    cert = r.software.certification
    assert cert.status == "nvidia-certified" and "certified-systems" in cert.source
    assert any("is an NVIDIA-Certified System" in d.text for d in r.decisions)


def test_unknown_certification_warns(sized):
    r = sized["starter"]  # PowerEdge R740xd: certification unknown in the catalog
    assert r.software.certification.status == "unknown"
    assert "server-certification-unknown" in _codes(r)


def _with_server(catalog, server_id, **update):
    server = catalog.servers[server_id].model_copy(update=update)
    return catalog.model_copy(update={"servers": {**catalog.servers, server_id: server}})


def test_uncertified_server_warns(catalog):
    cat = _with_server(catalog, "dell-r750xa", certification=Certification.NONE)
    r = size(design_from_dict(design_dict("imagenet-resnet50")), cat)
    assert _codes(r)["server-not-certified"].severity == "warning"


def test_qualified_server_is_an_info(catalog):
    cat = _with_server(catalog, "dell-r750xa", certification=Certification.QUALIFIED)
    r = size(design_from_dict(design_dict("imagenet-resnet50")), cat)
    assert _codes(r)["server-qualified-not-certified"].severity == "info"


def test_gpu_without_nvaie_support_warns(catalog):
    gpu = catalog.gpus["a100-pcie-80gb"].model_copy(update={"nvaie_supported": False})
    cat = catalog.model_copy(update={"gpus": {**catalog.gpus, gpu.id: gpu}})
    r = size(design_from_dict(design_dict("imagenet-resnet50")), cat)
    assert "gpu-not-nvaie-supported" in _codes(r)
    assert r.software.certification.gpu_nvaie_supported is False


def test_every_checklist_item_and_component_has_a_source(sized):
    for name, r in sized.items():
        for item in r.software.checklist:
            assert len(item.source) > 20 and item.modes, (name, item.setting)
        for comp in r.software.components:
            assert len(comp.source) > 20, (name, comp.name)


def test_user_catalog_can_add_a_release(tmp_path):
    """The software catalog goes through the same loader as the others: a user file adds or
    replaces entries, and a bad one is named."""
    from wizard.app.catalog_loader import load_catalog
    from wizard.base.errors import CatalogError

    (tmp_path / "software.toml").write_text(
        '[[software]]\nid = "nvaie-site"\nname = "Site-pinned release"\nrelease = "5.2"\n'
        'vgpu_branch = 17\ndriver_branch = "R550"\nsource = "Site standard build sheet"\n'
    )
    cat = load_catalog(tmp_path)
    assert cat.software["nvaie-site"].driver_branch == "R550"
    assert "nvaie-5" in cat.software
    (tmp_path / "software.toml").write_text(
        '[[software]]\nid = "bad"\nname = "x"\nrelease = "1"\nvgpu_branch = 17\n'
        'driver_branch = "550"\nsource = "somewhere"\n'
    )
    with pytest.raises(CatalogError, match="driver_branch"):
        load_catalog(tmp_path)


def test_a_power_of_two_is_its_own_rounding():
    """MMIO sizes round up to a power of two *at least* the need: 64 stays 64, 65 takes 128, 1
    stays 1 (a need that is already a power of two is not doubled)."""
    from wizard.engine.platform.software import next_power_of_two_at_least

    assert [next_power_of_two_at_least(v) for v in (1, 2, 64, 65, 0.5)] == [1, 2, 64, 128, 1]
