"""The vSphere and NVIDIA AI Enterprise rules of the rule book, each with the vendor's words, a
case it applies to and the nearest case it does not (the one change isolated)."""

from __future__ import annotations

import pytest

from tests.engine.conftest import calc, design_dict
from wizard.app.io import design_from_dict
from wizard.engine.platform.compat import sharing_mode_reason
from wizard.engine.size import size
from wizard.model.design import SharingMode


def _size(doc, catalog):
    return size(design_from_dict(doc), catalog)


def _errors(r) -> dict[str, tuple[str, str]]:
    return {w.code: (w.field, w.message) for w in r.warnings if w.severity == "error"}


def _relaxed_lora() -> dict:
    """hgx-h200-llm with its LoRA run's target at 36 h, so the design fits one host."""
    doc = design_dict("hgx-h200-llm")
    doc["workloads"][0]["training"]["target_hours"] = 36
    return doc


def _b200(server: str = "supermicro-sys-a22ga-nbrt", gpu: str = "b200-sxm") -> dict:
    doc = design_dict("hgx-h200-llm")
    doc["hardware"].update(gpu=gpu, server=server, gpus_per_host=8)
    return doc


# ------------------------------------------------------------------ DGX


def test_a_dgx_system_is_no_vgpu_host(catalog):
    """NVIDIA AI Enterprise 2.3 Release Notes: 'Note: NVIDIA vGPU software is not supported on
    NVIDIA DGX servers.' The DGX B200 with vGPUs is an error at the server; the same GPUs on a
    Supermicro HGX B200 server are not refused by this rule."""
    errors = _errors(_size(_b200("nvidia-dgx-b200"), catalog))
    field, message = errors["dgx-not-vgpu-host"]
    assert field == "hardware.server"
    assert "NVIDIA vGPU software is not supported on NVIDIA DGX servers" in message
    assert "dgx-not-vgpu-host" not in _errors(_size(_b200(), catalog))
    b200, dgx = catalog.gpus["b200-sxm"], catalog.servers["nvidia-dgx-b200"]
    assert "DGX" in (sharing_mode_reason(SharingMode.VGPU, b200, dgx) or "")
    assert (
        sharing_mode_reason(SharingMode.VGPU, b200, catalog.servers["supermicro-sys-a22ga-nbrt"])
        is None
    )


# ------------------------------------------------------------------ HGX B200/B300


@pytest.mark.parametrize(
    ("server", "gpu"), [("supermicro-sys-a22ga-nbrt", "b200-sxm"), ("asus-xa-nb3i-e12", "b300-sxm")]
)
def test_hgx_b200_under_vsphere_plans_8_2_with_the_fabric_manager_component(catalog, server, gpu):
    """NVIDIA AI Enterprise 9.0, 'NVIDIA NVSwitch': 'The Fabric Manager CRX component is not
    included in NVIDIA AI Enterprise Infra 9.0. For NVIDIA AI Enterprise deployments on B200 and
    B300 HGX with VMware vSphere, use NVIDIA AI Enterprise Infra 8.2.' The default release is
    8.2 although its production branch ends in March 2027 (a Note says so); the Fabric Manager
    CRX is in the stack and in the host steps; the LoRA run is planned as one VM of the whole board
    (8), never a 2-vGPU VM: on the B300 its 2 GPUs (FSDP over 2 fits the 269 GB) are rounded up
    to the board and the plan says so; on the B200 it needs FSDP over all 8 (180 GB each) and
    nothing is rounded."""
    r = _size(_b200(server, gpu), catalog)
    assert r.software.release_name == "NVIDIA AI Enterprise 8"
    assert catalog.software[r.software.nvaie_release].release == "8.2"
    assert not _errors(r)
    names = [c.name for c in r.software.components]
    assert "NVIDIA Fabric Manager CRX (Container Runtime for ESXi)" in names
    steps = [h.step for h in r.software.vsphere_steps.hosts]
    assert any("Fabric Manager component for ESXi" in s for s in steps)
    codes = {w.code for w in r.warnings}
    assert "release-support-window" in codes  # a risk, not upgrade advice (next test)
    lora = r.workloads[0]
    assert lora.gpus_total == 8
    needed = lora.training.gpus_for_target_time
    assert needed == {"b300-sxm": 2, "b200-sxm": 8}[gpu]
    assert ("nvswitch-partition-rounded" in codes) == (needed != 8)
    vms = [v for v in r.software.vsphere_steps.vms if v.workload == lora.name]
    assert [len(v.gpu_devices) for v in vms] == [8]


@pytest.mark.parametrize("release", ["nvaie-9", "nvaie-7"])
def test_a_release_without_the_component_is_refused_on_hgx_b200(catalog, release):
    doc = _b200()
    doc.setdefault("platform", {})["nvaie_release"] = release
    field, message = _errors(_size(doc, catalog))["hgx-blackwell-release"]
    assert field == "platform.nvaie_release"
    assert "Fabric Manager CRX" in message and "use NVIDIA AI Enterprise Infra 8.2" in message
    # negative: the same release on the HGX H200 board is not refused by this rule
    h200 = design_dict("hgx-h200-llm")
    h200.setdefault("platform", {})["nvaie_release"] = release
    assert "hgx-blackwell-release" not in _errors(_size(h200, catalog))


def test_the_fabric_manager_component_rule_is_for_vgpu_on_hgx_b200(catalog):
    """The Fabric Manager component for ESXi serves vGPU VMs (NVIDIA AI Enterprise 9.0, 'NVIDIA
    NVSwitch': 'For NVIDIA AI Enterprise deployments on B200 and B300 HGX with VMware vSphere,
    use NVIDIA AI Enterprise Infra 8.2'). Negative case: passthrough groups on the HGX B200 on
    release 9 are refused for passthrough on an NVSwitch board, not for the release's missing
    component, which no vGPU VM would use."""
    doc = _b200()
    doc.setdefault("platform", {})["nvaie_release"] = "nvaie-9"
    for g in doc["workloads"]:
        g["sharing_mode"] = "passthrough"
    errors = _errors(_size(doc, catalog))
    assert "hgx-passthrough-unsupported" in errors
    assert "hgx-blackwell-release" not in errors


@pytest.mark.parametrize(("gpus", "refused"), [(1, False), (2, True), (4, True), (8, False)])
def test_a_b200_vm_holds_one_gpu_or_the_whole_board(catalog, gpus, refused):
    """NVIDIA AI Enterprise 8.1, 'Multi-vGPU': 'NVIDIA HGX B200 180 GB | Generic Linux with KVM
    hypervisors, Red Hat Enterprise Linux KVM, and Ubuntu' (no vSphere). A 2- or 4-vGPU VM is an
    error; the same VM sizes on the HGX H200 board are Fabric Manager partitions and pass."""
    group = {"name": "Jobs", "kind": "training", "gpus_per_member": gpus, "sharing_mode": "vgpu"}
    doc = _b200()
    doc["workloads"] = [group]
    assert ("hgx-blackwell-multi-vgpu" in _errors(_size(doc, catalog))) is refused
    h200 = design_dict("hgx-h200-llm")
    h200["workloads"] = [group]
    assert "hgx-blackwell-multi-vgpu" not in _errors(_size(h200, catalog))


# ------------------------------------------------------------------ limits


def test_at_most_eight_vgpus_in_a_vm(catalog):
    """VMware, 'vSphere 8 Expands Machine Learning Support': 'With vSphere 8, you have the
    capability to add up to 8 virtual GPUs (vGPUs) to one VM. You can have even more than that
    with Passthrough (DirectPath I/O) mode'. 10 A16 vGPUs in a VM are an error; 8 are not, nor
    are 10 passthrough GPUs."""
    doc = design_dict("rtx-pro-vsphere")
    doc["hardware"].update(gpu="a16", server="lenovo-sr670-v2", gpus_per_host=16)

    def group(n, mode):
        return [{"name": "Jobs", "kind": "training", "gpus_per_member": n, "sharing_mode": mode}]

    doc["workloads"] = group(10, "vgpu")
    field, message = _errors(_size(doc, catalog))["vgpus-per-vm-over-limit"]
    assert field == "workloads[0].sharing_mode" and "up to 8 virtual GPUs" in message
    doc["workloads"] = group(8, "vgpu")
    assert "vgpus-per-vm-over-limit" not in _errors(_size(doc, catalog))
    doc["workloads"] = group(10, "passthrough")
    assert "vgpus-per-vm-over-limit" not in _errors(_size(doc, catalog))


def test_nvswitch_multi_vgpu_needs_esxi_8_update_2_on_hopper(catalog):
    """NVIDIA AI Enterprise 8.0, 'NVIDIA NVSwitch', 'VMware vSphere Releases that Support NVIDIA
    NVSwitch': 'NVIDIA Hopper | VMware vSphere Hypervisor (ESXi) 8 update 2'. llm-serving's
    4-vGPU VMs on HGX H100 on vSphere 8.0 (or Update 1): an error at the vSphere release; on
    8.0 Update 2 none; one-GPU VMs on 8.0 none."""
    doc = design_dict("llm-serving")
    doc.setdefault("platform", {})["vsphere"] = "8.0"
    field, message = _errors(_size(doc, catalog))["nvswitch-vgpu-esxi-minimum"]
    assert field == "platform.vsphere" and "(ESXi) 8 update 2" in message
    doc["platform"]["vsphere"] = "8.0u2"
    assert "nvswitch-vgpu-esxi-minimum" not in _errors(_size(doc, catalog))
    doc["platform"]["vsphere"] = "8.0"
    doc["workloads"] = [{"name": "Ones", "kind": "training", "gpus_per_member": 1,
                         "sharing_mode": "vgpu"}]  # fmt: skip
    assert "nvswitch-vgpu-esxi-minimum" not in _errors(_size(doc, catalog))


@pytest.mark.parametrize(("gpus", "refused"), [(1, False), (2, True)])
def test_the_nvswitch_esxi_minimum_starts_at_two_vgpus_a_vm(catalog, gpus, refused):
    """The release rule is for VMs whose vGPUs talk over the NVSwitch: a VM of two vGPUs on the
    HGX H100 board under vSphere 8.0 is already one (an error), a VM of one vGPU is not."""
    doc = design_dict("llm-serving")
    doc.setdefault("platform", {})["vsphere"] = "8.0"
    doc["workloads"] = [{"name": "Jobs", "kind": "training", "gpus_per_member": gpus,
                         "sharing_mode": "vgpu"}]  # fmt: skip
    r = _size(doc, catalog)
    assert r.workloads[0].gpus_per_replica == gpus
    assert ("nvswitch-vgpu-esxi-minimum" in _errors(r)) is refused


@pytest.mark.parametrize("gpus", [3, 4])
def test_the_nvswitch_rules_leave_a_board_without_nvswitch_alone(catalog, gpus):
    """Negative case of the two NVSwitch rules above (the ESXi release and the Fabric Manager
    partitions): H100 PCIe boards in a Dell R760xa have no NVSwitch, so VMs of 3 or 4 vGPUs
    there need neither vSphere 8.0 Update 2 nor a partition size; on the HGX H100 board of
    llm-serving the same VMs on 8.0 are an error (above)."""
    doc = design_dict("llm-serving")
    doc.setdefault("platform", {})["vsphere"] = "8.0"
    doc["hardware"].update(gpu="h100-pcie-80gb", server="dell-r760xa", gpus_per_host=4)
    doc["workloads"] = [{"name": "Jobs", "kind": "training", "gpus_per_member": gpus,
                         "sharing_mode": "vgpu"}]  # fmt: skip
    r = _size(doc, catalog)
    codes = {w.code for w in r.warnings}
    assert r.workloads[0].gpus_per_replica == gpus
    assert "nvswitch-vgpu-esxi-minimum" not in codes and "hgx-vm-size" not in codes


def test_gpudirect_rdma_under_vgpu_on_release_6_needs_a_nic_on_its_list(catalog):
    """NVIDIA AI Enterprise 6, GPUDirect: 'GPUDirect technology is supported on the following
    network interface cards: NVIDIA ConnectX- 7 SmartNIC; Mellanox Connect-X 6 SmartNIC;
    Mellanox Connect-X 5 Ethernet adapter card'. On release 6 a BlueField-3 DPU with vGPU groups
    is an error; a ConnectX-7 on the same fabric is not, nor is the BlueField-3 with
    passthrough."""
    doc = design_dict("llm-serving")
    doc.setdefault("platform", {})["nvaie_release"] = "nvaie-6"
    doc["hardware"].update(nic="bf3-400g-2p", fabric="400gbe", rdma="roce-v2",
                           gpudirect_rdma=True)  # fmt: skip
    field, message = _errors(_size(doc, catalog))["gpudirect-rdma-vgpu-nic"]
    assert field == "hardware.gpudirect_rdma" and "ConnectX- 7 SmartNIC" in message
    doc["hardware"].update(nic="cx7-200g-2p", fabric="200gbe")
    assert "gpudirect-rdma-vgpu-nic" not in _errors(_size(doc, catalog))
    doc = design_dict("imagenet-resnet50")  # passthrough
    doc.setdefault("platform", {})["nvaie_release"] = "nvaie-6"
    doc["hardware"].update(nic="bf3-400g-2p", fabric="400gbe", rdma="roce-v2",
                           gpudirect_rdma=True)  # fmt: skip
    assert "gpudirect-rdma-vgpu-nic" not in _errors(_size(doc, catalog))


GPUDIRECT_8_9 = (
    "The third-party devices can be network interfaces such as NVIDIA ConnectX SmartNICs or "
    "BlueField DPUs"
)


@pytest.mark.parametrize("release", ["nvaie-8", "nvaie-9"])
def test_gpudirect_rdma_under_vgpu_on_releases_8_and_9_follows_their_page(catalog, release):
    """NVIDIA AI Enterprise 8.0 and 9.0, 'GPUDirect RDMA and GPUDirect Storage': 'GPUDirect RDMA
    enables network devices to access the vGPU frame buffer directly, bypassing CPU host memory.
    The third-party devices can be network interfaces such as NVIDIA ConnectX SmartNICs or
    BlueField DPUs'. Under these releases the BlueField-3 DPU that release 6 refused is named
    (no error); a Broadcom NetXtreme-E that a user catalog marks as GPUDirect-capable is not, and
    the error quotes the page."""
    doc = design_dict("llm-serving")
    doc.setdefault("platform", {})["nvaie_release"] = release
    doc["hardware"].update(nic="bf3-400g-2p", fabric="400gbe", rdma="roce-v2",
                           gpudirect_rdma=True)  # fmt: skip
    r = _size(doc, catalog)
    assert catalog.software[r.software.nvaie_release].id == release
    assert "gpudirect-rdma-vgpu-nic" not in _errors(r)
    broadcom = catalog.nics["bcm-p2100g"].model_copy(update={"gpudirect_rdma": True})
    user = catalog.model_copy(update={"nics": {**catalog.nics, "bcm-p2100g": broadcom}})
    doc["hardware"].update(nic="bcm-p2100g", fabric="100gbe")
    field, message = _errors(_size(doc, user))["gpudirect-rdma-vgpu-nic"]
    assert field == "hardware.gpudirect_rdma" and GPUDIRECT_8_9 in message
    assert "NetXtreme-E P2100G" in message


def test_hgx_b300_on_800g_with_gpudirect_rdma_validates_on_8_2(catalog):
    """The HGX B300's compute-fabric NIC is its board's ConnectX-8 SuperNIC. Under vSphere the
    board runs vGPU on NVIDIA AI Enterprise 8.2 (9.0: 'For NVIDIA AI Enterprise deployments on
    B200 and B300 HGX with VMware vSphere, use NVIDIA AI Enterprise Infra 8.2'), whose GPUDirect
    page names 'ConnectX SmartNICs': the design validates with GPUDirect RDMA on over XDR
    InfiniBand. The nearest case that is refused: the same design pinned to release 6, whose
    list ends at ConnectX-7."""
    doc = _b200("asus-xa-nb3i-e12", "b300-sxm")
    doc["hardware"].update(nic="cx8-800g-1p", fabric="ib-xdr", rdma="infiniband",
                           gpudirect_rdma=True)  # fmt: skip
    r = _size(doc, catalog)
    assert catalog.software[r.software.nvaie_release].release == "8.2"
    assert "gpudirect-rdma-vgpu-nic" not in _errors(r)
    assert not [c for c in _errors(r) if "gpudirect" in c]
    doc.setdefault("platform", {})["nvaie_release"] = "nvaie-6"
    message = _errors(_size(doc, catalog))["gpudirect-rdma-vgpu-nic"][1]
    assert "ConnectX-8" in message and "ConnectX- 7 SmartNIC" in message


# ------------------------------------------------------------------ vMotion


def test_vms_using_nvlink_multicast_cannot_live_migrate(catalog):
    """NVIDIA AI Enterprise 8, 'Unified Virtual Memory': 'Enabling UVM disables vGPU migration
    for the VM'; 'NVLink Multicast': 'NVLink multicast support requires that unified memory is
    enabled.' llm-serving's 4-vGPU VMs on HGX H100 must live-migrate: a Caution says unified
    memory stays off (no NVLink multicast), and the checklist carries the setting; one-vGPU
    VMs get neither."""
    r = _size(design_dict("llm-serving"), catalog)
    found = {w.code: w.message for w in r.warnings}
    assert "Enabling UVM disables vGPU migration" in found["vmotion-unified-memory"]
    assert any(i.setting.startswith("Unified memory") for i in r.software.checklist)
    doc = design_dict("llm-serving")
    doc["workloads"] = [{"name": "Ones", "kind": "training", "gpus_per_member": 1,
                         "sharing_mode": "vgpu",
                         "constraints": {"live_migration_required": True}}]  # fmt: skip
    r = _size(doc, catalog)
    assert "vmotion-unified-memory" not in {w.code for w in r.warnings}
    assert not any(i.setting.startswith("Unified memory") for i in r.software.checklist)


@pytest.mark.parametrize(("gpus", "multicast"), [(1, False), (2, True)])
def test_nvlink_multicast_is_a_choice_from_two_vgpus_a_vm(catalog, gpus, multicast):
    """NVLink multicast moves data between the GPUs of one VM over the NVSwitch, so the unified
    memory setting is on the checklist from a VM of two vGPUs on the HGX H100 board; a VM of one
    vGPU has no peer to multicast to."""
    doc = design_dict("llm-serving")
    doc["workloads"] = [{"name": "Jobs", "kind": "training", "gpus_per_member": gpus,
                         "sharing_mode": "vgpu"}]  # fmt: skip
    r = _size(doc, catalog)
    assert r.workloads[0].gpus_per_replica == gpus
    listed = any(i.setting.startswith("Unified memory") for i in r.software.checklist)
    assert listed is multicast


# ------------------------------------------------------------------ the cluster's minimum


def test_a_vcf_gpu_workload_domain_has_three_hosts_with_vsan(catalog):
    """VMware Cloud Foundation 5.0: 'VI workload domain, you must prepare a minimum of three
    ESXi hosts' ('only two hosts are required' with NFS, VMFS on FC or vVols and vLCM images).
    hgx-h200-llm with its LoRA run given 36 h (4 GPUs beside the chat's) needs 1 host for
    capacity + 1 for N+1 = 2; VCF with vSAN makes it 3 (1 + 1 + 1 platform host); with other
    principal storage it stays 2; licensed as vSphere Foundation without Private AI Foundation,
    no minimum applies."""
    r = _size(_relaxed_lora(), catalog)
    c = r.cluster
    assert (c.hosts_for_capacity, c.hosts_for_ha, c.hosts_for_platform, c.hosts_total) == (
        1, 1, 1, 3,
    )  # fmt: skip
    assert any("VMware Cloud Foundation workload domain" in d.text for d in r.decisions)
    doc = _relaxed_lora()
    doc.setdefault("platform", {})["vsan_principal_storage"] = False
    assert _size(doc, catalog).cluster.hosts_total == 2
    doc = _relaxed_lora()
    doc["platform"]["private_ai_foundation"] = False
    doc["licensing"] = {**doc.get("licensing", {}), "platform": "vmware-vvf"}
    assert _size(doc, catalog).cluster.hosts_total == 2


def test_the_vcf_minimum_on_vcf_9_is_marked_to_confirm(catalog):
    """The workload domain minimum is quoted from VCF 5.0; VCF 9's own documents were not found
    to state it, so on VCF 9 (hgx-h200-llm runs 9.0) the reason the plan logs says the figure is
    applied from VCF 5 and is to be confirmed; on vSphere 8.0 Update 3 it is not marked."""
    r = _size(_relaxed_lora(), catalog)
    why = calc(r, "cluster.hosts_for_platform_minimum").source
    assert "VMware Cloud Foundation 5.0" in why and "confirm it with Broadcom" in why
    doc = _relaxed_lora()
    doc["platform"]["vsphere"] = "8.0u3"
    why = calc(_size(doc, catalog), "cluster.hosts_for_platform_minimum").source
    assert "VMware Cloud Foundation 5.0" in why and "confirm it with Broadcom" not in why


# ------------------------------------------------------------------ checklist


def test_the_vgpu_mode_of_each_gpu_is_set_from_8_0_update_3(catalog):
    """vSphere API, HostGraphicsConfigVgpuMode: 'sameSize ... mixedSize ... Since: vSphere API
    Release 8.0.3.0'. rtx-pro-vsphere (vSphere 9.0) sets Same Size; with mixed sizes, Mixed
    Size; on 8.0 Update 2 there is no such setting."""

    def setting(doc):
        items = {i.setting: i.value for i in _size(doc, catalog).software.checklist}
        return next((v for k, v in items.items() if k.startswith("vGPU mode")), None)

    doc = design_dict("rtx-pro-vsphere")
    assert setting(doc).startswith("Same Size")
    doc["hardware"]["vgpu_mixed_sizes"] = True
    assert setting(doc).startswith("Mixed Size")
    doc["hardware"]["vgpu_mixed_sizes"] = False
    doc.setdefault("platform", {})["vsphere"] = "8.0u2"
    assert setting(doc) is None


def test_enabling_mig_reboots_an_ampere_host_only(catalog):
    """NVIDIA AI Enterprise 6, 'Configuring a GPU for MIG-Backed vGPUs': 'VMware vSphere ESXi with
    GPUs based only on the NVIDIA Ampere architecture: Reboot the hypervisor host. If you are
    using ... GPUs based on the NVIDIA Hopper GPU architecture or a later architecture, omit this
    step.' mig-shared on H100: no reboot; the same design on A100 80GB PCIe: reboot."""

    def mig_step(doc):
        r = _size(doc, catalog)
        (step,) = [h for h in r.software.vsphere_steps.hosts if h.step.startswith("MIG mode")]
        return step

    hopper = mig_step(design_dict("mig-shared"))
    assert not hopper.reboot and "no host reboot on Hopper" in hopper.value
    doc = design_dict("mig-shared")
    doc["hardware"]["gpu"] = "a100-pcie-80gb"
    ampere = mig_step(doc)
    assert ampere.reboot and "reboot the host (Ampere GPUs)" in ampere.value


@pytest.mark.parametrize(
    ("server", "gpu"), [("supermicro-sys-a22ga-nbrt", "b200-sxm"), ("asus-xa-nb3i-e12", "b300-sxm")]
)
def test_hgx_blackwell_support_window_is_a_risk_with_its_decision(catalog, server, gpu):
    """NVIDIA Data Center driver documentation, 'Supported Drivers and CUDA Toolkit Versions':
    R595 'Production Branch', end of life 'March 2027'; NVIDIA AI Enterprise 9.0, 'NVIDIA
    NVSwitch': 'For NVIDIA AI Enterprise deployments on B200 and B300 HGX with VMware vSphere,
    use NVIDIA AI Enterprise Infra 8.2.' A proposal dated 23 November 2026 with the default
    3-year service period (to November 2029) has no later release to move to: by hand, November 2026 to March
    2027 is (2027 - 2026) * 12 + 3 - 11 = 4 months. The engine says so as a warning (a risk in the
    proposal, with a remedy) and records the decision that accepts it, not an info line that
    advises an upgrade no release offers."""
    r = _size(_b200(server, gpu), catalog)
    found = {w.code: w for w in r.warnings}
    window = found["release-support-window"]
    assert window.severity == "warning"
    assert "supported to March 2027" in window.message
    assert "about 4 months after the proposal's date" in window.message
    assert "3-year service period (November 2029)" in window.message
    assert "R595 'Production Branch', end of life 'March 2027'" in window.message
    assert "use NVIDIA AI Enterprise Infra 8.2" in window.message
    assert "release-support-ends-in-service" not in found
    decision = [d for d in r.decisions if "supported only to March 2027" in d.text]
    assert len(decision) == 1 and "unsupported branch" in decision[0].implication


def test_a_release_ending_in_service_with_a_successor_is_upgrade_advice_not_a_risk(catalog):
    """Negative case: the HGX H200 board pinned to NVIDIA AI Enterprise 8 (R595, to March 2027)
    has a later release that runs it (9, the R620 long-term branch to September 2029), so the
    engine gives the upgrade note and no support-window risk."""
    doc = design_dict("hgx-h200-llm")
    doc.setdefault("platform", {})["nvaie_release"] = "nvaie-8"
    codes = {w.code for w in _size(doc, catalog).warnings}
    assert "release-support-ends-in-service" in codes
    assert "release-support-window" not in codes


def test_the_newest_release_ending_in_service_is_upgrade_advice_not_a_risk(catalog):
    """Negative case of the support-window risk: the newest release in the catalog has no
    successor yet because none is out, not because none runs the design. The HGX H200 board on
    NVIDIA AI Enterprise 9 (R620, to September 2029) over a 5-year service period (November 2026
    to November 2031) ends in service, so the engine gives the upgrade note, not the risk."""
    doc = design_dict("hgx-h200-llm")
    doc.setdefault("platform", {}).update(nvaie_release="nvaie-9", service_years=5)
    assert doc["project"]["date"] == "2026-11-23"
    codes = {w.code for w in _size(doc, catalog).warnings}
    assert "release-support-ends-in-service" in codes
    assert "release-support-window" not in codes


# ------------------------------------------------------------------ fabric NICs into the VMs


def test_the_billed_gpu_fabric_reaches_the_vms(sized):
    """hgx-h200-llm: 8 ConnectX-7 NDR adapters per host for 8 GPUs, each under its GPU's PCIe
    switch (NVIDIA AI Enterprise 8.0, 'Device Groups': 'GPU-NIC pairs under the same PCIe switch
    or that meet GPUDirect RDMA criteria are grouped'). By hand: ceil(8 GPUs x 8 / 8) = 8
    adapters for the whole-board LoRA VM, ceil(1 x 8 / 8) = 1 per chat VM; a host of eight
    one-GPU VMs needs 8 x 1 = 8 <= 8 adapters, so whole adapters pass through. The host step
    enables passthrough with the fabric's label and cites the device-group page."""
    steps = sized["hgx-h200-llm"].software.vsphere_steps
    assert steps.fabric_nic == "ConnectX-7"
    got = {(len(v.gpu_devices), v.fabric_nics, v.fabric_backing) for v in steps.vms}
    assert got == {(8, 8, "passthrough"), (1, 1, "passthrough")}
    (fabric,) = [h for h in steps.hosts if h.action == "fabric-nics"]
    assert "Passthrough on the 8 × ConnectX-7" in fabric.value
    assert "GPU-NIC pairs under the same PCIe switch" in fabric.source


def test_a_one_gpu_member_gets_a_whole_adapter_too(catalog):
    """hgx-h200-llm with the chat service at 32 concurrent sequences: one replica of one GPU
    serves it, a VM of one GPU (not a share of one). As for the chat VMs above: ceil(1 x 8 / 8)
    = 1 adapter, and eight such VMs on a host need 8 <= 8 adapters, so its adapter passes
    through whole rather than as an SR-IOV virtual function."""
    doc = design_dict("hgx-h200-llm")
    doc["workloads"][1]["inference"]["concurrent_sequences"] = 32
    r = _size(doc, catalog)
    chat = r.workloads[1]
    assert (chat.gpus_total, chat.gpus_per_replica, chat.replicas_per_member) == (1, 1, 1)
    steps = r.software.vsphere_steps
    (vm,) = [v for v in steps.vms if v.workload == chat.name]
    assert (vm.vms, len(vm.gpu_devices), vm.fabric_nics, vm.fabric_backing) == (
        1, 1, 1, "passthrough"
    )  # fmt: skip


def test_time_sliced_vgpu_vms_smaller_than_a_gpu_share_adapters_by_sr_iov(catalog):
    """mig-shared's groups on time-sliced vGPU with 4 adapters for the 4 GPUs of each host: the
    40 data scientists' H100-10C vGPUs go 8 to a GPU (NVIDIA AI Enterprise, H100 PCIe 80GB
    C-series: H100-10C, 8 per GPU), so a host holds far more VMs than its 4 adapters and no VM
    can have one whole: each gets an SR-IOV virtual function. Negative case: a one-GPU VM with
    the whole frame buffer gets a whole adapter (the test above)."""
    doc = design_dict("mig-shared")
    for g in doc["workloads"]:
        g.update(sharing_mode="vgpu", constraints={})
    doc["hardware"]["nics_per_host"] = 4
    r = _size(doc, catalog)
    layouts = [g.layout for h in r.packing.hosts for g in h.gpus]
    assert "H100-10C x8" in layouts and doc["hardware"]["gpus_per_host"] == 4
    steps = r.software.vsphere_steps
    assert {(v.fabric_nics, v.fabric_backing) for v in steps.vms} == {(1, "sr-iov")}
    (fabric,) = [h for h in steps.hosts if h.action == "fabric-nics"]
    assert "SR-IOV" in fabric.step


def test_more_vms_than_adapters_share_them_by_sr_iov(sized):
    """llm-serving: 2 dual-port ConnectX-7 per host for 8 GPUs, VMs of 4 GPUs: ceil(4 x 2 / 8) = 1
    adapter each and 2 VMs x 1 = 2 <= 2, so passthrough; mig-shared's MIG-backed VMs share GPUs,
    so each gets one SR-IOV virtual function and the host step enables SR-IOV (a restart)."""
    serving = sized["llm-serving"].software.vsphere_steps
    assert {(len(v.gpu_devices), v.fabric_nics, v.fabric_backing) for v in serving.vms} == {
        (4, 1, "passthrough")
    }
    mig = sized["mig-shared"].software.vsphere_steps
    assert {(v.fabric_nics, v.fabric_backing) for v in mig.vms} == {(1, "sr-iov")}
    (fabric,) = [h for h in mig.hosts if h.action == "fabric-nics"]
    assert fabric.reboot and "SR-IOV" in fabric.step and "127 virtual instances" in fabric.source


def test_sr_iov_functions_cover_the_busiest_hosts_vms(sized):
    """mig-shared: one adapter per host, and every MIG-backed VM gets an SR-IOV virtual function
    of it. The busiest host holds GPUs with 3 + 7 + 7 + 7 = 24 instances (the 3g.40gb +
    1g.20gb + 1g.10gb GPU and three of 1g.10gb x7), so ceil(24 / 1) = 24 functions per adapter.
    Negative case: where whole adapters pass through (hgx-h200-llm, llm-serving) no function
    is enabled."""
    r = sized["mig-shared"]
    per_host = [sum(len(g.slots) for g in h.gpus) for h in r.packing.hosts]
    assert max(per_host) == 3 + 7 + 7 + 7
    steps = r.software.vsphere_steps
    assert (steps.fabric_adapters, steps.fabric_vfs) == (1, 24)
    for name in ("hgx-h200-llm", "llm-serving"):
        steps = sized[name].software.vsphere_steps
        assert {v.fabric_backing for v in steps.vms} == {"passthrough"}
        assert steps.fabric_adapters > 0 and steps.fabric_vfs == 0


@pytest.mark.parametrize("name", ["bert-large-25gbe", "enterprise", "starter"])
def test_no_fabric_nics_without_rdma_to_the_adapter(sized, name):
    """Negative: no RDMA (bert-large-25gbe, starter) or paravirtual RDMA through a virtual switch
    (enterprise): no VM is given an adapter and no host step readies one."""
    steps = sized[name].software.vsphere_steps
    assert steps.fabric_nic == "" and all(v.fabric_nics == 0 for v in steps.vms)
    assert not [h for h in steps.hosts if h.action == "fabric-nics"]


def test_the_host_driver_comes_from_the_cluster_image_not_per_host(sized):
    """VMware vSphere 8.0 Lifecycle Manager: 'A compliant host becomes non-compliant when you ...
    manually add or remove components on the host.' The driver step (and the Fabric Manager
    step on HGX Blackwell) adds components to the cluster's image and remediates; no step
    installs a VIB on one host with esxcli. Negative: a passthrough-only design has no driver
    step (its GPUs use the guest's Data Center driver)."""
    for name in ("hgx-h200-llm", "mig-shared", "rtx-pro-vsphere"):
        steps = sized[name].software.vsphere_steps
        (driver,) = [h for h in steps.hosts if h.action == "driver"]
        assert "vSphere Lifecycle Manager image as a component" in driver.step
        assert "manually add or remove components on the host" in driver.source
        assert not [h for h in steps.hosts if "esxcli software vib" in h.step + h.value]
    passthrough = sized["bert-large-25gbe"].software.vsphere_steps
    assert not [h for h in passthrough.hosts if h.action == "driver"]


def test_a_pcie_gpu_whose_last_release_ends_in_service_is_a_risk_too(sized):
    """starter's T4 (Turing): NVIDIA AI Enterprise 9.0's GPU list (Ampere, Ada Lovelace, Hopper,
    Blackwell) has no Turing, and 8's production branch ends in March 2027, so the design runs 7
    (R580 'Long Term Support Branch', end of life 'June 2028'). By hand from the proposal's date,
    2 November 2026: (2028 - 2026) * 12 + 6 - 11 = 19 months; the 3-year service period ends in
    November 2029. The warning says 'GPU' (a PCIe card), and quotes the driver's end of life,
    not the catalog's notes."""
    window = {w.code: w for w in sized["starter"].warnings}["release-support-window"]
    assert "runs the NVIDIA T4 GPU of the Dell PowerEdge R740xd" in window.message
    assert "about 19 months after the proposal's date" in window.message
    assert "R580 'Long Term Support Branch', end of life 'June 2028'" in window.message
    assert "vsphere_nvswitch_architectures" not in window.message
