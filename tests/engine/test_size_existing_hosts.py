"""The hosts a cluster already has: a design sized without naming any plans as if none are kept
(the default is none), and a count of kept hosts shows in the cluster and can only raise its
host count, never lower it."""

from __future__ import annotations

from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict
from wizard.engine.size import size

KEPT_KEY = "cluster.hosts_with_existing"


def _design():
    return design_from_dict(design_dict("hgx-h200-llm"))


def test_no_existing_hosts_by_default(catalog):
    """Sized without the keyword, the design is the one sized with existing_hosts=0: no host
    counted as kept, and no step of the log that keeps hosts."""
    plain = size(_design(), catalog)
    assert plain == size(_design(), catalog, existing_hosts=0)
    assert plain.cluster.hosts_existing == 0
    assert KEPT_KEY not in [c.id for c in plain.calculations]


def test_one_existing_host_is_counted_as_kept(catalog):
    """The negative case: one kept host is said (hosts_existing 1, the keeping step logged),
    so the default is not one."""
    plain = size(_design(), catalog)
    one = size(_design(), catalog, existing_hosts=1)
    assert one.cluster.hosts_existing == 1
    assert KEPT_KEY in [c.id for c in one.calculations]
    assert one != plain
    # one kept host is fewer than the design needs: hosts are added up to the same total
    assert one.cluster.hosts_total == plain.cluster.hosts_total


def test_more_existing_hosts_than_needed_are_all_kept(catalog):
    """max(needed + held, existing): with the needed count + 2 hosts already there, all of them
    stay in the cluster."""
    needed = size(_design(), catalog).cluster.hosts_total
    kept = size(_design(), catalog, existing_hosts=needed + 2)
    assert kept.cluster.hosts_total == needed + 2
    assert kept.cluster.hosts_existing == needed + 2
