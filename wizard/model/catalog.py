"""Catalog schemas: the hardware, software and model data the engine sizes against.

Every entry carries a ``source`` so that any figure in a report can be traced to a datasheet,
a vendor document or a paper. Figures that are derived (computed from other published figures)
or third party (not from the vendor) say so in ``source_note``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from enum import StrEnum
from typing import Literal, Protocol

from pydantic import Field, model_validator

from wizard.model.catalog_base import (  # noqa: F401 - the catalog's parts, named here too
    Identifier,
    NonNegativeFloat,
    PositiveFloat,
    Product,
    Sourced,
    Strict,
)
from wizard.model.catalog_gpu import (  # noqa: F401 - the catalog's parts, named here too
    _MIG_TYPE_VARIANTS,
    FormFactor,
    Gpu,
    Mig,
    MigProfile,
    MigTimeSlicedProfile,
    Nvlink,
    NvlinkKind,
    Tflops,
    Vgpu,
    VgpuProfile,
)
from wizard.model.catalog_models import (  # noqa: F401 - the catalog's parts, named here too
    ModelArch,
    ModelPreset,
)

# ------------------------------------------------------------------------------------ servers


class PcieTopology(StrEnum):
    CPU_DIRECT = "cpu-direct"  # GPU slots hang off the CPUs' root complexes
    PCIE_SWITCH = "pcie-switch"  # GPUs behind PCIe switches (switch board)
    HGX = "hgx"  # SXM GPUs on an HGX baseboard with NVLink / NVSwitch


class Certification(StrEnum):
    CERTIFIED = "nvidia-certified"
    QUALIFIED = "qualified"
    NONE = "none"
    UNKNOWN = "unknown"


class GpuSupport(Strict):
    """How many GPUs of one form factor and slot width a server holds."""

    form_factor: FormFactor
    slot_width: int = Field(ge=0, le=4, description="Widest board the slots take; 0 for SXM.")
    max_gpus: int = Field(ge=1, le=16)
    max_gpu_tdp_w: PositiveFloat | None = None


class Cooling(StrEnum):
    AIR = "air"
    LIQUID = "liquid"  # direct liquid cooling to the chip: needs facility water (CDU)


class CpuOption(Strict):
    """A processor the server is sold with; per-core licences are counted from its cores."""

    name: str = Field(min_length=2, max_length=120, description="e.g. Intel Xeon Gold 6548Y+")
    cores: int = Field(ge=1, le=512, description="Physical cores per socket.")
    tdp_w: PositiveFloat | None = Field(default=None, description="Thermal design power, W.")
    source: str = Field(default="", description="Where the core count comes from.")


class OnboardPorts(Strict):
    """Network ports built into the server (LOM / a fixed OCP card it always ships with)."""

    ports: int = Field(ge=1, le=8)
    speed_gbps: PositiveFloat
    source: str = Field(min_length=3, description="The vendor's page stating the ports.")


class Server(Product):
    rack_units: int = Field(ge=1, le=10)
    sockets: int = Field(ge=1, le=8)
    cpu_family: str
    cpu_options: list[CpuOption] = Field(
        default_factory=list,
        max_length=64,
        description="Processors the server is sold with, the usual AI build first; per-core "
        "licences follow the one chosen. Empty: the catalog does not know.",
    )
    cooling: Cooling = Field(
        default=Cooling.AIR,
        description="Air, or direct liquid cooling (facility water and a coolant distribution "
        "unit; rack density far above an air-cooled rack).",
    )
    pcie_gen: int = Field(ge=3, le=6)
    pcie_topology: PcieTopology
    pcie_switches: int = Field(default=0, ge=0, le=16)
    root_complexes_per_socket: int = Field(default=4, ge=1, le=16)
    cpu_interconnect_gbs: PositiveFloat = Field(
        description="Socket-to-socket bandwidth (UPI / Infinity Fabric), GB/s."
    )
    gpu_support: list[GpuSupport] = Field(min_length=1)
    hgx_gpus: list[Identifier] = Field(
        default_factory=list, description="For HGX systems, the SXM GPU ids the board takes."
    )
    qualified_gpus: list[Identifier] = Field(
        default_factory=list,
        description="GPU ids the vendor lists for this server; empty means judge by form "
        "factor, slot width and TDP alone.",
    )
    gdr_affinity: bool = Field(
        description="A NIC slot shares a PCIe switch or root complex with the GPU slots, so "
        "GPUDirect RDMA can work."
    )
    nvlink_bridge_support: bool
    psu_count: int = Field(ge=1, le=16)
    psu_w: PositiveFloat
    nic_slots: int = Field(ge=0, le=16, description="PCIe slots left for NICs with GPUs fitted.")
    onboard_ports: list[OnboardPorts] = Field(
        default_factory=list,
        max_length=4,
        description="Data ports the server always ships with (not the BMC port); a network a "
        "host joins at one of these speeds needs no adapter on the bill. Empty: every network "
        "port is an adapter chosen at order time.",
    )
    baseline_power_w: PositiveFloat = Field(
        description="Platform draw without GPUs (CPUs, memory, fans, drives) at load."
    )
    certification: Certification = Certification.UNKNOWN
    certification_source: str = ""
    nvidia_dgx: bool = Field(
        default=False,
        description="An NVIDIA DGX system: NVIDIA does not support vGPU on DGX systems, so it is "
        "no vGPU host under vSphere.",
    )
    nvidia_dgx_source: str = Field(default="", max_length=600)
    liquid_heat_share: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="For a liquid-cooled server, the share of its heat carried away by the "
        "coolant (the rest goes to the room air), from the vendor's figure.",
    )

    @model_validator(mode="after")
    def _liquid_share(self) -> Server:
        if (self.cooling is Cooling.LIQUID) != (self.liquid_heat_share is not None):
            raise ValueError(
                "liquid_heat_share is given for a liquid-cooled server, and only for one"
            )
        return self

    @model_validator(mode="after")
    def _cpu_names(self) -> Server:
        names = [c.name for c in self.cpu_options]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate CPU option names in {names}")
        return self

    def cpu_option(self, name: str | None) -> CpuOption | None:
        """The named processor, or the usual build (the first listed) when none is named."""
        if name is None:
            return self.cpu_options[0] if self.cpu_options else None
        return next((c for c in self.cpu_options if c.name == name), None)


# ------------------------------------------------------------------------------------ storage


class Storage(Product):
    usable_capacity_tb_per_node: PositiveFloat
    read_throughput_gbs_per_node: PositiveFloat = Field(description="GB/s")
    protocols: list[str] = Field(min_length=1)
    gpudirect_storage: bool
    min_nodes: int = Field(default=1, ge=1, le=10_000)
    rack_units_per_node: int = Field(ge=1, le=10)
    power_w_per_node: PositiveFloat | None = Field(
        default=None,
        le=20_000,
        description="Maximum power per node from the vendor's specification, W; None when no "
        "figure is published (the design then says its power is not counted)",
    )


# ------------------------------------------------------------------------------ NICs, switches


class NicKind(StrEnum):
    NIC = "nic"
    DPU = "dpu"


class Nic(Product):
    kind: NicKind
    ports: int = Field(ge=1, le=8)
    port_speed_gbps: PositiveFloat
    pcie_gen: int = Field(ge=3, le=6)
    pcie_lanes: int = Field(ge=1, le=32)
    protocols: list[str] = Field(min_length=1, description="ethernet, infiniband")
    rdma: list[str] = Field(default_factory=list, description="roce-v2, infiniband, iwarp")
    gpudirect_rdma: bool
    gpudirect_rdma_vgpu: bool = Field(
        default=False,
        description="Listed by NVIDIA AI Enterprise among the NICs that carry GPUDirect RDMA "
        "into vGPU VMs (time-sliced or MIG-backed).",
    )
    part_number: str = ""


class SwitchKind(StrEnum):
    ETHERNET = "ethernet"
    INFINIBAND = "infiniband"


class Switch(Product):
    kind: SwitchKind
    ports: int = Field(ge=2, le=512, description="A switch connects at least two ports.")
    port_speed_gbps: PositiveFloat
    rack_units: int = Field(ge=1, le=20)
    power_w: PositiveFloat
    sharp: bool = Field(default=False, description="In-network reduction (SHARP) support.")
    uplink_ports: int = Field(
        default=0,
        ge=0,
        le=64,
        description="Dedicated uplink ports beside the main ones (e.g. 12 x 100 GbE on a 48 x "
        "25 GbE leaf); 0 when uplinks are taken from the main ports.",
    )
    uplink_speed_gbps: PositiveFloat | None = Field(
        default=None, description="Speed of the dedicated uplink ports, Gb/s."
    )
    part_number: str = ""

    @model_validator(mode="after")
    def _uplinks(self) -> Switch:
        if bool(self.uplink_ports) != (self.uplink_speed_gbps is not None):
            raise ValueError("uplink_ports and uplink_speed_gbps go together")
        return self


# ---------------------------------------------------------------------------- liquid cooling


class CduPlacement(StrEnum):
    IN_RACK = "in-rack"  # in the rack it cools, taking rack units and drawing from its PDUs
    IN_ROW = "in-row"  # a floor-standing unit serving several racks of a row


class Cdu(Product):
    """A coolant distribution unit: it takes the heat of direct-liquid-cooled servers from
    their secondary loop into the facility water."""

    placement: CduPlacement
    capacity_kw: float = Field(
        gt=0,
        le=10_000,
        allow_inf_nan=False,
        description="Heat it moves into the facility water at its rated conditions, kW",
    )
    rack_units: int | None = Field(
        default=None, ge=1, le=20, description="Height of an in-rack unit; None in a row"
    )
    power_w: PositiveFloat | None = Field(
        default=None, le=100_000, description="Maximum power of its pumps and controls, W"
    )
    facility_delta_t_c: float = Field(
        gt=0,
        le=40,
        allow_inf_nan=False,
        description="Facility water temperature rise at the rated capacity, degrees C: the "
        "flow it needs follows from it (heat = flow x density x specific heat x rise)",
    )
    facility_flow_lpm: PositiveFloat | None = Field(
        default=None, le=100_000, description="Facility water flow the vendor states, l/min"
    )
    part_number: str = ""

    @model_validator(mode="after")
    def _units(self) -> Cdu:
        if (self.placement is CduPlacement.IN_RACK) != (self.rack_units is not None):
            raise ValueError("rack_units is given for an in-rack unit, and only for one")
        return self


# ---------------------------------------------------------------------------------- licences


class LicenceUnit(StrEnum):
    PER_GPU = "per-gpu"
    PER_CORE = "per-core"
    PER_SOCKET = "per-socket"
    PER_HOST = "per-host"


class Licence(Sourced):
    vendor: str
    name: str
    unit: LicenceUnit
    min_units: int = Field(
        default=1, ge=1, description="Minimum units per licensing object (e.g. 16 cores per CPU)."
    )
    term: str = Field(description="e.g. subscription 1-5 years, perpetual")
    part_number: str = ""


# ---------------------------------------------------------------------------------- software


# Kubernetes software an NVIDIA AI Enterprise release may list beside its drivers
KubernetesSoftware = Literal["gpu-operator", "network-operator", "nim-operator", "run-ai"]


class SoftwareRelease(Sourced):
    """One NVIDIA AI Enterprise infrastructure release and the branches it pins together."""

    name: str
    release: str = Field(description="The release whose component versions are quoted, e.g. 5.3")
    vgpu_branch: int = Field(ge=10, le=99, description="NVIDIA vGPU software branch, e.g. 17")
    vgpu_version: str = Field(default="", description="vGPU host and guest driver version")
    driver_branch: str = Field(pattern=r"^R\d{3}$", description="Data Center driver branch")
    driver_version: str = ""
    gpu_operator: str = ""
    network_operator: str = ""
    gpu_architectures: list[str] = Field(
        default_factory=list,
        max_length=16,
        description="GPU architectures the release supports (as the GPU catalog names them, "
        "e.g. Hopper); empty means the source does not say.",
    )
    mig_time_sliced_architectures: list[str] = Field(
        default_factory=list,
        max_length=16,
        description="Architectures on which this release time-slices several vGPUs inside one "
        "MIG instance (time-sliced, MIG-backed vGPU).",
    )
    vsphere: str = Field(default="", max_length=200, description="vSphere releases supported.")
    branch: Literal["", "ltsb", "pb"] = Field(
        default="",
        description="Driver branch type: 'ltsb' long-term support branch, 'pb' production "
        "branch; empty when the source does not say.",
    )
    released: dt.date | None = Field(default=None, description="Release date of `release`.")
    end_of_support: dt.date | None = Field(
        default=None,
        description="Last day NVIDIA supports the branch (its end of life); None when unknown.",
    )
    nim_operator: str = ""
    vsphere_releases: list[str] = Field(
        default_factory=list,
        max_length=16,
        description="vSphere releases the release supports, as the design names them (8.0u2, "
        "8.0u3, 9.0, 9.1); empty when the source does not say.",
    )
    vsphere_nvswitch_architectures: list[str] = Field(
        default_factory=list,
        max_length=16,
        description="Architectures whose HGX NVSwitch boards the release runs under vSphere with "
        "time-sliced vGPU (on Blackwell this takes the Fabric Manager component for ESXi).",
    )
    gpudirect_vgpu_nics: list[str] = Field(
        default_factory=list,
        max_length=16,
        description="The NICs this release's GPUDirect RDMA page names for GPUDirect RDMA into "
        "vGPU VMs, as the start of their model names (ConnectX, ConnectX-7, BlueField); empty "
        "when the page was not read, and each NIC's own listing (gpudirect_rdma_vgpu) holds.",
    )
    gpudirect_vgpu_source: str = Field(default="", max_length=1500)
    lifecycle_source: str = Field(default="", max_length=3000)
    run_ai: str = Field(default="", description="NVIDIA Run:ai version the release lists.")
    kubernetes_software: list[KubernetesSoftware] = Field(
        default_factory=list,
        max_length=8,
        description="Kubernetes software the release's notes list (GPU Operator, Network "
        "Operator, NIM Operator, Run:ai); empty when its table was not read, so the release "
        "does not say.",
    )
    kubernetes_software_source: str = Field(default="", max_length=3000)

    def supports(self, architecture: str) -> bool | None:
        """Whether the release supports GPUs of ``architecture``; None when it does not say."""
        if not self.gpu_architectures:
            return None
        return architecture in self.gpu_architectures

    def lists(self, software: KubernetesSoftware) -> bool | None:
        """Whether the release's notes list ``software``; None when they were not read."""
        if not self.kubernetes_software:
            return None
        return software in self.kubernetes_software


# ------------------------------------------------------------------------------ the catalog


class Parts(Protocol):
    """The catalog's hardware and licences without its model presets and software releases:
    what the build-out reads (topology, fabric, racks, power, cooling and the bill). It reads
    these kinds whole, since every line of the bill is checked against its entry; a Catalog is
    one, and a stage test may build one holding only the entries it needs."""

    @property
    def gpus(self) -> Mapping[str, Gpu]: ...
    @property
    def servers(self) -> Mapping[str, Server]: ...
    @property
    def storage(self) -> Mapping[str, Storage]: ...
    @property
    def nics(self) -> Mapping[str, Nic]: ...
    @property
    def switches(self) -> Mapping[str, Switch]: ...
    @property
    def licences(self) -> Mapping[str, Licence]: ...
    @property
    def cooling(self) -> Mapping[str, Cdu]: ...


class Catalog(Strict):
    """Everything the engine sizes against, keyed by id."""

    gpus: dict[str, Gpu]
    servers: dict[str, Server]
    storage: dict[str, Storage]
    nics: dict[str, Nic]
    switches: dict[str, Switch]
    licences: dict[str, Licence]
    models: dict[str, ModelPreset]
    software: dict[str, SoftwareRelease]
    cooling: dict[str, Cdu] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _board_nics_known(self) -> Catalog:
        for gpu in self.gpus.values():
            if gpu.board_nic is not None and gpu.board_nic not in self.nics:
                raise ValueError(
                    f"gpus.{gpu.id}.board_nic: '{gpu.board_nic}' is not a NIC of the catalog"
                )
        return self

    def nic_of(self, ref: str | None) -> Nic | None:
        """The NIC a design names (its hardware's ``nic``), None for none or one the catalog
        lacks: every stage and reader that reads the chosen NIC looks it up here."""
        return self.nics.get(ref) if ref else None

    def servers_for_gpu(self, gpu: Gpu) -> list[Server]:
        """Servers that can physically hold at least one of this GPU."""
        return [s for s in self.servers.values() if max_boards(s, gpu) > 0]


def max_boards(server: Server, gpu: Gpu) -> int:
    """How many boards of ``gpu`` fit in ``server``: by form factor, slot width, TDP, HGX board
    and the vendor's qualified list. Multiply by ``gpu.gpus_per_board`` for GPUs."""
    if server.pcie_topology is PcieTopology.HGX and (
        gpu.form_factor is not FormFactor.SXM or gpu.id not in server.hgx_gpus
    ):
        return 0
    if server.qualified_gpus and gpu.id not in server.qualified_gpus:
        return 0
    best = 0
    for support in server.gpu_support:
        if support.form_factor != gpu.form_factor:
            continue
        if gpu.form_factor is not FormFactor.SXM and gpu.slot_width > support.slot_width:
            continue
        if support.max_gpu_tdp_w is not None and gpu.tdp_w > support.max_gpu_tdp_w:
            continue
        best = max(best, support.max_gpus)
    return best


CATALOG_KINDS: dict[str, type[Sourced]] = {
    "gpus": Gpu,
    "servers": Server,
    "storage": Storage,
    "nics": Nic,
    "switches": Switch,
    "licences": Licence,
    "models": ModelPreset,
    "software": SoftwareRelease,
    "cooling": Cdu,
}
