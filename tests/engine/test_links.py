"""The slowest link of a ring, and SHARP."""

import pytest

from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict
from wizard.base.errors import DesignError
from wizard.engine.demand import comms
from wizard.engine.size import size
from wizard.model.design import Hardware


def _hw(**kw) -> Hardware:
    base = {"gpu": "x", "server": "y", "gpus_per_host": 4}
    return Hardware.model_validate({**base, **kw})


def test_bridged_pair_runs_at_nvlink_but_four_bridged_gpus_run_at_pcie(catalog):
    """Multi-GPU deep dive: NVLink bridges join pairs; between pairs the ring crosses PCIe."""
    gpu, server = catalog.gpus["a100-pcie-80gb"], catalog.servers["dell-r750xa"]
    hw = _hw(gpus_per_host=4, nvlink=True)
    pair = comms.ring_bottleneck(gpu, server, hw, 2, spans_hosts=False)
    assert pair.name.startswith("NVLink") and pair.gbs == gpu.nvlink.bandwidth_gbs / 2
    four = comms.ring_bottleneck(gpu, server, hw, 4, spans_hosts=False)
    assert four.gbs <= comms.PCIE_X16_GBS[4]


def test_hgx_ring_runs_at_nvswitch_speed(catalog):
    gpu, server = catalog.gpus["h100-sxm5-80gb"], catalog.servers["dell-xe9680"]
    link = comms.ring_bottleneck(gpu, server, _hw(gpus_per_host=8, nvlink=True), 8, False)
    assert link.gbs == pytest.approx(450)  # 900 GB/s NVLink 4 total, 450 each way


def test_ring_across_hosts_is_bound_by_the_nic(catalog):
    gpu, server = catalog.gpus["h100-sxm5-80gb"], catalog.servers["dell-xe9680"]
    link = comms.ring_bottleneck(
        gpu, server, _hw(gpus_per_host=8, nvlink=True, fabric="25gbe"), 16, True
    )
    assert link.gbs == pytest.approx(25 / 8)


def test_sharp_halves_allreduce_traffic_on_infiniband(catalog):
    """NVIDIA AI Enterprise deep dive: SHARP roughly halves the allreduce operations. It runs in
    NVIDIA Quantum InfiniBand switches, so the same job is moved onto one HDR 200 Gb/s NIC per host
    (25 GB/s, still the slowest link of its ring)."""
    doc = design_dict("bert-large-25gbe")
    doc["hardware"].update(fabric="ib-hdr", nic="cx6-hdr-1p", rdma="infiniband")
    plain = size(design_from_dict(doc), catalog).workloads[0]
    doc["assumptions"] = {"sharp": True}
    sharp = size(design_from_dict(doc), catalog).workloads[0]
    assert sharp.training.allreduce_gb_per_gpu_per_iteration == pytest.approx(
        plain.training.allreduce_gb_per_gpu_per_iteration / 2
    )


def test_sharp_is_refused_where_the_switches_lack_it(catalog):
    """The 25 GbE fabric is built with Spectrum Ethernet switches, whose catalog entries have no
    in-network reduction: the option is refused with the reason, not silently applied."""
    doc = design_dict("bert-large-25gbe")
    doc["assumptions"] = {"sharp": True}
    with pytest.raises(DesignError) as info:
        size(design_from_dict(doc), catalog)
    (line,) = info.value.problems
    assert line.startswith("assumptions.sharp: ") and "does not" in line


def test_link_efficiency_stretches_allreduce_time(catalog):
    doc = design_dict("bert-large-25gbe")
    base = (
        size(design_from_dict(doc), catalog).workloads[0].training.allreduce_seconds_per_iteration
    )
    doc["assumptions"] = {"link_efficiency": 0.8}
    slower = (
        size(design_from_dict(doc), catalog).workloads[0].training.allreduce_seconds_per_iteration
    )
    assert slower == pytest.approx(base / 0.8)


def test_percentage_reserve_through_the_engine(catalog):
    doc = design_dict("enterprise")
    doc["ha"] = {"level": "percent", "reserve_percent": 25}
    c = size(design_from_dict(doc), catalog).cluster
    assert (c.hosts_for_capacity, c.hosts_for_ha, c.hosts_total) == (7, 3, 10)  # 7/0.75 = 9.33


def test_sxm_baseboard_nvlink_needs_no_bridge_option(catalog):
    gpu, server = catalog.gpus["a100-sxm4-80gb"], catalog.servers["dell-xe8545"]
    link = comms.ring_bottleneck(gpu, server, _hw(gpus_per_host=4, nvlink=False), 4, False)
    assert link.name.startswith("NVLink 3")
