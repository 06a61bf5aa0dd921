"""Power and heat: watts per host and for the cluster with its switches, and the heat load.

A host draws its GPUs at TDP plus the server's stated platform baseline (CPUs, memory, fans,
drives at load): an upper bound for planning, as the catalog's baseline is itself an estimate.
"""

from __future__ import annotations

from wizard.base.numbers import count, plural
from wizard.engine.basis import sources
from wizard.engine.basis.expr import Formula
from wizard.engine.basis.record import Recorder
from wizard.engine.fitout import confirm
from wizard.model import buildout as bo
from wizard.model.catalog import Gpu, Server
from wizard.model.result import DecisionTopic

BTU_PER_HOUR_PER_W = 3.412142
# where each power line's figure comes from: one wording for one cluster's lines and the estate's
HOSTS_SOURCE = (
    "Derived: the GPUs at their board power (TDP) plus the server's platform baseline, both "
    "from the catalog"
)
SWITCH_SOURCE = "Switch catalog power_w (typical; see its source_note)"
OOB_SOURCE = "Switch catalog power_w (see its source_note)"
STORAGE_SOURCE = "Storage catalog power_w_per_node (vendor maximum; see its source)"
STORAGE_UNCOUNTED = "Not counted: the catalog has no published power figure for this storage system"
CDU_SOURCE = "Cooling catalog power_w (the unit's pumps and controls; see its source)"
CDU_UNCOUNTED = "Not counted: the catalog has no published power figure for this unit"
BTU_SOURCE = (
    "NIST Special Publication 811 (2008), Appendix B.8: 1 BTU_IT/h = 0.2930711 W, so "
    "1 W = 3.412142 BTU/h"
)
PSU_REDUNDANCY = (
    "Server catalog: the power supplies a server ships with, times each one's rating, is the "
    "installed complement, the supplies redundant in pairs (1+1, 2+2, 3+3); with half of them "
    "failed, half the supplies (rounded down) times the rating remains"
)


def host_watts(gpu: Gpu, server: Server, gpus_per_host: int) -> float:
    """A host's planning power: its GPU boards at TDP plus the server's platform baseline (the
    figure ``power`` logs as power.host_w)."""
    return gpus_per_host // gpu.gpus_per_board * gpu.tdp_w + server.baseline_power_w


def oob_units(racks: list[bo.Rack]) -> tuple[str, int, float] | None:
    """The racks' out-of-band switches as (model, count, watts each), None for none."""
    units = [i for r in racks for i in r.items if i.kind == "oob"]
    return (units[0].model, len(units), units[0].power_w) if units else None


def power(
    gpu: Gpu,
    server: Server,
    gpus_per_host: int,
    hosts: int,
    planes: list[bo.Plane],
    rec: Recorder,
    storage: tuple[str, int, int, float] | None = None,
    cdus: tuple[str, int, float] | None = None,
    oob: tuple[str, int, float] | None = None,
) -> bo.Power:
    """``storage`` is the storage system as (model, nodes, units per node, watts per node);
    ``cdus`` the in-rack coolant distribution units as (model, units, watts each), which the
    racks' PDUs feed."""
    boards = gpus_per_host // gpu.gpus_per_board
    gpu_w = rec.expr(
        "power.gpu_w_per_host",
        Formula("boards * tdp_w"),
        {"boards": boards, "tdp_w": gpu.tdp_w},
        "W",
        confirm.flag(f"{gpu.name} TDP from the GPU catalog ({gpu.source})", gpu, "tdp_w"),
    )
    host_w = rec.expr(
        "power.host_w",
        Formula("gpu_w + baseline_w"),
        {"gpu_w": gpu_w, "baseline_w": server.baseline_power_w},
        "W",
        confirm.flag(
            f"{server.product_name} baseline from the server catalog (a derived estimate, "
            "see its source_note); GPU TDP from the GPU catalog",
            server,
            "baseline_power_w",
        ),
    )
    supplies = {"supplies": server.psu_count, "supply_w": server.psu_w}
    # the supplies' count and rating are the catalog's: the rows print them with its mark
    supply_source = confirm.flag(PSU_REDUNDANCY, server, "psu_count", "psu_w")
    installed = rec.expr(
        "power.supplies_installed_w", Formula("supplies * supply_w"), supplies, "W",
        supply_source,
    )  # fmt: skip
    redundant = rec.expr(
        "power.supplies_with_half_failed_w", Formula("floor(supplies / 2) * supply_w"), supplies,
        "W", supply_source,
    )  # fmt: skip
    name = server.product_name
    # the figures these messages state that the catalog leaves unsettled
    unsure = [
        *confirm.unsettled(gpu, ["tdp_w"]),
        *confirm.unsettled(server, ["baseline_power_w", "psu_w", "psu_count"]),
    ]
    if host_w > installed:
        rec.error(
            "host-power-over-psu",
            "hardware.gpus_per_host",
            confirm.tagged(
                f"A host draws up to {host_w:,.0f} W, more than the {installed:,.0f} W of all "
                f"{server.psu_count} supplies of the {name}",
                unsure,
            ),
        )
    elif server.psu_count >= 2 and host_w > redundant:
        rec.warn(
            "host-power-over-psu-redundancy",
            confirm.tagged(
                f"A host draws up to {host_w:,.0f} W, more than the {redundant:,.0f} W left when "
                f"half of the {name}'s {server.psu_count} x {server.psu_w:,.0f} W supplies fail: "
                "a supply failure may throttle or stop the host",
                unsure,
            ),
        )
    items = [
        bo.PowerItem(
            item=f"{name} with {gpus_per_host} x {gpu.name}",
            count=hosts,
            watts_each=host_w,
            watts_total=hosts * host_w,
            source=HOSTS_SOURCE,
        )
    ]
    for p in planes:
        for t in p.tiers:
            items.append(
                bo.PowerItem(
                    item=f"{t.model} ({p.name} {t.role})",
                    count=t.count,
                    watts_each=t.power_w,
                    watts_total=t.count * t.power_w,
                    source=SWITCH_SOURCE,
                )
            )
    if oob is not None and oob[1]:
        items.append(
            bo.PowerItem(
                item=f"{oob[0]} (out-of-band switch, one per rack)",
                count=oob[1],
                watts_each=oob[2],
                watts_total=oob[1] * oob[2],
                source=OOB_SOURCE,
            )
        )
    net_w = sum(i.watts_total for i in items[1:])
    storage_w = storage[1] * storage[3] if storage else 0.0
    if storage:
        model, nodes, _, each = storage
        items.append(
            bo.PowerItem(
                item=f"{model} (storage node)",
                count=nodes,
                watts_each=each,
                watts_total=storage_w,
                source=STORAGE_SOURCE if each else STORAGE_UNCOUNTED,
            )
        )
        if not each:
            rec.warn(
                "storage-power-unknown",
                f"The power of the {count(nodes, 'storage node')} of the {model} is not in "
                "the total: the catalog has no published figure for it; add the vendor's maximum power "
                "per node to the catalog's storage entry before quoting power and cooling",
            )
    cdu_w = cdus[1] * cdus[2] if cdus else 0.0
    if cdus and cdus[1]:
        items.append(
            bo.PowerItem(
                item=f"{cdus[0]} (coolant distribution unit, in the rack)",
                count=cdus[1],
                watts_each=cdus[2],
                watts_total=cdu_w,
                source=CDU_SOURCE if cdus[2] else CDU_UNCOUNTED,
            )
        )
    hosts_w = rec.expr(
        "power.hosts_w", Formula("hosts * host_w"), {"hosts": hosts, "host_w": host_w}, "W",
        sources.DERIVED,
    )  # fmt: skip
    terms = {"hosts": hosts, "host_w": host_w, "switches_w": net_w}
    formula = "hosts * host_w + switches_w"
    if storage:
        terms["storage_w"] = storage_w
        formula += " + storage_w"
    if cdu_w:
        terms["cdus_w"] = cdu_w
        formula += " + cdus_w"
    total = rec.expr("power.total_w", Formula(formula), terms, "W", sources.DERIVED)
    btu = rec.expr(
        "power.btu_per_hour",
        Formula("total_w * btu_per_watt_hour"),
        {"total_w": total, "btu_per_watt_hour": BTU_PER_HOUR_PER_W},
        "BTU/h",
        BTU_SOURCE,
    )
    drawn = confirm.tagged(
        f"{host_w:,.0f} W ({boards} x {gpu.tdp_w:g} W {plural(boards, 'GPU')} plus a "
        f"{server.baseline_power_w:,.0f} W platform baseline)",
        [*confirm.unsettled(gpu, ["tdp_w"]), *confirm.unsettled(server, ["baseline_power_w"])],
    )
    rec.decide(
        f"Each host draws up to {drawn}; the {hosts} hosts, their "
        f"switches{' and storage' if storage_w else ''}"
        f"{' and coolant distribution units' if cdu_w else ''} draw {total / 1000:,.1f} kW, a heat load "
        f"of {btu:,.0f} BTU/h.",
        "GPUs at TDP plus the platform at load is the planning upper bound for power and cooling.",
        DecisionTopic.POWER,
        implication=f"The data centre provides {total / 1000:,.1f} kW of power and removes "
        f"{btu:,.0f} BTU/h of heat for this cluster.",
    )
    return bo.Power(
        gpu_w_per_host=gpu_w,
        baseline_w_per_host=server.baseline_power_w,
        host_w=host_w,
        psu_installed_w=installed,
        psu_redundant_w=redundant,
        hosts=hosts,
        hosts_w=hosts_w,
        network_w=net_w,
        storage_w=storage_w,
        cdu_w=cdu_w,
        total_w=total,
        total_kw=total / 1000,
        btu_per_hour=btu,
        items=items,
    )
