"""The 2025-2026 GPU servers for RTX PRO, H200/H100 NVL, L40S and HGX Hopper/Blackwell boards.

Each expected figure is written here with the source wording beside it, not read back from the
catalog.
"""

import pytest

from wizard.model.catalog import Cooling, PcieTopology, max_boards

NEW_SERVERS = [
    "dell-xe7745",
    "hpe-dl380a-gen12",
    "lenovo-sr680a-v3",
    "supermicro-sys-522ga-nrt",
    "cisco-ucs-c885a-m8",
]


def _max_gpus(server) -> int:
    return max(g.max_gpus for g in server.gpu_support)


# ------------------------------------------------------------------ published figures


def test_dell_xe7745(catalog):
    s = catalog.servers["dell-xe7745"]
    assert s.rack_units == 4  # Dell XE AI spec sheet: XE7745 "Form 4U"
    assert s.cooling is Cooling.AIR  # Dell XE AI spec sheet: XE7745 "Cooling Air"
    assert "EPYC 9005" in s.cpu_family  # Dell XE AI spec sheet: "2x EPYC 9005 (up to 192c)"
    assert max(c.cores for c in s.cpu_options) <= 192  # "up to 192c"
    assert s.pcie_gen == 5  # Dell Tech Specs: "8x PCIe Gen5 x16 DW or 16x Gen5 x16 SW"
    dw = next(g for g in s.gpu_support if g.slot_width == 2)
    assert (dw.max_gpus, dw.max_gpu_tdp_w) == (8, 600)  # spec sheet: "8x DW-FHFL 600W"
    sw = next(g for g in s.gpu_support if g.slot_width == 1)
    assert (sw.max_gpus, sw.max_gpu_tdp_w) == (16, 75)  # Tech Specs: 16 single-wide, up to 75 W
    assert s.psu_w == 3200  # spec sheet: "PSU 3200W / 2900W / 2400W"
    assert s.psu_count == 8  # Tech Specs: "up to 8 redundant power supplies"
    assert s.nic_slots == 8  # Tech Specs: "8 further PCIe Gen5 slots"
    # Spec sheet: "e.g. RTX PRO 6000, H200 NVL, H100 NVL, L40S, L4"
    assert {"rtx-pro-6000-bse", "h200-nvl-141gb", "h100-nvl-94gb", "l40s", "l4"} <= set(
        s.qualified_gpus
    )
    # NVIDIA k8s-launch-kit preset: "PowerEdge-XE7745-RTX-PRO-4500"
    assert max_boards(s, catalog.gpus["rtx-pro-4500-bse"]) == 8


def test_hpe_dl380a_gen12(catalog):
    s = catalog.servers["hpe-dl380a-gen12"]
    assert s.rack_units == 4  # StorageReview: "This 4U air-cooled chassis"
    assert s.cooling is Cooling.AIR  # StorageReview: "4U air-cooled chassis"
    assert s.sockets == 2  # StorageReview: "Number of processors 2"
    assert "Xeon 6" in s.cpu_family  # StorageReview: "two Intel Xeon 6 processors"
    assert s.pcie_gen == 5  # StorageReview: "offers full PCIe Gen5 connectivity"
    # QuickSpecs: "8 double-wide RTX PRO 6000 BSE" ... "Double-wide GPUs up to 600 W each"
    assert max_boards(s, catalog.gpus["rtx-pro-6000-bse"]) == 8
    # QuickSpecs: "10 double-wide L40S/H100 NVL/H200 NVL" (H200 NVL kept at 8, conservative)
    assert max_boards(s, catalog.gpus["l40s"]) == 10
    assert max_boards(s, catalog.gpus["h100-nvl-94gb"]) == 10
    assert max_boards(s, catalog.gpus["l4"]) == 16  # QuickSpecs: "Up to 16 single-wide NVIDIA L4"
    assert s.psu_w == 3200  # StorageReview: "3,200 W (P67248-B21)" M-CRPS Titanium
    assert s.psu_count == 8  # StorageReview: "Up to 8 M-CRPS"; QuickSpecs: "8 PSUs required"
    assert s.nvlink_bridge_support  # QuickSpecs: "NVIDIA 2-way / 4-way NVLink Bridge for H200 NVL"
    # StorageReview: "NVIDIA RTX PRO 6000 Server Edition (96 GB), NVIDIA H200 NVL (141 GB),
    # NVIDIA H100 NVL (94 GB), NVIDIA L40S (48 GB), NVIDIA L20 (48 GB), NVIDIA L4 (24 GB)"
    assert set(s.qualified_gpus) == {
        "rtx-pro-6000-bse",
        "h200-nvl-141gb",
        "h100-nvl-94gb",
        "l40s",
        "l4",
    }
    # StorageReview: "System Configuration - CPU: 2 Intel Xeon 6527P processors"
    assert "Intel Xeon 6527P" in {c.name for c in s.cpu_options}


def test_lenovo_sr680a_v3(catalog):
    s = catalog.servers["lenovo-sr680a-v3"]
    assert s.rack_units == 8  # catalog citing LP1909: "8U air-cooled"
    assert s.cooling is Cooling.AIR  # "8U air-cooled"
    assert "5th Gen" in s.cpu_family  # "2x 5th Gen Intel Xeon Scalable"
    assert s.pcie_topology is PcieTopology.HGX
    assert _max_gpus(s) == 8  # "8x H100/H200 or B200 HGX, by model"
    # NVIDIA RA list: "Lenovo Hybrid AI 289 ... ThinkSystem SR680a V3 ... HGX B200 / HGX H200"
    assert {"h200-sxm-141gb", "b200-sxm"} <= set(s.hgx_gpus)
    assert s.nic_slots == 9  # NVIDIA RA pattern "2-8-9-400": nine network adapters
    for cpu in s.cpu_options:
        assert cpu.cores <= 64  # 5th Gen Xeon Scalable: Platinum 8592+, 64 cores (Intel ARK)


def test_supermicro_sys_522ga_nrt(catalog):
    s = catalog.servers["supermicro-sys-522ga-nrt"]
    assert s.rack_units == 5  # Supermicro datasheet: "5U rackmount"
    assert s.cooling is Cooling.AIR
    assert "6900P" in s.cpu_family  # datasheet: "Dual Intel Xeon 6900 series P-cores"
    assert max(c.cores for c in s.cpu_options) <= 128  # datasheet: "up to 128C/256T"
    assert max(c.tdp_w for c in s.cpu_options) <= 500  # datasheet: "≤500 W (air)"
    assert s.pcie_topology is PcieTopology.PCIE_SWITCH  # datasheet: "PCIe 5.0 x16 switch"
    # Datasheet: "Up to 8 double-width or 10 single-width GPUs"
    assert max_boards(s, catalog.gpus["rtx-pro-6000-bse"]) == 8
    assert max_boards(s, catalog.gpus["rtx-pro-4500-bse"]) == 10
    assert s.nvlink_bridge_support  # datasheet: "optional NVLink bridge"
    assert (s.psu_count, s.psu_w) == (6, 2700)  # datasheet: "6x 2700 W redundant Titanium"
    assert s.nic_slots == 5  # 13 x16 slots ("Up to 13 PCIe 5.0 x16 FHFL") less 8 GPUs
    # Datasheet: "RTX PRO 4500 BSE, RTX PRO 6000 BSE"
    assert {"rtx-pro-6000-bse", "rtx-pro-4500-bse"} <= set(s.qualified_gpus)


def test_cisco_ucs_c885a_m8(catalog):
    s = catalog.servers["cisco-ucs-c885a-m8"]
    assert s.rack_units == 8  # Cisco catalog entries: "UCS C885A M8 AI Server", "ru: 8"
    assert s.pcie_topology is PcieTopology.HGX
    assert _max_gpus(s) == 8  # Cisco: "UCSC-885A-M8-H20 UCS C885A M8 Rack - H200 GPU", 8 SXM
    assert "h200-sxm-141gb" in s.hgx_gpus  # NVIDIA RA list: "UCS C885A M8, HGX H200"
    assert "EPYC" in s.cpu_family
    # Cisco part: "UCS C885A M8 CPU SLED AMD 9575F 96GB 6400 DDR5 CX-7s"
    assert s.cpu_options[0].name == "AMD EPYC 9575F"
    assert s.nic_slots == 9  # NVIDIA RA pattern "2-8-9-400": nine network adapters


def test_sr675_v3_takes_the_600_w_boards(catalog):
    """Lenovo Press LP1611 (as quoted): 'Supports up to 8x double-wide or single-wide PCIe GPUs
    or 4x SXM5 GPUs'; H200 NVL and RTX PRO 6000 Blackwell Server Edition at 600 W."""
    s = catalog.servers["lenovo-sr675-v3"]
    for gpu in ("h200-nvl-141gb", "rtx-pro-6000-bse"):
        assert gpu in s.qualified_gpus
        assert max_boards(s, catalog.gpus[gpu]) == 8
    assert max_boards(s, catalog.gpus["l40s"]) == 8  # the boards it held before still fit


def test_every_target_gpu_has_a_new_server(catalog):
    holds = {
        gpu: {sid for sid in NEW_SERVERS if max_boards(catalog.servers[sid], catalog.gpus[gpu])}
        for gpu in (
            "rtx-pro-6000-bse",
            "rtx-pro-4500-bse",
            "h200-nvl-141gb",
            "h100-nvl-94gb",
            "l40s",
            "b200-sxm",
            "h200-sxm-141gb",
        )
    }
    assert all(holds.values()), holds


# ------------------------------------------------------------------------ designable


@pytest.mark.parametrize("sid", NEW_SERVERS)
def test_every_new_server_is_designable_with_each_of_its_gpus(catalog, sid):
    """A one-host design sizes on each GPU the server is listed for."""
    from wizard.app.io import design_from_dict
    from wizard.engine.size import size

    server = catalog.servers[sid]
    gpus = server.qualified_gpus or server.hgx_gpus
    assert gpus, sid
    for gid in gpus:
        gpu = catalog.gpus[gid]
        boards = max_boards(server, gpu)
        assert boards >= 1, (sid, gid)
        doc = {
            "workloads": [{"name": "Users", "kind": "development", "count": 1,
                           "shared": {"gpus_per_job": 1}}],
            "hardware": {"gpu": gid, "server": sid, "gpus_per_host": boards * gpu.gpus_per_board},
        }  # fmt: skip
        assert size(design_from_dict(doc), catalog).cluster.gpus_total >= 1, (sid, gid)


# ------------------------------------------------------------------------ unsettled


@pytest.mark.parametrize("sid", [*NEW_SERVERS, "lenovo-sr675-v3"])
def test_every_unsettled_figure_is_explained(catalog, sid):
    s = catalog.servers[sid]
    assert s.unsettled, f"{sid} names no unsettled figure"
    for field in s.unsettled:
        assert field.split(".")[0] in s.source_note, (sid, field)


@pytest.mark.parametrize("sid", NEW_SERVERS)
def test_derived_baselines_are_marked_unsettled(catalog, sid):
    """No vendor publishes a platform draw without GPUs: every new baseline is derived."""
    s = catalog.servers[sid]
    assert "baseline_power_w" in s.unsettled
    assert s.certification.value == "unknown"
