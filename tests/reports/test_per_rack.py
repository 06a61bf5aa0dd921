"""What goes in each rack, for the installer: servers, switches, storage, out-of-band switches,
PDUs and the cables that start there, counted by hand for docs/acme-two-clusters.json."""

from __future__ import annotations

from tests.reports.conftest import squash


def test_each_rack_lists_what_goes_in_it(two_cluster_text):
    """R02 holds the 3 HGX hosts and, on top, the QM9700 that serves only them; cables starting
    there: 24 GPU-fabric links (3 hosts × 8), 6 service links (3 × 2) and 4 management ports
    (3 hosts + the switch) and the out-of-band switch's uplink to the site = 35. R01: 4 hosts ×
    (1 + 2 + 1) + 1 uplink = 17. R03, the management domain: 4 × (2 + 1) + 1 = 13. R04, the
    network rack: 3 switches' management ports + 2 peer links + 1 uplink = 6. Each rack: one
    out-of-band switch and two PDUs."""
    text = squash(two_cluster_text)
    rows = [
        "R02 HGX cluster 3 × Dell PowerEdge XE9680 1 × NVIDIA Quantum-2 QM9700 NDR InfiniBand – 1 2 35",
        "R01 Notebook cluster 4 × Lenovo ThinkSystem SR675 V3 (8-DW GPU model) – – 1 2 17",
        "R03 Management domain 4 × Dell PowerEdge R760xa – – 1 2 13",
    ]
    start = text.index(squash("Per rack"))
    for row in rows:
        assert squash(row) in text[start:], row
    assert squash("1 2 6") in text[start : text.index(squash("Security and operations"), start)]
