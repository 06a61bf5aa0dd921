"""At N+0 the plan warns how many GPUs one host failure leaves, counted by hand: the hosts less
the failed one, times the GPUs per host; where those still hold the demand, no warning."""

from __future__ import annotations

from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict
from wizard.engine.size import size

CODE = "capacity-below-demand-after-failure"


def _warnings(doc, catalog):
    r = size(design_from_dict(doc), catalog)
    return r, [w.message for w in r.warnings if w.code == CODE]


def test_one_failure_leaves_the_other_hosts_gpus(catalog):
    """bert-large-25gbe is N+0 with 16 GPUs of demand on 4 GPUs per host: 4 hosts, no spare.
    One host failure leaves (4 - 1) x 4 = 12 GPUs on 3 hosts, short of the 16."""
    r, msgs = _warnings(design_dict("bert-large-25gbe"), catalog)
    assert (r.cluster.gpus_demand, r.cluster.gpus_per_host, r.cluster.hosts_total) == (16, 4, 4)
    assert msgs == [
        "N+0: one host failure leaves 12 GPUs (3 hosts) for a demand of 16 GPUs on 4 hosts; "
        "workloads on the failed host cannot restart"
    ]


def test_no_warning_where_the_remaining_hosts_hold_the_demand(catalog):
    """hgx-h200-llm made N+0: 10 GPUs of demand on 8 GPUs per host is 2 hosts of capacity; the
    platform's minimum of 3 hosts adds one, so a failure leaves (3 - 1) x 8 = 16 >= 10 GPUs on
    2 >= 2 hosts: no warning."""
    doc = design_dict("hgx-h200-llm")
    doc["ha"] = {"level": "n+0"}
    r, msgs = _warnings(doc, catalog)
    c = r.cluster
    assert (c.gpus_demand, c.gpus_per_host, c.hosts_for_capacity, c.hosts_total) == (10, 8, 2, 3)
    assert msgs == []


def test_a_warning_where_the_gpus_left_suffice_but_the_hosts_do_not(catalog):
    """Four jobs of 3 GPUs each on hosts of 4 GPUs: each job is whole on one host, so 12 GPUs
    of demand take 4 hosts. One failure leaves (4 - 1) x 4 = 12 GPUs, as many as the demand,
    but on 3 hosts, which hold only three of the jobs: warned."""
    doc = design_dict("bert-large-25gbe")
    doc["workloads"] = [{"name": "Jobs", "kind": "training", "count": 4, "gpus_per_member": 3}]
    r, msgs = _warnings(doc, catalog)
    c = r.cluster
    assert (c.gpus_demand, c.gpus_per_host, c.hosts_for_capacity, c.hosts_total) == (12, 4, 4, 4)
    assert msgs == [
        "N+0: one host failure leaves 12 GPUs (3 hosts) for a demand of 12 GPUs on 4 hosts; "
        "workloads on the failed host cannot restart"
    ]
