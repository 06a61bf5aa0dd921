"""The estate the customer already runs, as imported (wizard.estate_import): its clusters and
hosts, each host's catalog server and GPU or, where the catalog has none, the product names as
read, the sharing mode and the vGPUs in use. It is kept, not bought; what runs on it may be
named as one of the design's workload groups, or left as capacity already taken."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator

from wizard.model.text import plain_text

Name = Annotated[str, Field(min_length=1, max_length=200), AfterValidator(plain_text)]
Short = Annotated[str, Field(max_length=200), AfterValidator(plain_text)]
Ref = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9._-]{0,63}$")]
# The design's sharing modes a host can already run (wizard.model.design.SharingMode's values;
# a test holds them equal): GPUs given whole, time-sliced vGPU, MIG-backed vGPU.
ExistingMode = Literal["passthrough", "vgpu", "mig"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


class ExistingUse(_Model):
    """One vGPU in use on an existing host, or one GPU given whole (no vGPU type)."""

    vm: Name
    vgpu_type: Short = Field(default="", description="NVIDIA's vGPU type as read, e.g. A100D-3-40C")
    workload: Name | None = Field(
        default=None,
        description="The design's workload group it runs; None leaves it as capacity taken",
    )
    # the VM's 64-bit MMIO settings as the inventory script reads them; None where not read
    mmio_64bit: bool | None = Field(default=None, description="pciPassthru.use64bitMMIO")
    mmio_size_gb: int | None = Field(
        default=None, ge=0, le=1 << 20, description="pciPassthru.64bitMMIOSizeGB"
    )


class ExistingHost(_Model):
    name: Name
    server: Ref | None = Field(default=None, description="Catalog server; None where not mapped")
    server_as_read: Short = Field(default="", description="Vendor and model as the export gives")
    gpu: Ref | None = Field(default=None, description="Catalog GPU; None where not mapped")
    gpu_as_read: Short = Field(default="", description="GPU product name as the report gives")
    gpus: int = Field(default=0, ge=0, le=16)
    sharing_mode: ExistingMode | None = None
    driver: Short = Field(
        default="",
        description="NVIDIA host driver or vGPU Manager version as read, e.g. 535.230.02",
    )
    in_use: list[ExistingUse] = Field(default_factory=list, max_length=1000)


class ExistingCluster(_Model):
    name: Name
    hosts: list[ExistingHost] = Field(min_length=1, max_length=1000)
    source: Short = Field(default="", description="The files it was imported from")

    @field_validator("hosts")
    @classmethod
    def _unique_hosts(cls, hosts: list[ExistingHost]) -> list[ExistingHost]:
        seen: set[str] = set()
        for h in hosts:
            if h.name.casefold() in seen:
                raise ValueError(f"host '{h.name}' is listed twice")
            seen.add(h.name.casefold())
        return hosts


class ExistingEstate(_Model):
    """What the customer runs today; empty in a design that starts from nothing."""

    clusters: list[ExistingCluster] = Field(default_factory=list, max_length=64)

    @field_validator("clusters")
    @classmethod
    def _unique_clusters(cls, clusters: list[ExistingCluster]) -> list[ExistingCluster]:
        seen: set[str] = set()
        for c in clusters:
            if c.name.casefold() in seen:
                raise ValueError(f"existing cluster '{c.name}' is listed twice")
            seen.add(c.name.casefold())
        return clusters
