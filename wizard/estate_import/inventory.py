"""The estate as read: clusters, hosts, VMs, GPUs and the vGPUs in use, each with the file it
came from and what it maps to in the catalog, and the files read in one pass (``read_estate``)."""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from wizard.estate_import.files import (
    MAX_TEXT_BYTES,
    MAX_WORKBOOK_BYTES,
    EstateFileError,
    read_bytes,
)
from wizard.estate_import.mapping import Match, VgpuType
from wizard.model.catalog import Catalog


@dataclass(frozen=True)
class Cluster:
    name: str
    hosts: int | None
    ha_enabled: bool | None
    source: str


@dataclass(frozen=True)
class Host:
    name: str
    cluster: str
    datacenter: str
    vendor: str
    model: str
    cpu_model: str
    sockets: int | None
    cores: int | None
    memory_mib: int | None
    esxi: str
    server: Match
    source: str


@dataclass(frozen=True)
class Vm:
    name: str
    host: str
    cluster: str
    cpus: int | None
    memory_mib: int | None
    powered_on: bool | None
    source: str


@dataclass(frozen=True)
class Gpu:
    host: str  # '' where the file does not say and its name does not name a host
    bus_id: str
    product_name: str
    memory_mib: int | None
    mig_current: str  # as nvidia-smi prints it: Enabled, Disabled, N/A; '' where not read
    mig_pending: str
    mig_instances: int | None
    driver_version: str  # on an ESXi host, the NVIDIA vGPU Manager's version
    virtualization_mode: str  # None, Pass-Through, VGPU, Host VGPU, Host VSGA
    host_vgpu_mode: str  # SR-IOV or Non SR-IOV on a vGPU host
    gpu: Match
    source: str


@dataclass(frozen=True)
class Vgpu:
    host: str
    gpu_bus_id: str
    vm: str
    vgpu: VgpuType
    gpu_instance_id: str  # MIG-backed vGPUs run in a GPU instance; 'N/A' or '' otherwise
    mmio_64bit: bool | None
    mmio_size_gb: int | None
    source: str


@dataclass(frozen=True)
class Passthrough:
    """A GPU given whole to a VM (DirectPath I/O or Dynamic DirectPath I/O)."""

    host: str
    vm: str
    device: str
    mmio_64bit: bool | None
    mmio_size_gb: int | None
    source: str


@dataclass
class Inventory:
    """What the named files hold, merged: one estate, however many files it came in."""

    files: list[str] = field(default_factory=list)
    clusters: list[Cluster] = field(default_factory=list)
    hosts: list[Host] = field(default_factory=list)
    vms: list[Vm] = field(default_factory=list)
    gpus: list[Gpu] = field(default_factory=list)
    vgpus: list[Vgpu] = field(default_factory=list)
    passthrough: list[Passthrough] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, other: Inventory) -> None:
        self.files += other.files
        self.clusters += other.clusters
        self.hosts += other.hosts
        self.vms += other.vms
        self.gpus += other.gpus
        self.vgpus += other.vgpus
        self.passthrough += other.passthrough
        self.notes += other.notes

    def unmapped(self) -> list[str]:
        """One line per product name the catalog does not know, with how many carry it."""
        lines = []
        servers = Counter(
            (h.server.read_as, h.server.how, h.server.candidates)
            for h in self.hosts
            if not h.server.mapped
        )
        for (name, how, cands), n in sorted(servers.items()):
            also = f": {' or '.join(cands)}" if cands else ""
            lines.append(f"server {name!r} ({n} {'host' if n == 1 else 'hosts'}): {how}{also}")
        gpus = Counter(
            (g.gpu.read_as, g.gpu.how, g.gpu.candidates) for g in self.gpus if not g.gpu.mapped
        )
        for (name, how, cands), n in sorted(gpus.items()):
            also = f": {' or '.join(cands)}" if cands else ""
            lines.append(f"GPU {name!r} ({n} {'GPU' if n == 1 else 'GPUs'}): {how}{also}")
        types = Counter(v.vgpu.read_as for v in self.vgpus if not v.vgpu.gpus)
        for name, n in sorted(types.items()):
            lines.append(f"vGPU type {name!r} ({n} in use): no catalog GPU offers it")
        return lines

    def to_json(self) -> dict[str, Any]:
        doc = asdict(self)
        doc["unmapped"] = self.unmapped()
        return doc


def _host_of(path: Path, hosts: list[Host]) -> list[str]:
    """The hosts a GPU report's file name names: 'esx01.example.com.xml', 'esx01_nvidia-smi.xml'
    and 'esx01.xml' are esx01.example.com's."""
    stem = path.name.rsplit(".", 1)[0].lower()
    found = set()
    for h in hosts:
        full = h.name.lower()
        # An address's first number is no short name: '10.17.135.71' is not '10'.
        short = full if re.fullmatch(r"[\d.:]+", full) else full.split(".")[0]
        for name in {full, short}:
            if name and (stem == name or (stem.startswith(name) and stem[len(name)] in "._-")):
                found.add(h.name)
    return sorted(found)


def _place(inv: Inventory, path: Path, gpus: list[Gpu], vgpus: list[Vgpu]) -> None:
    """GPU reports name no host: the file's name does, when it names exactly one."""
    unplaced = [g for g in gpus if not g.host] + [v for v in vgpus if not v.host]
    if not unplaced:
        inv.gpus += gpus
        inv.vgpus += vgpus
        return
    what = "GPUs" if gpus else "vGPUs"
    hosts = _host_of(path, inv.hosts)
    host = hosts[0] if len(hosts) == 1 else ""
    if host:
        inv.notes.append(f"{path}: taken as host {host}'s by the file's name")
    elif hosts:
        inv.notes.append(
            f"{path}: the file's name fits hosts {', '.join(hosts)}; its {what} are left without a host"
        )
    else:
        inv.notes.append(
            f"{path}: no host read names this file; its {what} are left without a host (name the file after its host)"
        )
    inv.gpus += [g if g.host else replace(g, host=host) for g in gpus]
    inv.vgpus += [v if v.host else replace(v, host=host) for v in vgpus]


def _utf8(path: Path, data: bytes) -> bytes:
    """Windows PowerShell's '>' writes UTF-16 with a byte-order mark: such a report is read as
    the same text in UTF-8."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16").encode("utf-8")
        except UnicodeDecodeError:
            raise EstateFileError(f"{path}: marked UTF-16 but not UTF-16 text") from None
    return data


def _kind(data: bytes) -> str:
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if data.startswith(b"PK"):
        return "xlsx"
    if head.startswith(b"<"):
        return "xml"
    return "text"


def read_estate(paths: list[str | os.PathLike[str]], catalog: Catalog) -> Inventory:
    """Every named file read, RVTools workbooks first so GPU reports find their hosts."""
    from wizard.estate_import import nvidia_smi, powercli, rvtools

    loaded = []
    for p in paths:
        path = Path(p)
        data = _utf8(path, read_bytes(path, MAX_WORKBOOK_BYTES, "estate file"))
        loaded.append((path, data, _kind(data)))
    inv = Inventory()
    for path, data, kind in sorted(loaded, key=lambda x: x[2] != "xlsx"):
        if kind == "xlsx":
            inv.add(rvtools.read_rvtools(path, data, catalog))
            continue
        if len(data) > MAX_TEXT_BYTES:
            raise EstateFileError(
                f"{path}: {len(data):,} bytes is more than the {MAX_TEXT_BYTES:,} a GPU report or inventory CSV may be"
            )
        if kind == "xml":
            inv.files.append(str(path))
            _place(inv, path, nvidia_smi.read_smi_xml(path, data, catalog), [])
        elif powercli.looks_like_inventory_csv(data):
            inv.add(powercli.read_inventory_csv(path, data, catalog))
        elif nvidia_smi.looks_like_vgpu_query(data):
            inv.files.append(str(path))
            _place(inv, path, [], nvidia_smi.read_vgpu_query(path, data, catalog))
        else:
            raise EstateFileError(
                f"{path}: not an RVTools workbook (.xlsx), nvidia-smi -q -x report, nvidia-smi "
                "vgpu -q output or the wizard's inventory CSV"
            )
    return inv
