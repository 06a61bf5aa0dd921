"""The physical layer read once: the parts each cable run of each network needs, as the racks
place its ends (NVIDIA's paired InfiniBand parts, the Ethernet port map), so the bill, the
network's words, its figure and the cabling decision all read copper, fibre and optics from
the same counted parts."""

from __future__ import annotations

from wizard.base.numbers import count
from wizard.engine.fitout import linkx, portmap
from wizard.model import buildout as bo
from wizard.model.buildout import BomCategory as Cat

RUN_WORDS = {"host-leaf": "host to leaf", "leaf-spine": "leaf to spine", "peer-link": "peer link",
             "host-oob": "device to out-of-band switch",
             "oob-uplink": "out-of-band switch to the site's management network"}  # fmt: skip

# plane index -> cable run ('host-leaf', …) -> the parts it needs
Runs = dict[int, dict[str, list[bo.BomLine]]]


def plane_runs(
    planes: list[bo.Plane],
    racks: list[bo.Rack],
    hosts_on: list[list[portmap.Host]],
    osfp: list[bool],
    managed: list[bool | None],
    links: list[portmap.PortLink],
    numbered_by_kind: bool,
) -> Runs:
    """The parts of every placed run of every plane: InfiniBand NDR/XDR from its cages,
    Ethernet from the port map. A plane whose switches are not placed is left out (its generic
    lines stay)."""
    where = linkx.places(racks)
    names = linkx.switch_names(planes, numbered_by_kind)
    out: Runs = {}
    for i, (p, named) in enumerate(zip(planes, names, strict=True)):
        if linkx.is_ndr(p):
            runs = linkx.plane_runs(p, [h.place for h in hosts_on[i]], named, where, osfp[i],
                                    managed[i])  # fmt: skip
            if runs is not None:
                out[i] = runs
            continue
        mine = [ln for ln in links if ln.network == p.name]
        if not mine or (p.tiers and not any(ln.between == "host-leaf" for ln in mine)):
            continue
        by_run: dict[str, list[portmap.PortLink]] = {}
        for ln in mine:
            by_run.setdefault(ln.between, []).append(ln)
        out[i] = {run: portmap.bom_lines(lns) for run, lns in by_run.items()}
    return out


def is_fibre(line: bo.BomLine) -> bool:
    """A cable line that is optical fibre (the rest are copper: DACs, patch cords)."""
    return line.category is Cat.CABLE and "fibre" in line.description.lower()


def tally(lines: list[bo.BomLine]) -> tuple[int, int, int]:
    """(copper cables, fibres, optical modules) of a run's parts."""
    copper = sum(ln.quantity for ln in lines if ln.category is Cat.CABLE and not is_fibre(ln))
    fibre = sum(ln.quantity for ln in lines if is_fibre(ln))
    modules = sum(ln.quantity for ln in lines if ln.category is Cat.TRANSCEIVER)
    return copper, fibre, modules


def run_text(speed: float, between: str, lines: list[bo.BomLine]) -> str:
    """What a run is built of, in the bill's own counts and part numbers."""
    copper, fibre, modules = tally(lines)
    if between == "host-oob":
        return f"{count(copper, 'Cat 6 RJ45 patch cord')}, management port to the out-of-band switch of its rack"
    if between == "oob-uplink":
        return (
            f"{count(fibre, 'fibre')} and {count(modules, 'optical module')} (MMA1B00-C100D): each "
            "out-of-band switch's uplink to the site's management network"
        )
    parts = []
    if copper:
        parts.append(f"{count(copper, 'direct-attach copper cable')}")
    if fibre:
        parts.append(f"{count(fibre, 'fibre')}")
    parts.append(count(modules, "optical module") if modules else "no optical modules")
    numbers = sorted({ln.part_number for ln in lines if ln.part_number})
    tail = f" ({', '.join(numbers)})" if numbers else ""
    return f"{speed:g} Gb/s {RUN_WORDS.get(between, between)}: {', '.join(parts)}{tail}"


def describe(planes: list[bo.Plane], runs: Runs) -> list[bo.Plane]:
    """Each placed run's words and optics from its parts; unplaced runs keep theirs."""
    out = []
    for i, p in enumerate(planes):
        mine = runs.get(i)
        if mine is None:
            out.append(p)
            continue
        cables = []
        for c in p.cables:
            lines = mine.get(c.between)
            if lines is not None:
                copper, fibre, modules = tally(lines)
                # the run's cables as the bill counts them: a splitter or a breakout fibre
                # carries several links, a management cord every racked device's port
                update = {
                    "description": run_text(c.speed_gbps, c.between, lines),
                    "transceivers": modules,
                    "count": copper + fibre,
                }
                c = c.model_copy(update=update)  # fmt: skip
            cables.append(c)
        out.append(p.model_copy(update={"cables": cables}))
    return out


def flat(runs: Runs) -> list[bo.BomLine]:
    return [ln for by_run in runs.values() for lines in by_run.values() for ln in lines]


def replaced(planes: list[bo.Plane], runs: Runs) -> set[str]:
    """The generic cable keys the placed parts replace on the bill."""
    return {c.key for i in runs for c in planes[i].cables}


def host_links(runs: Runs) -> tuple[int, int, int]:
    """(copper cables, fibres, optical modules) of every placed host-to-leaf run, and the
    modules of all runs as the third figure."""
    copper = fibre = 0
    for by_run in runs.values():
        c, f, _ = tally(by_run.get("host-leaf", []))
        copper, fibre = copper + c, fibre + f
    modules = sum(tally(lines)[2] for by_run in runs.values() for lines in by_run.values())
    return copper, fibre, modules
