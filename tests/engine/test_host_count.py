"""The host count as a stage of its own: it reads GPUs per host, the HA policy, the platform's
floor and what the packing took (and an existing cluster's hosts), so it is tested from those
alone, each figure by hand and each logged formula giving its value (the white paper's host
arithmetic: capacity + HA + maintenance + the platform's minimum)."""

from __future__ import annotations

from wizard.engine.basis.expr import evaluate
from wizard.engine.basis.record import Recorder
from wizard.engine.placement.cluster import PlatformFloor
from wizard.engine.size import HostCount, _cluster
from wizard.model.design import HaLevel, HaPolicy

VSAN_VCF = PlatformFloor(vcf=True, vsan=True)  # at least 3 hosts


def _count(**given):
    rec = Recorder()
    need = HostCount(**{"gpus_per_host": 8, "ha": HaPolicy(level=HaLevel.N1),
                        "floor": VSAN_VCF, **given})  # fmt: skip
    c = _cluster(need, [], rec)
    for calc in rec.calculations:
        assert evaluate(calc.formula, calc.inputs) == calc.value, calc.id
    return c


def test_two_packed_hosts_with_n_plus_1_reach_the_vcf_minimum_by_themselves():
    """14 GPUs on 2 hosts of 8, N+1: 2 + 1 = 3 hosts, the minimum already; 24 GPUs; one failure
    leaves 2 x 8 = 16, a failure during the one host's maintenance 1 x 8 = 8."""
    c = _count(packed_gpus=14, packed_hosts=2)
    assert (c.gpus_demand, c.hosts_for_capacity, c.hosts_for_ha, c.hosts_for_platform) == (
        14, 2, 1, 0,
    )  # fmt: skip
    assert (c.hosts_total, c.gpus_total) == (3, 24)
    assert (c.gpus_after_failures, c.gpus_after_failures_and_maintenance) == (16, 8)


def test_one_packed_host_is_raised_to_the_vcf_minimum():
    """6 GPUs on 1 host, N+1 on vSAN VCF: 1 + 1 = 2, and 3 - 2 = 1 host more; without VCF, 2."""
    c = _count(packed_gpus=6, packed_hosts=1)
    assert (c.hosts_for_platform, c.hosts_total) == (1, 3)
    c = _count(packed_gpus=6, packed_hosts=1, floor=PlatformFloor(vcf=False, vsan=True))
    assert (c.hosts_for_platform, c.hosts_total) == (0, 2)


def test_an_existing_cluster_keeps_its_hosts_and_those_held():
    """3 hosts needed, 1 held by vGPUs of no group: max(3 + 1, 5 existing) = 5; with 2 existing,
    max(3 + 1, 2) = 4."""
    assert _count(packed_gpus=14, packed_hosts=2, existing_hosts=5, held_hosts=1).hosts_total == 5
    assert _count(packed_gpus=14, packed_hosts=2, existing_hosts=2, held_hosts=1).hosts_total == 4


def _warned(code: str, **given) -> bool:
    rec = Recorder()
    need = HostCount(**{"gpus_per_host": 8, "ha": HaPolicy(level=HaLevel.N1),
                        "floor": PlatformFloor(vcf=False, vsan=False), **given})  # fmt: skip
    _cluster(need, [], rec)
    return any(w.code == code for w in rec.warnings)


def test_a_failure_during_maintenance_is_a_risk_only_without_a_maintenance_host():
    """14 GPUs on 2 hosts of 8, N+1, no platform floor: 3 hosts; one failed and one in
    maintenance leave 1 x 8 = 8 GPUs for a demand of 14, so with no maintenance host the risk
    is said. With one maintenance host (4 hosts) the same failure leaves 2 x 8 = 16: nothing to
    say. With 6 GPUs on 1 host (2 hosts), one failed and one in maintenance leave none."""
    code = "failure-during-maintenance"
    assert _warned(code, packed_gpus=14, packed_hosts=2)
    assert not _warned(code, packed_gpus=14, packed_hosts=2,
                       ha=HaPolicy(level=HaLevel.N1, maintenance_hosts=1))  # fmt: skip
    assert _warned(code, packed_gpus=6, packed_hosts=1)
