"""The Estate: a design of several clusters sized together. Each GPU cluster keeps its full
Result; the Estate adds where each workload group runs and why, the clusters without GPUs (the
management domain, compute clusters), the networks they share (switches counted once), one bill
of materials with the cluster named on every line, and the totals."""

from __future__ import annotations

from pydantic import Field

from wizard.model.buildout import Bom, BomLine, Cooling, Plane, PowerItem, Rack
from wizard.model.design import ClusterRole
from wizard.model.result import Calculation, Decision, Out, Result, Warning_


class Placement(Out):
    workload: str
    cluster: str
    chosen_by_engine: bool
    reason: str


class EstateCluster(Out):
    name: str
    role: ClusterRole
    server: str = Field(description="Catalog server id")
    server_name: str
    hosts: int
    gpus: int
    gpus_demand: int = Field(description="GPUs the workloads take after packing")
    gpus_idle: int = Field(
        description="GPUs installed beyond what the workloads take (HA and maintenance "
        "reserve, and the rest of a partly filled host)"
    )
    host_w: float = Field(description="Planning power of one host")
    hosts_kw: float
    host_racks: int
    workloads: list[str]
    reason: str = Field(description="How the host count follows")
    result: Result | None = Field(default=None, description="The full sizing of a GPU cluster")
    existing_hosts: int = Field(
        default=0,
        description="Hosts the customer already runs in it, kept (hosts less these are added)",
    )


class HostWork(Out):
    """A change an existing cluster's hosts need for the plan, with what it interrupts."""

    cluster: str
    hosts: list[str]
    change: str = Field(description="The setting that changes, in a few words")
    what: str = Field(description="The step that makes the change, in words")
    why: str
    reboots: int = Field(description="Host reboots the change takes, all hosts together")
    source: str
    vms: list[str] = Field(
        default_factory=list, description="The VMs the change is made on, for a VM setting"
    )
    vm_restarts: int = Field(
        default=0,
        description="VM power cycles the change takes (a VM setting read at power-on), all "
        "VMs together",
    )


class KeptAsIs(Out):
    """An existing cluster kept as it is, nothing planned on it: its hosts still draw power and
    fill racks, so the estate's power and racks count them; nothing of it is bought."""

    name: str
    hosts: int
    gpus: int
    reason: str = Field(description="Why nothing is planned on it, in words")
    hosts_counted: int = Field(description="Hosts whose server and GPUs the catalog holds")
    host_w: list[float] = Field(
        default_factory=list, description="Planning power of each counted host, in host order"
    )
    hosts_kw: float = Field(description="The counted hosts' planning power")
    host_racks: int = Field(description="Racks the counted hosts fill, by space and power")
    not_counted: str = Field(
        default="", description="The hosts whose power and racks cannot be worked out, and why"
    )


class EstateTotals(Out):
    hosts: int
    gpus: int
    gpus_demand: int
    gpus_idle: int
    hosts_kw: float = Field(
        description="Every host's planning power: the clusters', kept hosts included, and the "
        "existing clusters kept as they are"
    )
    existing_kw: float = Field(
        default=0.0,
        description="The existing hosts' share of hosts_kw (kept on a planned cluster or kept "
        "as they are): the customer's already, in the total but not in the cost of ownership",
    )
    network_kw: float
    storage_kw: float = Field(default=0.0, description="Storage systems with a published power")
    cooling_kw: float = Field(
        default=0.0, description="In-rack coolant distribution units, fed by the racks' PDUs"
    )
    total_kw: float
    host_racks: int = Field(
        description="Racks of hosts: the new ones and those the existing hosts stand in"
    )
    network_racks: int


class Estate(Out):
    schema_version: int = 1
    clusters: list[EstateCluster]
    placements: list[Placement]
    network: list[Plane] = Field(description="Networks the clusters share, sized once")
    racks: list[Rack] = Field(
        default_factory=list, description="Every rack: hosts per cluster, then the network's"
    )
    cooling: Cooling | None = None
    bom: Bom = Field(description="What is bought: existing hosts kept are not on it")
    kept: list[BomLine] = Field(
        default_factory=list, description="The existing clusters' hosts and GPUs, kept, not bought"
    )
    work: list[HostWork] = Field(
        default_factory=list, description="What changes on existing hosts, with its reboots"
    )
    as_is: list[KeptAsIs] = Field(
        default_factory=list,
        description="Existing clusters kept as they are: counted in power and racks only",
    )
    totals: EstateTotals
    power_items: list[PowerItem] = Field(
        default_factory=list,
        description="What draws power, line by line, adding up to the total; a line whose "
        "catalog figure is unsettled says so",
    )
    calculations: list[Calculation]
    warnings: list[Warning_]
    decisions: list[Decision]
