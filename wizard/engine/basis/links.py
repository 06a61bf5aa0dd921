"""Link bandwidths inside and between hosts, each with its source.

Bandwidths are per direction: in a ring every GPU sends to one neighbour while it receives from
the other, so a link's one-way rate is what bounds it. GB/s for buses, Gb/s for NICs.
"""

from __future__ import annotations

from dataclasses import dataclass

from wizard.engine.basis import sources
from wizard.model.catalog import Gpu, Nic, Server
from wizard.model.design import FABRIC_GBPS, Hardware
from wizard.model.names import FABRIC_LABEL

# The 4-GPU SXM2 board is all-to-all: six NVLinks per V100, two to each of the three others.
NVLINK_MESH_SOURCE = (
    "Dell EMC Ready Solutions for AI - Deep Learning with NVIDIA, Reference Guide v1.0, section "
    "2.2 (PowerEdge C4140): six NVLinks per V100-SXM2 at 25 GB/s each way, all four GPUs of a "
    "node communicating at the same time (6 links over 3 peers: 2 per pair); the same all-to-all "
    "wiring is taken for HGX 4-GPU boards, which carry no NVSwitch (not re-read here)"
)

# PCIe x16 one-way bandwidth by generation, GB/s (PCI-SIG: GT/s per lane x 16 lanes / 8, less
# the line code: 128b/130b for Gen3-5, 242 B of data per 256 B flit for Gen6).
PCIE_X16_GBS: dict[int, float] = {3: 15.75, 4: 31.5, 5: 63.0, 6: 121.0}


@dataclass(frozen=True)
class Link:
    name: str
    gbs: float  # GB/s, one direction
    source: str
    kind: str = "pcie"  # 'pcie', 'nvlink', 'cpu-interconnect' or 'network'
    multicast: bool = False  # NVSwitch with NVLink SHARP: NCCL reduces in the switch (NVLS)

    @property
    def gbps(self) -> float:
        return self.gbs * 8


def pcie(gen: int, lanes: int) -> Link:
    lanes = min(lanes, 16)
    return Link(f"PCIe Gen{gen} x{lanes}", PCIE_X16_GBS[gen] * lanes / 16, sources.PCIE_SPEC)


def gpu_pcie(gpu: Gpu, server: Server) -> Link:
    """The GPU board's slot: the lower of the board's and the server's PCIe generation."""
    return pcie(min(gpu.pcie_gen, server.pcie_gen), gpu.pcie_lanes)


def nic_pcie(nic: Nic, server: Server) -> Link:
    return pcie(min(nic.pcie_gen, server.pcie_gen), nic.pcie_lanes)


def switch_uplink(server: Server) -> Link:
    """A PCIe switch's x16 link up to its CPU root complex (the switch runs at the server's
    generation)."""
    return pcie(server.pcie_gen, 16)


def nvlink(gpu: Gpu, through: str) -> Link:
    """An NVLink hop; through a third-generation NVSwitch or later (NVLink 4, Hopper on) the
    switch reduces all-reduce data itself (NVLink SHARP), which NCCL uses from 2.17 on."""
    return Link(
        f"NVLink {gpu.nvlink.generation} ({through})",
        gpu.nvlink.bandwidth_gbs / 2,
        f"{gpu.name} NVLink bandwidth from the GPU catalog ({gpu.source}); half each way",
        "nvlink",
        multicast=through == "NVSwitch" and (gpu.nvlink.generation or 0) >= 4,
    )


def nvlink_mesh(gpu: Gpu, board_gpus: int, ring_gpus: int) -> Link:
    """NVLink on a board without NVSwitch (a 4-GPU V100 SXM2 or HGX A100/H100 4-GPU board): each
    GPU's links are split evenly over its ``board_gpus - 1`` peers, all-to-all, so a ring over
    ``ring_gpus`` of them has the links to ``ring_gpus - 1`` peers, not the GPU's whole NVLink."""
    per_pair = gpu.nvlink.bandwidth_gbs / 2 / max(board_gpus - 1, 1)
    peers = max(min(ring_gpus, board_gpus) - 1, 1)
    return Link(
        f"NVLink {gpu.nvlink.generation} (direct, {peers} of {max(board_gpus - 1, 1)} peers)"
        if peers < board_gpus - 1
        else f"NVLink {gpu.nvlink.generation} (direct mesh)",
        per_pair * peers,
        f"{gpu.name} NVLink bandwidth from the GPU catalog ({gpu.source}), half each way, "
        f"split over {board_gpus - 1} peers; {NVLINK_MESH_SOURCE}",
        "nvlink",
    )


def cpu_interconnect(server: Server) -> Link:
    """The catalog gives the aggregate of both directions; a ring uses one. Named as the CPU's
    maker names it (Intel UPI, AMD Infinity Fabric), so the figure reads like the vendor's."""
    family = server.cpu_family
    intel, amd = "Intel" in family or "Xeon" in family, "AMD" in family or "EPYC" in family
    kind = "UPI" if intel and not amd else "Infinity Fabric" if amd and not intel else ""
    return Link(
        f"CPU interconnect ({kind or 'UPI / Infinity Fabric'})",
        server.cpu_interconnect_gbs / 2,
        f"{server.product_name} from the server catalog ({server.source}); "
        "aggregate bidirectional figure, half each way",
        "cpu-interconnect",
    )


def nic(hw: Hardware) -> Link:
    """A ring between hosts crosses each host's NICs; NCCL spreads its rings over all of them."""
    per_nic = FABRIC_GBPS[hw.fabric]
    total = per_nic * max(hw.nics_per_host, 1)
    label = (
        f"{hw.nics_per_host} x {FABRIC_LABEL[hw.fabric]}"
        if hw.nics_per_host > 1
        else FABRIC_LABEL[hw.fabric]
    )
    return Link(
        label,
        total / 8,
        f"{sources.SEED_MULTI_GPU}: a 25 Gb/s link carries 3.125 GB/s",
        "network",
    )


# Share of a link's line rate that NCCL's ring all-reduce reaches (its bus bandwidth), by kind.
EFFICIENCY: dict[str, float] = {
    "nvlink": 0.8,
    "pcie": 0.8,
    "cpu-interconnect": 0.8,
    "network": 0.92,
}
EFFICIENCY_SOURCE: dict[str, str] = {
    "nvlink": "NVIDIA/nccl-tests issues 212 and 149 (NCCL maintainers): H100 NVLink 450 GB/s line "
    "rate, ~20 % protocol overhead, 370 GB/s ring bus bandwidth (0.82); 8 x A100 NVSwitch about "
    "230 of 300 GB/s (0.77)",
    "pcie": "Same NCCL protocol overhead (~20 %) taken for PCIe; no cleaner public figure",
    "cpu-interconnect": "Same NCCL protocol overhead (~20 %) taken for the CPU interconnect",
    "network": "NVIDIA/nccl-tests issues 290 and 267: 46-49 GB/s bus bandwidth per NDR 400 Gb/s "
    "NIC (50 GB/s); NVIDIA/nccl issue 812: 192 GB/s all-reduce bus bandwidth over a DGX A100's "
    "8 x HDR 200 Gb/s (200 GB/s); 0.92-0.98, the low end taken",
}


def efficiency(link: Link, override: float | None) -> tuple[float, str]:
    """The share of ``link``'s rate an all-reduce reaches: the design's figure if it gives one,
    else the measured share for its kind, with the source."""
    if override is not None:
        return override, "Design assumption (assumptions.link_efficiency)"
    return EFFICIENCY[link.kind], EFFICIENCY_SOURCE[link.kind]


# NCCL's NVLink SHARP all-reduce on one 8-GPU NVSwitch host: about 275 GB/s of algorithm
# bandwidth (480 GB/s bus bandwidth) against the ring's 370 GB/s bus bandwidth on H100.
NVLS_EFFICIENCY = 275 / 450
NVLS_SOURCE = (
    "NCCL NVLink SHARP (NVLS) all-reduce, the switch reducing the data: 8 x H100 'peak busBw of "
    "~480GB/s (algbw ~275GB/s)' against the ring's 370 GB/s (NCCL maintainer, NVIDIA/nccl-tests "
    "issue 212; 475 GB/s measured on 8 x H200 with NCCL 2.20.3, nccl-tests issue 272); each GPU "
    "sends and receives its data once, at 275 / 450 = 0.61 of the NVLink rate"
)
