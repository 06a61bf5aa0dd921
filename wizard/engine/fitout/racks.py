"""Rack space and placement: hosts per rack at the rack's power limit and height, and where
each host and switch goes, honouring a rack failure domain."""

from __future__ import annotations

import math
from collections import Counter

from wizard.base.numbers import count
from wizard.engine.basis import sources
from wizard.engine.basis.expr import Formula
from wizard.engine.basis.record import Recorder
from wizard.engine.fitout import confirm
from wizard.engine.fitout.cooling import liquid_share
from wizard.engine.fitout.linkx import (
    ETH_COPPER,
    OTHER_COPPER_M,
    ROUTING_M,
    U_M,
    fill,
    pairing,
    switch_names,
)
from wizard.model import buildout as bo
from wizard.model.catalog import Cdu, Cooling, Server
from wizard.model.catalog import Switch as CatalogSwitch
from wizard.model.design import Assumptions, FailureDomain, HaPolicy
from wizard.model.result import DecisionTopic, Severity

# A host over the power limit still gets a rack of its own (and a warning): at least 1.
HOSTS_PER_RACK = Formula(
    "max(min(floor(rack_units / host_units), floor(rack_limit_w / host_w)), 1)"
)
HOSTS_PER_RACK_DOMAIN = Formula(
    "min(max(min(floor(rack_units / host_units), floor(rack_limit_w / host_w)), 1),"
    " hosts_per_failure_domain)"
)


def _even(total: int, parts: int) -> list[int]:
    base, extra = divmod(total, parts)
    return [base + 1] * extra + [base] * (parts - extra)


def racks(
    a: Assumptions,
    ha: HaPolicy,
    server: Server,
    host_w: float,
    planes: list[bo.Plane],
    hosts: int,
    failures_tolerated: int,
    rec: Recorder,
    storage: list[tuple[str, str, int, float]] | None = None,
    cdu: Cdu | None = None,
    oob: CatalogSwitch | None = None,
) -> bo.Racks:
    """``cdu``: the in-rack coolant distribution unit each rack of liquid-cooled hosts holds at
    its foot (its height and power count in the rack), None for none or in-row units. ``oob``:
    the out-of-band switch every rack holds at its top; its unit and power are kept free in
    every rack before hosts and switches are placed."""
    res_u, res_w = reserve(oob)
    height, limit = a.rack_units - res_u, a.max_rack_power_kw * 1000 - res_w
    host_u = server.rack_units
    cdu_u = cdu.rack_units or 0 if cdu else 0
    cdu_w = (cdu.power_w or 0.0) if cdu else 0.0
    # named as the cabling finds them (linkx.switch_names: '{plane}-{role}-NN')
    switches = [
        (name, t.model, t.rack_units, t.power_w)
        for p, named in zip(planes, switch_names(planes, numbered_by_kind=False), strict=True)
        for t in sorted(p.tiers, key=lambda t: t.role != "spine")
        for name in named[t.role]
    ] + list(storage or [])
    by_space = (height - cdu_u) // host_u
    by_power = int((limit - cdu_w) // host_w) if host_w else by_space
    if by_power == 0:
        # what the rack holds beside the host counts against the limit too
        own = [("its out-of-band switch", res_w), ("its coolant distribution unit", cdu_w)]
        beside = " and ".join(f"{what} {w:,.0f} W" for what, w in own if w)
        rec.warn(
            "rack-power-over-limit",
            f"One host draws {host_w:,.0f} W"
            + (f" and the rack's own equipment ({beside})" if beside else "")
            + f", over the {a.max_rack_power_kw:g} kW rack limit: each host gets a rack of its "
            "own and still exceeds it; raise the limit (high-density racks, liquid cooling) or "
            "choose a lower-power configuration",
        )
        by_power = 1
    per_rack = min(by_space, by_power)
    limited = "space" if by_space <= by_power else "power"
    rack_domain = ha.failure_domain is FailureDomain.RACK
    if rack_domain and ha.hosts_per_rack:
        if ha.hosts_per_rack < per_rack:
            per_rack, limited = ha.hosts_per_rack, "failure-domain"
        elif ha.hosts_per_rack > per_rack:
            rec.warn(
                "rack-domain-smaller-than-planned",
                f"HA counts {ha.hosts_per_rack} hosts per rack, but only {per_rack} fit a rack "
                f"({limited}); a rack failure loses fewer hosts than the reserve covers",
                Severity.INFO,
            )
    elif rack_domain:
        rec.warn(
            "rack-domain-unsized",
            f"The failure domain is a rack but Hosts per rack is not set, so the HA reserve "
            f"covers {count(failures_tolerated, 'host')}, not a rack of up to {per_rack}; set "
            "Hosts per rack on the HA policy page",
        )
    domain = ha.hosts_per_rack if limited == "failure-domain" and ha.hosts_per_rack else 0
    per_rack = int(
        rec.expr(
            "racks.hosts_per_rack",
            HOSTS_PER_RACK_DOMAIN if domain else HOSTS_PER_RACK,
            {
                "rack_units": height - cdu_u,
                "host_units": host_u,
                "rack_limit_w": limit - cdu_w,
                "host_w": host_w,
                **({"hosts_per_failure_domain": domain} if domain else {}),
            },
            "hosts",
            confirm.flag(
                sources.ASSUMPTION + " (rack height and power limit); " + sources.DERIVED,
                server,
                "rack_units",
            ),
        )
    )
    sw_u = sum(s[2] for s in switches)
    sw_w = sum(s[3] for s in switches)
    out: list[bo.Rack] = []
    if (
        hosts
        and hosts * host_u + sw_u + cdu_u <= height
        and hosts * host_w + sw_w + cdu_w <= limit
        and (hosts <= per_rack)
    ):
        out.append(
            _rack(
                "R01", "hosts+network", range(hosts), switches, server, height, host_w, limit, cdu
            )
        )
    elif hosts:
        n_racks = math.ceil(hosts / per_rack)
        host_out: list[bo.Rack] = []
        first = 0
        for i, in_rack in enumerate(_even(hosts, n_racks)):
            host_out.append(
                _rack(
                    f"R{i + 1:02d}",
                    "hosts",
                    range(first, first + in_rack),
                    [],
                    server,
                    height,
                    host_w,
                    limit,
                    cdu,
                )
            )
            first += in_rack
        rack_of = [r for r, rk in enumerate(host_out) for _ in rk.hosts]
        homes = leaf_homes(planes, switch_names(planes, numbered_by_kind=False),
                           [rack_of] * len(planes))  # fmt: skip
        out, rest = top_of_rack(host_out, switches, homes, strict=rack_domain)
        out += network_racks(rest, height, limit, len(out), rec)
    # every rack's out-of-band switch in the unit and power kept for it at the top
    free_u = height
    out = with_oob(out, oob)
    height, limit = a.rack_units, a.max_rack_power_kw * 1000
    host_racks = sum(1 for r in out if r.hosts)
    if hosts:
        # the racks placed, as a figure of the hosts: spread evenly over the fewest racks that
        # hold them (tests/engine/test_printed_figures_logged.py holds the two equal)
        rec.expr(
            "racks.host_racks", Formula("ceil(hosts / hosts_per_rack)"),
            {"hosts": hosts, "hosts_per_rack": per_rack}, "racks",
            f"{sources.DERIVED}: the hosts spread evenly over the fewest racks that hold them",
        )  # fmt: skip
    net_racks = sum(1 for r in out if r.role == "network")
    most = max((len(r.hosts) for r in out), default=0)
    if hosts and not rack_domain and most > failures_tolerated:
        rec.warn(
            "rack-failure-exceeds-ha",
            f"A rack holds up to {most} hosts while HA covers "
            f"{count(failures_tolerated, 'host failure') if failures_tolerated else 'no host failure'}: "
            "losing a whole rack (power, top-of-rack network) drops capacity below demand; choose "
            "Rack as the Failure domain on the HA policy page to plan for it",
            Severity.INFO,
        )
    over = [r for r in out if r.power_w > limit]
    if over:  # one warning for all of them: a large cluster can have thousands of racks
        worst = max(over, key=lambda r: r.power_w)
        names = ", ".join(r.name for r in over[:3]) + (", …" if len(over) > 3 else "")
        rec.warn(
            "rack-power-over-limit",
            f"{count(len(over), 'rack')} ({names}) {'draws' if len(over) == 1 else 'draw'} over the {a.max_rack_power_kw:g} kW limit, "
            f"up to {worst.power_w:,.0f} W ({worst.name})",
        )
    if hosts and server.cooling == Cooling.LIQUID:
        densest = max((r.power_w for r in out if r.hosts), default=0.0)
        rec.warn(
            "liquid-cooled-hosts",
            f"The {server.product_name} is liquid-cooled: its racks need facility water "
            f"and coolant distribution units, and the densest rack draws {densest / 1000:,.1f} kW "
            f"(the rack power limit is {a.max_rack_power_kw:g} kW; liquid-cooled racks are "
            "usually planned far above air-cooled ones, so set it to the facility's figure)",
            Severity.INFO,
        )
    if hosts:
        reason = {
            "power": f"The {a.max_rack_power_kw:g} kW rack power limit binds before the "
            f"{height}U of space: floor({limit:,.0f} / {host_w:,.0f}) = {count(per_rack, 'host')}.",
            "space": f"{height}U racks"
            + (f", {res_u}U of each for its out-of-band switch," if res_u else "")
            + f" hold floor({free_u - cdu_u} / {host_u}) = {count(by_space, 'host')} within "
            f"the {a.max_rack_power_kw:g} kW power limit.",
            "failure-domain": f"Each rack is one failure domain of {per_rack} hosts, which the "
            "HA reserve covers.",
        }[limited]
        rec.decide(
            f"The {hosts} hosts occupy {count(host_racks, 'rack')} of {height}U at a "
            f"{a.max_rack_power_kw:g} kW limit, {most} in the fullest rack (room for {per_rack})"
            + (f"; the switches take {count(net_racks, 'network rack')}" if net_racks else "")
            + (
                f"; {count(tor, 'leaf switch', 'leaf switches')} at the top of the rack holding "
                "most of their hosts (copper to the hosts in that rack)"
                if (tor := sum(1 for r in out if r.hosts for i in r.items if i.kind == "switch"))
                and len(out) > 1
                else ""
            )
            + ".",
            reason,
            DecisionTopic.RACKS,
            implication=f"The data centre provides {count(host_racks + net_racks, 'rack')} of "
            f"{height}U, each fed for {a.max_rack_power_kw:g} kW.",
        )
    return bo.Racks(
        rack_units=height,
        power_limit_kw=a.max_rack_power_kw,
        hosts_per_rack=most,
        hosts_room=per_rack if hosts else 0,
        limited_by=limited,
        failure_domain=ha.failure_domain.value,
        host_racks=host_racks,
        network_racks=net_racks,
        racks=out,
    )


def _rack(
    name: str,
    role: str,
    host_ids: range,
    switches: list[tuple[str, str, int, float]],
    server: Server,
    height: int,
    host_w: float,
    limit: float,
    cdu: Cdu | None = None,
) -> bo.Rack:
    items: list[bo.RackItem] = []
    u = 1
    model = server.product_name
    share = liquid_share(server)
    if cdu is not None and cdu.rack_units and host_ids:
        items.append(
            bo.RackItem(name="CDU", kind="cdu", model=cdu.product_name, u_position=u,
                        height_u=cdu.rack_units, power_w=cdu.power_w or 0.0)
        )  # fmt: skip
        u += cdu.rack_units
    for h in host_ids:
        items.append(
            bo.RackItem(
                name=f"host-{h + 1:02d}",
                kind="server",
                model=model,
                u_position=u,
                height_u=server.rack_units,
                power_w=host_w,
                host=h,
                liquid_w=host_w * share,
            )
        )
        u += server.rack_units
    items += _switch_items(switches, height)
    return bo.Rack(
        name=name,
        role=role,
        height_u=height,
        power_limit_w=limit,
        used_u=sum(i.height_u for i in items),
        power_w=sum(i.power_w for i in items),
        hosts=list(host_ids),
        items=items,
    )


def _switch_items(switches: list[tuple[str, str, int, float]], height: int) -> list[bo.RackItem]:
    """Switches stacked from the top of the rack down, where the cabling enters."""
    items = []
    top = height + 1
    for sw_name, sw_model, sw_u, sw_w in switches:
        top -= sw_u
        items.append(
            bo.RackItem(
                name=sw_name,
                kind="storage" if sw_name.startswith("storage-") else "switch",
                model=sw_model,
                u_position=top,
                height_u=sw_u,
                power_w=sw_w,
            )
        )
    return items


Switch = tuple[str, str, int, float]  # name, model, rack units, watts


def reserve(oob: CatalogSwitch | None) -> tuple[int, float]:
    """The units and watts every rack keeps for its out-of-band switch."""
    return (oob.rack_units, oob.power_w) if oob is not None else (0, 0.0)


def with_oob(racks: list[bo.Rack], oob: CatalogSwitch | None) -> list[bo.Rack]:
    """Each rack, placed within its height less the out-of-band switch's units, gets that switch
    at its top (one for every 48 management ports in it) and its full height and power limit
    back; its unit and watts then count in the rack's elevation and power."""
    if oob is None:
        return racks
    out = []
    for r in racks:
        devices = sum(1 for i in r.items if i.kind in ("server", "switch", "storage", "cdu"))
        n = -(-devices // oob.ports)
        items = [
            bo.RackItem(name=f"oob-{r.name.split()[0]}-{k + 1:02d}", kind="oob",
                        model=oob.product_name, u_position=r.height_u + 1 + k * oob.rack_units,
                        height_u=oob.rack_units, power_w=oob.power_w)
            for k in range(n)
        ]  # fmt: skip
        out.append(r.model_copy(update={
            "items": [*r.items, *items], "height_u": r.height_u + oob.rack_units,
            "power_limit_w": r.power_limit_w + oob.power_w,
            "used_u": r.used_u + n * oob.rack_units, "power_w": r.power_w + n * oob.power_w}))  # fmt: skip
    return out


def copper_reach_m(plane: bo.Plane) -> float:
    """The longest copper cable NVIDIA lists for a host link of ``plane``."""
    pair = pairing(plane)
    if pair is not None:
        return pair.splitter_lengths_m[-1]
    if plane.speed_gbps >= 800:
        return 0.0  # optics only: no copper pairs with these host cages in the sources read
    tier = next((t for t in plane.tiers if t.role == "leaf"), None)
    fam = ETH_COPPER.get((int(plane.speed_gbps), tier.breakout if tier else 1))
    return fam[2][-1] if fam else OTHER_COPPER_M[-1]


def leaf_homes(
    planes: list[bo.Plane],
    names: list[dict[str, list[str]]],
    host_racks: list[list[int]],
) -> dict[str, tuple[list[int], float]]:
    """Each leaf's host ports by the rack they are in (the assignment the cabling uses,
    ``linkx.fill``), and how far copper reaches on its plane. ``host_racks[i]``: the rack index of
    each host on plane ``i``, in the plane's host order."""
    out: dict[str, tuple[list[int], float]] = {}
    for p, named, on in zip(planes, names, host_racks, strict=True):
        leaves = named.get("leaf", [])
        if not leaves or not on:
            continue
        for leaf, ends in zip(leaves, fill(p, len(on), len(leaves)), strict=True):
            out[leaf] = ([on[h] for h, _ in ends], copper_reach_m(p))
    return out


def top_of_rack(
    racks: list[bo.Rack],
    switches: list[Switch],
    homes: dict[str, tuple[list[int], float]],
    strict: bool,
) -> tuple[list[bo.Rack], list[Switch]]:
    """Leaf switches at the top of the rack holding most of their host ports, where that saves
    optics (copper reaches from the top of the rack down to its lowest host) and the rack has the
    units and the power left; ``strict`` (a rack failure domain, or leaves shared by clusters):
    only a leaf whose host ports all sit in that rack, so one rack's failure takes no other
    rack's network. The other switches are returned for the network racks."""
    placed: dict[int, list[Switch]] = {}
    used = [r.used_u for r in racks]
    watts = [r.power_w for r in racks]
    rest: list[Switch] = []
    for sw in switches:
        home = homes.get(sw[0])
        if home is None or not home[0]:
            rest.append(sw)
            continue
        ports, reach = home
        where = Counter(ports)
        best = max(where, key=lambda r: (where[r], -r))
        rack = racks[best]
        lowest = min(i.u_position for i in rack.items if i.host is not None) if rack.hosts else 1
        top = rack.height_u + 1 - sum(s[2] for s in placed.get(best, [])) - sw[2]
        if (
            (strict and where[best] != len(ports))
            or used[best] + sw[2] > rack.height_u
            or watts[best] + sw[3] > rack.power_limit_w
            or (top - lowest) * U_M + ROUTING_M > reach
        ):
            rest.append(sw)
            continue
        placed.setdefault(best, []).append(sw)
        used[best] += sw[2]
        watts[best] += sw[3]
    out = []
    for i, r in enumerate(racks):
        if i not in placed:
            out.append(r)
            continue
        items = [*r.items, *_switch_items(placed[i], r.height_u)]
        out.append(r.model_copy(update={
            "role": "hosts+network", "items": items, "used_u": used[i], "power_w": watts[i]}))  # fmt: skip
    return out, rest


def network_racks(
    switches: list[tuple[str, str, int, float]],
    height: int,
    limit: float,
    numbered: int,
    rec: Recorder,
) -> list[bo.Rack]:
    """Switches fill network racks in order (spines first), by space and power."""
    racks: list[list[tuple[str, str, int, float]]] = []
    for sw in switches:
        if (
            not racks
            or sum(s[2] for s in racks[-1]) + sw[2] > height
            or (sum(s[3] for s in racks[-1]) + sw[3] > limit)
        ):
            racks.append([])
        racks[-1].append(sw)
    out = []
    for i, content in enumerate(racks):
        items = _switch_items(content, height)
        out.append(
            bo.Rack(
                name=f"R{numbered + i + 1:02d}",
                role="network",
                height_u=height,
                power_limit_w=limit,
                used_u=sum(s[2] for s in content),
                power_w=sum(s[3] for s in content),
                hosts=[],
                items=items,
            )
        )
    if racks:
        rec.expr(
            "racks.network_racks",
            Formula("racks_packed"),
            {"racks_packed": len(racks)},
            "racks",
            f"{sources.DERIVED}: {count(len(switches), 'switch', 'switches')} packed into racks of {height} U and "
            f"{limit:,.0f} W",
        )
    return out
