"""Host topology: the PCIe tree, NVLink bridges and baseboards, GPU-NIC paths for GPUDirect
RDMA, device groups, and the ring bottleneck the communication estimate reads from it."""

import pytest

from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict
from wizard.engine.basis import links, topology
from wizard.engine.size import size
from wizard.model.design import Hardware


def _hw(**kw) -> Hardware:
    return Hardware.model_validate({"gpu": "x", "server": "y", "gpus_per_host": 4, **kw})


def _sized(catalog, name: str, hardware: dict | None = None, **sections):
    doc = design_dict(name)
    doc["hardware"] = {**doc["hardware"], **(hardware or {})}
    for key, value in sections.items():
        doc[key] = value
    return size(design_from_dict(doc), catalog)


def _codes(result) -> set[str]:
    return {w.code for w in result.warnings}


def _data_parallel_in_one_host(server: str, gpu: str, nvlink: bool) -> dict:
    """BERT-Large with four data-parallel replicas inside one 4-GPU host."""
    doc = design_dict("bert-large-25gbe")
    doc["hardware"].update(gpu=gpu, server=server, gpus_per_host=4, nvlink=nvlink)
    doc["workloads"][0]["parallelism"] = {"data_parallel": 4}
    return doc


def test_four_pcie_gpus_in_two_bridged_pairs_ring_at_pcie_speed_hgx_at_nvlink(catalog):
    """Multi-GPU deep dive: NVLink works per bridged pair, so a 4-GPU ring crosses PCIe between
    the pairs and runs at PCIe speed; an HGX board keeps the ring on NVLink."""
    pcie_doc = _data_parallel_in_one_host("dell-r750xa", "a100-pcie-80gb", nvlink=True)
    pcie = size(design_from_dict(pcie_doc), catalog)
    host = pcie.topology.hosts[0]
    pairs = [g.devices for g in host.device_groups if g.kind == "nvlink"]
    assert pairs == [["gpu0", "gpu1"], ["gpu2", "gpu3"]]
    assert host.nvlink_bridges == 6  # 2 pairs x 3 bridges (A100 PCIe needs three per pair)
    (ring,) = pcie.topology.rings
    assert ring.bottleneck == "PCIe Gen4 x16" and ring.bottleneck_gbs == pytest.approx(31.5)
    assert {h.kind for h in ring.hops} == {"nvlink", "pcie", "cpu-interconnect"}
    assert pcie.workloads[0].training.allreduce_link == ring.bottleneck  # one source for both
    assert "A100 SXM4 80GB" in ring.nvswitch_alternative
    assert "ring-bottleneck-pcie" in _codes(pcie)

    hgx_doc = _data_parallel_in_one_host("dell-xe8545", "a100-sxm4-80gb", nvlink=True)
    hgx = size(design_from_dict(hgx_doc), catalog)
    (ring,) = hgx.topology.rings
    assert ring.bottleneck.startswith("NVLink 3") and ring.bottleneck_gbs == pytest.approx(300)
    assert "ring-bottleneck-pcie" not in _codes(hgx)
    # the same gradients over a 9.5x faster link
    assert pcie.workloads[0].training.allreduce_seconds_per_iteration == pytest.approx(
        hgx.workloads[0].training.allreduce_seconds_per_iteration * 300 / 31.5
    )


def test_a_bridged_pair_alone_runs_at_nvlink(catalog):
    gpu, server = catalog.gpus["a100-pcie-80gb"], catalog.servers["dell-r750xa"]
    lay = topology.layout(gpu, server, _hw(nvlink=True))
    (pair,) = topology.ring_links(lay, 2)
    assert pair.kind == "nvlink" and pair.gbs == 300


def test_pcie_tree_is_consistent(sized):
    """Every parent and link end exists; GPUs, NICs and switches hang where the server says."""
    for result in sized.values():
        for host in result.topology.hosts:
            ids = {d.id for d in host.devices}
            assert all(d.parent in ids for d in host.devices if d.parent)
            assert all(a in ids and b in ids for a, b in ((x.a, x.b) for x in host.links))
            gpus = [d for d in host.devices if d.kind == "gpu"]
            assert len(gpus) == host.gpus == result.cluster.gpus_per_host
            switches = [d for d in host.devices if d.kind == "pcie-switch"]
            assert len(switches) == host.pcie_switches
            if switches:
                assert all(g.parent.startswith("psw") for g in gpus)


def test_c4140_gpus_and_nic_share_its_pcie_switch(sized):
    """The enterprise example's C4140 has one PCIe switch with the GPUs and two NIC slots under
    it, so every GPU can pair with the NIC for GPUDirect RDMA (a vSphere device group)."""
    host = sized["enterprise"].topology.hosts[0]
    assert {p.shared for p in host.gpu_nic_paths} == {"pcie-switch"}
    assert next(g.devices for g in host.device_groups if g.kind == "gpu-nic") == ["gpu0", "nic0"]
    assert host.nvlink == "baseboard"


def test_each_gpu_of_an_hgx_board_pairs_with_its_own_nic(sized):
    """The XE9680 of hgx-h200-llm has 4 PCIe switches, each with 2 GPUs and 2 NICs, and 8 NICs
    in all: GPU i pairs with NIC i (rail-optimized), not both GPUs of a switch with its first
    NIC. The C4140 of the enterprise example has one NIC, which all 4 GPUs share."""
    hgx = sized["hgx-h200-llm"].topology.hosts[0]
    assert [(p.gpu, p.nic) for p in hgx.gpu_nic_paths] == [(f"gpu{i}", f"nic{i}") for i in range(8)]
    assert {p.shared for p in hgx.gpu_nic_paths} == {"pcie-switch"}
    one = sized["enterprise"].topology.hosts[0]
    assert {p.nic for p in one.gpu_nic_paths} == {"nic0"}


def test_cpu_interconnect_is_half_the_catalog_aggregate(catalog):
    server = catalog.servers["dell-r750xa"]  # 3 UPI links x 11.2 GT/s x 2 B x 2 directions
    assert links.cpu_interconnect(server).gbs == pytest.approx(134.4 / 2)


def test_bandwidth_landscape_steps_down_from_hbm_to_the_nic(sized):
    tiers = sized["gpt3-175b"].topology.bandwidth
    assert [t.kind for t in tiers] == ["hbm", "nvlink", "pcie", "cpu-interconnect", "network"]
    assert tiers[0].gbs == 3350 and tiers[1].gbs == 450 and tiers[2].gbs == 63
    assert tiers[-1].gbs == pytest.approx(8 * 400 / 8)  # 8 NDR NICs, 400 Gb/s each


# ------------------------------------------------------------------------ warnings raised


def test_gpudirect_rdma_warns_for_gpus_without_a_nic_on_their_switch(catalog):
    """llm-serving: 2 NICs on an XE9680 with 4 PCIe switches leave half the GPUs without a NIC
    under their switch; one NIC per switch clears it."""
    two = _sized(catalog, "llm-serving")
    paths = two.topology.hosts[0].gpu_nic_paths
    assert sum(p.gpudirect_ok for p in paths) == 4
    assert "gpudirect-rdma-no-local-nic" in _codes(two)
    four = _sized(catalog, "llm-serving", {"nics_per_host": 4})
    assert all(p.gpudirect_ok for p in four.topology.hosts[0].gpu_nic_paths)
    assert "gpudirect-rdma-no-local-nic" not in _codes(four)


def test_rdma_training_on_a_server_without_gdr_affinity_is_warned(catalog):
    """BERT over RoCE on an R750xa: the NIC slots sit on their own root ports. Negative case:
    the same training on a Lenovo SR670 V2, whose NIC slots share the GPUs' PCIe switches,
    raises no such warning."""
    r = _sized(catalog, "bert-large-25gbe", {"rdma": "roce-v2"})
    assert "gpudirect-rdma-unavailable" in _codes(r)
    assert not any(p.gpudirect_ok for p in r.topology.hosts[0].gpu_nic_paths)
    assert catalog.servers["lenovo-sr670-v2"].gdr_affinity
    r = _sized(catalog, "bert-large-25gbe", {"rdma": "roce-v2", "server": "lenovo-sr670-v2"})
    assert r.cluster.hosts_total > 1  # the ring still spans hosts over RDMA
    assert "gpudirect-rdma-unavailable" not in _codes(r)


def test_nvlink_bridges_in_a_2u_server_are_flagged(catalog):
    r = _sized(catalog, "bert-large-25gbe", {"nvlink": True})  # R750xa is 2U
    assert "nvlink-bridge-2u" in _codes(r)
    r3u = _sized(catalog, "bert-large-25gbe", {"server": "lenovo-sr670-v2", "nvlink": True})
    assert "nvlink-bridge-2u" not in _codes(r3u)
    assert r3u.topology.hosts[0].nvlink_bridges == 6


def test_gpudirect_rdma_across_the_cpu_is_a_warning_not_a_refusal(catalog):
    """NVIDIA, GPUDirect RDMA documentation: the NIC and the GPU should share a PCIe switch for
    the best performance; across the CPU's root complex it still works, more slowly. The R750xa
    wires its GPUs to the CPUs directly, so every GPU's RDMA traffic crosses the CPU."""
    hw = {"rdma": "roce-v2", "gpudirect_rdma": True, "nic": "cx6dx-100g-2p", "fabric": "100gbe"}
    r = _sized(catalog, "bert-large-25gbe", hw)
    (w,) = [w for w in r.warnings if w.code == "gpudirect-rdma-no-local-nic"]
    assert "lower performance" in w.message and "R750xa" in w.message


def test_more_nics_than_slots_is_an_error(catalog):
    r = _sized(catalog, "bert-large-25gbe", {"nics_per_host": 3})  # R750xa: 2 NIC slots
    (w,) = [w for w in r.warnings if w.code == "nic-slots-exceeded"]
    assert w.severity == "error"


@pytest.mark.parametrize(
    ("hardware", "message"),
    [
        (
            {"server": "dell-dss8440", "gpu": "a100-pcie-40gb", "nvlink": True},
            "hardware.nvlink: the DSS 8440 has no adjacent double-width slots",
        ),
    ],
)
def test_bridges_or_gpudirect_the_server_cannot_take_are_design_errors(catalog, hardware, message):
    from wizard.engine.platform.compat import check_design

    doc = design_dict("bert-large-25gbe")
    doc["hardware"].update(hardware)
    problems = [str(p) for p in check_design(design_from_dict(doc), catalog)]
    assert any(p.startswith(message) for p in problems), problems


def test_c4140_sxm2_board_is_a_direct_mesh_not_nvswitch(sized):
    """The C4140's 4-GPU V100 SXM2 board wires the GPUs to each other (catalog source_note: 'a
    4-GPU NVLink mesh, not an HGX NVSwitch board'): six NVLinks per GPU over three peers, two
    per pair at 25 GB/s each way (Dell EMC Ready Solutions for AI Reference Guide, 2.2), so each
    of the 4 x 3 / 2 = 6 pairs carries 2 x 25 = 50 GB/s one way."""
    host = sized["enterprise"].topology.hosts[0]
    kinds = {d.kind.value for d in host.devices}
    assert "nvlink-mesh" in kinds and "nvswitch" not in kinds
    pairs = [lk for lk in host.links if lk.kind == "nvlink"]
    assert len(pairs) == 6
    assert {lk.gbs for lk in pairs} == {50}
    assert all(lk.a.startswith("gpu") and lk.b.startswith("gpu") for lk in pairs)
    assert {g.kind for g in host.device_groups} == {"nvlink-mesh", "gpu-nic"}


def test_a_ring_on_a_mesh_board_has_only_the_links_to_its_peers(catalog):
    """V100 SXM2: 300 GB/s NVLink, 150 each way, 50 per peer on the 4-GPU board. A ring over
    all four GPUs has all three peers' links (3 x 50 = 150, the GPU's whole NVLink); a ring of
    two has one peer's links (50)."""
    gpu, server = catalog.gpus["v100-sxm2-32gb"], catalog.servers["dell-c4140"]
    lay = topology.layout(gpu, server, _hw(nvlink=True))
    assert not lay.nvswitch and lay.board_gpus == 4
    assert [lk.gbs for lk in topology.ring_links(lay, 4)] == [150]
    assert [lk.gbs for lk in topology.ring_links(lay, 2)] == [50]


def test_an_eight_gpu_hgx_board_joins_its_gpus_through_nvswitch(sized):
    """HGX H200 8-GPU: one NVSwitch device and a link from each of the 8 GPUs to it at the
    H200's 900 GB/s / 2 = 450 GB/s each way."""
    host = sized["hgx-h200-llm"].topology.hosts[0]
    switch = [d for d in host.devices if d.kind == "nvswitch"]
    assert len(switch) == 1 and len(switch[0].connects) == 8
    nv = [lk for lk in host.links if lk.kind == "nvlink"]
    assert len(nv) == 8 and {lk.b for lk in nv} == {"nvswitch"} and {lk.gbs for lk in nv} == {450}


def test_cpu_interconnect_is_named_as_its_maker_names_it(catalog):
    """Intel Xeon sockets talk over UPI, AMD EPYC sockets over Infinity Fabric."""
    assert links.cpu_interconnect(catalog.servers["dell-r750xa"]).name.endswith("(UPI)")
    amd = links.cpu_interconnect(catalog.servers["dell-xe8545"])
    assert amd.name.endswith("(Infinity Fabric)")


def test_a_cpu_of_neither_maker_names_both_interconnects(catalog):
    """A CPU family that names neither Intel/Xeon nor AMD/EPYC (or both) cannot be told: the
    link is named for both makers, never as UPI by default."""
    server = catalog.servers["dell-r750xa"]
    for family in ("Ampere Altra Max", "Intel Xeon or AMD EPYC"):
        other = server.model_copy(update={"cpu_family": family})
        assert links.cpu_interconnect(other).name == "CPU interconnect (UPI / Infinity Fabric)"
    # either word alone names the maker: a family given as "Xeon ..." or "EPYC ..."
    for family, kind in (("Xeon Gold 6338", "UPI"), ("EPYC 9654", "Infinity Fabric")):
        other = server.model_copy(update={"cpu_family": family})
        assert links.cpu_interconnect(other).name == f"CPU interconnect ({kind})"


def test_the_nvswitch_system_named_for_a_pcie_ring_gives_its_speed_each_way(catalog):
    """A100 PCIe in two bridged pairs rings at PCIe speed; the warning names the A100 SXM4
    system instead, whose NVLink 3 carries 12 links x 50 GB/s = 600 GB/s, 300 GB/s each way."""
    doc = _data_parallel_in_one_host("dell-r750xa", "a100-pcie-80gb", nvlink=True)
    r = size(design_from_dict(doc), catalog)
    (w,) = [w for w in r.warnings if w.code == "ring-bottleneck-pcie"]
    assert catalog.gpus["a100-sxm4-80gb"].nvlink.bandwidth_gbs == 12 * 50
    assert "keeps the whole ring on NVLink at 300 GB/s each way" in w.message


def test_a_ring_over_some_gpus_of_a_mesh_board_is_named_by_its_peers(catalog):
    """V100 SXM2's 4-GPU board: a ring of three GPUs has two of each GPU's three peers (2 x 50
    = 100 GB/s each way) and says so; a ring of all four uses the whole mesh."""
    gpu, server = catalog.gpus["v100-sxm2-32gb"], catalog.servers["dell-c4140"]
    lay = topology.layout(gpu, server, _hw(nvlink=True))
    (three,) = topology.ring_links(lay, 3)
    assert three.gbs == 100 and three.name == "NVLink 2 (direct, 2 of 3 peers)"
    (four,) = topology.ring_links(lay, 4)
    assert four.name == "NVLink 2 (direct mesh)"


def test_tensor_parallelism_spans_a_bridged_pair_a_baseboard_or_one_gpu(catalog):
    """The NVLink domain a tensor-parallel group may span: the bridged pair (2) in an R750xa
    with bridges, one GPU without them (never tensor parallelism over PCIe), the whole 8-GPU
    HGX board."""
    a100, r750xa = catalog.gpus["a100-pcie-80gb"], catalog.servers["dell-r750xa"]
    assert topology.nvlink_domain(a100, r750xa, _hw(nvlink=True)) == 2
    assert topology.nvlink_domain(a100, r750xa, _hw(nvlink=False)) == 1
    h200 = catalog.gpus["h200-sxm-141gb"]
    hgx = next(s for s in catalog.servers.values() if h200.id in s.hgx_gpus)
    assert topology.nvlink_domain(h200, hgx, _hw(gpus_per_host=8)) == 8


def test_a_gpu_and_nic_group_only_where_gpudirect_rdma_works(sized):
    """Every example's hosts: a 'GPU + NIC' device group for each GPU whose nearest NIC shares
    its PCIe switch or root complex, and none for a GPU whose NIC sits across the CPU."""
    seen = set()
    for result in sized.values():
        for host in result.topology.hosts:
            groups = {tuple(g.devices) for g in host.device_groups if g.kind == "gpu-nic"}
            ok = {
                (p.gpu, p.nic) for p in host.gpu_nic_paths if p.gpudirect_ok and p.nic is not None
            }
            assert groups == ok, host.name
            seen |= {p.gpudirect_ok for p in host.gpu_nic_paths}
    assert seen == {True, False}  # both kinds of path occur among the examples


def test_pcie_x16_speed_each_way_by_generation():
    """GT/s per lane x 16 lanes / 8 bits, less the line code: 128b/130b for Gen3-5 (PCI-SIG),
    the 242 B of data in each 256 B flit for Gen6 (PCIe 6.0's FLIT mode); the table keeps the
    figures as they are usually quoted (15.75, 31.5, 63 GB/s), within 0.02 of the arithmetic."""
    assert links.PCIE_X16_GBS[3] == pytest.approx(8 * 16 / 8 * 128 / 130, abs=0.02)
    assert links.PCIE_X16_GBS[4] == pytest.approx(16 * 16 / 8 * 128 / 130, abs=0.02)
    assert links.PCIE_X16_GBS[5] == pytest.approx(32 * 16 / 8 * 128 / 130, abs=0.02)
    assert links.PCIE_X16_GBS[6] == pytest.approx(64 * 16 / 8 * 242 / 256, abs=0.02)


def test_one_nic_is_named_alone_several_by_their_count():
    """A ring that leaves the host crosses its NICs: one 25 GbE NIC reads '25 GbE', at 25 / 8
    = 3.125 GB/s; two read '2 x 25 GbE' and carry twice that."""
    one = links.nic(_hw(fabric="25gbe", nics_per_host=1, nic="x"))
    two = links.nic(_hw(fabric="25gbe", nics_per_host=2, nic="x"))
    assert one.gbs == 3.125 and two.gbs == 6.25
    assert two.name == f"2 x {one.name}" and not one.name.startswith("1 x")


def test_a_pcie_ring_warns_when_it_takes_a_quarter_of_each_iteration(catalog):
    """BERT-Large over four A100 PCIe in bridged pairs: at 128 tokens and micro-batch 2 the
    gradient ring takes more than a quarter of each iteration (and less than half), so the
    PCIe bottleneck is a warning; at 512 tokens and micro-batch 1 the compute hides most of it
    and the same bottleneck is only information. The message gives the share."""
    seen = set()
    for sequence, micro in ((128, 2), (512, 1)):
        doc = _data_parallel_in_one_host("dell-r750xa", "a100-pcie-80gb", nvlink=True)
        doc["workloads"][0].update(sequence_length=sequence, micro_batch_size=micro)
        r = size(design_from_dict(doc), catalog)
        share = r.workloads[0].training.communication_share
        (w,) = [w for w in r.warnings if w.code == "ring-bottleneck-pcie"]
        assert w.severity.value == ("warning" if share >= 0.25 else "info"), share
        assert f"allreduce is {share:.0%} of each iteration" in w.message
        seen.add((share >= 0.25, share < 0.5))
    assert seen == {(True, True), (False, True)}  # one on each side of a quarter, both below half


def test_a_host_without_a_nic_has_no_network_step(catalog):
    """The landscape's last step is the host's NICs; a host with no NIC (or none counted) stops
    at the CPU interconnect, and one with NICs ends at them."""
    gpu, server = catalog.gpus["a100-pcie-80gb"], catalog.servers["dell-r750xa"]
    lay = topology.layout(gpu, server, _hw(nvlink=False))
    for nic, count, last in (
        ("x", 2, "network"),
        (None, 2, "cpu-interconnect"),
        ("x", 0, "cpu-interconnect"),
    ):
        hw = _hw(nvlink=False, nic=nic, nics_per_host=count, fabric="25gbe")
        assert topology.bandwidth_landscape(lay, hw)[-1].kind == last, (nic, count)


def test_decisions_are_numbered_from_one_in_order(sized):
    """The proposal refers to decisions by number (D1, D2, ...): every example's decisions are
    1, 2, ... n, in the order they were made."""
    for name, r in sized.items():
        assert [d.id for d in r.decisions] == list(range(1, len(r.decisions) + 1)), name
