"""A GPU as the catalog holds it: its memory, bandwidth and peak throughput by precision, its
NVLink, and the MIG and vGPU profiles NVIDIA publishes for it."""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field, model_validator

from wizard.model.catalog_base import Identifier, NonNegativeFloat, PositiveFloat, Sourced, Strict

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
    bridge_part_number: str = Field(
        default="",
        max_length=40,
        description="NVIDIA's ordering number of the bridge board the bill orders; '' where no "
        "source read gives one (the entry then lists nvlink.bridge_part_number as unsettled).",
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
