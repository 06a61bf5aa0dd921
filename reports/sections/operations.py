"""Security and operations: isolation per sharing mode, tenancy, the management plane, upgrades
in release order, monitoring and the licence service, each statement with the vendor's words it
rests on (``wizard.present.operations``)."""

from __future__ import annotations

from reports.doctree import Block
from reports.story import Story
from wizard.base.numbers import count
from wizard.engine import MANAGEMENT_MIN_HOSTS, MANAGEMENT_SOURCE
from wizard.model.design import ClusterRole, Design
from wizard.present import labels
from wizard.present import operations as ops

_WORDS = {3: "three", 4: "four", 8: "eight"}


def build(st: Story) -> list[Block] | None:
    hosts = {c.name: c.hosts for c in st.data.plan.estate.clusters}
    return section(st, st.data.design, management_of(st.data.design, hosts))


def section(st: Story, design: Design, management: tuple[str, int] | None) -> list[Block]:
    """``management``: the management cluster's name and hosts, when the design has one."""

    def said(s: ops.Statement) -> str:
        return s.text + (f" {st.cite(s.source)}" if s.source else "")

    flow: list[Block] = []
    used = [m for m in ops.modes(design) if m in ops.ISOLATION]
    if used:
        flow += st.h2("Isolation between workloads")
        rows: list[list] = [["Sharing mode", "Each VM has to itself", "It shares", "Src."]]
        for m in used:
            own, shared, source = ops.ISOLATION[m]
            rows.append([labels.MODE_SHORT[m], own, shared, st.cite(source)])
        flow.append(st.table(rows, [1.3, 3.2, 3.2, 0.6]))
        flow += st.bullets(
            [
                f"{labels.MODE_SHORT[m]}: "
                + ", ".join(w.name for w in design.workloads if w.sharing_mode is m)
                + "."
                for m in used
            ]
        )
    flow += st.h2("Tenancy and networks") + st.bullets([said(s) for s in ops.tenancy(design)])
    flow += st.h2("Management plane")
    if management is not None:
        name, hosts = management
        text = (
            f"The VMware Cloud Foundation management domain is the cluster {name} of "
            f"{count(hosts, 'host')}: SDDC Manager, vCenter Server and the NSX Managers run there, "
            "apart from the workloads."
        )
    elif ops.on_vcf(design):
        text = (
            "The GPU hosts are managed from a VMware Cloud Foundation management domain (SDDC "
            "Manager, vCenter Server, NSX Managers) on hosts of its own (at least "
            f"{_WORDS.get(MANAGEMENT_MIN_HOSTS, str(MANAGEMENT_MIN_HOSTS))}). This proposal does "
            "not size it: "
            "an existing management domain is assumed; if there is none, add a management "
            f"cluster to the design. {st.cite(MANAGEMENT_SOURCE)}"
        )
    else:
        text = (
            "The GPU hosts join the existing vCenter Server as a cluster of their own; vCenter "
            "and its network are not part of this proposal."
        )
    flow.append(st.p(text))
    flow += st.h2("Upgrades in release order")
    flow += [st.p(f"{n}. {said(s)}") for n, s in enumerate(ops.upgrades(design), 1)]
    checks = ops.monitoring(design)
    if checks:
        flow += st.h2("Monitoring") + st.bullets([said(s) for s in checks])
    flow += [*st.h2("Licence service"), st.p(said(ops.licensing()))]
    return flow


def management_of(design: Design, hosts: dict[str, int]) -> tuple[str, int] | None:
    """The management cluster of a design of several clusters, with its sized hosts."""
    spec = next((c for c in design.clusters if c.role is ClusterRole.MANAGEMENT), None)
    return (spec.name, hosts.get(spec.name, 0)) if spec is not None else None
