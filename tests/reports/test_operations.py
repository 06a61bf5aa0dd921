"""Security and operations: the isolation of each sharing mode the design uses (and only those),
upgrades in the vendors' release order, monitoring as DCGM and the vGPU documents allow, the
management plane as the design has it. Each rule has a case where it must not apply."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from reports.data import build_data
from reports.document import ReportOptions, build_pdf
from tests.reports.conftest import FIXED_DATE
from wizard.app.io import design_from_text
from wizard.base.bundled import example_text
from wizard.model.design import KubernetesPlatform, SharingMode
from wizard.present import operations as ops


def _example(name: str):
    return design_from_text(example_text(name))


def _without_vcf(design):
    return design.model_copy(
        update={
            "licensing": design.licensing.model_copy(update={"platform": None}),
            "platform": design.platform.model_copy(update={"private_ai_foundation": False}),
        }
    )


def test_only_the_modes_the_design_uses_are_described():
    assert ops.modes(_example("mig-shared")) == [SharingMode.MIG]
    assert ops.modes(_example("imagenet-resnet50")) == [SharingMode.PASSTHROUGH]
    # MIG: the instance is the VM's own; time-sliced: compute is taken in turns
    assert "its own GPU instance" in ops.ISOLATION[SharingMode.MIG][0]
    assert "in turns" in ops.ISOLATION[SharingMode.VGPU][1]
    assert "nothing" in ops.ISOLATION[SharingMode.PASSTHROUGH][1]


def test_vcf_upgrades_in_its_own_order_first():
    steps = ops.upgrades(_example("hgx-h200-llm"))
    # Broadcom KB 390634: SDDC Manager, NSX, vCenter, ESXi
    first = steps[0].text
    order = [first.index(x) for x in ("SDDC Manager", "NSX", "vCenter", "ESXi")]
    assert order == sorted(order)
    assert "390634" in steps[0].source


def test_without_vcf_vcenter_goes_before_the_hosts():
    steps = ops.upgrades(_without_vcf(_example("hgx-h200-llm")))
    assert steps[0].text == "vCenter Server before the ESXi hosts."
    assert not any("SDDC Manager" in s.text for s in steps)


def test_the_vgpu_manager_goes_before_the_guest_drivers():
    """vGPU 19.0 release notes: a later vGPU Manager branch runs guests of the previous branch,
    not the reverse: the host step comes first; none of it without shared GPUs."""
    texts = [s.text for s in ops.upgrades(_example("hgx-h200-llm"))]
    host = next(i for i, t in enumerate(texts) if "vGPU Manager" in t)
    guest = next(i for i, t in enumerate(texts) if "driver in the VMs" in t)
    assert host < guest
    passthrough = [s.text for s in ops.upgrades(_example("imagenet-resnet50"))]
    assert not any("vGPU Manager" in t for t in passthrough)
    assert any("whole GPUs carry their own NVIDIA driver" in t for t in passthrough)


def test_kubernetes_steps_only_with_kubernetes():
    hgx = _example("hgx-h200-llm")
    assert hgx.platform.kubernetes is KubernetesPlatform.VKS
    assert "GPU Operator" in ops.upgrades(hgx)[-1].text
    assert any("vSphere Namespace" in s.text for s in ops.tenancy(hgx))
    mig = _example("mig-shared")
    assert mig.platform.kubernetes is KubernetesPlatform.NONE
    assert not any("GPU Operator" in s.text for s in ops.upgrades(mig))
    assert not any("vSphere Namespace" in s.text for s in ops.tenancy(mig))


def test_dcgm_only_where_its_documents_support_it():
    """DCGM: 'Bare metal and virtualized (full passthrough only)'."""
    whole = ops.monitoring(_example("imagenet-resnet50"))
    assert len(whole) == 1 and "DCGM" in whole[0].text and "passthrough only" in whole[0].source
    shared = ops.monitoring(_example("mig-shared"))
    assert len(shared) == 1 and "nvidia-smi on each ESXi host" in shared[0].text


@pytest.fixture(scope="module")
def hgx_text(catalog):
    pdf = build_pdf(build_data(_example("hgx-h200-llm"), catalog), ReportOptions(date=FIXED_DATE))
    return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages).split())


def test_the_proposal_has_the_section(hgx_text):
    assert "Security and operations" in hgx_text
    assert "Isolation between workloads" in hgx_text
    assert "Upgrades in release order" in hgx_text
    # no management cluster in a design of one: an existing management domain is assumed
    assert "This proposal does not size it" in hgx_text


def test_a_design_with_a_management_cluster_names_it(two_cluster_text):
    assert "management domain is the cluster Management domain of 4 hosts" in two_cluster_text
    assert "This proposal does not size it" not in two_cluster_text
