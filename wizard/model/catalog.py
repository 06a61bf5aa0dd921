"""Catalog schemas: the hardware, software and model data the engine sizes against.

Every entry carries a ``source`` so that any figure in a report can be traced to a datasheet,
a vendor document or a paper. Figures that are derived (computed from other published figures)
or third party (not from the vendor) say so in ``source_note``.
"""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from wizard.model.text import plain_text

Identifier = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9._-]{0,63}$")]
# Finite bounds on every catalog figure: 1e-6 to 1e15 holds every real one (parameters up to
# 1e14) and keeps a typo (1e308, a subnormal) out of the arithmetic.
PositiveFloat = Annotated[float, Field(ge=1e-6, le=1e15, allow_inf_nan=False)]
NonNegativeFloat = Annotated[float, Field(ge=0, le=1e15, allow_inf_nan=False)]


class Strict(BaseModel):
    """Base for everything read from a file: unknown keys are errors, not silently dropped; its
    text passes the same gate as a design's (no control character but tab and newline)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @model_validator(mode="after")
    def _plain_text(self) -> Strict:
        for name in type(self).model_fields:
            value = getattr(self, name)
            if isinstance(value, str):
                try:
                    plain_text(value)
                except ValueError as exc:
                    raise ValueError(f"{name}: {exc}") from None
        return self


class Sourced(Strict):
    id: Identifier
    source: str = Field(min_length=3, description="Datasheet, vendor document or paper.")
    source_note: str = Field(
        default="",
        description="How a figure was obtained when it is derived or third party.",
    )
    unsettled: list[Annotated[str, Field(pattern=r"^[a-z0-9_]+(\.[a-z0-9_]+)?$")]] = Field(
        default_factory=list,
        max_length=40,
        description="Figures the vendor does not publish or that are estimated, third party or "
        "left out (e.g. power_w_per_node, tflops.fp32): each is a field of the entry and is "
        "explained in source_note, so a reader knows which numbers to confirm.",
    )

    @model_validator(mode="after")
    def _unsettled_are_fields(self) -> Sourced:
        for path in self.unsettled:
            head, _, tail = path.partition(".")
            if head not in type(self).model_fields:
                raise ValueError(f"unsettled: {path!r} is not a figure of this entry")
            if tail:
                inner = type(self).model_fields[head].annotation
                fields = getattr(inner, "model_fields", None)
                if fields is None:
                    args = [a for a in getattr(inner, "__args__", ()) if hasattr(a, "model_fields")]
                    fields = args[0].model_fields if args else {}
                if tail not in fields:
                    raise ValueError(f"unsettled: {path!r} is not a figure of this entry")
        return self


class Product(Sourced):
    """A catalog entry sold under a vendor's model name (server, NIC, switch, storage, CDU)."""

    vendor: str
    model: str

    @property
    def product_name(self) -> str:
        """The name an order and a proposal give it: vendor, then model."""
        return f"{self.vendor} {self.model}"


# --------------------------------------------------------------------------------------- GPUs


class FormFactor(StrEnum):
    PCIE = "pcie"
    SXM = "sxm"


class NvlinkKind(StrEnum):
    NONE = "none"
    BRIDGE = "bridge"  # NVLink bridge between adjacent PCIe boards
    SXM = "sxm"  # NVLink on an HGX baseboard, usually through NVSwitch


class Nvlink(Strict):
    kind: NvlinkKind = NvlinkKind.NONE
    generation: int | None = Field(default=None, ge=1, le=6)
    bandwidth_gbs: NonNegativeFloat = Field(
        default=0, description="Total bidirectional NVLink bandwidth per GPU, GB/s."
    )
    max_gpus_bridged: int = Field(
        default=0, ge=0, le=8, description="GPUs joined by bridges (2 or 4); 0 if none."
    )
    bridges_per_group: int = Field(
        default=1,
        ge=1,
        le=4,
        description="Bridge boards one bridged group needs for the stated bandwidth (an A100 "
        "PCIe pair takes three); counted in the bill of materials.",
    )

    @model_validator(mode="after")
    def _consistent(self) -> Nvlink:
        if self.kind is NvlinkKind.NONE and self.bandwidth_gbs:
            raise ValueError("bandwidth_gbs must be 0 when kind is 'none'")
        if self.kind is not NvlinkKind.NONE and (not self.generation or not self.bandwidth_gbs):
            raise ValueError("generation and bandwidth_gbs are required when NVLink is present")
        return self


class Tflops(Strict):
    """Dense peak throughput per precision (no structured sparsity), TFLOPS or TOPS.

    ``None`` means the GPU has no hardware path for that precision.
    """

    fp64: NonNegativeFloat | None = None
    fp32: PositiveFloat
    tf32: NonNegativeFloat | None = None
    bf16: NonNegativeFloat | None = None
    fp16: NonNegativeFloat | None = None
    fp8: NonNegativeFloat | None = None
    int8: NonNegativeFloat | None = None
    int4: NonNegativeFloat | None = None
    fp4: NonNegativeFloat | None = None  # NVFP4 tensor cores (Blackwell)


class MigProfile(Strict):
    name: str = Field(pattern=r"^\dg\.\d+gb(\+me|\+gfx|-me)?$", description="e.g. 3g.40gb")
    compute_slices: int = Field(ge=1, le=7)
    memory_slices: int = Field(ge=1, le=8)
    memory_gb: PositiveFloat
    max_count: int = Field(ge=1, le=7)
    placement_starts: list[int] = Field(min_length=1)
    placement_size: int = Field(
        ge=1, le=8, description="Memory slices a placement of this profile occupies."
    )


class Mig(Strict):
    compute_slices: int = Field(default=7, ge=1, le=7)
    memory_slices: int = Field(default=8, ge=1, le=8)
    profiles: list[MigProfile] = Field(min_length=1)

    @model_validator(mode="after")
    def _placements_fit(self) -> Mig:
        names = [p.name for p in self.profiles]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate MIG profile names in {names}")
        for p in self.profiles:
            for start in p.placement_starts:
                if start < 0 or start + p.placement_size > self.memory_slices:
                    raise ValueError(
                        f"profile {p.name}: placement {start}:{p.placement_size} runs past "
                        f"{self.memory_slices} memory slices"
                    )
            if p.compute_slices > self.compute_slices:
                raise ValueError(f"profile {p.name}: more compute slices than the GPU has")
        return self


class VgpuProfile(Strict):
    """An NVIDIA vGPU C-series (compute) profile that time-slices the whole GPU."""

    name: str = Field(min_length=2, description="e.g. A100-20C")
    framebuffer_gb: PositiveFloat
    max_per_gpu: int = Field(ge=1, le=64, description="Maximum with all vGPUs the same size.")
    max_per_gpu_mixed: int | None = Field(
        default=None,
        ge=0,
        le=64,
        description="Maximum in mixed-size mode where the release supports it; None if not.",
    )


# MIG profile variants and the letters NVIDIA appends to the MIG-backed vGPU type for them
# (NVIDIA vgpu-device-manager's vGPU type grammar: H100-1-10CME, DC-1-24CGFX).
_MIG_TYPE_VARIANTS = (("+me.all", "MEALL"), ("+me", "ME"), ("-me", "NOME"), ("+gfx", "GFX"))


class MigTimeSlicedProfile(Strict):
    """A vGPU type that time-slices one MIG instance among several VMs (Blackwell onwards)."""

    name: str = Field(min_length=2, max_length=40, description="vGPU type, e.g. DC-1-12C")
    mig_profile: str = Field(description="The MIG profile (GPU instance) the vGPUs share.")
    framebuffer_gb: PositiveFloat
    max_per_instance: int = Field(ge=1, le=64, description="vGPUs sharing one MIG instance.")


class Vgpu(Strict):
    profiles: list[VgpuProfile] = Field(min_length=1)
    mixed_size_min_release: str | None = Field(
        default=None, description="First vGPU release supporting mixed sizes on this GPU."
    )
    mig_time_sliced: list[MigTimeSlicedProfile] = Field(
        default_factory=list,
        max_length=64,
        description="Time-sliced, MIG-backed vGPU types; empty where the GPU has none.",
    )
    mig_time_sliced_min_release: str | None = Field(
        default=None, description="First vGPU release with time-sliced, MIG-backed vGPU."
    )

    @property
    def type_prefix(self) -> str:
        """The board's vGPU type prefix ('H100XM' of 'H100XM-80C'), which NVIDIA also puts
        before MIG-backed types ('H100XM-1-10C')."""
        return self.profiles[0].name.rsplit("-", 1)[0]


class Gpu(Sourced):
    name: str
    vendor: str = "NVIDIA"
    architecture: str
    memory_gb: PositiveFloat
    memory_type: str
    memory_bandwidth_gbs: PositiveFloat = Field(description="GB/s")
    tflops: Tflops
    tdp_w: PositiveFloat
    form_factor: FormFactor
    slot_width: int = Field(ge=0, le=4, description="PCIe slots a board occupies; 0 for SXM.")
    pcie_gen: int = Field(ge=3, le=6)
    pcie_lanes: int = Field(default=16, ge=1, le=32)
    nvlink: Nvlink = Field(default_factory=Nvlink)
    mig: Mig | None = None
    vgpu: Vgpu | None = None
    gpus_per_board: int = Field(
        default=1,
        ge=1,
        le=8,
        description="GPUs on one board (A16 has 4). Memory, bandwidth and TFLOPS are per GPU; "
        "TDP, slot width and form factor are per board.",
    )
    nvaie_supported: bool = Field(description="Listed as supported by NVIDIA AI Enterprise.")
    vm_mmio_gb: int | None = Field(
        default=None,
        ge=1,
        le=4096,
        description="64-bit MMIO space a VM needs per GPU of this model, GB, from NVIDIA's table "
        "for GPUs requiring 64 GB or more; None when NVIDIA's table does not list the GPU.",
    )
    vm_mmio_source: str = Field(default="", max_length=600)
    nvaie_included_years: int | None = Field(
        default=None,
        ge=1,
        le=10,
        description="Years of NVIDIA AI Enterprise subscription that ship with each GPU.",
    )
    board_nic: Identifier | None = Field(
        default=None,
        description="The NIC built into the GPU's HGX baseboard, one per GPU (HGX B300: "
        "ConnectX-8): part of the server as ordered, not an add-in card to order.",
    )
    board_nic_source: str = Field(default="", max_length=600)

    @model_validator(mode="after")
    def _time_sliced_mig(self) -> Gpu:
        if self.vgpu and self.vgpu.mig_time_sliced:
            known = {p.name for p in self.mig.profiles} if self.mig else set()
            for p in self.vgpu.mig_time_sliced:
                if p.mig_profile not in known:
                    raise ValueError(
                        f"time-sliced vGPU {p.name}: MIG profile '{p.mig_profile}' is not one "
                        "of this GPU's MIG profiles"
                    )
        return self

    def mig_vgpu_type(self, profile: MigProfile) -> str | None:
        """NVIDIA's MIG-backed vGPU type for a MIG profile: prefix, compute slices, memory and
        C ('H100-3-40C'; media-extension profiles end in CME). None without vGPU."""
        if self.vgpu is None:
            return None
        variant = next((v for k, v in _MIG_TYPE_VARIANTS if profile.name.endswith(k)), "")
        suffix = "C" + variant
        return f"{self.vgpu.type_prefix}-{profile.compute_slices}-{profile.memory_gb:g}{suffix}"

    @property
    def mig_capable(self) -> bool:
        return self.mig is not None

    @property
    def vgpu_capable(self) -> bool:
        return self.vgpu is not None


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
    capacity_kw: PositiveFloat = Field(
        le=10_000, description="Heat it moves into the facility water at its rated conditions, kW"
    )
    rack_units: int | None = Field(
        default=None, ge=1, le=20, description="Height of an in-rack unit; None in a row"
    )
    power_w: PositiveFloat | None = Field(
        default=None, le=100_000, description="Maximum power of its pumps and controls, W"
    )
    facility_delta_t_c: PositiveFloat = Field(
        le=40,
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


# ---------------------------------------------------------------------------------- ML models


class ModelArch(StrEnum):
    TRANSFORMER = "transformer"
    MOE_TRANSFORMER = "moe-transformer"
    CNN = "cnn"


class ModelPreset(Sourced):
    name: str
    family: str
    architecture: ModelArch
    parameters: PositiveFloat = Field(description="Total parameters.")
    active_parameters: PositiveFloat | None = Field(
        default=None, description="Parameters used per token (mixture of experts)."
    )
    experts: int | None = Field(
        default=None, ge=2, le=4096, description="Routed experts per MoE layer."
    )
    experts_per_token: int | None = Field(
        default=None, ge=1, le=4096, description="Routed experts each token uses per layer."
    )
    tied_embeddings: bool = Field(
        default=False, description="The output projection reuses the input embedding."
    )
    layers: int = Field(ge=1, le=10_000)
    hidden_size: int | None = Field(default=None, ge=1, le=1_000_000)
    ffn_hidden_size: int | None = Field(default=None, ge=1, le=10_000_000)
    heads: int | None = Field(default=None, ge=1, le=10_000)
    kv_heads: int | None = Field(default=None, ge=1, le=10_000)
    vocab_size: int | None = Field(default=None, ge=1, le=10_000_000)
    max_context: int | None = Field(default=None, ge=1, le=100_000_000)
    head_dim: int | None = Field(
        default=None,
        ge=1,
        le=100_000,
        description="Width of one attention head where it is not hidden_size / heads (Qwen3, "
        "gpt-oss, Mistral Small 3); it sets the KV cache per KV head.",
    )
    kv_latent_dim: int | None = Field(
        default=None,
        ge=1,
        le=1_000_000,
        description="Multi-head latent attention: values cached per token per layer (DeepSeek-V3: "
        "kv_lora_rank 512 + qk_rope_head_dim 64 = 576), in place of 2 x kv_heads x head_dim.",
    )
    sliding_window: int | None = Field(
        default=None,
        ge=1,
        le=100_000_000,
        description="Tokens a sliding-window layer attends to, so all its KV cache holds.",
    )
    sliding_window_layers: int | None = Field(
        default=None,
        ge=1,
        le=10_000,
        description="Layers using the sliding window; the others attend to the whole context.",
    )
    int4_weight_bytes: float | None = Field(
        default=None,
        ge=0.5,
        le=2,
        allow_inf_nan=False,
        description="Bytes per parameter of the model's own 4-bit checkpoint (block scales and "
        "the tensors it keeps in 16 bits included), used at int4 in place of 0.5.",
    )
    forward_gflops_per_sample: PositiveFloat | None = Field(
        default=None, description="Non-transformer presets: forward FLOPs for one sample."
    )
    activation_gb_per_sample: PositiveFloat | None = Field(
        default=None, description="Non-transformer presets: training activations per sample."
    )
    sample_bytes: PositiveFloat | None = Field(
        default=None, description="Typical stored size of one training sample."
    )
    relative_utilization: PositiveFloat | None = Field(
        default=None,
        le=2,
        description="Measured training utilization of this model over the transformer default "
        "(0.5): convolutions and normalisation reach a smaller share of peak than an LLM's "
        "matrix products. None: 1.",
    )
    relative_utilization_source: str | None = None

    @model_validator(mode="after")
    def _shape(self) -> ModelPreset:
        if self.architecture is ModelArch.CNN:
            if self.forward_gflops_per_sample is None:
                raise ValueError("CNN presets need forward_gflops_per_sample")
        else:
            missing = [
                f
                for f in ("hidden_size", "heads", "kv_heads", "vocab_size")
                if getattr(self, f) is None
            ]
            if missing:
                raise ValueError(f"transformer presets need {', '.join(missing)}")
            if self.heads and self.kv_heads and self.heads % self.kv_heads:
                raise ValueError("heads must be a multiple of kv_heads")
        if (self.sliding_window is None) != (self.sliding_window_layers is None):
            raise ValueError("give both sliding_window and sliding_window_layers, or neither")
        if self.sliding_window_layers is not None and self.sliding_window_layers > self.layers:
            raise ValueError("sliding_window_layers cannot exceed layers")
        if self.kv_latent_dim is not None and self.sliding_window is not None:
            raise ValueError("the KV cache formula for latent attention has no sliding window")
        if (self.experts is None) != (self.experts_per_token is None):
            raise ValueError("give both experts and experts_per_token, or neither")
        if self.experts is not None and self.experts_per_token is not None:
            if self.experts_per_token >= self.experts:
                raise ValueError("experts_per_token must be fewer than experts")
            if self.active_parameters is None or self.active_parameters >= self.parameters:
                raise ValueError("an MoE preset needs active_parameters below parameters")
        return self


# ------------------------------------------------------------------------------ the catalog


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
