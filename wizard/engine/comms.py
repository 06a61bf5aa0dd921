"""Communication: ring-allreduce volume and the slowest link a ring crosses.

Bandwidths here are per direction: in a ring every GPU sends to one neighbour while it receives
from the other, so a link's one-way rate is what bounds it. GB/s for buses, Gb/s for NICs.
"""

from __future__ import annotations

from dataclasses import dataclass

from wizard.engine import sources
from wizard.model.catalog import FormFactor, Gpu, NvlinkKind, PcieTopology, Server
from wizard.model.design import FABRIC_GBPS, Hardware

# PCIe x16 one-way bandwidth by generation, GB/s (PCI-SIG: GT/s per lane x 16 lanes x 128/130).
PCIE_X16_GBS: dict[int, float] = {3: 15.75, 4: 31.5, 5: 63.0, 6: 121.0}


@dataclass(frozen=True)
class Link:
    name: str
    gbs: float  # GB/s, one direction
    source: str

    @property
    def gbps(self) -> float:
        return self.gbs * 8


def ring_allreduce_factor(n: int, zero_stage: int = 0) -> float:
    """Bytes each GPU sends per byte of gradient: 2(N-1)/N (reduce-scatter + all-gather).

    ZeRO stage 3 adds a parameter all-gather in the backward pass: 3(N-1)/N (ZeRO paper, 7.2.2).
    """
    if n <= 1:
        return 0.0
    return (3 if zero_stage >= 3 else 2) * (n - 1) / n


def pcie_link(gpu: Gpu, server: Server) -> Link:
    gen = min(gpu.pcie_gen, server.pcie_gen)
    lanes_share = min(gpu.pcie_lanes, 16) / 16
    return Link(
        f"PCIe Gen{gen} x{min(gpu.pcie_lanes, 16)}",
        PCIE_X16_GBS[gen] * lanes_share,
        sources.PCIE_SPEC,
    )


def nvlink_link(gpu: Gpu, through: str) -> Link:
    return Link(
        f"NVLink {gpu.nvlink.generation} ({through})",
        gpu.nvlink.bandwidth_gbs / 2,
        f"{gpu.name} NVLink bandwidth from the GPU catalog ({gpu.source}); half each way",
    )


def nic_link(hw: Hardware) -> Link:
    """A ring between hosts crosses each host's NICs; NCCL spreads its rings over all of them."""
    per_nic = FABRIC_GBPS[hw.fabric]
    total = per_nic * max(hw.nics_per_host, 1)
    label = (
        f"{hw.nics_per_host} x {per_nic:g} Gb/s {hw.fabric.value}"
        if hw.nics_per_host > 1
        else f"{per_nic:g} Gb/s {hw.fabric.value}"
    )
    return Link(label, total / 8, f"{sources.SEED_MULTI_GPU}: a 25 Gb/s link carries 3.125 GB/s")


def intra_host_links(gpu: Gpu, server: Server, hw: Hardware, ring_gpus: int) -> list[Link]:
    """Links a ring of ``ring_gpus`` GPUs inside one host crosses; the slowest bounds it."""
    if ring_gpus <= 1:
        return []
    nv = gpu.nvlink
    if nv.kind is NvlinkKind.SXM and gpu.form_factor is FormFactor.SXM:  # part of the baseboard
        return [nvlink_link(gpu, "NVSwitch / HGX baseboard")]
    links: list[Link] = []
    bridged = hw.nvlink and nv.kind is NvlinkKind.BRIDGE and server.nvlink_bridge_support
    if bridged:
        links.append(nvlink_link(gpu, "bridge"))
        if ring_gpus <= max(nv.max_gpus_bridged, 2):
            return links
    # Unbridged pairs talk over PCIe; across sockets also over the CPU interconnect.
    links.append(pcie_link(gpu, server))
    per_socket = hw.gpus_per_host / server.sockets
    if (
        server.pcie_topology is PcieTopology.CPU_DIRECT
        and server.sockets > 1
        and ring_gpus > per_socket
    ):
        links.append(
            Link(
                "CPU interconnect (UPI / Infinity Fabric)",
                server.cpu_interconnect_gbs,
                f"{server.vendor} {server.model} from the server catalog ({server.source})",
            )
        )
    return links


def ring_bottleneck(
    gpu: Gpu, server: Server, hw: Hardware, ring_gpus: int, spans_hosts: bool
) -> Link | None:
    links = intra_host_links(gpu, server, hw, min(ring_gpus, hw.gpus_per_host))
    if spans_hosts:
        links.append(nic_link(hw))
    return min(links, key=lambda link: link.gbs) if links else None


def allreduce_seconds(bytes_gb: float, link: Link, efficiency: float) -> float:
    return bytes_gb / (link.gbs * efficiency)
