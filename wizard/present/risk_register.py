"""The risk register: one list, ranked, that the summary's top risks, the Risks section and the
window all read, so no page says "no risk" while another names one. It holds every warning the
sizing raised, every target met as estimated but missed at the pessimistic end of the stated
assumptions, and the assumptions the design rests on that a reader must confirm (storage sized
without the data it holds, a network that one switch carries)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from wizard.base.numbers import count, figure
from wizard.model.buildout import Plane, Rack
from wizard.model.options import TargetStatus
from wizard.model.result import Result, Severity
from wizard.present import labels
from wizard.present.mitigations import mitigation
from wizard.present.options_table import METRIC_NAMES
from wizard.present.severity import ORDER

if TYPE_CHECKING:
    from wizard.engine import Plan


@dataclass(frozen=True)
class Risk:
    severity: Severity
    topic: str  # a heading in words
    text: str
    mitigation: str
    cluster: str | None = None  # the cluster it belongs to, in a design of several


AT_RISK_MITIGATION = (
    "Benchmark the model on the proposed GPU before ordering, or add headroom (a host, a "
    "replica or GPUs per job) so the target holds at the pessimistic end too."
)
STORAGE_UNSIZED_MITIGATION = (
    "State the datasets' size and read rate (or the checkpoints to keep) so the storage is "
    "sized for them, or confirm the vendor's minimum configuration is enough."
)
RACK_POWER_MITIGATION = (
    "Add the storage vendor's maximum power per node to the catalog, or confirm with the vendor "
    "that the rack's feed and cooling carry the nodes on top of the figure shown."
)
SINGLE_SWITCH_MITIGATION = (
    "Add a second switch and split each host's ports over the pair, or accept that a switch "
    "failure stops the traffic on this network until it is replaced."
)


def register(
    result: Result,
    targets: list[TargetStatus],
    cluster: str | None = None,
    own_network: bool = True,
) -> list[Risk]:
    """Every risk of one sized cluster, most severe first (warnings, then targets at risk, then
    assumptions within a severity). ``own_network`` False: the cluster's networks are shared
    with others and judged once for all (``network_risks``)."""
    out = [
        Risk(w.severity, labels.topic(w.code), w.message, mitigation(w.code), cluster)
        for w in result.warnings
    ]
    for t in targets:
        if t.met and t.at_risk and t.pessimistic is not None:
            name = METRIC_NAMES[t.metric]
            bound = "at least" if t.metric == "throughput" else "at most"
            out.append(
                Risk(
                    Severity.WARNING,
                    f"Target at risk: {name}",
                    f"{t.workload}: the {name} of {figure(t.value, t.unit)} meets the target "
                    f"of {bound} {figure(t.target, t.unit)} as estimated, but not at the "
                    f"pessimistic end of the stated assumptions ({figure(t.pessimistic, t.unit)})",
                    AT_RISK_MITIGATION,
                    cluster,
                )
            )
    out += _storage(result, cluster)
    if own_network:  # else the networks and racks are judged once for all clusters
        out += network_risks(result.topology.fabric.planes, result.cluster.hosts_total, cluster)
        out += rack_power_risks(result.racks.racks, cluster)
    return ranked(out)


def plan_risks(p: Plan) -> list[Risk]:
    """The register of the whole design, one cluster or several: its own warnings, the networks
    and racks judged once for every cluster on them, then each cluster's warnings, targets at
    risk and storage, most severe first; each cluster's risks carry its name when there are
    several to tell apart. The terminal, the window and the proposal all read this list."""
    e = p.estate
    named = len(e.clusters) > 1
    own = [
        Risk(w.severity, labels.topic(w.code), w.message, mitigation(w.code)) for w in e.warnings
    ]
    own += network_risks(e.network, e.totals.hosts) + rack_power_risks(e.racks)
    for c in p.clusters:
        mine = {w.name for w in c.result.workloads}
        targets = [t for t in p.targets if t.workload in mine]
        own += register(c.result, targets, c.name if named else None, own_network=False)
    return ranked(own)


def ranked(risks: list[Risk]) -> list[Risk]:
    """Most severe first; the order within a severity is kept."""
    return sorted(risks, key=lambda r: ORDER[r.severity])


def serious(risks: list[Risk]) -> list[Risk]:
    """Risks and cautions: what the summary's top risks may name (notes stay in the register)."""
    return [r for r in risks if r.severity is not Severity.INFO]


def _storage(result: Result, cluster: str | None) -> list[Risk]:
    out = []
    st = result.storage
    if st.system_name and st.nodes and st.capacity_needed_tb <= 0 and st.read_gbs_needed <= 0:
        out.append(
            Risk(
                Severity.WARNING,
                "Storage sized without data",
                f"The {count(st.nodes, 'node')} of {st.system_name} are the system's minimum "
                "configuration, not a sizing: no workload group states the data it reads or "
                "keeps",
                STORAGE_UNSIZED_MITIGATION,
                cluster,
            )
        )
    return out


def power_not_counted(rack: Rack) -> int:
    """The storage nodes in ``rack`` whose power the catalog does not publish (so its total
    leaves them out)."""
    return sum(1 for i in rack.items if i.kind == "storage" and i.power_w <= 0)


def rack_power_risks(racks: list[Rack], cluster: str | None = None) -> list[Risk]:
    """A rack whose total leaves out the power of storage nodes in it may be over its limit."""
    out = []
    for rack in racks:
        n = power_not_counted(rack)
        if n:
            out.append(
                Risk(
                    Severity.WARNING,
                    "Rack power not fully counted",
                    f"Rack {rack.name} holds {count(n, 'storage node')} whose power has no "
                    f"published figure: its {rack.power_w / 1000:,.1f} kW against the limit of "
                    f"{rack.power_limit_w / 1000:g} kW leaves them out",
                    RACK_POWER_MITIGATION,
                    cluster,
                )
            )
    return out


def network_risks(planes: list[Plane], hosts: int, cluster: str | None = None) -> list[Risk]:
    """A data network that one switch carries for several hosts: a single point of failure."""
    out = []
    for p in planes:
        leaves = [t for t in p.tiers if t.role == "leaf"]
        if p.name == "oob" or sum(t.count for t in leaves) != 1 or hosts < 2:
            continue
        compute = p.name.split(".")[0] == "compute"
        what = "GPU fabric" if compute else "service network"
        out.append(
            Risk(
                Severity.WARNING,
                f"One switch carries the {what}",
                f"A single {leaves[0].model} connects every host on the {what}: its failure "
                "or an upgrade stops "
                + (
                    "every job and replica that spans hosts"
                    if compute
                    else "management, vMotion and storage traffic"
                )
                + " until it is back",
                SINGLE_SWITCH_MITIGATION,
                cluster,
            )
        )
    return out
