"""Which catalog switch a fabric of a given kind and port speed is built with: native speed first,
then a breakout, then a faster port run slower. One choice for the fabric's sizing and for the
rule book's checks of what that switch can do (e.g. in-network reduction)."""

from __future__ import annotations

from dataclasses import dataclass

from wizard.model.catalog import Parts, Switch, SwitchKind


@dataclass(frozen=True)
class Pick:
    switch: Switch
    breakout: int  # host ports per switch port


def pick_switch(catalog: Parts, kind: SwitchKind, speed: float) -> Pick | None:
    """Native speed first, then breakout (a 400 G port as 2 x 200 G, a 100 G port as
    4 x 25 G), then a faster port run at the lower speed; lower port speed, then more ports."""
    best: tuple[tuple, Pick] | None = None
    for sw in sorted(catalog.switches.values(), key=lambda s: s.id):
        if sw.kind is not kind or sw.port_speed_gbps < speed:
            continue
        ratio = sw.port_speed_gbps / speed
        if ratio == 1:
            rank, breakout = 0, 1
        elif ratio.is_integer() and int(ratio) in (2, 4) and sw.port_speed_gbps >= 100:
            rank, breakout = 1, int(ratio)
        else:
            rank, breakout = 2, 1
        key = (rank, sw.port_speed_gbps, -sw.ports * breakout, sw.id)
        if best is None or key < best[0]:
            best = (key, Pick(sw, breakout))
    return best[1] if best else None
