"""The platform's minimum cluster size as a stage of its own: it reads only whether the cluster
is a VMware Cloud Foundation workload domain, whether vSAN is its principal storage and whether
it runs vSphere 9, so it is tested from those alone. VMware Cloud Foundation 5 documentation
(VCF_MIN_HOSTS in wizard/engine/basis/sources_platform.py): a workload domain cluster holds at
least 3 hosts with vSAN as principal storage, 2 with NFS, VMFS on FC or vVols; for vSphere 9 the
same figure is applied and said to be unsettled."""

from __future__ import annotations

import pytest

from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict
from wizard.engine.basis.sources_platform import VCF9_MIN_UNSETTLED
from wizard.engine.placement.cluster import N_PLUS_K, HaHosts, PlatformFloor, platform_hosts
from wizard.engine.placement.cluster import platform_minimum_hosts as floor_of


@pytest.mark.parametrize(
    ("floor", "hosts"),
    [
        (PlatformFloor(vcf=False, vsan=True), 1),  # not VCF: no minimum beyond one host
        (PlatformFloor(vcf=True, vsan=True), 3),
        (PlatformFloor(vcf=True, vsan=False), 2),
    ],
)
def test_the_minimum_follows_vcf_and_principal_storage(floor, hosts):
    assert floor_of(floor, 5)[0] == hosts
    assert floor_of(floor, 0) == (0, "no platform minimum: the cluster carries no workload")


def test_vsphere_9_says_its_minimum_is_unsettled():
    assert VCF9_MIN_UNSETTLED in floor_of(PlatformFloor(True, True, vsphere9=True), 1)[1]
    assert VCF9_MIN_UNSETTLED not in floor_of(PlatformFloor(True, True), 1)[1]


def test_hosts_are_added_only_up_to_the_minimum():
    """vSAN VCF (3 hosts) for 1 capacity host with 1 HA host: 3 - (1 + 1 + 0) = 1 added; for 2
    capacity hosts and 1 HA host none (3 - 3 = 0); never fewer than none."""
    floor = PlatformFloor(vcf=True, vsan=True)
    ha = HaHosts(1, 1, 0, "N+1", N_PLUS_K, {"failures": 1, "hosts_per_domain": 1})
    assert platform_hosts(floor, 1, ha) == 1
    assert platform_hosts(floor, 2, ha) == 0
    assert platform_hosts(floor, 5, ha) == 0


def test_a_design_gives_its_floor():
    """The enterprise example is licensed as VCF; Private AI Foundation makes a design VCF
    whatever its platform licence."""
    doc = design_dict("enterprise")
    doc["licensing"] = {"platform": "vmware-vcf"}
    assert PlatformFloor.of(design_from_dict(doc)).vcf
    doc["licensing"] = {"platform": "vmware-vvf"}
    assert not PlatformFloor.of(design_from_dict(doc)).vcf
    doc.setdefault("platform", {})["private_ai_foundation"] = True
    assert PlatformFloor.of(design_from_dict(doc)).vcf
