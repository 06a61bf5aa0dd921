"""The calculation log's row for what a host's NICs carry to storage: its formula, evaluated on
its own inputs, gives the figure the storage section prints (one number per concept), by hand
from the fabric speed, the NIC port and its PCIe link, in bits converted to bytes (/ 8)."""

from __future__ import annotations

import pytest

from tests.engine.conftest import calc


@pytest.mark.parametrize(
    ("example", "nics", "gbps"),
    [
        ("starter", 1, 10),  # one NIC on 10 GbE: 10 / 8 = 1.25 GB/s
        ("gpt3-175b", 8, 400),  # eight ConnectX-7 on NDR 400: 8 x 400 / 8 = 400 GB/s
    ],
)
def test_the_logged_host_network_is_the_printed_one_in_bytes(sized, example, nics, gbps):
    r = sized[example]
    row = calc(r, "storage.host_network_gbs")
    assert row.inputs == {"nics_per_host": nics, "nic_gbps": pytest.approx(gbps)}
    assert row.value == pytest.approx(nics * gbps / 8)
    assert r.storage.host_network_gbs == pytest.approx(nics * gbps / 8)
    assert row.unit == "GB/s"
