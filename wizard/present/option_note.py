"""What an option is, in a few plain sentences: the note an option saved in the wizard starts
with, so the comparison's "What it is" row names the hardware, the spare capacity, the clusters
and the sharing modes a customer compares, short enough for its cell. The figures stay in the
other rows."""

from __future__ import annotations

from collections import Counter

from wizard.base.numbers import count
from wizard.model.catalog import Catalog
from wizard.model.design import ClusterRole, Design, HaLevel, HaPolicy, Hardware
from wizard.present.labels import HA_LEVEL_SHORT, MODE_SHORT, PRECISION_SHORT


def describe(design: Design, catalog: Catalog) -> str:
    """The design as an option is saved from it, in product names and plain words."""
    gpu = [c for c in design.clusters if c.role is ClusterRole.GPU]
    clusters = [(design.cluster_name, design.hardware, design.ha)]
    clusters += [(c.name, c.hardware or design.hardware, c.ha) for c in gpu]
    # each GPU cluster with its own hardware and spare capacity; one is not named
    parts = [
        (f"{name}: " if gpu else "") + f"{_hardware(hw, catalog)}, {_spare(ha)}"
        for name, hw, ha in clusters[:NAMES_SHOWN]
    ]
    if len(clusters) > NAMES_SHOWN:
        parts.append(f"And {count(len(clusters) - NAMES_SHOWN, 'further GPU cluster')}")
    others = [c.name for c in design.clusters if c.role is not ClusterRole.GPU]
    if others:
        parts.append(f"With {count(len(others), 'further cluster')}: {_names(others)}")
    modes = Counter(MODE_SHORT[g.sharing_mode] for g in design.workloads)
    if modes:
        parts.append("; ".join(f"{m} for {count(n, 'group')}" for m, n in modes.items()))
    precisions = Counter(PRECISION_SHORT[g.precision] for g in design.workloads if g.precision)
    if len(precisions) == 1:
        parts.append(f"{next(iter(precisions))} for every group")
    elif precisions:
        parts.append(", ".join(f"{p} for {count(n, 'group')}" for p, n in precisions.items()))
    return ". ".join(parts) + "."


def _hardware(hw: Hardware, catalog: Catalog) -> str:
    gpu = catalog.gpus.get(hw.gpu)
    server = catalog.servers.get(hw.server)
    gpu_name = gpu.name if gpu else hw.gpu
    server_name = server.product_name if server else hw.server
    return f"{gpu_name}, {hw.gpus_per_host} per host, in the {server_name}"


def _spare(ha: HaPolicy) -> str:
    if ha.level is HaLevel.PERCENT:
        return f"{ha.reserve_percent:g} % in reserve"
    return HA_LEVEL_SHORT[ha.level]


NAMES_SHOWN = 4  # cluster names a note lists; the rest are counted, so a note stays a sentence


def _names(names: list[str]) -> str:
    if len(names) <= NAMES_SHOWN:
        return ", ".join(names)
    return f"{', '.join(names[:NAMES_SHOWN])} and {len(names) - NAMES_SHOWN} more"
