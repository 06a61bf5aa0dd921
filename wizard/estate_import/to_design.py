"""An imported estate as the design holds it (wizard.model.existing): one existing cluster per
cluster read, each host with its catalog server and GPU, or the names as read where the catalog
has none, its sharing mode and the vGPUs in use. Where a host mixes GPU models or sharing modes,
the design's one field for it stays empty and the names read say why; nothing is picked."""

from __future__ import annotations

from collections import Counter

from pydantic import ValidationError

from wizard.base.errors import UserError, describe_validation_error
from wizard.estate_import.inventory import Gpu, Host, Inventory
from wizard.estate_import.support import gpu_slot
from wizard.model.existing import ExistingCluster, ExistingEstate, ExistingHost

OUTSIDE_A_CLUSTER = "Hosts outside a cluster"


def _gpus(inv: Inventory, host: str) -> list[Gpu]:
    found: dict[str, Gpu] = {}
    for g in inv.gpus:
        if g.host == host:
            found.setdefault(gpu_slot(g.bus_id), g)
    return list(found.values())


def _host(inv: Inventory, h: Host) -> dict[str, object]:
    gpus = _gpus(inv, h.name)
    models = Counter((g.gpu.catalog_id, g.product_name) for g in gpus)
    vgpus = [v for v in inv.vgpus if v.host == h.name]
    whole = [p for p in inv.passthrough if p.host == h.name]
    modes = {"mig" if v.vgpu.mig_backed else "vgpu" for v in vgpus} | (
        {"passthrough"} if whole else set()
    )
    only = next(iter(models)) if len(models) == 1 else (None, "")
    drivers = {g.driver_version for g in gpus if g.driver_version}
    return {
        "name": h.name,
        "server": h.server.catalog_id,
        "server_as_read": f"{h.vendor} {h.model}".strip(),
        "gpu": only[0],
        "gpu_as_read": ", ".join(
            f"{n} × {name}" for (_, name), n in sorted(models.items(), key=str)
        ),
        "gpus": len(gpus),
        "sharing_mode": next(iter(modes)) if len(modes) == 1 else None,
        "driver": next(iter(drivers)) if len(drivers) == 1 else "",
        "in_use": [
            {"vm": v.vm, "vgpu_type": v.vgpu.name or v.vgpu.read_as}
            | {"mmio_64bit": v.mmio_64bit, "mmio_size_gb": v.mmio_size_gb}
            for v in vgpus
        ]
        + [{"vm": p.vm, "mmio_64bit": p.mmio_64bit, "mmio_size_gb": p.mmio_size_gb} for p in whole],
    }


def existing_estate(inv: Inventory) -> ExistingEstate:
    """The estate for the design; a value the design cannot hold (a name with a control
    character, a host with more GPUs than a server takes) is refused naming the host."""
    by_cluster: dict[str, list[Host]] = {}
    for h in inv.hosts:
        by_cluster.setdefault(h.cluster or OUTSIDE_A_CLUSTER, []).append(h)
    clusters = []
    for name, hosts in by_cluster.items():
        rows = []
        for h in hosts:
            try:
                rows.append(ExistingHost.model_validate(_host(inv, h)))
            except ValidationError as exc:
                where = f"existing cluster {name!r}, host {h.name!r}: "
                raise UserError(describe_validation_error(exc, prefix=where)) from None
        try:
            source = ", ".join(sorted({h.source for h in hosts}))[:200]
            clusters.append(ExistingCluster(name=name, hosts=rows, source=source))
        except ValidationError as exc:
            where = f"existing cluster {name!r}: "
            raise UserError(describe_validation_error(exc, prefix=where)) from None
    return ExistingEstate(clusters=clusters)
