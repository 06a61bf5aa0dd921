"""The bill's lines for the networks the clusters share: a cable (and its optics) that several
planes use is billed once with the planes' counts summed, and a run another part of the bill
already counts (the LinkX pairing's ``done`` keys) is left out."""

from __future__ import annotations

from wizard.engine.decide.estate import _network_lines
from wizard.model.buildout import BomCategory, CableRun, Plane, SwitchTier


def _run(key: str, count: int, transceivers: int = 0) -> CableRun:
    return CableRun(key=key, between="host-leaf", speed_gbps=100, count=count,
                    description=f"{key} cable", transceivers=transceivers)  # fmt: skip


def _leaves(count: int) -> SwitchTier:
    return SwitchTier(role="leaf", switch=SWITCH, model="SN4600C", count=count, downlinks=32,
                      uplinks=0, port_speed_gbps=100, rack_units=2, power_w=500)  # fmt: skip


def _plane(name: str, cables: list[CableRun], leaves: int = 0) -> Plane:
    return Plane(name=name, technology="100gbe", rdma="none", speed_gbps=100, host_ports=2,
                 redundant=True, oversubscription_target=1.0, oversubscription=None,
                 tiers=[_leaves(leaves)] if leaves else [], cables=cables)  # fmt: skip


SWITCH = "nvidia-sn4600c"
PLANES = [
    _plane("compute", [_run("dac-100g-3m", 6), _run("aoc-100g-10m", 3, 6)], leaves=2),
    _plane("service", [_run("dac-100g-3m", 4), _run("aoc-100g-10m", 2, 4), _run("cat6-2m", 5)], 3),
]


def _qty(lines, category) -> dict[str, int]:
    return {ln.item: ln.quantity for ln in lines if ln.category is category}


def test_a_cable_of_two_planes_is_billed_once_with_their_counts_summed(catalog):
    """dac-100g-3m: 6 on the compute plane + 4 on the service plane = 10; aoc-100g-10m:
    3 + 2 = 5 cables with 6 + 4 = 10 optics; cat6-2m only on one plane: 5."""
    lines = _network_lines(catalog, PLANES)
    assert _qty(lines, BomCategory.CABLE) == {
        "cable:dac-100g-3m": 10,
        "cable:aoc-100g-10m": 5,
        "cable:cat6-2m": 5,
    }
    assert _qty(lines, BomCategory.TRANSCEIVER) == {"transceiver:aoc-100g-10m": 10}


def test_a_run_counted_elsewhere_is_left_out(catalog):
    """The negative case: with dac-100g-3m done, neither plane's 6 or 4 is billed here."""
    lines = _network_lines(catalog, PLANES, {"dac-100g-3m"})
    assert _qty(lines, BomCategory.CABLE) == {"cable:aoc-100g-10m": 5, "cable:cat6-2m": 5}


def test_a_switch_of_two_planes_is_billed_once_with_their_counts_summed(catalog):
    """NVIDIA SN4600C leaves: 2 on the compute plane + 3 on the service plane = 5; a run left
    out as done takes no switch with it."""
    for done in (None, {"dac-100g-3m"}):
        lines = _network_lines(catalog, PLANES, done)
        assert _qty(lines, BomCategory.SWITCH) == {f"switch:{SWITCH}": 5}
