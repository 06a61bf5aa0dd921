"""Communication: the slowest link a ring of GPUs crosses.

The links a ring crosses inside a host come from the host topology (``topology.ring_links``),
so the communication estimate and the topology drawing agree by construction.
"""

from __future__ import annotations

from wizard.engine.basis import topology
from wizard.engine.basis.links import PCIE_X16_GBS, Link
from wizard.model.catalog import Gpu, Server
from wizard.model.design import Hardware

__all__ = ["PCIE_X16_GBS", "Link", "ring_bottleneck"]


def ring_bottleneck(
    gpu: Gpu, server: Server, hw: Hardware, ring_gpus: int, spans_hosts: bool
) -> Link | None:
    path = topology.ring_path(gpu, server, hw, ring_gpus, spans_hosts)
    return min(path, key=lambda link: link.gbs) if path else None
