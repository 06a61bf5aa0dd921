"""What must hold for every Result the engine returns, whatever design it was given.

``check(result, design, catalog)`` returns every broken invariant as a line of text, so a
failing property test shows all of them at once.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from wizard.engine.fitout import linkx
from wizard.engine.placement import mig
from wizard.model.buildout import BomCategory
from wizard.model.catalog import Catalog
from wizard.model.design import Design, FailureDomain, HaLevel
from wizard.model.result import Result

CAPACITY_WARNING = "capacity-below-demand-after-failure"


def numbers(node: Any, path: str = "result"):
    """Every number in a JSON tree, with its path."""
    if isinstance(node, bool):
        return
    if isinstance(node, int | float):
        yield path, node
    elif isinstance(node, dict):
        for k, v in node.items():
            yield from numbers(v, f"{path}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from numbers(v, f"{path}[{i}]")


def check_numbers(result: Result) -> list[str]:
    out = []
    for path, value in numbers(result.model_dump(mode="python")):
        if isinstance(value, float) and not math.isfinite(value):
            out.append(f"{path} is {value}")
        elif value < 0:
            out.append(f"{path} is negative ({value})")
    return out


def check_calculations(result: Result) -> list[str]:
    """The calculation log cannot lie: every formula, evaluated with its logged inputs, gives
    its logged value."""
    from wizard.engine.basis.expr import evaluate

    out = []
    for c in result.calculations:
        got = evaluate(c.formula, c.inputs)
        if not math.isclose(got, c.value, rel_tol=1e-9, abs_tol=1e-12):
            out.append(f"{c.id}: {c.formula} with {c.inputs} gives {got}, logged {c.value}")
    return out


def hosts_the_policy_lets_fail(design: Design, capacity_hosts: int) -> int:
    """How many hosts may fail at once under the design's HA policy, from what the policy means
    rather than from the engine's formula: N+k is k failure domains, a domain being one host or,
    for a rack domain with its size given, a rack of ``hosts_per_rack``; a percentage reserve is
    the fewest hosts that are at least that share of the cluster (capacity plus reserve)."""
    ha = design.ha
    if ha.level is HaLevel.PERCENT:
        share = ha.reserve_percent / 100
        reserve = 0
        while reserve < (capacity_hosts + reserve) * share - 1e-9:
            reserve += 1
        return reserve
    k = {HaLevel.N0: 0, HaLevel.N1: 1, HaLevel.N2: 2}[ha.level]
    rack = ha.failure_domain is FailureDomain.RACK and ha.hosts_per_rack
    return k * (ha.hosts_per_rack if rack and ha.hosts_per_rack else 1)


def check_capacity(result: Result, design: Design) -> list[str]:
    """Hosts for capacity hold the demand; after the failures the HA policy allows, with the
    maintenance hosts out as well, the hosts left still hold it, and one host fewer would not
    (the cluster has no host the policy does not ask for)."""
    c = result.cluster
    out = []
    gph = design.hardware.gpus_per_host
    if c.gpus_per_host != gph:
        out.append(f"gpus_per_host {c.gpus_per_host} != design {gph}")
    parts = c.hosts_for_capacity + c.hosts_for_ha + c.hosts_for_maintenance
    if c.hosts_total != parts + c.hosts_for_platform:
        out.append("hosts_total is not capacity + HA + maintenance + platform-minimum hosts")
    # VMware Cloud Foundation: a workload domain cluster of 3 hosts with vSAN, else 2
    vcf = design.licensing.platform == "vmware-vcf" or design.platform.private_ai_foundation
    floor = (3 if design.platform.vsan_principal_storage else 2) if vcf else 1
    expected = max(floor - parts, 0) if c.hosts_for_capacity else 0
    if c.hosts_for_platform != expected:
        out.append(f"{c.hosts_for_platform} hosts for the platform minimum; expected {expected}")
    if c.gpus_total != c.hosts_total * gph:
        out.append(f"gpus_total {c.gpus_total} != {c.hosts_total} hosts x {gph}")
    if c.gpus_demand > c.hosts_for_capacity * gph:
        out.append(f"demand {c.gpus_demand} GPUs does not fit {c.hosts_for_capacity} hosts")
    if c.hosts_for_maintenance != design.ha.maintenance_hosts:
        out.append(
            f"{c.hosts_for_maintenance} maintenance hosts; the design asks "
            f"{design.ha.maintenance_hosts}"
        )
    failures = hosts_the_policy_lets_fail(design, c.hosts_for_capacity)
    if c.host_failures_tolerated != failures:
        out.append(
            f"{c.host_failures_tolerated} host failures tolerated; the {design.ha.level.value} "
            f"policy allows {failures}"
        )
    left = c.hosts_total - c.hosts_for_platform - failures - c.hosts_for_maintenance
    if left < c.hosts_for_capacity:
        out.append(
            f"{failures} failed and {c.hosts_for_maintenance} maintenance hosts out of "
            f"{c.hosts_total} leave {left}, fewer than the {c.hosts_for_capacity} the demand needs"
        )
    elif left - 1 >= c.hosts_for_capacity:
        out.append(
            f"{failures} failed and {c.hosts_for_maintenance} maintenance hosts out of "
            f"{c.hosts_total} leave {left}: one host more than the {c.hosts_for_capacity} needed"
        )
    after = (c.hosts_total - failures) * gph
    if c.gpus_after_failures != after:
        out.append(
            f"gpus_after_failures {c.gpus_after_failures}; {failures} failed hosts leave {after}"
        )
    if after < c.gpus_demand:
        out.append(f"{after} GPUs after {failures} host failures < demand {c.gpus_demand}")
    if not c.capacity_after_failures_ok:
        out.append("capacity_after_failures_ok is false although the failed hosts are covered")
    warned = [w for w in result.warnings if w.code == CAPACITY_WARNING]
    for w in warned:  # only N+0 warns: one failure there can leave too little
        one_down = (c.hosts_total - 1) * gph
        if failures or (one_down >= c.gpus_demand and c.hosts_total - 1 >= c.hosts_for_capacity):
            out.append(f"capacity warning without a shortfall: {w.message}")
    return out


def check_packing(result: Result, design: Design, catalog: Catalog) -> list[str]:
    p = result.packing
    out: list[str] = []
    if p is None:
        return ["no packing"]
    gpu = catalog.gpus[result.gpu]
    c = result.cluster
    if p.gpus_used != c.gpus_demand or p.hosts_used != c.hosts_for_capacity:
        out.append(
            f"packing uses {p.gpus_used} GPUs on {p.hosts_used} hosts; cluster says "
            f"{c.gpus_demand} on {c.hosts_for_capacity}"
        )
    placed: Counter[str] = Counter()
    vgpu_profiles = {q.name: q for q in gpu.vgpu.profiles} if gpu.vgpu else {}
    used = 0
    for host in p.hosts:
        if len(host.gpus) != design.hardware.gpus_per_host:
            out.append(f"host {host.host} lists {len(host.gpus)} GPUs")
        for g in host.gpus:
            where = f"host {host.host} GPU {g.gpu}"
            if g.mode != "free":
                used += 1
            for s in g.slots:
                placed[s.workload] += 1
            if g.memory_used_gb > gpu.memory_gb + 1e-6:
                out.append(f"{where}: {g.memory_used_gb} GB used of {gpu.memory_gb}")
            if not (0 <= g.compute_used <= 1 + 1e-9 and 0 <= g.utilization <= 1 + 1e-9):
                out.append(f"{where}: compute {g.compute_used}, utilization {g.utilization}")
            if g.mode == "mig":
                instances = [mig.Instance(s.start or 0, s.profile or "") for s in g.slots]
                problems = mig.validate_layout(gpu, instances)
                out += [f"{where}: MIG layout {g.layout}: {x}" for x in problems]
                if mig.counts_text(instances) != g.layout:
                    out.append(f"{where}: slots {sorted(instances)} do not match {g.layout}")
            elif g.mode == "vgpu":
                profiles = Counter(s.profile for s in g.slots)
                if any(name not in vgpu_profiles for name in profiles):
                    out.append(f"{where}: unknown vGPU profile in {dict(profiles)}")
                    continue
                fb = sum(vgpu_profiles[n].framebuffer_gb * k for n, k in profiles.items())
                if fb > gpu.memory_gb + 1e-6:
                    out.append(f"{where}: vGPU framebuffer {fb} GB > {gpu.memory_gb} GB")
                if len(profiles) == 1:
                    ((name, k),) = profiles.items()
                    if k > vgpu_profiles[name].max_per_gpu:
                        out.append(f"{where}: {k} x {name}, max {vgpu_profiles[name].max_per_gpu}")
                else:
                    if not design.hardware.vgpu_mixed_sizes:
                        out.append(f"{where}: mixed vGPU sizes {dict(profiles)} not allowed")
                    for name, k in profiles.items():
                        most = vgpu_profiles[name].max_per_gpu_mixed or 0
                        if k > most:
                            out.append(f"{where}: {k} x {name} mixed, max {most}")
    if used != p.gpus_used:
        out.append(f"packing lists {used} busy GPUs but says {p.gpus_used}")
    for w in result.workloads:
        if placed[w.name] != w.gpus_total:
            out.append(f"{w.name}: {placed[w.name]} slots placed for {w.gpus_total} GPUs needed")
    return out


def check_comparison(result: Result) -> list[str]:
    out = []
    rows = result.sharing_comparison
    if not rows or rows[0].mode != "as-designed":
        return ["the comparison has no as-designed row"]
    first = rows[0]
    c = result.cluster
    if (first.gpus, first.hosts_for_capacity, first.hosts_total) != (
        c.gpus_demand,
        c.hosts_for_capacity,
        c.hosts_total,
    ):
        out.append("the as-designed comparison row disagrees with the cluster")
    for r in rows:
        if not 0 <= r.mean_utilization <= 1 + 1e-9:
            out.append(f"{r.mode}: mean utilization {r.mean_utilization}")
    return out


LINKX = ("cable:mcp", "cable:mfp", "transceiver:mma")  # NVIDIA's paired InfiniBand parts
SPLITTERS = ("cable:mcp7y00", "cable:mcp7y10")
OOB = "switch:nvidia-sn2201"
SUBNET_MANAGER = "switch:ib-subnet-manager"


def check_buildout(result: Result, catalog: Catalog | None = None) -> list[str]:
    out: list[str] = []
    topo, bom, c = result.topology, result.bom, result.cluster
    if topo is None or bom is None or result.power is None or result.racks is None:
        return ["build-out missing"]
    t = topo.totals
    if t.hosts != c.hosts_total or sum(h.hosts for h in topo.hosts) != c.hosts_total:
        out.append(f"topology has {t.hosts} hosts; cluster {c.hosts_total}")
    if t.gpus != c.gpus_total or sum(h.gpus * h.hosts for h in topo.hosts) != t.gpus:
        out.append(f"topology has {t.gpus} GPUs; cluster {c.gpus_total}")
    qty: Counter[str] = Counter()
    for line in bom.lines:
        qty[line.item] += line.quantity
        if line.quantity < 0 or line.quantity + line.included <= 0:
            out.append(f"BOM line {line.item} has quantity {line.quantity}")
        if line.included and line.category.value != "licence" and line.item != SUBNET_MANAGER:
            out.append(f"BOM line {line.item} is included with something else")
    expected: dict[str, int] = {
        f"server:{result.server}": t.hosts,
        f"gpu:{result.gpu}": t.gpu_boards,
    }
    expected |= {f"nic:{k}": v for k, v in t.nics.items()}
    # the service network's adapter, where the service ports are not the server's own: as many
    # per host as its ports need (ports over the adapter's ports, rounded up)
    service = [
        r for r in topo.fabric.nic_roles if r.network == "service" and r.adapter != "onboard"
    ]
    if service and catalog is not None and service[0].adapter in catalog.nics:
        ports = catalog.nics[service[0].adapter].ports
        cards = -(-service[0].ports_per_host // ports)
        expected[f"nic:{service[0].adapter}:service"] = t.hosts * cards
    expected |= {f"switch:{k}": v for k, v in t.switches.items()}
    # InfiniBand NDR planes placed in racks are billed as NVIDIA pairs the parts instead
    paired = {c.key for p in topo.fabric.planes if linkx.is_ndr(p) for c in p.cables}
    if not any(ln.item.startswith(LINKX) for ln in bom.lines):
        paired = set()
    # Ethernet and out-of-band planes placed in racks are billed from the port map instead
    # (part by part, with lengths): none of such a plane's generic keys is then in the bill
    for p in topo.fabric.planes:
        keys = {c.key for c in p.cables}
        if not linkx.is_ndr(p) and not any(ln.item.split(":", 1)[-1] in keys for ln in bom.lines):
            paired |= keys
    generic = {c.key for p in topo.fabric.planes for c in p.cables}
    expected |= {f"cable:{k}": v for k, v in t.cables.items() if k not in paired}
    expected |= {f"transceiver:{k}": v for k, v in t.transceivers.items() if k not in paired}
    if t.nvlink_bridges:
        expected[f"nvlink-bridge:{result.gpu}"] = t.nvlink_bridges
    st = result.storage
    if st.system is not None and st.nodes:  # the storage sized is the storage billed
        expected[f"storage:{st.system}"] = st.nodes
    # every rack placed is billed, with a PDU on each of its two feeds
    racks = result.racks
    expected[f"rack:{racks.rack_units}u"] = len(racks.racks)
    expected[f"pdu:{racks.power_limit_kw:g}kw"] = 2 * len(racks.racks)
    for item, n in expected.items():
        if qty.get(item, 0) != n:
            out.append(f"BOM {item}: {qty.get(item, 0)}, topology counts {n}")
    for line in bom.lines:
        if line.category is BomCategory.SERVER_PART:
            # memory, boot and rails per host; supplies and their cords per PSU of each host
            if line.quantity % t.hosts or not line.quantity:
                out.append(f"BOM {line.item}: {line.quantity} for {t.hosts} hosts")
            continue
        if line.item.startswith(LINKX) or line.item in (OOB, SUBNET_MANAGER):
            continue
        parts = (BomCategory.CABLE, BomCategory.TRANSCEIVER)
        if line.category in parts and line.item.split(":", 1)[-1] not in generic:
            continue  # a part of the port map (tests/engine/test_portmap.py)
        if line.category is not BomCategory.LICENCE and line.item not in expected:
            out.append(f"BOM {line.item} is not in the topology counts")
    if paired:
        legs = sum(2 * ln.quantity for ln in bom.lines if ln.item.startswith(SPLITTERS))
        modules = sum(ln.quantity for ln in bom.lines if ln.item.endswith("-ns400"))
        ports = sum(p.host_ports for p in topo.fabric.planes if linkx.is_ndr(p))
        if not ports <= legs + modules:
            out.append(f"{ports} NDR host ports, {legs} splitter legs and {modules} host modules")
    pw = result.power
    if not math.isclose(pw.total_kw * 1000, pw.total_w, rel_tol=1e-9, abs_tol=1e-6):
        out.append(f"power {pw.total_kw} kW vs {pw.total_w} W")
    if pw.hosts != c.hosts_total:
        out.append(f"power counts {pw.hosts} hosts; cluster {c.hosts_total}")
    racked = [h for r in result.racks.racks for h in r.hosts]
    if sorted(racked) != list(range(c.hosts_total)):
        out.append(
            f"racks hold hosts {len(racked)} (distinct {len(set(racked))}) of {c.hosts_total}"
        )
    return out


def check(result: Result, design: Design, catalog: Catalog) -> list[str]:
    return (
        check_numbers(result)
        + check_calculations(result)
        + check_capacity(result, design)
        + check_packing(result, design, catalog)
        + check_comparison(result)
        + check_buildout(result, catalog)
    )
