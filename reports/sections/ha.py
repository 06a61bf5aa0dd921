"""Cluster size and high availability: how hosts were counted, what a failure leaves, and the
cluster-level calculations."""

from __future__ import annotations

from reports.doctree import Block
from reports.sections import calculations
from reports.story import Story
from wizard.base.numbers import count, num
from wizard.present import labels


def build(st: Story) -> list[Block] | None:
    d, c = st.data.design, st.data.result.cluster
    ha = d.ha
    flow: list[Block] = [
        st.pairs(
            [
                ("GPU demand", count(c.gpus_demand, "GPU")),
                ("Hosts for capacity", num(c.hosts_for_capacity)),
                (
                    "Hosts for high availability",
                    f"{num(c.hosts_for_ha)} ({labels.HA_LEVEL_SHORT[ha.level]})",
                ),
                ("Hosts for maintenance", num(c.hosts_for_maintenance)),
                *(
                    [
                        (
                            "Hosts to reach the VMware Cloud Foundation minimum",
                            num(c.hosts_for_platform),
                        )
                    ]
                    if c.hosts_for_platform
                    else []
                ),
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
                (
                    "Admission control",
                    f"{labels.ADMISSION[ha.admission_control]}: "
                    f"{labels.ADMISSION_MEANING[ha.admission_control]}",
                ),
                ("Failure domain", labels.FAILURE_DOMAIN[ha.failure_domain]),
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
