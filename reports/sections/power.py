"""Power and space: watts per host and for the cluster, racks and what limits them, the rack
elevations and power per rack."""

from __future__ import annotations

from reportlab.platypus import Flowable

from reports.diagrams import charts, racks
from reports.sections import calculations, cooling
from reports.story import Story
from wizard.base.numbers import MISSING, count, num
from wizard.model.buildout import Power
from wizard.model.platform import StorageResult
from wizard.present import labels
from wizard.present.racks_text import rack_fit


def _storage_pair(p: Power, storage: StorageResult | None) -> list[tuple[str, str]]:
    """The storage's line of the power summary: its watts, or that no figure was published."""
    if storage is None or not storage.system or not storage.nodes:
        return []
    if p.storage_w:
        return [("Storage", f"{num(p.storage_w)} W")]
    return [("Storage", "not counted: no published figure for its nodes (see the risks)")]


def _racks_phrase(host_racks: int, network_racks: int) -> str:
    """'2 racks of hosts and 1 for the network', or '1 rack, hosts and network together'."""
    if network_racks:
        return f"{count(host_racks, 'rack')} of hosts and {num(network_racks)} for the network"
    return f"{count(host_racks, 'rack')}, hosts and network gear together"


def build(st: Story) -> list[Flowable] | None:
    p = getattr(st.data.result, "power", None)
    rk = getattr(st.data.result, "racks", None)
    if p is None and rk is None:
        return None
    flow: list[Flowable] = []
    if p is not None:
        flow += st.h2("Power")
        flow.append(
            st.pairs(
                [
                    (
                        "Per host",
                        f"{num(p.host_w)} W (GPUs {num(p.gpu_w_per_host)} W, platform "
                        f"{num(p.baseline_w_per_host)} W)",
                    ),
                    (
                        "Power supplies per host",
                        f"{num(p.psu_installed_w)} W installed, "
                        f"{num(p.psu_redundant_w)} W with half failed",
                    ),
                    ("Hosts", f"{num(p.hosts)} × {num(p.host_w)} W = {num(p.hosts_w)} W"),
                    ("Network", f"{num(p.network_w)} W"),
                    *_storage_pair(p, getattr(st.data.result, "storage", None)),
                    *(
                        [("Coolant distribution units", f"{num(p.cdu_w)} W, in the racks")]
                        if p.cdu_w
                        else []
                    ),
                    ("Total", f"{num(p.total_kw)} kW ({num(p.btu_per_hour)} BTU/h)"),
                ]
            )
        )
        if p.items:
            rows: list[list] = [["Item", "Count", "W each", "W total", "Src."]]
            rows += [
                [
                    i.item,
                    num(i.count),
                    num(i.watts_each) if i.watts_each else MISSING,
                    num(i.watts_total) if i.watts_each else "not counted",
                    st.cite(i.source),
                ]
                for i in p.items
            ]
            flow.append(st.table(rows, [4, 0.8, 1, 1, 0.5], right=(1, 2, 3)))
    if rk is not None:
        flow += st.h2("Racks")
        fit = f"; {rack_fit(rk)}"
        flow.append(
            st.p(
                f"{_racks_phrase(rk.host_racks, rk.network_racks)}, "
                f"{rk.rack_units} U and {num(rk.power_limit_kw)} kW"
                f"{' each' if rk.host_racks + rk.network_racks > 1 else ''}{fit} (failure domain: "
                f"{labels.name(labels.FAILURE_DOMAIN, rk.failure_domain).lower()})."
            )
        )
        elevation = racks.draw(st.data, st.width)
        if elevation is not None:
            flow.append(st.figure(elevation, "Rack elevations: units, contents and power."))
        chart = charts.power_per_rack(st.data, st.width)
        if chart is not None:
            flow.append(st.figure(chart, "Power per rack against the rack's limit."))
        flow += cooling.block(st, rk.cooling, rk.racks)
    flow += calculations.block(st, "power.", "racks.", "cooling.")
    return flow
