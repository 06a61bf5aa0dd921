"""Whole-GPU placement onto hosts, and the hosts an HA policy adds.

Placement is best-fit decreasing over capacity classes: a replica needing ``g`` GPUs stays in
one host when ``g`` fits one; larger replicas take whole hosts plus a remainder. Working on
counts per size rather than per replica keeps it fast for a million identical members.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from wizard.base.numbers import count
from wizard.engine.basis.expr import Formula
from wizard.engine.basis.sources_platform import VCF9_MIN_UNSETTLED, VCF_MIN_HOSTS
from wizard.model.design import Design, FailureDomain, HaLevel, HaPolicy


@dataclass(frozen=True)
class Demand:
    """``count`` replicas of ``gpus`` GPUs each."""

    gpus: int
    count: int


def hosts_needed(demands: list[Demand], gpus_per_host: int) -> int:
    """Fewest hosts (by best-fit decreasing) that hold every replica, none split across hosts
    unless it needs more GPUs than one host has."""
    whole_hosts = 0
    sizes: dict[int, int] = {}
    for d in demands:
        if d.count <= 0 or d.gpus <= 0:
            continue
        full, rest = divmod(d.gpus, gpus_per_host)
        whole_hosts += full * d.count
        if rest:
            sizes[rest] = sizes.get(rest, 0) + d.count
    # free[r] = number of open hosts with r GPUs still free
    free = [0] * (gpus_per_host + 1)
    opened = 0
    for size in sorted(sizes, reverse=True):
        left = sizes[size]
        for r in range(size, gpus_per_host + 1):  # best fit: tightest hosts first
            if not left:
                break
            fits = r // size
            hosts = free[r]
            if not hosts:
                continue
            full_hosts = min(hosts, left // fits)
            free[r] -= full_hosts
            free[r - fits * size] += full_hosts
            left -= full_hosts * fits
            if left and free[r]:
                free[r] -= 1
                free[r - left * size] += 1
                left = 0
        if left:
            fits = gpus_per_host // size
            new_full, remainder = divmod(left, fits)
            opened += new_full
            free[gpus_per_host - fits * size] += new_full
            if remainder:
                opened += 1
                free[gpus_per_host - remainder * size] += 1
    return whole_hosts + opened


@dataclass(frozen=True)
class HaHosts:
    failures_tolerated: int  # hosts that may fail with the demand still placed
    ha_hosts: int
    maintenance_hosts: int
    rule: str
    formula: Formula
    inputs: dict[str, float]


PERCENT_RESERVE = Formula(
    "ceil(hosts_for_capacity * reserve_percent / (100 - reserve_percent) - 1e-9)"
)
N_PLUS_K = Formula("failures * hosts_per_domain")


def ha_hosts(policy: HaPolicy, capacity_hosts: int) -> HaHosts:
    """Hosts added for failures and for maintenance.

    N+k adds k failure domains; a percentage reserve keeps that share of the whole cluster
    free: total = capacity / (1 - p), so reserve = ceil(capacity x p / (100 - p)).
    """
    unit = 1
    if policy.failure_domain is FailureDomain.RACK and policy.hosts_per_rack:
        unit = policy.hosts_per_rack
    if policy.level is HaLevel.PERCENT:
        reserve = math.ceil(
            capacity_hosts * policy.reserve_percent / (100 - policy.reserve_percent) - 1e-9
        )
        rule = f"{policy.reserve_percent:g} % reserve: ceil({capacity_hosts} x {policy.reserve_percent:g} / (100 - {policy.reserve_percent:g}))"
        inputs = {"hosts_for_capacity": capacity_hosts, "reserve_percent": policy.reserve_percent}
        return HaHosts(reserve, reserve, policy.maintenance_hosts, rule, PERCENT_RESERVE, inputs)
    k = {HaLevel.N0: 0, HaLevel.N1: 1, HaLevel.N2: 2}[policy.level]
    domain = "rack" if unit > 1 else "host"
    rule = (
        f"{policy.level.value.upper()}: {count(k, domain + ' failure')} x {count(unit, 'host')}"
        if k
        else f"{policy.level.value.upper()}: no spare host"
    )
    inputs = {"failures": k, "hosts_per_domain": unit}
    return HaHosts(k * unit, k * unit, policy.maintenance_hosts, rule, N_PLUS_K, inputs)


# Hosts added to reach the platform's minimum cluster size
PLATFORM_HOSTS = Formula("max(platform_minimum - (capacity + ha + maintenance), 0)")


@dataclass(frozen=True)
class PlatformFloor:
    """What the platform's minimum cluster size reads, and nothing more: whether the cluster is
    a VMware Cloud Foundation workload domain (VCF licensing or Private AI Foundation), whether
    vSAN is its principal storage, and whether it runs vSphere 9."""

    vcf: bool
    vsan: bool
    vsphere9: bool = False

    @classmethod
    def of(cls, design: Design) -> PlatformFloor:
        p = design.platform
        vcf = design.licensing.platform == "vmware-vcf" or p.private_ai_foundation
        return cls(vcf, p.vsan_principal_storage, p.vsphere.value.startswith("9."))


def platform_minimum_hosts(floor: PlatformFloor, capacity_hosts: int) -> tuple[int, str]:
    """The fewest hosts the platform allows in the GPU cluster, and why: a VMware Cloud
    Foundation workload domain cluster (VCF licensing or Private AI Foundation) needs 3 hosts
    with vSAN as principal storage, 2 with NFS, VMFS on FC or vVols; 1 otherwise (none for a
    cluster with no workload)."""
    if not capacity_hosts:
        return 0, "no platform minimum: the cluster carries no workload"
    if not floor.vcf:
        return 1, "no platform minimum: the design is not licensed as VMware Cloud Foundation"
    n = 3 if floor.vsan else 2
    storage = "vSAN" if floor.vsan else "NFS, VMFS on FC or vVols"
    return (
        n,
        f"a VMware Cloud Foundation workload domain cluster with {storage} as principal "
        f"storage holds at least {'three' if n == 3 else 'two'} hosts ({VCF_MIN_HOSTS})"
        + (f"; {VCF9_MIN_UNSETTLED}" if floor.vsphere9 else ""),
    )


def platform_hosts(floor: PlatformFloor, capacity_hosts: int, ha: HaHosts) -> int:
    """Hosts beyond capacity, HA and maintenance that the platform's minimum cluster adds."""
    minimum = platform_minimum_hosts(floor, capacity_hosts)[0]
    return max(minimum - (capacity_hosts + ha.ha_hosts + ha.maintenance_hosts), 0)
