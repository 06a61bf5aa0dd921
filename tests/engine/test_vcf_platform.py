"""The VMware platform a design runs on: the vSphere release and the Private AI Foundation
add-on, each rule with its negative case."""

from __future__ import annotations

from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict
from wizard.engine.platform.compat import check_design
from wizard.engine.size import size


def _fields(doc, catalog) -> list[str]:
    return [p.field for p in check_design(design_from_dict(doc), catalog)]


def test_mixed_size_vgpu_needs_vsphere_8_update_3(catalog):
    """NVIDIA AI Enterprise, 'Heterogeneous vGPU': mixed-size time-sliced vGPU needs vGPU 17.0
    or later on VMware vSphere 8.0 Update 3 or later; the vSphere API's HostGraphicsConfig
    VgpuMode 'mixedSize' exists "Since: vSphere API Release 8.0.3.0" (Broadcom developer
    documentation, HostGraphicsConfigVgpuMode_enum)."""
    doc = design_dict("llm-serving")
    doc["hardware"]["vgpu_mixed_sizes"] = True
    doc.setdefault("platform", {})["vsphere"] = "8.0"
    problems = check_design(design_from_dict(doc), catalog)
    assert [p.field for p in problems] == ["hardware.vgpu_mixed_sizes"]
    assert "8.0 Update 3" in problems[0].message
    for later in ("8.0u3", "9.0"):
        doc["platform"]["vsphere"] = later
        assert "hardware.vgpu_mixed_sizes" not in _fields(doc, catalog)
    doc["platform"]["vsphere"] = "8.0"  # one size per GPU is fine on 8.0
    doc["hardware"]["vgpu_mixed_sizes"] = False
    assert "hardware.vgpu_mixed_sizes" not in _fields(doc, catalog)


def test_private_ai_foundation_is_an_add_on_to_vcf(catalog):
    doc = design_dict("llm-serving")
    doc.setdefault("platform", {})["private_ai_foundation"] = True
    doc["licensing"] = {"platform": "vmware-vvf"}
    problems = check_design(design_from_dict(doc), catalog)
    assert [p.field for p in problems] == ["platform.private_ai_foundation"]
    # the licence by its product name, as the customer buys it, never the catalog's id
    assert problems[0].message == (
        "Private AI Foundation with NVIDIA is an add-on to VMware Cloud Foundation; the platform "
        "licence is VMware vSphere Foundation (VVF): license VMware Cloud Foundation"
    )
    doc["licensing"] = {"platform": None}
    (problem,) = check_design(design_from_dict(doc), catalog)
    assert "no platform licence is set: license VMware Cloud Foundation" in problem.message
    doc["licensing"] = {"platform": "vmware-vcf"}
    assert _fields(doc, catalog) == []


def test_private_ai_foundation_needs_nvidia_ai_enterprise_per_gpu(catalog):
    doc = design_dict("llm-serving")
    doc.setdefault("platform", {})["private_ai_foundation"] = True
    doc["licensing"] = {"gpu_software": None}
    problems = check_design(design_from_dict(doc), catalog)
    assert [p.field for p in problems] == ["platform.private_ai_foundation"]
    assert "NVIDIA AI Enterprise" in problems[0].message


def test_private_ai_foundation_is_billed_per_core_beside_vcf(catalog):
    doc = design_dict("llm-serving")
    doc["licensing"] = {"cores_per_socket": 48}
    without = size(design_from_dict(doc), catalog)
    assert "licence:vmware-paif" not in {ln.item for ln in without.bom.lines}
    doc.setdefault("platform", {})["private_ai_foundation"] = True
    r = size(design_from_dict(doc), catalog)
    lines = {ln.item: ln for ln in r.bom.lines}
    hosts = r.cluster.hosts_total
    # two sockets of 48 cores on every GPU host, the same cores VCF counts
    assert lines["licence:vmware-paif"].quantity == hosts * 2 * 48
    assert lines["licence:vmware-vcf"].quantity == hosts * 2 * 48
    names = [c.name for c in r.software.components]
    assert "VMware Private AI Foundation with NVIDIA (VCF add-on)" in names
