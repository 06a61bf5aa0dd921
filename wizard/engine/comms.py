"""Communication: ring-allreduce volume and the slowest link a ring crosses.

The links a ring crosses inside a host come from the host topology (``topology.ring_links``),
so the communication estimate and the topology drawing agree by construction.
"""

from __future__ import annotations

from wizard.engine import topology
from wizard.engine.links import PCIE_X16_GBS, Link
from wizard.model.catalog import Gpu, Server
from wizard.model.design import Hardware

__all__ = ["PCIE_X16_GBS", "Link", "allreduce_seconds", "ring_allreduce_factor", "ring_bottleneck"]


def ring_allreduce_factor(n: int, zero_stage: int = 0) -> float:
    """Bytes each GPU sends per byte of gradient: 2(N-1)/N (reduce-scatter + all-gather).

    ZeRO stage 3 adds a parameter all-gather in the backward pass: 3(N-1)/N (ZeRO paper, 7.2.2).
    """
    if n <= 1:
        return 0.0
    return (3 if zero_stage >= 3 else 2) * (n - 1) / n


def ring_bottleneck(
    gpu: Gpu, server: Server, hw: Hardware, ring_gpus: int, spans_hosts: bool
) -> Link | None:
    path = topology.ring_path(gpu, server, hw, ring_gpus, spans_hosts)
    return min(path, key=lambda link: link.gbs) if path else None


def allreduce_seconds(bytes_gb: float, link: Link, efficiency: float) -> float:
    return bytes_gb / (link.gbs * efficiency)
