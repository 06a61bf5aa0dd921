"""The spec sheet beside the Hardware page's choices: the chosen GPU, server, storage and NIC
with their sources. Catalog text is escaped: a user catalog is data, never markup (an <img> in a
model name must not make the label load a file)."""

from __future__ import annotations

from html import escape

from wizard.base.numbers import MISSING
from wizard.gui.widgets.workload_editor import short_source
from wizard.model.catalog import Gpu, Nic, NvlinkKind, Server, Storage
from wizard.model.names import RDMA_SHORT
from wizard.present import labels


def spec_sheet(
    gpu: Gpu | None,
    server: Server | None,
    nic: Nic | None,
    storage: Storage | None,
    cpu_text: str,
    hold: int | None,
) -> str:
    """Rich text for the spec-sheet label, or a hint while nothing is chosen."""
    parts = []
    if gpu is not None:
        t = gpu.tflops
        perf = ", ".join(
            f"{name} {v:g}"
            for name, v in (("FP64", t.fp64), ("FP32", t.fp32), ("TF32", t.tf32),
                            ("FP16", t.fp16), ("BF16", t.bf16), ("FP8", t.fp8),
                            ("INT8", t.int8))
            if v
        )  # fmt: skip
        nv = (
            f"NVLink {gpu.nvlink.generation} ({labels.NVLINK_KIND[gpu.nvlink.kind]}), "
            f"{gpu.nvlink.bandwidth_gbs:g} GB/s"
            if gpu.nvlink.kind is not NvlinkKind.NONE
            else "none"
        )
        mig = (
            f"yes, {len(gpu.mig.profiles)} profiles, up to "
            f"{max(p.max_count for p in gpu.mig.profiles)} instances"
            if gpu.mig
            else "no"
        )
        vgpu = f"yes, {len(gpu.vgpu.profiles)} C-series profiles" if gpu.vgpu else "no"
        parts.append(
            _table(
                gpu.name,
                [
                    ("Memory", f"{gpu.memory_gb:g} GB {gpu.memory_type}"),
                    ("Memory bandwidth", f"{gpu.memory_bandwidth_gbs:,.0f} GB/s"),
                    ("Dense TFLOPS", perf),
                    ("Board power", f"{gpu.tdp_w:.0f} W"),
                    ("Form factor", _form(gpu)),
                    ("PCIe", f"Gen {gpu.pcie_gen} x{gpu.pcie_lanes}"),
                    ("NVLink", nv),
                    ("MIG", mig),
                    ("vGPU", vgpu),
                ],
                gpu.source,
            )
        )
    if server is not None:
        parts.append(
            _table(
                server.product_name,
                [
                    ("Size", f"{server.rack_units}U, {server.sockets} sockets"),
                    ("Processors", cpu_text),
                    (
                        "Cooling",
                        "liquid (facility water)" if server.cooling.value == "liquid" else "air",
                    ),
                    (
                        "PCIe",
                        f"Gen {server.pcie_gen}, {labels.PCIE_TOPOLOGY[server.pcie_topology]}",
                    ),
                    ("Holds", f"{hold} of this GPU" if hold else MISSING),
                    ("Power supplies", f"{server.psu_count} × {server.psu_w:,.0f} W"),
                    ("NIC slots", str(server.nic_slots)),
                    ("GPUDirect affinity", "yes" if server.gdr_affinity else "no"),
                    ("NVLink bridges", "yes" if server.nvlink_bridge_support else "no"),
                    ("Certification", labels.CERTIFICATION[server.certification]),
                ],
                server.source,
            )
        )
    if storage is not None:
        parts.append(
            _table(
                storage.product_name,
                [
                    ("Usable per node", f"{storage.usable_capacity_tb_per_node:g} TB"),
                    ("Read per node", f"{storage.read_throughput_gbs_per_node:g} GB/s"),
                    ("Protocols", ", ".join(labels.protocol(p) for p in storage.protocols)),
                    ("GPUDirect Storage", "yes" if storage.gpudirect_storage else "no"),
                ],
                storage.source,
            )
        )
    if nic is not None:
        parts.append(
            _table(
                nic.product_name,
                [
                    ("Ports", f"{nic.ports} × {nic.port_speed_gbps:g} Gb/s"),
                    ("PCIe", f"Gen {nic.pcie_gen} x{nic.pcie_lanes}"),
                    ("RDMA", ", ".join(_rdma_words(r) for r in nic.rdma) or "none"),
                    ("GPUDirect RDMA", "yes" if nic.gpudirect_rdma else "no"),
                ],
                nic.source,
            )
        )
    return "".join(parts) or "<i>Choose a GPU to see its specifications and sources.</i>"


def _form(gpu: Gpu) -> str:
    if gpu.form_factor.value == "sxm":
        return "SXM module"
    board = f", {gpu.gpus_per_board} GPUs per board" if gpu.gpus_per_board > 1 else ""
    return f"PCIe, {gpu.slot_width}-slot{board}"


def _table(title: str, rows: list[tuple[str, str]], source: str) -> str:
    cells = "".join(
        f"<tr><td style='color:#5f6b73;padding-right:10px'>{escape(k)}</td>"
        f"<td>{escape(v)}</td></tr>"
        for k, v in rows
    )
    short = escape(short_source(source))
    title = escape(title)
    return (
        f"<p style='margin-bottom:2px'><b>{title}</b></p><table>{cells}</table>"
        f"<p style='color:#5f6b73;font-size:small;margin-top:2px'>Source: {short}</p>"
    )


# the catalog's spelling of an RDMA protocol, as the Hardware page names it
_RDMA_WORDS = {r.value: name for r, name in RDMA_SHORT.items()} | {"iwarp": "iWARP"}


def _rdma_words(protocol: str) -> str:
    return _RDMA_WORDS.get(protocol, protocol)
