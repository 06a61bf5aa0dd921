"""Storage systems a 2026 AI buyer shops from, and the power figures of the older ones.

Each expected figure is written here with its source wording or its hand arithmetic beside it,
not read back from the catalog.
"""

import pytest

from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict
from wizard.engine.size import size

BTU_PER_W = 3.41214  # 1 W = 3.41214 BTU/hr

NEW = [
    "netapp-aff-a90",
    "netapp-aff-a1k",
    "dell-powerscale-f910",
    "vast-ceres-dbox",
    "weka-wekapod-nitro",
    "pure-flashblade-s500",
    "ddn-ai400x3",
]


def test_the_new_systems_are_in_the_catalog(catalog):
    assert set(NEW) <= set(catalog.storage)


# ------------------------------------------------------------------------------- NetApp


def test_netapp_aff_a90(catalog):
    s = catalog.storage["netapp-aff-a90"]
    # "Worst-case Power: 10948 BTU/hr" for the "AFF A90 Single Chassis HA Pair":
    # 10948 / 3.41214 = 3,208.5 W / 2 controllers = 1,604 W.
    assert round(10948 / BTU_PER_W / 2) == 1604
    assert s.power_w_per_node == 1604
    # "4U chassis with 2 HA controllers and 48 drive slots": 4U / 2 controllers, one pair.
    assert (s.rack_units_per_node, s.min_nodes) == (2, 2)
    # 48 x 15.3 TB = 734.4 TB raw a pair x 0.75 = 550.8 TB / 2 controllers = 275 TB.
    assert s.usable_capacity_tb_per_node == round(48 * 15.3 * 0.75 / 2)
    # NetApp AIPod: "a 24-node cluster can provide ... up to 300 GBps": 300 / 24 = 12.5 GB/s,
    # a floor, not an A90 figure.
    assert s.read_throughput_gbs_per_node == 300 / 24
    # Key specifications list "NFSv3/RDMA" and "NFSv4/RDMA"; NVIDIA lists NetApp ONTAP for GDS.
    assert s.gpudirect_storage and "nfs-rdma" in s.protocols
    assert set(s.unsettled) == {"usable_capacity_tb_per_node", "read_throughput_gbs_per_node"}


def test_netapp_aff_a1k(catalog):
    s = catalog.storage["netapp-aff-a1k"]
    # "Worst-case Power: 6174 BTU/hr" beside "Height: 2U" (one controller chassis of the
    # "Dual Chassis HA Pair"): 6174 / 3.41214 = 1,809 W a controller, shelf not included.
    assert round(6174 / BTU_PER_W) == 1809
    assert s.power_w_per_node == 1809
    # "2U chassis with 1 HA controllers" + half of a 2U NS224 shelf per controller = 3U.
    assert (s.rack_units_per_node, s.min_nodes) == (2 + 2 // 2, 2)
    # One NS224 shelf a pair: 24 x 15.3 TB x 0.75 = 275.4 TB / 2 controllers = 138 TB.
    assert s.usable_capacity_tb_per_node == round(24 * 15.3 * 0.75 / 2)
    assert s.read_throughput_gbs_per_node == 300 / 24  # the same AIPod floor as the A90
    assert s.gpudirect_storage
    assert {"power_w_per_node", "rack_units_per_node"} <= set(s.unsettled)


# --------------------------------------------------------------------------------- Dell


def test_dell_powerscale_f910(catalog):
    s = catalog.storage["dell-powerscale-f910"]
    # Dell participant guide: "three nodes form a cluster"; "The 2U F910".
    assert (s.min_nodes, s.rack_units_per_node) == (3, 2)
    # 24 x 30.72 TB QLC = 737.3 TB raw x 0.80 OneFS protection = 590 TB.
    assert s.usable_capacity_tb_per_node == round(24 * 30.72 * 0.8)
    # Estimate: twice the F900's 7.5 GB/s, under 2 x 100 GbE = 25 GB/s of front-end line rate.
    assert s.read_throughput_gbs_per_node == 2 * 7.5 < 2 * 100 / 8
    assert s.gpudirect_storage  # NVIDIA's GDS release notes list Dell Isilon/PowerScale
    assert s.power_w_per_node is None and "power_w_per_node" in s.unsettled


def test_older_powerscale_and_ddn_have_no_published_power_figure(catalog):
    """No maximum power figure from Dell (Isilon F800, PowerScale F900) or DDN (AI400X2) was
    found: left out, listed as unsettled, so designs say the power is not counted."""
    for sid in ("dell-isilon-f800", "dell-powerscale-f900", "ddn-ai400x2"):
        s = catalog.storage[sid]
        assert s.power_w_per_node is None, sid
        assert "power_w_per_node" in s.unsettled, sid


# --------------------------------------------------------------------------------- VAST


def test_vast_ceres_building_block(catalog):
    s = catalog.storage["vast-ceres-dbox"]
    # "22 QLC capacity drives of 15 to 30 TB", "up to 675 TB raw flash in 1U":
    # 22 x 30.72 = 675.8 TB raw x 0.85 = 574 TB.
    assert round(22 * 30.72) == 676
    assert s.usable_capacity_tb_per_node == round(22 * 30.72 * 0.85)
    # The DBox's 4 x 100 GbE fabric is 50 GB/s of line rate; 80% of it = 40 GB/s (estimate).
    assert s.read_throughput_gbs_per_node == 0.8 * 4 * 100 / 8
    # 1U DBox + a CBox of four CNodes ("A server chassis containing four CNodes"), 2U.
    assert s.rack_units_per_node == 1 + 2
    assert s.gpudirect_storage and "nfs-rdma" in s.protocols  # NVIDIA lists VAST NFS
    assert s.power_w_per_node is None


# --------------------------------------------------------------------------------- WEKA


def test_wekapod_nitro(catalog):
    s = catalog.storage["weka-wekapod-nitro"]
    # WEKA docs: "The minimal configuration for a new WEKA cluster installation is 8 servers".
    assert s.min_nodes == 8
    # Recalled launch figures for eight nodes: 765 GB/s read, half a petabyte usable.
    assert s.read_throughput_gbs_per_node == pytest.approx(765 / 8, abs=0.05)
    assert s.usable_capacity_tb_per_node == 500 / 8
    assert s.rack_units_per_node == 1
    assert s.gpudirect_storage  # WekaFS in NVIDIA's nvidia-fs documentation
    assert {"read_throughput_gbs_per_node", "usable_capacity_tb_per_node"} <= set(s.unsettled)


# --------------------------------------------------------------------------------- Pure


def test_pure_flashblade_s500_chassis(catalog):
    s = catalog.storage["pure-flashblade-s500"]
    # One 5U chassis of 10 blades x 4 DFMs x 48 TB = 1,920 TB raw x 0.75 = 1,440 TB.
    assert s.rack_units_per_node == 5
    assert s.usable_capacity_tb_per_node == 10 * 4 * 48 * 0.75
    assert s.read_throughput_gbs_per_node == 10 * 4  # placeholder: 4 GB/s a blade
    # Not among the GDS solutions NVIDIA's release notes list.
    assert not s.gpudirect_storage


# ---------------------------------------------------------------------------------- DDN


def test_ddn_ai400x3(catalog):
    s = catalog.storage["ddn-ai400x3"]
    # 24 x 30.72 TB NVMe = 737.3 TB raw x 0.80 (8+2 declustered parity) = 590 TB.
    assert s.usable_capacity_tb_per_node == round(24 * 30.72 * 0.8)
    # A floor: the AI400X2 Turbo's recalled 120 GB/s, above the AI400X2's 90 GB/s.
    assert s.read_throughput_gbs_per_node == 120
    assert (
        s.read_throughput_gbs_per_node > catalog.storage["ddn-ai400x2"].read_throughput_gbs_per_node
    )
    assert (s.rack_units_per_node, s.min_nodes) == (2, 1)
    assert s.gpudirect_storage and "lustre" in s.protocols  # EXAScaler, a GDS file system


# ------------------------------------------------------------------------- every system


def test_every_unsettled_figure_is_explained(catalog):
    """Each unsettled field is named in the entry's source_note, and an entry without a power
    figure says so in unsettled."""
    for s in catalog.storage.values():
        for field in s.unsettled:
            assert field in s.source_note, f"{s.id}: {field} is unsettled but not explained"
        if s.power_w_per_node is None:
            assert "power_w_per_node" in s.unsettled, s.id


def test_every_storage_system_can_be_designed_with(catalog):
    """A one-group ResNet-50 training design that reads ImageNet sizes with each storage
    system in the catalog, and its storage part names the system chosen."""
    for sid, entry in catalog.storage.items():
        doc = design_dict("imagenet-resnet50")
        doc["hardware"]["storage"] = sid
        r = size(design_from_dict(doc), catalog)
        s = r.storage
        assert r.cluster.gpus_total >= 1, sid
        assert s.read_gbs_needed > 0, sid
        assert s.system == sid
        assert s.system_name == f"{entry.vendor} {entry.model}", sid
        assert s.nodes >= entry.min_nodes, sid
        assert s.rack_units == s.nodes * entry.rack_units_per_node, sid
