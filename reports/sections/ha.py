"""Cluster size and high availability: how hosts were counted, what a failure leaves, and the
cluster-level calculations."""

from __future__ import annotations

from reportlab.platypus import Flowable

from reports.numbers import num
from reports.sections import calculations
from reports.story import Story

ADMISSION = {
    "host-failures": "vSphere HA reserves the capacity of the tolerated host failures across "
    "the cluster",
    "percentage": "vSphere HA reserves a fixed percentage of the cluster's resources",
    "dedicated-failover": "named failover hosts stand by empty",
    "disabled": "admission control is off: nothing guarantees restart capacity",
}


def build(st: Story) -> list[Flowable] | None:
    d, c = st.data.design, st.data.result.cluster
    ha = d.ha
    flow: list[Flowable] = [
        st.pairs(
            [
                ("GPU demand", f"{num(c.gpus_demand)} GPUs"),
                ("Hosts for capacity", num(c.hosts_for_capacity)),
                (
                    "Hosts for high availability",
                    f"{num(c.hosts_for_ha)} ({ha.level.value.upper()})",
                ),
                ("Hosts for maintenance", num(c.hosts_for_maintenance)),
                ("Hosts in all", num(c.hosts_total)),
                ("GPUs in all", num(c.gpus_total)),
                ("Host failures tolerated", num(c.host_failures_tolerated)),
                ("GPUs after those failures", num(c.gpus_after_failures)),
                (
                    "GPUs after failures and maintenance",
                    num(c.gpus_after_failures_and_maintenance),
                ),
                (
                    "Demand still met after failures",
                    "yes" if c.capacity_after_failures_ok else "no",
                ),
                ("Admission control", ADMISSION[ha.admission_control.value]),
                ("Failure domain", ha.failure_domain.value),
                (
                    "Passthrough VMs",
                    "GPUs held in reserve: passthrough VMs restart on another host rather than move"
                    if ha.passthrough_spares
                    else "no reserve GPUs for passthrough VMs",
                ),
            ],
            0.38,
        ),
    ]
    calcs = st.data.calculations("cluster.")
    if calcs:
        flow += st.h3("Calculations")
        flow.append(calculations.table(st, calcs, "cluster."))
    return flow
