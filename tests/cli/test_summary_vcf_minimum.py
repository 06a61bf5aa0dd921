"""The terminal summary's host count says the hosts a VMware Cloud Foundation workload domain's
minimum adds: three hosts with vSAN as principal storage, two with NFS, VMFS on FC or vVols
(VMware Cloud Foundation 5.0, 'Prepare ESXi Hosts for VMware Cloud Foundation': 'VI workload
domain, you must prepare a minimum of three ESXi hosts', two with NFS, VMFS on FC or vVols;
wizard.engine.basis.sources_platform.VCF_MIN_HOSTS quotes it in full)."""

from __future__ import annotations

from wizard.app.io import design_from_text
from wizard.app.summary import summary_lines
from wizard.base.bundled import example_text
from wizard.engine import plan


def _ha_line(catalog, licence: str, vsan: bool) -> tuple[str, object]:
    """imagenet-resnet50 (one GPU host of capacity, one for N+1 HA, no maintenance host)."""
    d = design_from_text(example_text("imagenet-resnet50"))
    d = d.model_copy(
        update={
            "licensing": d.licensing.model_copy(update={"platform": licence}),
            "platform": d.platform.model_copy(
                update={"vsan_principal_storage": vsan, "private_ai_foundation": False}
            ),
        }
    )
    result = plan(d, catalog).clusters[0].result
    c = result.cluster
    assert (c.hosts_for_capacity, c.hosts_for_ha, c.hosts_for_maintenance) == (1, 1, 0)
    lines = summary_lines(result)
    return next(x for x in lines if x.startswith("  hosts for HA")), c


def test_vcf_on_vsan_adds_the_host_its_three_host_minimum_lacks(catalog):
    """3 hosts minimum - (1 capacity + 1 HA + 0 maintenance) = 1 host added, said on the line."""
    line, c = _ha_line(catalog, "vmware-vcf", vsan=True)
    assert line.endswith(" (+1 VCF minimum)")
    assert c.hosts_total == 3


def test_vcf_on_nfs_needs_no_host_beyond_capacity_and_ha(catalog):
    """2 hosts minimum - (1 + 1 + 0) = 0: nothing added, nothing said."""
    line, _ = _ha_line(catalog, "vmware-vcf", vsan=False)
    assert "VCF minimum" not in line


def test_a_design_not_licensed_as_vcf_has_no_vcf_minimum(catalog):
    line, _ = _ha_line(catalog, "vmware-vvf", vsan=True)
    assert "VCF minimum" not in line
