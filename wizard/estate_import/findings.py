"""What an import found, for a person (lines to print) and for a program (JSON): the clusters,
hosts, VMs, GPUs and vGPUs read, what each maps to in the catalog and what does not map."""

from __future__ import annotations

import json
from collections import Counter

from wizard.estate_import.inventory import Inventory
from wizard.estate_import.mapping import Match
from wizard.estate_import.support import support_findings
from wizard.model.catalog import Catalog


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n:,} {one if n == 1 else (many or one + 's')}"


def _maps(m: Match, names: dict[str, str]) -> str:
    return f"catalog: {names[m.catalog_id]}" if m.catalog_id else "not in the catalog"


def findings_lines(inv: Inventory, catalog: Catalog) -> list[str]:
    gpu_names = {gid: g.name for gid, g in catalog.gpus.items()}
    server_names = {sid: s.product_name for sid, s in catalog.servers.items()}
    out = [f"Read {_plural(len(inv.files), 'file')}:"]
    out += [f"  {f}" for f in inv.files]
    out.append(f"Clusters: {len(inv.clusters)}")
    for c in inv.clusters:
        ha = {True: ", HA on", False: ", HA off", None: ""}[c.ha_enabled]
        hosts = f"{_plural(c.hosts, 'host')}" if c.hosts is not None else "hosts not given"
        out.append(f"  {c.name}: {hosts}{ha}")
    out.append(f"Hosts: {len(inv.hosts)}")
    kinds = Counter((h.cluster, f"{h.vendor} {h.model}".strip(), h.server) for h in inv.hosts)
    for (cluster, model, match), n in sorted(kinds.items(), key=lambda x: (x[0][0], x[0][1])):
        shown = model or "vendor and model not given"
        out.append(f"  {cluster or 'no cluster'}: {n} × {shown} ({_maps(match, server_names)})")
    on = sum(1 for v in inv.vms if v.powered_on)
    out.append(f"VMs: {len(inv.vms)} ({on:,} powered on)")
    out.append(f"GPUs: {len(inv.gpus)}")
    gpus = Counter(
        (g.host, g.product_name, g.memory_mib, g.mig_current, g.mig_pending, g.driver_version,
         g.virtualization_mode, g.gpu)
        for g in inv.gpus
    )  # fmt: skip
    for (host, name, mib, mig, pending, driver, mode, match), n in sorted(
        gpus.items(), key=lambda x: (x[0][0], x[0][1])
    ):
        parts = [f"{n} × {name}"]
        if mib:
            parts.append(f"{mib:,} MiB")
        if mig and mig != "N/A":
            parts.append(
                f"MIG {mig}" + (f" (pending {pending})" if pending and pending != mig else "")
            )
        if driver:
            parts.append(f"driver {driver}")
        if mode and mode != "N/A":
            parts.append(mode)
        out.append(f"  {host or 'host not known'}: {', '.join(parts)} ({_maps(match, gpu_names)})")
    out.append(f"vGPUs in use: {len(inv.vgpus)}")
    uses = Counter(
        (v.host, v.vgpu.name or v.vgpu.read_as, v.vgpu.mig_backed, v.vgpu.gpus) for v in inv.vgpus
    )
    for (host, name, backed, cands), n in sorted(uses.items(), key=lambda x: (x[0][0], x[0][1])):
        kind = {True: "MIG-backed", False: "time-sliced", None: "form not known"}[backed]
        board = " or ".join(gpu_names[c] for c in cands) if cands else "no catalog GPU offers it"
        out.append(f"  {host or 'host not known'}: {n} × {name} ({kind}; {board})")
    if inv.passthrough:
        out.append(f"GPUs given whole to VMs: {len(inv.passthrough)}")
    outside = support_findings(inv, catalog)
    if outside:
        out.append(f"Outside NVIDIA's support: {len(outside)}")
        out += [f"  {line}" for line in outside]
    unmapped = inv.unmapped()
    out.append(f"Not mapped: {len(unmapped)}")
    out += [f"  {line}" for line in unmapped]
    if inv.notes:
        out.append("Notes:")
        out += [f"  {n}" for n in inv.notes]
    return out


def findings_json(inv: Inventory, catalog: Catalog) -> str:
    doc = inv.to_json()
    doc["outside_support"] = support_findings(inv, catalog)
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
