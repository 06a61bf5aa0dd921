"""Host packing and HA hosts."""

import pytest

from wizard.engine.placement.cluster import Demand, ha_hosts, hosts_needed
from wizard.model.design import HaPolicy


def test_white_paper_host_counts():
    """White paper 8.4.1 and 9.4.1: 14 GPUs at 2 per host -> 7 hosts; 28 at 4 -> 7."""
    assert hosts_needed([Demand(1, 14)], 2) == 7
    assert hosts_needed([Demand(4, 3), Demand(1, 16)], 4) == 7


def test_replicas_stay_whole_inside_a_host():
    # 5 jobs of 3 GPUs on 4-GPU hosts: 15 GPUs but 5 hosts, since no job splits.
    assert hosts_needed([Demand(3, 5)], 4) == 5
    # Single-GPU work fills the gaps the 3-GPU jobs leave.
    assert hosts_needed([Demand(3, 5), Demand(1, 5)], 4) == 5
    assert hosts_needed([Demand(3, 5), Demand(1, 6)], 4) == 6


def test_best_fit_decreasing_mixed_sizes():
    # 2 + 2 + 1 + 1 + 1 + 1 on 4-GPU hosts = 8 GPUs -> 2 hosts.
    assert hosts_needed([Demand(2, 2), Demand(1, 4)], 4) == 2
    # 6 x 3-GPU + 6 x 2-GPU on 8-GPU hosts: 3+3+2 per host -> 3 hosts for 3+3 pairs (6 jobs) and
    # 2-GPU jobs in the 2-GPU gaps (3), remaining 3 x 2-GPU in one more host -> 4 hosts.
    assert hosts_needed([Demand(3, 6), Demand(2, 6)], 8) == 4


def test_replica_larger_than_a_host_takes_whole_hosts_plus_remainder():
    assert hosts_needed([Demand(10, 1)], 8) == 2
    assert hosts_needed([Demand(16, 2)], 8) == 4
    assert hosts_needed([Demand(10, 1), Demand(6, 1)], 8) == 2


def test_large_counts_are_fast_and_exact():
    assert hosts_needed([Demand(1, 1_000_000)], 8) == 125_000
    assert hosts_needed([Demand(3, 1_000_000), Demand(1, 1_000_000)], 4) == 1_000_000


@pytest.mark.parametrize(
    "policy, capacity, expected",
    [
        (HaPolicy(level="n+0"), 7, 0),
        (HaPolicy(level="n+1"), 7, 1),
        (HaPolicy(level="n+2"), 7, 2),
        (HaPolicy(level="percent", reserve_percent=25), 6, 2),  # 6 / 0.75 = 8 hosts
        (HaPolicy(level="percent", reserve_percent=10), 9, 1),  # 9 / 0.9 = 10 hosts
        # The reserve is a share of the whole cluster: 10 / 0.75 = 13.3 -> 14 hosts, 4 in reserve
        # (4 / 14 = 29 %; 3 / 13 = 23 % falls short). 25 % of the 10 capacity hosts would be 3.
        (HaPolicy(level="percent", reserve_percent=25), 10, 4),
        (HaPolicy(level="n+1", failure_domain="rack", hosts_per_rack=4), 7, 4),
    ],
)
def test_ha_hosts(policy, capacity, expected):
    assert ha_hosts(policy, capacity).ha_hosts == expected


def test_maintenance_hosts_are_separate():
    h = ha_hosts(HaPolicy(level="n+1", maintenance_hosts=1), 7)
    assert (h.ha_hosts, h.maintenance_hosts, h.failures_tolerated) == (1, 1, 1)
