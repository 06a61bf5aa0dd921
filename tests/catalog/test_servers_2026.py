"""Blackwell-generation servers and the processors every server is sold with.

Each expected figure is written here with its source beside it, not read back from the catalog.
"""

import re

import pytest
from pydantic import ValidationError

from wizard.model.catalog import Cooling, CpuOption, Server, max_boards

# ------------------------------------------------------------------ the new servers' figures

# (server id, GPUs, supply rating W or None where no source settles it, supplies, rack units,
#  cooling)
PUBLISHED = [
    # Hardware report of an installed unit: 8 GPUs, 6 x Supermicro PWS-5K26G-2R1 5,250 W;
    # 10U from Supermicro's model number ('A' = 10U, as SYS-821GE = 8U); air-cooled HGX B200.
    ("supermicro-sys-a22ga-nbrt", 8, 5250, 6, 10, Cooling.AIR),
    # ServeTheHome at OCP 2024: 4U, liquid-cooled HGX B200 8-GPU, four supply modules (rating
    # not given).
    ("supermicro-sys-422ga-nbrt-lcc", 8, None, 4, 4, Cooling.LIQUID),
    # NVIDIA DGX B300 User Guide (as quoted) and aiwiki: 8 x B300, 10U, air-cooled; supplies
    # not settled.
    ("nvidia-dgx-b300", 8, None, None, 10, Cooling.AIR),
    # Kedios report: ASUS XA NB3I-E12, 9U air-cooled HGX B300, 10 x 3,200 W (5+5).
    ("asus-xa-nb3i-e12", 8, 3200, 10, 9, Cooling.AIR),
    # NVIDIA DGX B200 User Guide: 8 x B200, 6 x 3.3 kW, 10U, air-cooled.
    ("nvidia-dgx-b200", 8, 3300, 6, 10, Cooling.AIR),
]


@pytest.mark.parametrize(("sid", "gpus", "psu_w", "psus", "units", "cooling"), PUBLISHED)
def test_published_figures_of_new_servers(catalog, sid, gpus, psu_w, psus, units, cooling):
    s = catalog.servers[sid]
    assert max(g.max_gpus for g in s.gpu_support) == gpus
    if psu_w is not None:
        assert s.psu_w == psu_w
    if psus is not None:
        assert s.psu_count == psus
    assert s.rack_units == units
    assert s.cooling is cooling


def test_hgx_blackwell_servers_hold_their_board(catalog):
    """HGX B200 and HGX B300 boards take only their own SXM GPU, eight of them."""
    for sid, gpu in [
        ("supermicro-sys-a22ga-nbrt", "b200-sxm"),
        ("supermicro-sys-422ga-nbrt-lcc", "b200-sxm"),
        ("nvidia-dgx-b300", "b300-sxm"),
        ("asus-xa-nb3i-e12", "b300-sxm"),
    ]:
        server = catalog.servers[sid]
        assert server.hgx_gpus == [gpu], sid
        assert max_boards(server, catalog.gpus[gpu]) == 8, sid
        assert max_boards(server, catalog.gpus["h100-sxm5-80gb"]) == 0, sid


def test_an_air_and_a_liquid_cooled_hgx_b200_host(catalog):
    coolings = {s.cooling for s in catalog.servers.values() if "b200-sxm" in s.hgx_gpus}
    assert {Cooling.AIR, Cooling.LIQUID} <= coolings


def test_xe7740_gpus_and_network_slots(catalog):
    """StorageReview's XE7740 review: RTX PRO 6000, H100/H200, L40S, L4 and A16; eight rear
    PCIe Gen5 x16 slots for networking."""
    s = catalog.servers["dell-xe7740"]
    assert {"rtx-pro-6000-bse", "h200-nvl-141gb", "l40s", "l4", "a16"} <= set(s.qualified_gpus)
    assert s.pcie_gen == 5
    assert s.nic_slots == 8
    assert max_boards(s, catalog.gpus["rtx-pro-6000-bse"]) == 8


def test_dgx_systems_have_exactly_their_processor(catalog):
    # NVIDIA DGX B200 User Guide: 2 x Intel Xeon 8570 with 56 cores each.
    (cpu,) = catalog.servers["nvidia-dgx-b200"].cpu_options
    assert (cpu.name, cpu.cores) == ("Intel Xeon Platinum 8570", 56)
    # DGX B300: 2 x Intel Xeon 6776P; 64 cores per socket as lscpu reports on DGX B300 hosts.
    (cpu,) = catalog.servers["nvidia-dgx-b300"].cpu_options
    assert (cpu.name, cpu.cores) == ("Intel Xeon 6776P", 64)


def test_every_new_gpu_has_a_server(catalog):
    for gpu in ("h200-nvl-141gb", "b200-sxm", "b300-sxm", "rtx-pro-6000-bse"):
        assert gpu in catalog.gpus, f"{gpu} is not in the GPU catalog"
        assert catalog.servers_for_gpu(catalog.gpus[gpu]), gpu


# ------------------------------------------------------------------------ processors

# Most cores per socket of each processor family, by model number (Intel ARK; AMD EPYC
# product pages).
FAMILIES = [
    # 1st/2nd Gen Xeon Scalable (Skylake-SP / Cascade Lake, LGA3647): Platinum 8180/8280, 28.
    (r"Xeon (Platinum 8[12]\d\d|Gold [56][12]\d\d|Silver 4[12]\d\d)", "Skylake/Cascade Lake", 28),
    # 3rd Gen (Ice Lake-SP): Platinum 8380, 40.
    (r"Xeon (Platinum 83\d\d|Gold [56]3\d\d|Silver 43\d\d)", "Ice Lake", 40),
    # 4th Gen (Sapphire Rapids): Platinum 8490H, 60.
    (r"Xeon (Platinum 84\d\d|Gold [56]4\d\d|Silver 44\d\d)", "Sapphire Rapids", 60),
    # 5th Gen (Emerald Rapids): Platinum 8592+, 64.
    (r"Xeon (Platinum 85\d\d|Gold [56]5\d\d|Silver 45\d\d)", "Emerald Rapids", 64),
    # Xeon 6 6900P (Granite Rapids-AP): 6980P, 128.
    (r"Xeon 69\d\dP", "Granite Rapids 6900P", 128),
    # Xeon 6 6700P / 6500P (Granite Rapids-SP): 6787P, 86.
    (r"Xeon 6[57]\d\dP", "Granite Rapids 6700P", 86),
    # EPYC 7002 (Rome) / 7003 (Milan): 7742, 7763, 64.
    (r"EPYC 7[0-9H][0-9F]\d", "EPYC 7002/7003", 64),
    # EPYC 9004 (Genoa): 9654, 96.
    (r"EPYC 9\d\d4", "EPYC 9004", 96),
    # EPYC 9005 (Turin): 9965, 192.
    (r"EPYC 9\d\d5", "EPYC 9005", 192),
]


def _family(name: str) -> tuple[str, int]:
    matches = [(f, most) for pattern, f, most in FAMILIES if re.search(pattern, name)]
    assert len(matches) == 1, f"{name}: {matches}"
    return matches[0]


def test_every_server_lists_its_processors(catalog):
    for server in catalog.servers.values():
        assert server.cpu_options, server.id
        assert 1 <= len(server.cpu_options) <= 6, server.id


def test_processor_cores_within_the_family_maximum(catalog):
    for server in catalog.servers.values():
        for cpu in server.cpu_options:
            family, most = _family(cpu.name)
            assert 1 <= cpu.cores <= most, (server.id, cpu.name, family)
            assert cpu.tdp_w is not None and 50 <= cpu.tdp_w <= 500, (server.id, cpu.name)
            assert cpu.source, (server.id, cpu.name)


def test_cascade_lake_servers_stop_at_28_cores(catalog):
    """2nd Gen Xeon Scalable tops out at 28 cores per socket (Platinum 8280, Intel ARK)."""
    for server in catalog.servers.values():
        if "Cascade Lake" in server.cpu_family:
            assert max(c.cores for c in server.cpu_options) == 28, server.id


def test_family_table_reads_model_numbers():
    assert _family("Intel Xeon Platinum 8280") == ("Skylake/Cascade Lake", 28)
    assert _family("Intel Xeon Gold 6338") == ("Ice Lake", 40)
    assert _family("Intel Xeon Platinum 8480+") == ("Sapphire Rapids", 60)
    assert _family("Intel Xeon Platinum 8568Y+") == ("Emerald Rapids", 64)
    assert _family("Intel Xeon 6960P") == ("Granite Rapids 6900P", 128)
    assert _family("Intel Xeon 6776P") == ("Granite Rapids 6700P", 86)
    assert _family("AMD EPYC 7H12") == ("EPYC 7002/7003", 64)
    assert _family("AMD EPYC 74F3") == ("EPYC 7002/7003", 64)
    assert _family("AMD EPYC 9654") == ("EPYC 9004", 96)
    assert _family("AMD EPYC 9555") == ("EPYC 9005", 192)


def test_two_options_of_one_name_are_refused(catalog):
    doc = catalog.servers["dell-xe9680"].model_dump()
    doc["cpu_options"] = [
        {"name": "Intel Xeon Platinum 8480+", "cores": 56},
        {"name": "Intel Xeon Platinum 8480+", "cores": 48},
    ]
    with pytest.raises(ValidationError, match="duplicate CPU option names"):
        Server(**doc)
    assert CpuOption(name="Intel Xeon Platinum 8480+", cores=56).cores == 56


# ---------------------------------------------------------------------------- power

# (server id, GPU id, the published maximum of the system or the DGX it is planned against, W)
PUBLISHED_MAXIMUM = [
    ("nvidia-dgx-b200", "b200-sxm", 14_300),  # DGX B200 User Guide, Power Specifications
    ("nvidia-dgx-b300", "b300-sxm", 14_500),  # DGX B300 User Guide, as quoted
    ("dell-xe9680", "h100-sxm5-80gb", 10_200),  # DGX H100 User Guide: 10.2 kW max
    ("supermicro-sys-821ge-tnhr", "h100-sxm5-80gb", 10_200),  # same, HGX H100 8-GPU
    ("supermicro-sys-a22ga-nbrt", "b200-sxm", 14_300),  # HGX B200 8-GPU, as the DGX B200
    ("supermicro-sys-422ga-nbrt-lcc", "b200-sxm", 14_300),  # same board, liquid-cooled
    ("asus-xa-nb3i-e12", "b300-sxm", 14_500),  # Kedios report ~14.5 kW; DGX B300
    ("hpe-apollo-6500-gen10-plus", "a100-sxm4-80gb", 6_500),  # DGX A100 datasheet: 6.5 kW max
    # one entry for the HGX H200 and B200 boards, planned against both DGX maxima
    ("lenovo-sr680a-v3", "h200-sxm-141gb", 10_200),  # DGX H200: 10.2 kW max
    ("lenovo-sr680a-v3", "b200-sxm", 14_300),
    ("cisco-ucs-c885a-m8", "h200-sxm-141gb", 10_200),
    ("cisco-ucs-c885a-m8", "b200-sxm", 14_300),
]


def test_every_hgx_8_gpu_server_has_its_published_maximum_checked(catalog):
    """A new 8-GPU HGX server must join the list above, so its planned power is checked."""
    hgx8 = {
        s.id
        for s in catalog.servers.values()
        if s.pcie_topology.value == "hgx" and max(x.max_gpus for x in s.gpu_support) >= 8
    }
    assert hgx8 == {sid for sid, _, _ in PUBLISHED_MAXIMUM}


@pytest.mark.parametrize(("sid", "gpu", "maximum"), PUBLISHED_MAXIMUM)
def test_hgx_host_plans_within_ten_percent_of_the_published_maximum(catalog, sid, gpu, maximum):
    server = catalog.servers[sid]
    planned = server.baseline_power_w + 8 * catalog.gpus[gpu].tdp_w
    assert abs(planned - maximum) <= 0.10 * maximum, (sid, planned, maximum)
