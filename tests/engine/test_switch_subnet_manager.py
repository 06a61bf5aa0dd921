"""The InfiniBand subnet manager line: NVIDIA's MLNX-OS User Manual, Subnet Manager: 'The
embedded SM on the MLNX-OS can be used to manage fabrics up to 2048 nodes' (and it does not run
adaptive routing or SHARP). So a managed switch (MQM9700 / MQM8700) carries it up to 2,048
nodes, included with the switch, with its standby on a second switch where the fabric has one
and on a host where it has only the one; beyond 2,048 nodes, or on unmanaged switches, or where
the catalog does not say, NVIDIA UFM is the one line to buy."""

from __future__ import annotations

import pytest

from wizard.engine.fitout.linkx import subnet_manager_line


@pytest.mark.parametrize(
    ("switches", "standby"),
    [
        (1, "a standby on a host (OpenSM or UFM) if the fabric must survive the switch's restart"),
        (2, "a standby on a second switch"),
        (3, "a standby on a second switch"),
    ],
)
def test_the_embedded_manager_keeps_its_standby_where_the_fabric_has_room(switches, standby):
    ln = subnet_manager_line(24, True, switches)
    assert f"(24 nodes, within its 2,048), {standby};" in ln.description
    assert "embedded in the managed switch" in ln.description
    assert (ln.quantity, ln.included, ln.unit, ln.part_number) == (0, 1, "fabric", "")


@pytest.mark.parametrize(
    ("nodes", "managed", "embedded", "why"),
    [
        (2048, True, True, ""),
        (2049, True, False, "(2,049 nodes, over 2,048)"),
        (24, False, False, "(unmanaged switches)"),
        (24, None, False, "(the switch catalog does not show an embedded subnet manager"),
    ],
)
def test_ufm_beyond_the_embedded_managers_reach(nodes, managed, embedded, why):
    ln = subnet_manager_line(nodes, managed, 2)
    assert ("embedded in the managed switch" in ln.description) is embedded
    assert ("NVIDIA UFM on a pair of hosts" in ln.description) is not embedded
    assert why in ln.description
    assert (ln.quantity, ln.included) == ((0, 1) if embedded else (1, 0))
