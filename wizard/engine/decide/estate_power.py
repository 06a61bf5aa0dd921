"""What draws power in a design built from several clusters, line by line: each cluster's hosts
at their planning power, its storage, the switches of the networks the clusters share, the
out-of-band switches and coolant units the racks hold, and the existing clusters kept as they
are. The lines add up to the estate's total, and each line whose catalog figure is unsettled
says so, as one cluster's power lines do."""

from __future__ import annotations

from collections import Counter

from wizard.engine.fitout import confirm
from wizard.engine.fitout.power import (
    CDU_SOURCE,
    HOSTS_SOURCE,
    OOB_SOURCE,
    STORAGE_SOURCE,
    STORAGE_UNCOUNTED,
    SWITCH_SOURCE,
)
from wizard.model import buildout as bo
from wizard.model.catalog import Catalog
from wizard.model.estate import EstateCluster, KeptAsIs


def power_items(
    catalog: Catalog,
    clusters: list[EstateCluster],
    as_is: list[KeptAsIs],
    network: list[bo.Plane],
    layout: list[bo.Rack],
    cdu_w: float,
) -> list[bo.PowerItem]:
    """The estate's power lines; ``cdu_w`` is one in-rack coolant unit's own power (0 when the
    racks hold none that their PDUs feed)."""
    items: list[bo.PowerItem] = []
    for c in clusters:
        per_host = c.gpus // c.hosts if c.hosts and c.gpus else 0
        gpu = catalog.gpus.get(c.result.gpu) if c.result is not None else None
        what = f" with {per_host} x {gpu.name}" if gpu is not None and per_host else ""
        items.append(_item(f"{c.server_name}{what} ({c.name})", c.hosts, c.host_w,
                           c.hosts_kw * 1000, HOSTS_SOURCE))  # fmt: skip
        nodes = c.result.storage.nodes if c.result is not None else None
        if c.result is not None and c.result.storage.system is not None and nodes:
            # a node without a published figure stays on the list, as not counted
            items.append(_item(f"{c.result.storage.system_name} (storage node, {c.name})", nodes,
                               c.result.power.storage_w / nodes, c.result.power.storage_w,
                               STORAGE_SOURCE if c.result.power.storage_w
                               else STORAGE_UNCOUNTED))  # fmt: skip
    for p in network:
        for t in p.tiers:
            items.append(_item(f"{t.model}, {p.technology} {t.role}", t.count, t.power_w,
                               t.count * t.power_w,
                               SWITCH_SOURCE))  # fmt: skip
    racked = Counter((i.kind, i.model, i.power_w) for r in layout for i in r.items
                     if i.kind in ("oob", "cdu"))  # fmt: skip
    for (kind, model, watts), n in sorted(racked.items()):
        if kind == "oob":
            items.append(_item(f"{model} (out-of-band switch, one per rack)", n, watts, n * watts,
                               OOB_SOURCE))  # fmt: skip
        elif cdu_w:
            items.append(_item(f"{model} (coolant distribution unit, in the rack)", n, cdu_w,
                               n * cdu_w, CDU_SOURCE))  # fmt: skip
    for a in as_is:
        each = a.hosts_kw * 1000 / a.hosts_counted if a.hosts_counted else 0.0
        items.append(_item(f"{a.name}: existing hosts kept as they are", a.hosts_counted, each,
                           a.hosts_kw * 1000, HOSTS_SOURCE))  # fmt: skip
    return confirm.mark_items(items, catalog)


def _item(name: str, count: int, each: float, total: float, source: str) -> bo.PowerItem:
    return bo.PowerItem(item=name, count=count, watts_each=each, watts_total=total, source=source)
