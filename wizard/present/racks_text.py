"""How the racks' fit reads, the same in the wizard, the terminal and the proposal: how many
hosts the fullest rack holds and how many the binding limit leaves room for, so "3 hosts" is
never read as the most a rack can take when the power limit allows 5."""

from __future__ import annotations

from wizard.base.numbers import count
from wizard.model.buildout import Racks


def rack_fit(r: Racks) -> str:
    """'the fullest holds 3 hosts, with room for 5, limited by power'."""
    room = f", with room for {r.hosts_room:,}" if r.hosts_room else ""
    return (
        f"the fullest holds {count(r.hosts_per_rack, 'host')}{room}, "
        f"limited by {r.limited_by.replace('-', ' ')}"
    )
