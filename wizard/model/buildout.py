"""Result models for turning a sized cluster into something that can be built: the host
topology, the network fabric, power, racks and the bill of materials.

They carry what the report's drawings and the review page need: names and kinds to label,
which device hangs off which, bandwidths with their basis and source, per-rack contents with
units and watts. Bandwidths are GB/s one way unless ``basis`` says otherwise; network speeds
are Gb/s per port.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field


class Out(BaseModel):
    # built on first use, not at import: the wizard shows its window before anything is sized
    model_config = ConfigDict(extra="forbid", defer_build=True)


# ----------------------------------------------------------------------------------- topology


class DeviceKind(StrEnum):
    SOCKET = "socket"
    ROOT_COMPLEX = "root-complex"
    PCIE_SWITCH = "pcie-switch"
    GPU = "gpu"
    NIC = "nic"
    NVLINK_BRIDGE = "nvlink-bridge"
    NVSWITCH = "nvswitch"  # the NVSwitch chips of an 8-GPU HGX baseboard
    NVLINK_MESH = "nvlink-mesh"  # an SXM board whose GPUs are wired to each other directly
    NETWORK = "network"  # the fabric a NIC port leads to (outside the host)


class LinkKind(StrEnum):
    PCIE = "pcie"
    NVLINK = "nvlink"
    CPU_INTERCONNECT = "cpu-interconnect"
    NETWORK = "network"


class Device(Out):
    id: str = Field(description="Unique inside the host, e.g. 'cpu0', 'cpu0.rc1', 'psw2', 'gpu3'")
    kind: DeviceKind
    name: str = Field(description="Label for drawings")
    parent: str | None = Field(
        default=None, description="The device this one hangs off in the PCIe tree"
    )
    socket: int | None = None
    model: str = Field(default="", description="Catalog id, where the device is a catalog item")
    connects: list[str] = Field(
        default_factory=list, description="GPUs an NVLink bridge or baseboard joins"
    )
    role: str | None = Field(default=None, description="NIC role, e.g. 'gpu-rdma'")


class Link(Out):
    a: str
    b: str
    kind: LinkKind
    label: str = Field(description="e.g. 'PCIe Gen4 x16' or 'NVLink 3 (3 bridges)'")
    gbs: float = Field(description="GB/s, one direction")
    source: str


class DeviceGroup(Out):
    """A vSphere-style device group: devices a VM gets together."""

    name: str
    kind: str = Field(
        description="'nvlink' (bridged GPUs), 'nvswitch', 'nvlink-mesh' (an SXM board without "
        "NVSwitch) or 'gpu-nic'"
    )
    devices: list[str]
    reason: str


class GpuNicPath(Out):
    """The path between a GPU and its nearest NIC, which decides GPUDirect RDMA."""

    gpu: str
    nic: str | None
    shared: str = Field(
        description="'pcie-switch' or 'root-complex' (GPUDirect RDMA works), 'cpu' (same CPU, "
        "different root complex) or 'cross-socket'"
    )
    gpudirect_ok: bool


class HostTopology(Out):
    """One host layout; ``hosts`` says how many hosts are built like it."""

    name: str
    hosts: int
    server: str
    server_name: str
    gpu: str
    gpu_name: str
    pcie_topology: str
    sockets: int
    root_complexes: int
    pcie_switches: int
    gpus: int
    gpu_boards: int
    nics: int
    nvlink_bridges: int
    nvlink: str = Field(description="'none', 'bridge' or 'baseboard'")
    devices: list[Device]
    links: list[Link]
    device_groups: list[DeviceGroup]
    gpu_nic_paths: list[GpuNicPath]


class BandwidthTier(Out):
    """One step of the bandwidth landscape, from GPU memory out to the network."""

    name: str
    kind: str = Field(description="'hbm', 'nvlink', 'pcie', 'cpu-interconnect' or 'network'")
    gbs: float
    basis: str = Field(description="e.g. 'memory bandwidth' or 'one direction'")
    source: str


class RingHop(Out):
    label: str
    kind: str
    gbs: float


class RingAnalysis(Out):
    """The links a workload's gradient ring crosses; the slowest sets its speed."""

    workload: str
    ring_gpus: int
    spans_hosts: bool
    hops: list[RingHop]
    bottleneck: str
    bottleneck_kind: str
    bottleneck_gbs: float
    nvswitch_alternative: str | None = Field(
        default=None, description="An NVSwitch system that would keep the ring on NVLink"
    )


class TopologyTotals(Out):
    """Counts over the whole cluster; the bill of materials must match them."""

    hosts: int
    sockets: int
    gpus: int
    gpu_boards: int
    nics: dict[str, int] = Field(description="Catalog NIC id -> adapters")
    nvlink_bridges: int
    pcie_switches: int
    switches: dict[str, int] = Field(description="Catalog switch id -> switches")
    cables: dict[str, int] = Field(description="Cable key -> cables")
    transceivers: dict[str, int] = Field(description="Transceiver key -> transceivers")


# ------------------------------------------------------------------------------------ fabric


class NicRole(Out):
    role: str = Field(description="'gpu-rdma', 'management', 'vmotion', 'storage' or 'oob'")
    network: str = Field(description="'compute', 'service' or 'oob'")
    adapter: str = Field(description="Catalog NIC id, or 'onboard' for the server's own ports")
    ports_per_host: int
    speed_gbps: float
    note: str


class SwitchTier(Out):
    role: str = Field(description="'leaf' or 'spine'")
    switch: str = Field(description="Catalog switch id")
    model: str
    count: int
    downlinks: int = Field(description="Ports per switch facing hosts (leaf) or leaves (spine)")
    uplinks: int = Field(description="Ports per switch facing the spines (leaf only)")
    port_speed_gbps: float
    breakout: int = Field(default=1, description="Host ports per switch port (breakout cables)")
    rack_units: int
    power_w: float


class CableRun(Out):
    key: str = Field(description="Stable key, e.g. 'compute.100gbe.host-leaf.100g'")
    between: str = Field(description="'host-leaf', 'leaf-spine', 'peer-link' or 'host-oob'")
    speed_gbps: float
    count: int
    description: str
    transceivers: int = Field(default=0, description="Optical modules for these links")


class Plane(Out):
    """One network: the GPU (compute) fabric, the service network, or out-of-band management."""

    name: str = Field(description="'compute', 'service' or 'oob'")
    technology: str
    rdma: str
    speed_gbps: float
    host_ports: int
    redundant: bool = Field(description="Each host's ports split over a pair of leaves")
    oversubscription_target: float
    oversubscription: float | None = Field(description="As built; None for one switch tier")
    tiers: list[SwitchTier]
    cables: list[CableRun]
    note: str = ""
    hosts: int | None = Field(
        default=None,
        description="Hosts cabled to it, where several clusters share it (an expansion's kept "
        "hosts stay on their own network and are not among them); the estate's list of networks "
        "always counts them, a cluster's own topology leaves None for the cluster's hosts",
    )
    clusters: list[str] = Field(
        default_factory=list,
        description="The clusters with host ports on it, by name, where the estate lists its "
        "networks; empty in one cluster's own topology",
    )
    ports_per_host: list[int] = Field(
        default_factory=list,
        description="Each cabled host's ports on it, in the hosts' order, where the clusters "
        "sharing it give their hosts different counts (eight a GPU host against two a "
        "management host); empty where every host has host_ports / hosts",
    )


class NetworkFabric(Out):
    rdma_technology: str
    rdma_note: str
    nic_roles: list[NicRole]
    planes: list[Plane]


class Topology(Out):
    hosts: list[HostTopology]
    bandwidth: list[BandwidthTier]
    rings: list[RingAnalysis]
    fabric: NetworkFabric
    totals: TopologyTotals


# ------------------------------------------------------------------------------ power, racks


class PowerItem(Out):
    item: str
    count: int
    watts_each: float
    watts_total: float
    source: str


class Power(Out):
    gpu_w_per_host: float
    baseline_w_per_host: float
    host_w: float
    psu_installed_w: float
    psu_redundant_w: float = Field(description="Capacity with half the supplies failed (N+N)")
    hosts: int
    hosts_w: float
    network_w: float
    storage_w: float = Field(default=0.0, description="Storage nodes with a published power")
    cdu_w: float = Field(
        default=0.0, description="In-rack coolant distribution units, fed by the racks' PDUs"
    )
    total_w: float
    total_kw: float
    btu_per_hour: float
    items: list[PowerItem]


class RackItem(Out):
    name: str
    kind: str = Field(
        description="'server', 'switch', 'storage' or 'cdu' (coolant distribution unit)"
    )
    model: str
    u_position: int = Field(description="Lowest rack unit the item occupies, from 1 at the bottom")
    height_u: int
    power_w: float
    host: int | None = Field(default=None, description="Host index (0-based) for servers")
    liquid_w: float = Field(
        default=0.0, description="Of its heat, what the coolant carries away (liquid-cooled), W"
    )
    cluster: str | None = Field(
        default=None,
        description="The cluster of a host racked beside another cluster's hosts (a host added "
        "to an existing cluster); None: the rack's own cluster",
    )


class Rack(Out):
    name: str
    role: str = Field(description="'hosts', 'network' or 'hosts+network'")
    height_u: int
    power_limit_w: float
    used_u: int
    power_w: float
    hosts: list[int]
    items: list[RackItem]
    cluster: str | None = Field(
        default=None, description="The cluster whose hosts it holds, in a design of several"
    )
    oob_switches: int = Field(
        default=0,
        description="Out-of-band management switches in it: those placed, else one for every "
        "48 management ports it holds (what the bill counts for it)",
    )
    pdus: int = Field(default=0, description="Its power distribution units, on the A and B feeds")

    @property
    def liquid_w(self) -> float:
        """Heat the rack's coolant carries to the distribution unit, W."""
        return sum(i.liquid_w for i in self.items)

    @property
    def air_w(self) -> float:
        """Heat the rack gives to the room air, W."""
        return self.power_w - self.liquid_w


class Cooling(Out):
    """Liquid cooling of the design's direct-liquid-cooled racks: the distribution units and the
    facility water they need."""

    cdu: str = Field(description="Catalog id of the coolant distribution unit")
    model: str
    placement: str = Field(description="'in-rack' or 'in-row'")
    units: int = Field(description="Distribution units, spares included")
    spares: int
    racks: int = Field(description="Racks with liquid-cooled servers")
    liquid_kw: float = Field(description="Heat carried by the coolant, kW")
    air_kw: float = Field(description="Heat the same racks give to the room air, kW")
    densest_rack_liquid_kw: float
    facility_flow_lpm: float = Field(description="Facility water flow at the unit's rise, l/min")
    facility_delta_t_c: float
    cdu_power_w: float = Field(description="The units' own maximum power (pumps), W; 0 unknown")
    to_confirm: list[str] = Field(
        default_factory=list,
        description="Figures behind these the catalog marks unsettled, in words (the servers' "
        "share of heat to the liquid, the unit's capacity, power or design rise)",
    )


class Racks(Out):
    rack_units: int
    power_limit_kw: float
    hosts_per_rack: int = Field(description="Most hosts any rack holds")
    hosts_room: int = Field(
        default=0,
        description="Most hosts a rack may hold under the limit that binds (limited_by): "
        "the fullest rack holds hosts_per_rack of them; 0 when no rack holds hosts",
    )
    limited_by: str = Field(description="'power', 'space', 'failure-domain' or 'hosts'")
    failure_domain: str
    host_racks: int
    network_racks: int
    racks: list[Rack]
    cooling: Cooling | None = None


# -------------------------------------------------------------------------------------- BOM


class BomCategory(StrEnum):
    SERVER = "server"
    SERVER_PART = "server-part"  # what a server is ordered with: memory, boot, PSUs, rails
    GPU = "gpu"
    NIC = "nic"
    NVLINK_BRIDGE = "nvlink-bridge"
    SWITCH = "switch"
    CABLE = "cable"
    TRANSCEIVER = "transceiver"
    LICENCE = "licence"
    STORAGE = "storage"
    RACK = "rack"
    COOLING = "cooling"


class BomLine(Out):
    category: BomCategory
    item: str = Field(description="Stable key a price list refers to, e.g. 'server:dell-xe9680'")
    part_number: str
    description: str
    quantity: int
    included: int = Field(
        default=0, description="Units that come with other items (e.g. a GPU's subscription)"
    )
    unit: str = Field(description="'each', 'GPU licence', 'core licence', …")
    source: str
    unit_price: float | None = None
    total_price: float | None = None
    cluster: str | None = Field(
        default=None, description="The cluster this line is for; None for shared items"
    )
    to_confirm: list[str] = Field(
        default_factory=list,
        description="Figures of this line the catalog marks unsettled (its 'unsettled' list, "
        "in words: 'part number', 'power'), to confirm with the vendor before ordering",
    )


class Bom(Out):
    lines: list[BomLine]
    currency: str | None = None
    totals_by_category: dict[str, float] = Field(default_factory=dict)
    total: float | None = None
    unpriced_items: list[str] = Field(
        default_factory=list, description="Items the price list has no price for"
    )

    @property
    def per_year(self) -> float | None:
        """The priced subscriptions: paid every year, never added to what is bought once."""
        if self.total is None:
            return None
        return self.totals_by_category.get(BomCategory.LICENCE.value, 0.0)

    @property
    def one_off(self) -> float | None:
        """The priced hardware and everything else bought once."""
        if self.total is None or self.per_year is None:
            return None
        return self.total - self.per_year
