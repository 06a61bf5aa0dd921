"""The Design: every answer the wizard collects, and the whole content of a design file.

The Design is the single source of truth: wizard pages edit it, the CLI loads it, the engine sizes
it. Anything read from a file forbids unknown fields, so a typo is an error rather than an answer
silently ignored.
"""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from typing import Annotated

from pydantic import (
    AfterValidator,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from wizard.base.errors import field_path
from wizard.model.assumptions import (
    Assumptions,
)
from wizard.model.calibration import RANGES
from wizard.model.existing import ExistingEstate
from wizard.model.fields import (  # noqa: F401 - the design's parts, named here too
    MAX_GROUP_COUNT,
    MAX_PARAMETERS,
    Fraction,
    Model,
    Name,
    Positive,
    Ref,
    Short,
    Text,
)
from wizard.model.text import plain_text
from wizard.model.workloads import (  # noqa: F401 - the design's parts, named here too
    MIG_MODES,
    SECONDS_PER_HOUR,
    AttentionKernel,
    Constraints,
    CustomModel,
    FineTuning,
    FineTuningMethod,
    Inference,
    LoraTargets,
    ModelChoice,
    Optimizer,
    Parallelism,
    PeopleDemand,
    Precision,
    Recompute,
    SharedUse,
    SharingMode,
    Training,
    TrainingStack,
    WorkloadGroup,
    WorkloadKind,
)

SCHEMA_VERSION = 3

# --------------------------------------------------------------------------------- project


class ProjectInfo(Model):
    # The cover sets these in one table cell each: 200 characters is the most it is proven
    # (by a test) to hold on a page, as for a group's name.
    customer: Short = ""
    project_name: Short = ""
    architect: Short = ""
    date: dt.date | None = None
    logo_path: str | None = Field(default=None, max_length=4096)
    currency: str = Field(default="EUR", pattern=r"^[A-Z]{3}$")
    notes: Text = ""

    @field_validator("logo_path")
    @classmethod
    def _logo_path(cls, value: str | None) -> str | None:
        """Only the path is known at load; the report checks the file itself. A NUL or other
        control character cannot name a file and makes path functions raise."""
        if value is None:
            return None
        if not value.strip():
            raise ValueError("logo_path is empty; leave it out for no logo")
        bad = next((c for c in value if ord(c) < 32 or ord(c) == 127), None)
        if bad is not None:
            raise ValueError(f"control character {bad!r} in the logo path")
        return value

    @field_validator("date")
    @classmethod
    def _date(cls, value: dt.date | None) -> dt.date | None:
        """A proposal's date is of this era: year 0026 is a typo (and no Word document can
        carry it)."""
        if value is not None and not 2000 <= value.year <= 2100:
            raise ValueError(f"{value.isoformat()} is not a date between 2000 and 2100")
        return value


# -------------------------------------------------------------------------------- hardware


class Fabric(StrEnum):
    GBE_10 = "10gbe"
    GBE_25 = "25gbe"
    GBE_40 = "40gbe"
    GBE_100 = "100gbe"
    GBE_200 = "200gbe"
    GBE_400 = "400gbe"
    GBE_800 = "800gbe"
    IB_HDR = "ib-hdr"
    IB_NDR = "ib-ndr"
    IB_XDR = "ib-xdr"


FABRIC_GBPS: dict[Fabric, float] = {
    Fabric.GBE_10: 10,
    Fabric.GBE_25: 25,
    Fabric.GBE_40: 40,
    Fabric.GBE_100: 100,
    Fabric.GBE_200: 200,
    Fabric.GBE_400: 400,
    Fabric.GBE_800: 800,
    Fabric.IB_HDR: 200,
    Fabric.IB_NDR: 400,
    Fabric.IB_XDR: 800,
}


def is_infiniband(fabric: Fabric) -> bool:
    """Whether the fabric speaks InfiniBand rather than Ethernet, in one place: the RDMA rules,
    the switch family and the NIC check all follow it."""
    return fabric in (Fabric.IB_HDR, Fabric.IB_NDR, Fabric.IB_XDR)


class Rdma(StrEnum):
    NONE = "none"
    ROCE = "roce-v2"
    INFINIBAND = "infiniband"
    PVRDMA = "pvrdma"


class Hardware(Model):
    gpu: Ref
    server: Ref
    gpus_per_host: int = Field(ge=1, le=16)
    cpu: str | None = Field(
        default=None,
        min_length=1,
        max_length=120,
        description="Processor, one of the server's CPU options by name; None takes the "
        "server's usual AI build (the first listed).",
    )
    nic: Ref | None = None
    nics_per_host: int = Field(default=1, ge=0, le=16)
    fabric: Fabric = Fabric.GBE_25
    rdma: Rdma = Rdma.NONE
    gpudirect_rdma: bool = False
    nvlink: bool = Field(default=False, description="NVLink bridges, or the HGX NVSwitch board.")
    storage: Ref | None = None
    vgpu_mixed_sizes: bool = Field(
        default=False, description="The vGPU release and platform allow mixed-size vGPUs."
    )
    mig_time_slicing: bool = Field(
        default=False,
        description="Time-sliced, MIG-backed vGPU: several VMs share one MIG instance by time "
        "slices (Blackwell GPUs that list such vGPU types, on a release that supports it).",
    )
    service_fabric: Fabric = Field(
        default=Fabric.GBE_25,
        description="Ethernet speed of the host ports for management, vMotion and storage "
        "(the service network, apart from the GPU fabric).",
    )
    service_ports_per_host: int = Field(
        default=2,
        ge=0,
        le=8,
        description="Service-network ports per host, on an OCP or PCIe adapter the bill names "
        "(none where the server's catalog entry states onboard ports of that speed); 2 gives "
        "a redundant pair. 0 carries that traffic on the GPU fabric NICs.",
    )
    reasons: dict[Annotated[str, Field(max_length=40)], Annotated[str, Field(max_length=2000)]] = (
        Field(
            default_factory=dict,
            max_length=20,
            description="Why Recommend for me chose this hardware, by choice (gpu, server, "
            "fabric, ...); kept with the design and dropped when the hardware is edited",
        )
    )

    @model_validator(mode="after")
    def _rdma(self) -> Hardware:
        ib = is_infiniband(self.fabric)
        if ib and self.rdma is Rdma.ROCE:
            raise ValueError("RoCE runs over Ethernet, not an InfiniBand fabric")
        if not ib and self.rdma is Rdma.INFINIBAND:
            raise ValueError(f"InfiniBand RDMA needs an InfiniBand fabric, not {self.fabric.value}")
        if self.gpudirect_rdma and self.rdma is Rdma.NONE:
            raise ValueError("GPUDirect RDMA needs RDMA (RoCE v2 or InfiniBand)")
        if is_infiniband(self.service_fabric):
            raise ValueError(
                f"service_fabric carries management and vMotion, so it is Ethernet, not "
                f"{self.service_fabric.value}"
            )
        return self


# ------------------------------------------------------------------------------------- HA


class HaLevel(StrEnum):
    N0 = "n+0"
    N1 = "n+1"
    N2 = "n+2"
    PERCENT = "percent"


class FailureDomain(StrEnum):
    HOST = "host"
    RACK = "rack"


class AdmissionControl(StrEnum):
    HOST_FAILURES = "host-failures"  # cluster resource percentage from tolerated host failures
    PERCENTAGE = "percentage"  # a fixed percentage reserved
    DEDICATED_FAILOVER = "dedicated-failover"  # named standby hosts
    DISABLED = "disabled"


class HaPolicy(Model):
    level: HaLevel = HaLevel.N1
    reserve_percent: float = Field(default=0, ge=0, le=90, allow_inf_nan=False)
    maintenance_hosts: int = Field(default=0, ge=0, le=100)
    failure_domain: FailureDomain = FailureDomain.HOST
    hosts_per_rack: int | None = Field(default=None, ge=1, le=64)
    admission_control: AdmissionControl = AdmissionControl.HOST_FAILURES
    passthrough_spares: bool = Field(
        default=True,
        description="Reserve GPUs for passthrough VMs, which restart elsewhere instead of moving.",
    )

    @model_validator(mode="after")
    def _percent(self) -> HaPolicy:
        if self.level is HaLevel.PERCENT and self.reserve_percent <= 0:
            raise ValueError("level 'percent' needs reserve_percent above 0")
        if self.level is not HaLevel.PERCENT and self.reserve_percent:
            raise ValueError(
                f"reserve_percent is only used with level 'percent', not '{self.level.value}'"
            )
        return self


# ------------------------------------------------------------------------ data and platform


class DataPlan(Model):
    """What the shared storage must hold and feed. Defaults are stated assumptions."""

    dataset_gb: Positive | None = Field(
        default=None,
        le=1e12,
        description="Training data on shared storage, GB (one version). Replaces the size derived "
        "from the workloads (samples x bytes per sample, tokens x bytes per token).",
    )
    dataset_versions: int = Field(
        default=2, ge=1, le=1000, description="Versions of the dataset kept (current + previous)."
    )
    checkpoint_copies: int = Field(
        default=3, ge=0, le=10_000, description="Checkpoints kept per training job."
    )
    growth_headroom: float = Field(
        default=0.25,
        ge=0,
        le=100,
        allow_inf_nan=False,
        description="Capacity added for growth, as a share of the need (0.25 = 25 %).",
    )
    read_gbs_per_gpu: float = Field(
        default=0,
        ge=0,
        le=1000,
        allow_inf_nan=False,
        description="Read throughput, GB/s, each GPU of a group not sized from a model needs "
        "(development, HPC, capacity-analysis groups); 0 when unknown.",
    )
    storage_nodes: int | None = Field(
        default=None,
        ge=1,
        le=100_000,
        description="Storage nodes to check against the need; None lets the engine size them.",
    )


class KubernetesPlatform(StrEnum):
    NONE = "none"
    VKS = "vks"  # vSphere Kubernetes Service (formerly Tanzu Kubernetes Grid Service)
    OPENSHIFT = "openshift"  # Red Hat OpenShift Container Platform on vSphere VMs
    UPSTREAM = "upstream"  # upstream Kubernetes on VMs


class VsphereRelease(StrEnum):
    V8_0 = "8.0"  # vSphere 8.0 GA or Update 1
    V8_0_U2 = "8.0u2"
    V8_0_U3 = "8.0u3"
    V9_0 = "9.0"  # VMware Cloud Foundation 9.0 (ESXi 9.0)
    V9_1 = "9.1"  # VMware Cloud Foundation 9.1


VSPHERE_LABELS = {
    VsphereRelease.V8_0: "vSphere 8.0 or 8.0 Update 1",
    VsphereRelease.V8_0_U2: "vSphere 8.0 Update 2",
    VsphereRelease.V8_0_U3: "vSphere 8.0 Update 3",
    VsphereRelease.V9_0: "VMware Cloud Foundation 9.0 (vSphere 9.0)",
    VsphereRelease.V9_1: "VMware Cloud Foundation 9.1 (vSphere 9.1)",
}
# Releases in the order they came out, for "this release or later" rules
VSPHERE_ORDER = tuple(VsphereRelease)


def vsphere_at_least(release: VsphereRelease, minimum: VsphereRelease) -> bool:
    return VSPHERE_ORDER.index(release) >= VSPHERE_ORDER.index(minimum)


class PlatformChoice(Model):
    """The software platform the GPUs are consumed through."""

    vsphere: VsphereRelease = Field(
        default=VsphereRelease.V9_0,
        description="vSphere release of the GPU hosts; mixed-size vGPU needs 8.0 Update 3 or later.",
    )
    private_ai_foundation: bool = Field(
        default=False,
        description="VMware Private AI Foundation with NVIDIA, the add-on to VMware Cloud "
        "Foundation licensed per core beside VCF (NVIDIA AI Enterprise stays per GPU).",
    )
    kubernetes: KubernetesPlatform = Field(
        default=KubernetesPlatform.NONE,
        description="Kubernetes on the VMs, which decides how the NVIDIA operators are installed.",
    )
    nvaie_release: Ref | None = Field(
        default=None,
        description="NVIDIA AI Enterprise release (software catalog id); None picks the newest "
        "that supports the design's GPU, platform and sharing modes and whose support outlives "
        "the service period, preferring a long-term support branch.",
    )
    vsan_principal_storage: bool = Field(
        default=True,
        description="The GPU cluster's principal storage (for the VMs themselves) is vSAN: a "
        "VMware Cloud Foundation workload domain cluster then needs 3 hosts, else 2 (NFS, VMFS "
        "on FC or vVols with vSphere Lifecycle Manager images).",
    )
    service_years: int = Field(
        default=3,
        ge=1,
        le=10,
        description="Years the platform is to run from the proposal's date on the release it "
        "starts with; the default release is one whose support lasts that long.",
    )


# -------------------------------------------------------------------------------- licensing


DEFAULT_CORES_PER_SOCKET = 32


class Licensing(Model):
    """Software licences in the bill of materials; ``None`` leaves a licence out."""

    gpu_software: Ref | None = Field(
        default="nvidia-ai-enterprise", description="Licence catalog id counted per GPU."
    )
    platform: Ref | None = Field(
        default="vmware-vcf", description="Virtualization platform licence catalog id."
    )
    cores_per_socket: int | None = Field(
        default=None,
        ge=1,
        le=1024,
        description="CPU cores per socket, overriding the chosen processor's count for per-core "
        "platform licences. Unset: the processor's cores, or "
        f"{DEFAULT_CORES_PER_SOCKET} when the catalog lists no processor for the server.",
    )


# ------------------------------------------------------------------------------------ costs

# Uptime Institute Global Data Center Survey 2024: average annual PUE of the surveyed data
# centres 1.56, flat since 2020.
DEFAULT_PUE = 1.56


class CostInputs(Model):
    """What turns the priced bill of materials into a cost of ownership. Prices come only from
    the user's price list; where no honest default exists, the field is empty and the cost it
    drives is left out and said to be."""

    years: int = Field(default=3, ge=1, le=15, description="Years of ownership to total.")
    energy_price: float | None = Field(
        default=None, ge=0, le=100, allow_inf_nan=False,
        description="Price of one kWh in the price list's currency; empty leaves power out.",
    )  # fmt: skip
    pue: float = Field(
        default=DEFAULT_PUE, ge=1, le=4, allow_inf_nan=False,
        description="Power usage effectiveness: facility power over IT power (Uptime Institute "
        "survey 2024 average: 1.56).",
    )  # fmt: skip
    average_load: float = Field(
        default=1.0, gt=0, le=1, allow_inf_nan=False,
        description="Average draw as a share of the planning maximum; 1 is the upper bound.",
    )  # fmt: skip
    support_share: float | None = Field(
        default=None, ge=0, le=1, allow_inf_nan=False,
        description="Hardware support per year as a share of the hardware price; empty leaves "
        "it out (support is often in the quote).",
    )  # fmt: skip


# ---------------------------------------------------------------------------------- design


class ClusterRole(StrEnum):
    """What a cluster of the design is for."""

    GPU = "gpu-cluster"  # GPU hosts running workload groups (or a GPU pool serving remote clients)
    COMPUTE = (
        "compute-cluster"  # hosts without GPUs, e.g. the clients of a network-attached GPU pool
    )
    MANAGEMENT = "management-domain"  # the VMware Cloud Foundation management domain


class ClusterSpec(Model):
    """A further cluster of the design. vSphere HA works per cluster, so each has its own policy.
    A GPU cluster has hardware like the design's first; a compute or management cluster has a
    server model and a host count (a management domain is raised to the platform's minimum)."""

    name: Name
    role: ClusterRole = ClusterRole.GPU
    hardware: Hardware | None = None
    ha: HaPolicy = Field(default_factory=HaPolicy)
    server: Ref | None = Field(
        default=None, description="Host model of a compute or management cluster."
    )
    hosts: int | None = Field(
        default=None,
        ge=1,
        le=2500,
        description="Hosts of a compute cluster; of a management domain, more than its minimum.",
    )
    cpu: str | None = Field(default=None, max_length=100, description="Processor option")

    @model_validator(mode="after")
    def _fits_role(self) -> ClusterSpec:
        if self.role is ClusterRole.GPU:
            if self.hardware is None:
                raise ValueError(f"cluster '{self.name}': a GPU cluster needs its hardware")
            if self.server is not None or self.hosts is not None:
                raise ValueError(
                    f"cluster '{self.name}': a GPU cluster takes its server and host count from "
                    "its hardware and workloads, not from 'server' or 'hosts'"
                )
        else:
            if self.hardware is not None:
                raise ValueError(
                    f"cluster '{self.name}': a {self.role.value.replace('-', ' ')} has no GPU hardware; "
                    "give its server instead"
                )
            if self.server is None:
                raise ValueError(f"cluster '{self.name}': give the server model of its hosts")
            if self.role is ClusterRole.COMPUTE and self.hosts is None:
                raise ValueError(f"cluster '{self.name}': give how many hosts it has")
        return self


AS_DESIGNED = "As designed"
# the sections an option holds in place of the design's
OPTION_SECTIONS = ("workloads", "hardware", "ha", "cluster_name", "clusters")


class GroupChange(Model):
    """What an option changes in one workload group, named as in the design."""

    group: Name
    sharing_mode: SharingMode | None = None
    precision: Precision | None = None
    cluster: Name | None = None


class DesignOption(Model):
    """A named alternative to the design: the sections it replaces and the groups it changes;
    everything else is the design's own. An option saved from the wizard is a snapshot: it
    holds its workload groups whole, so a later edit of the design leaves it as saved."""

    name: Name
    note: Annotated[str, AfterValidator(plain_text)] = Field(
        default="", max_length=2000, description="What the option is, in words"
    )
    workloads: list[WorkloadGroup] | None = Field(
        default=None,
        max_length=1000,
        description="The workload groups as the option has them, whole; None: the design's, "
        "with the changes under 'groups'.",
    )
    hardware: Hardware | None = None
    ha: HaPolicy | None = None
    cluster_name: Name | None = None
    clusters: list[ClusterSpec] | None = Field(default=None, max_length=32)
    groups: list[GroupChange] = Field(default_factory=list, max_length=1000)


def _unique(what: str, names: list[str]) -> None:
    """Names are told apart as people read them: already NFC-normalised by the text gate, and
    compared here without case, so 'Chat' and 'chat' (which print alike in a table heading) are
    one name."""
    seen: dict[str, str] = {}
    for name in names:
        first = seen.get(name.casefold())
        if first is None:
            seen[name.casefold()] = name
            continue
        if first == name:
            raise ValueError(f"{what} '{name}' is used twice")
        raise ValueError(
            f"{what} '{name}' is '{first}' in another case; names are compared without case"
        )


class Design(Model):
    schema_version: int = Field(default=SCHEMA_VERSION, ge=1)
    project: ProjectInfo = Field(default_factory=ProjectInfo)
    workloads: list[WorkloadGroup] = Field(default_factory=list, max_length=1000)
    hardware: Hardware
    ha: HaPolicy = Field(default_factory=HaPolicy)
    cluster_name: Name = Field(
        default="GPU cluster", description="Name of the GPU cluster 'hardware' describes."
    )
    clusters: list[ClusterSpec] = Field(
        default_factory=list,
        max_length=32,
        description="Further clusters: more GPU clusters, compute clusters, the management domain.",
    )
    existing: ExistingEstate = Field(
        default_factory=ExistingEstate,
        description="What the customer already runs, as imported: kept, not bought.",
    )
    assumptions: Assumptions = Field(default_factory=Assumptions)
    data: DataPlan = Field(default_factory=DataPlan)
    platform: PlatformChoice = Field(default_factory=PlatformChoice)
    licensing: Licensing = Field(default_factory=Licensing)
    costs: CostInputs = Field(default_factory=CostInputs)
    options: list[DesignOption] = Field(
        default_factory=list,
        max_length=8,
        description="Alternatives compared side by side with the design as it stands.",
    )
    proposed: Name | None = Field(
        default=None,
        description="The option proposed to the customer, by name; None proposes the design as "
        "it stands.",
    )

    @field_validator("workloads")
    @classmethod
    def _unique_names(cls, groups: list[WorkloadGroup]) -> list[WorkloadGroup]:
        _unique("workload group name", [g.name for g in groups])
        return groups

    @model_validator(mode="after")
    def _cluster_names(self) -> Design:
        _unique("cluster name", [self.cluster_name] + [c.name for c in self.clusters])
        gpu = self.gpu_cluster_names()
        for group in self.workloads:
            if group.cluster is not None and group.cluster not in gpu:
                raise ValueError(
                    f"workload group '{group.name}': cluster '{group.cluster}' is not a GPU "
                    f"cluster of this design (GPU clusters: {', '.join(gpu)})"
                )
        return self

    @model_validator(mode="after")
    def _option_names(self) -> Design:
        _unique("option name", [o.name for o in self.options])
        for o in self.options:
            if o.name.casefold() == AS_DESIGNED.casefold():
                raise ValueError(f"option name '{AS_DESIGNED}' is the design itself")
            groups = {g.name for g in (o.workloads if o.workloads is not None else self.workloads)}
            for change in o.groups:
                if change.group not in groups:
                    raise ValueError(
                        f"option '{o.name}': no workload group is named '{change.group}'"
                    )
        if self.proposed is not None and self.proposed not in [o.name for o in self.options]:
            raise ValueError(f"proposed: no option is named '{self.proposed}'")
        for o in self.options:
            try:
                self.option(o.name)
            except ValidationError as exc:
                err = exc.errors(include_url=False)[0]
                msg = err["msg"].removeprefix("Value error, ")
                where = f"{field_path(err['loc'])}: " if err["loc"] else ""
                raise ValueError(
                    f"option '{o.name}' is not a design that can be built: {where}{msg}"
                ) from None
        return self

    def option(self, name: str) -> Design:
        """The design as option ``name`` has it (options and the proposal removed)."""
        o = next(x for x in self.options if x.name == name)
        update: dict[str, object] = {"options": [], "proposed": None}
        for key in ("hardware", "ha", "cluster_name", "clusters"):
            if getattr(o, key) is not None:
                update[key] = getattr(o, key)
        changes = {c.group: c for c in o.groups}
        groups = []
        for g in o.workloads if o.workloads is not None else self.workloads:
            c = changes.get(g.name)
            if c is not None:
                g = g.model_copy(
                    update={k: v for k, v in c.model_dump(exclude={"group"}).items() if v}
                )
            groups.append(g)
        update["workloads"] = groups
        data = self.model_copy(update=update).model_dump(mode="json")
        return Design.model_validate(data)  # the option must be a valid design too

    def as_option(self, name: str, note: str = "") -> DesignOption:
        """The design as it stands, kept as option ``name``: every section an option can replace,
        the workload groups whole, so later edits of the design leave the option as it was
        saved."""
        return DesignOption(
            name=name,
            note=note,
            workloads=list(self.workloads),
            hardware=self.hardware,
            ha=self.ha,
            cluster_name=self.cluster_name,
            clusters=list(self.clusters),
        )

    def as_designed(self) -> Design:
        """The design as the pages edit it, without its options and proposal: what an option
        saved now would hold."""
        return self.model_copy(update={"options": [], "proposed": None})

    def with_option(self, name: str) -> Design:
        """The design with option ``name``'s sections in place of its own, its options kept
        and that option proposed: what the pages show once it is made the proposal."""
        chosen = self.option(name)
        update = {key: getattr(chosen, key) for key in OPTION_SECTIONS}
        return self.model_copy(update={**update, "proposed": name})

    def proposal(self) -> Design:
        """The design the proposal specifies and the order buys: the proposed option when one
        is named, else the design as it stands (its options kept, for the comparison)."""
        if self.proposed is None:
            return self
        return self.option(self.proposed)

    def gpu_cluster_names(self) -> list[str]:
        return [self.cluster_name] + [c.name for c in self.clusters if c.role is ClusterRole.GPU]

    def is_single_cluster(self) -> bool:
        return not self.clusters


def group_assumptions(base: Assumptions, group: WorkloadGroup) -> Assumptions:
    """The assumptions one group is sized with: the design's (``base``), with the factors the
    group's own measurements fitted in their place (and their spreads narrowed to the fit's);
    ``base`` itself when the group has none, so a reader can tell the two apart."""
    cal = group.calibration
    if cal is None:
        return base
    update: dict[str, object] = {}
    for f in cal.factors:
        update[f.name] = f.value
        if f.name in RANGES:
            update[RANGES[f.name]] = (f.low, f.high)
    return base.model_copy(update=update)
