"""Ethernet copper in a rack: the shortest length of the cable family NVIDIA lists for the link
that covers the run, |Δu| x 0.04445 m + 1 m of routing (EIA-310 unit; both ends to the rear,
along the cable manager), and none where no listed length reaches (fibre then).

The families and their lengths, as NVIDIA names them: MC3309130 10GbE SFP+ 0.5, 1, 2, 3 m
(-00A, -001, -002, -003); MCP2M00-A 25GbE SFP28 0.5 to 3 m in half metres (A00A ... A003);
MCP1600-C 100GbE QSFP28 0.5 to 3 m in half metres and 5 m (C00A ... C005); MCP1650-V 200GbE
QSFP56 up to 3 m; the 400G FAQ's '400GbE to 2 x 200GbE QSFP56 | 1m-2m DAC | MCP7H60-W0xxxxx'
and '400BASE-CR8 copper | 0.5m-2m DAC | MCP1660-W0xxxxx'. No copper for 800 Gb/s."""

from __future__ import annotations

import pytest

from wizard.engine.fitout import linkx

# the run for |Δu| units apart: 0 -> 1.0 m, 10 -> 1.44, 20 -> 1.89, 25 -> 2.11, 40 -> 2.78,
# 45 -> 3.0003, 89 -> 4.96, 91 -> 5.04
APART = (0, 10, 20, 25, 40, 45, 89, 91)
N = None


@pytest.mark.parametrize(
    ("speed", "breakout", "metres"),
    [
        (10, 1, (1.0, 2.0, 2.0, 3.0, 3.0, N, N, N)),
        (25, 1, (1.0, 1.5, 2.0, 2.5, 3.0, N, N, N)),
        (100, 1, (1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 5.0, N)),
        (200, 1, (1.0, 1.5, 2.0, 2.5, 3.0, N, N, N)),
        (200, 2, (1.0, 1.5, 2.0, N, N, N, N, N)),
        (400, 1, (1.0, 1.5, 2.0, N, N, N, N, N)),
        (800, 1, (N, N, N, N, N, N, N, N)),
    ],
)
def test_the_shortest_listed_copper_that_covers_the_run(speed, breakout, metres):
    low = linkx.Place(0, 1)
    got = tuple(linkx.eth_copper_m(low, linkx.Place(0, 1 + du), speed, breakout) for du in APART)
    assert got == metres
    assert linkx.eth_copper_m(low, linkx.Place(1, 1), speed, breakout) is None  # another rack


@pytest.mark.parametrize(
    ("speed", "breakout", "metres", "number"),
    [
        (10, 1, 3.0, "MC3309130-003"),
        (25, 1, 2.5, "MCP2M00-A02A"),
        (100, 1, 5.0, "MCP1600-C005"),
        (200, 1, 2.5, "MCP1650-V02A"),
        (200, 2, 1.5, "MCP7H60-W01A"),
        (400, 1, 1.5, "MCP1660-W01A"),
    ],
)
def test_the_copper_part_number_carries_its_length(speed, breakout, metres, number):
    part = linkx.eth_copper(speed, breakout, metres)
    assert part.number == number
    assert part.text.startswith(f"NVIDIA {number} ") and part.text.endswith(f", {metres:g} m")
