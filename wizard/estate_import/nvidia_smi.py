"""``nvidia-smi -q -x`` (XML) and ``nvidia-smi vgpu -q`` (text) from a GPU host.

From the XML: each GPU's product name, memory, MIG mode (current and pending: a change waits for
a GPU reset), the MIG instances made, the driver version (on a host running vGPU it is the
NVIDIA vGPU Manager's) and the virtualization mode. From ``vgpu -q``: each vGPU in use, its VM,
its type and, for a MIG-backed vGPU, the GPU instance it runs in. Neither names the host: the
file's name does (see inventory.read_estate)."""

from __future__ import annotations

import re
from pathlib import Path
from xml.etree.ElementTree import Element

from wizard.base.safe_read import decode_utf8
from wizard.estate_import.files import EstateFileError, parse_xml
from wizard.estate_import.inventory import Gpu, Vgpu
from wizard.estate_import.mapping import match_gpu, vgpu_type
from wizard.model.catalog import Catalog

_MIB = re.compile(r"^\s*(\d+)\s*MiB\s*$")


def _at(node: Element, path: str) -> str:
    found = node.find(path)
    return " ".join((found.text or "").split()) if found is not None else ""


def _mib(text: str) -> int | None:
    m = _MIB.match(text)
    return int(m.group(1)) if m else None


def read_smi_xml(path: Path, data: bytes, catalog: Catalog) -> list[Gpu]:
    root = parse_xml(path, data, "an nvidia-smi -q -x report")
    if root.tag != "nvidia_smi_log":
        raise EstateFileError(
            f"{path}: XML whose root is <{root.tag[:40]}>, not nvidia-smi's <nvidia_smi_log>"
        )
    driver = _at(root, "driver_version")
    gpus = []
    for g in root.findall("gpu"):
        name = _at(g, "product_name")
        memory = _mib(_at(g, "fb_memory_usage/total"))
        mig = g.find("mig_devices")
        gpus.append(
            Gpu(
                host="",
                bus_id=_at(g, "pci/pci_bus_id") or g.get("id", ""),
                product_name=name,
                memory_mib=memory,
                mig_current=_at(g, "mig_mode/current_mig"),
                mig_pending=_at(g, "mig_mode/pending_mig"),
                mig_instances=len(mig.findall("mig_device")) if mig is not None else None,
                driver_version=driver,
                virtualization_mode=_at(g, "gpu_virtualization_mode/virtualization_mode"),
                host_vgpu_mode=_at(g, "gpu_virtualization_mode/host_vgpu_mode"),
                gpu=match_gpu(name, catalog, memory),
                source=path.name,
            )
        )
    if not gpus:
        raise EstateFileError(f"{path}: an nvidia-smi report with no <gpu> in it")
    return gpus


_GPU_LINE = re.compile(r"^GPU ([0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-7])\s*$")
_FIELD = re.compile(r"^(\s+)([A-Za-z][A-Za-z0-9 ()/.-]*?)\s*:\s?(.*)$")


def looks_like_vgpu_query(data: bytes) -> bool:
    head = data[:65536].decode("utf-8", "replace")
    return bool(re.search(r"(?m)^GPU [0-9A-Fa-f]{4,8}:", head)) and "Active vGPUs" in head


def read_vgpu_query(path: Path, data: bytes, catalog: Catalog) -> list[Vgpu]:
    text = decode_utf8(data, str(path), EstateFileError)
    out: list[Vgpu] = []
    bus = ""
    current: dict[str, str] | None = None

    def close() -> None:
        if current is not None:
            if "vGPU Name" not in current:
                raise EstateFileError(
                    f"{path}: vGPU {current.get('vGPU ID', '?')} has no 'vGPU Name' line"
                )
            out.append(
                Vgpu(
                    host="",
                    gpu_bus_id=bus,
                    vm=current.get("VM Name", ""),
                    vgpu=vgpu_type(current["vGPU Name"], catalog),
                    gpu_instance_id=current.get("GPU Instance ID", ""),
                    mmio_64bit=None,
                    mmio_size_gb=None,
                    source=path.name,
                )
            )

    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        gpu = _GPU_LINE.match(line)
        if gpu:
            close()
            bus, current = gpu.group(1), None
            continue
        field = _FIELD.match(line)
        if field is None or not bus:
            if bus and line.startswith("    ") and ":" not in line:
                continue  # a section heading inside a vGPU's block: PCI, FB Memory Usage
            raise EstateFileError(
                f"{path}: line {number} is not nvidia-smi vgpu -q output: {line.strip()[:60]!r}"
            )
        indent, key, value = len(field.group(1)), field.group(2), field.group(3).strip()
        if key == "vGPU ID" and indent == 4:
            close()
            current = {"vGPU ID": value}
        elif current is not None and indent == 8:
            current[key] = value
    close()
    if not bus:
        raise EstateFileError(f"{path}: no 'GPU <bus id>' line, so not nvidia-smi vgpu -q output")
    return out
