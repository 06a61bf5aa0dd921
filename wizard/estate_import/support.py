"""What an imported estate runs that NVIDIA does not support, said in NVIDIA's words: on an HGX
board whose GPUs meet through NVSwitch, vSphere runs time-sliced vGPU only, so MIG-backed vGPU
or a GPU given whole by passthrough there is reported, never planned on silently. The board test
and the quotation are the rule book's own (wizard.engine.basis), so the import and the design
say the same."""

from __future__ import annotations

from collections import defaultdict

from wizard.engine.basis.boards import nvswitch_board
from wizard.engine.basis.sources_platform import NVSWITCH_PAGE
from wizard.estate_import.inventory import Gpu, Inventory
from wizard.model.catalog import Catalog, FormFactor

# An HGX baseboard of eight SXM GPUs joins them through NVSwitch chips; the four-GPU HGX A100
# board links its GPUs directly (wizard.engine.basis.boards.nvswitch_board). Where the host's
# server is not in the catalog, eight SXM GPUs read on it are taken as such a board.
NVSWITCH_GPUS = 8


def gpu_slot(bus_id: str) -> str:
    """One GPU however the file writes its address: nvidia-smi '00000000:17:00.0', vSphere
    '0000:17:00.0'."""
    domain, _, rest = bus_id.lower().rpartition(":")
    domain, _, bus = domain.rpartition(":")
    try:
        return f"{int(domain or '0', 16)}:{bus}:{rest}"
    except ValueError:
        return bus_id.lower()


def _mig_backed_in_use(inv: Inventory, host: str, gpus: list[Gpu]) -> int:
    vgpus = [
        v
        for v in inv.vgpus
        if v.host == host and (v.vgpu.mig_backed or v.gpu_instance_id not in ("", "N/A"))
    ]
    if vgpus:
        return len(vgpus)
    # MIG on in a vGPU host's report: its vGPUs are MIG-backed, whether or not vgpu -q was read.
    return sum(
        1 for g in gpus if g.mig_current == "Enabled" and g.virtualization_mode == "Host VGPU"
    )


def support_findings(inv: Inventory, catalog: Catalog) -> list[str]:
    hosts = {h.name: h for h in inv.hosts}
    on_host: dict[str, dict[str, Gpu]] = defaultdict(dict)
    for g in inv.gpus:
        if g.host:
            on_host[g.host].setdefault(gpu_slot(g.bus_id), g)
    out = []
    for name, by_slot in sorted(on_host.items()):
        gpus = list(by_slot.values())
        sxm = [
            g for g in gpus
            if g.gpu.catalog_id and catalog.gpus[g.gpu.catalog_id].form_factor is FormFactor.SXM
        ]  # fmt: skip
        if not sxm:
            continue
        model = catalog.gpus[str(sxm[0].gpu.catalog_id)]
        host = hosts.get(name)
        server = catalog.servers.get(host.server.catalog_id or "") if host else None
        board = nvswitch_board(model, server) if server else len(sxm) >= NVSWITCH_GPUS
        if not board:
            continue
        where = f"host {name}: the NVSwitch board of its {len(sxm)} {model.name} GPUs"
        if n := _mig_backed_in_use(inv, name, gpus):
            out.append(
                f"{where} runs MIG-backed vGPU ({n} in use), which NVIDIA does not support "
                f"under vSphere: {NVSWITCH_PAGE}"
            )
        if n := sum(1 for p in inv.passthrough if p.host == name):
            out.append(
                f"{where} gives {n} {'GPU' if n == 1 else 'GPUs'} whole to VMs by passthrough, "
                f"which NVIDIA does not support under vSphere: {NVSWITCH_PAGE}"
            )
    return out
