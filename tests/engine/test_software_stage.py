"""The software stack and platform readiness as a stage of their own: they read the groups, the
hardware answers and NIC, the platform's answers, what choosing the release reads and the
licences, so they are tested from facts built by hand, with no design and no sizing (a group's
sized result is the few figures the stage reads of it): one vGPU service on two H100 PCIe a
host. Each rule with its negative case."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

import pytest

from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict
from wizard.engine.basis.expr import evaluate
from wizard.engine.basis.record import Recorder
from wizard.engine.platform.releases import ReleaseFacts
from wizard.engine.platform.software import SoftwareFacts, plan_software
from wizard.model.design import (
    Hardware,
    KubernetesPlatform,
    PlatformChoice,
    SharingMode,
    VsphereRelease,
)
from wizard.model.workloads import WorkloadGroup

U3 = VsphereRelease.V8_0_U3


def _group(mode: SharingMode, name: str = "Chat") -> WorkloadGroup:
    return WorkloadGroup(
        name=name,
        kind="inference",
        gpus_per_member=1,
        sharing_mode=mode,
        constraints={"remote_ok": mode is SharingMode.REMOTE},
    )


def _sized(name: str = "Chat", gpus: int = 2) -> SimpleNamespace:
    """What the stage reads of a sized group."""
    return SimpleNamespace(
        name=name, gpus_total=gpus, gpus_per_replica=1, replicas_per_member=1,
        planned_slice=None, planned_compute_share=1.0, memory_gb=SimpleNamespace(total=40.0),
        sharing=SimpleNamespace(slot_profile="H100-40C", vgpu_type="H100-40C",
                                gpus_allocated=float(gpus)),
    )  # fmt: skip


def _plan(catalog, mode=SharingMode.VGPU, hardware=None, named=None, more=(), **platform):
    """``more``: further groups with their sized results, beside the one vGPU service."""
    hw = hardware or Hardware(gpu="h100-pcie-80gb", server="dell-r760xa", gpus_per_host=2)
    choice = PlatformChoice(**({"vsphere": U3} | platform))
    gpu, server = catalog.gpus[hw.gpu], catalog.servers[hw.server]
    facts = SoftwareFacts(
        groups=(_group(mode), *(g for g, _ in more)),
        hardware=hw,
        nic=None,
        platform=choice,
        release=ReleaseFacts(
            named=named,
            vsphere=choice.vsphere,
            virtual=mode is SharingMode.VGPU,
            date=dt.date(2026, 11, 2),
            service_years=3,
            gpu=gpu,
            server=server,
            releases=catalog.software,
        ),
        licences=catalog.licences,
    )
    sized = [_sized(), *(w for _, w in more)]
    rec = Recorder()
    out = plan_software(facts, gpu, server, sized, None, rec)  # type: ignore[arg-type]
    for c in rec.calculations:
        assert evaluate(c.formula, c.inputs) == pytest.approx(c.value), c.id
    return out, rec


def test_private_ai_foundation_is_a_component_only_when_licensed(catalog):
    paif = "VMware Private AI Foundation with NVIDIA (VCF add-on)"
    software, _ = _plan(catalog, private_ai_foundation=True)
    assert paif in {c.name for c in software.components}
    software, _ = _plan(catalog)
    assert paif not in {c.name for c in software.components}


def test_kubernetes_gets_the_gpu_operator_from_where_its_platform_takes_it(catalog):
    """vSphere Kubernetes takes the GPU Operator from NVIDIA AI Enterprise's helm repository,
    OpenShift from OperatorHub; without Kubernetes there is no such decision."""
    _, rec = _plan(catalog, kubernetes=KubernetesPlatform.VKS)
    assert any("AI Enterprise helm repository" in d.text for d in rec.decisions)
    _, rec = _plan(catalog, kubernetes=KubernetesPlatform.OPENSHIFT)
    assert any("from OperatorHub" in d.text for d in rec.decisions)
    _, rec = _plan(catalog)
    assert not any("GPU Operator" in d.text for d in rec.decisions)


@pytest.mark.parametrize(("mixed", "mode"), [(True, "mixedSize"), (False, "sameSize")])
def test_the_hosts_vgpu_mode_follows_the_mixed_sizes_answer(catalog, mixed, mode):
    """From vSphere 8.0 Update 3 a vGPU host's mode is set: Mixed Size when the hardware answer
    allows mixed vGPU sizes, else Same Size; before Update 3 there is no such setting."""
    hw = Hardware(gpu="h100-pcie-80gb", server="dell-r760xa", gpus_per_host=2,
                  vgpu_mixed_sizes=mixed)  # fmt: skip
    software, _ = _plan(catalog, hardware=hw)
    assert software.vsphere_steps.vgpu_mode == mode
    software, _ = _plan(catalog, hardware=hw, vsphere=VsphereRelease.V8_0_U2)
    assert software.vsphere_steps.vgpu_mode == ""


def test_the_release_is_the_one_the_facts_name(catalog):
    """A named release is the one planned, with its vGPU branch (NVIDIA AI Enterprise 7 runs
    vGPU 19, as the catalog states)."""
    software, _ = _plan(catalog, named="nvaie-7")
    assert (software.nvaie_release, software.vgpu_branch) == ("nvaie-7", 19)


def test_a_pool_server_vm_maps_the_hosts_gpus(catalog):
    """The H100 maps 80 GB, more than 16 GB, so each VM needs 64-bit MMIO (and the setting is
    said): a vGPU VM of one GPU its per-GPU size x, a power of two; a pool's server VM holds
    the host's 2 GPUs: 2 ** ceil(log2(2 x)) = 2 x. A T4 maps 16 GB: no setting is needed."""
    software, rec = _plan(catalog)
    (one,) = software.vm_mmio
    assert one.gpus_per_vm == 1
    assert "mmio-setting-needed" in {w.code for w in rec.warnings}
    pool, _ = _plan(catalog, mode=SharingMode.REMOTE)
    (server_vm,) = pool.vm_mmio
    assert server_vm.gpus_per_vm == 2
    assert server_vm.mmio_size_gb == 2 * one.mmio_size_gb
    small = Hardware(gpu="t4", server="dell-r760xa", gpus_per_host=2)  # 16 GB
    software, rec = _plan(catalog, hardware=small)
    assert software.vm_mmio == [] and "mmio-setting-needed" not in {w.code for w in rec.warnings}


def test_the_components_cite_the_licences_of_the_facts(catalog):
    """Private AI Foundation's component cites its licence's own source, read from the facts'
    licences."""
    software, _ = _plan(catalog, private_ai_foundation=True)
    (paif,) = [c for c in software.components if c.name.startswith("VMware Private AI")]
    assert paif.source == catalog.licences["vmware-paif"].source


def test_the_facts_of_a_design_are_its_own(catalog):
    """The facts read from the LLM serving example: its groups, hardware, platform and the
    NIC it names, the catalog's licences, and the release facts of the same design."""
    design = design_from_dict(design_dict("llm-serving"))
    facts = SoftwareFacts.of(design, catalog)
    assert facts.groups == tuple(design.workloads)
    assert (facts.hardware, facts.platform) == (design.hardware, design.platform)
    assert facts.nic == (catalog.nics[design.hardware.nic] if design.hardware.nic else None)
    assert facts.licences == catalog.licences
    assert facts.release == ReleaseFacts.of(design, catalog)


def test_the_modes_planned_are_those_of_the_groups_that_take_gpus(catalog):
    """A MIG group that takes no GPU (none of its members is sized onto one) adds no MIG step
    to the checklist; once it takes GPUs, it does."""
    idle = ((_group(SharingMode.MIG, "Lab"), _sized("Lab", gpus=0)),)
    software, _ = _plan(catalog, more=idle)
    assert not [c for c in software.checklist if "mig" in c.modes]
    busy = ((_group(SharingMode.MIG, "Lab"), _sized("Lab", gpus=2)),)
    software, _ = _plan(catalog, more=busy)
    assert [c for c in software.checklist if "mig" in c.modes]
