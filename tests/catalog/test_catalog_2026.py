"""Published figures of the Blackwell-generation catalog entries: RTX PRO 6000 Blackwell Server
Edition, B300 (HGX B300), the B200 vGPU types, ConnectX-8 and BlueField-3 SuperNICs.

Each expected value is written from its source, not from the TOML, with the source beside it.
"""

import pytest

from wizard.engine.placement import mig
from wizard.engine.placement.mig import Instance, MigState, parse_layout, validate_layout

# ------------------------------------------------------------- RTX PRO 6000 Blackwell Server Ed.


def test_rtx_pro_6000_board_figures(catalog):
    g = catalog.gpus["rtx-pro-6000-bse"]
    # NVIDIA RTX PRO 6000 Blackwell Server Edition product page / datasheet.
    assert g.memory_gb == 96  # "96 GB GDDR7 with ECC"
    assert g.memory_type == "GDDR7"
    assert g.memory_bandwidth_gbs == 1597  # "1,597 GB/s" (Workstation Edition: 1,792)
    assert g.tdp_w == 600  # "up to 600 W (configurable)"
    assert (g.pcie_gen, g.pcie_lanes) == (5, 16)  # "PCIe 5.0 x16"
    assert g.slot_width == 2  # "dual-slot", passive
    assert g.form_factor.value == "pcie"
    assert g.nvlink.kind.value == "none"  # no NVLink on this board
    assert g.architecture == "Blackwell"
    assert g.nvaie_supported  # AI Enterprise 7/8 'Blackwell Architecture vGPU Types'


def test_rtx_pro_6000_tensor_figures_are_half_the_sparse_ones(catalog):
    t = catalog.gpus["rtx-pro-6000-bse"].tflops
    # Product page: FP32 120 TFLOPS; FP8 2 PFLOPS, FP16/BF16 1 PFLOPS, TF32 234 TFLOPS, read as
    # with sparsity (the datasheet footnotes FP4 4 PFLOPS as "with sparsity"); dense = half.
    assert t.fp32 == 120
    assert t.fp8 == pytest.approx(2000 / 2)
    assert t.bf16 == t.fp16 == pytest.approx(1000 / 2)
    assert t.tf32 == pytest.approx(234 / 2)
    assert t.int8 is None and t.fp64 is None  # not published for this board


def test_rtx_pro_6000_mig_profiles(catalog):
    m = catalog.gpus["rtx-pro-6000-bse"].mig
    # MIG User Guide 'Supported GPUs': RTX PRO 6000 Blackwell Server Edition, 96GB, 4 instances.
    assert (m.compute_slices, m.memory_slices) == (4, 4)
    # NVIDIA mig-parted config-default.yaml (commit 9e0382f5): name -> instances per GPU.
    expect = {
        "1g.24gb": 4,
        "1g.24gb+gfx": 4,
        "2g.48gb": 2,
        "2g.48gb+gfx": 2,
        "4g.96gb": 1,
        "4g.96gb+gfx": 1,
    }
    assert {p.name: p.max_count for p in m.profiles} == expect


def test_rtx_pro_6000_mig_is_consistent(catalog):
    """No profile holds more than the board's 96 GB; each profile's maximum count of placements
    fills exactly the 4 memory slices; memory scales with the slices (24 GB each)."""
    g = catalog.gpus["rtx-pro-6000-bse"]
    for p in g.mig.profiles:
        assert p.memory_gb <= 96, p.name
        assert p.memory_gb == 24 * p.memory_slices, p.name
        assert p.placement_size == p.memory_slices, p.name
        covered = sorted(
            s for start in p.placement_starts for s in range(start, start + p.placement_size)
        )
        assert covered == [0, 1, 2, 3], p.name
        assert p.max_count * p.placement_size == g.mig.memory_slices, p.name
        assert p.max_count * p.compute_slices == g.mig.compute_slices, p.name


def test_rtx_pro_6000_mig_layouts(catalog):
    g = catalog.gpus["rtx-pro-6000-bse"]
    # mig-parted 'all-balanced' for device 0x2BB5: 2 x 1g.24gb + 1 x 2g.48gb.
    assert validate_layout(g, parse_layout("1g.24gb@0 + 1g.24gb@1 + 2g.48gb@2")) == []
    assert validate_layout(g, parse_layout("4g.96gb@0")) == []
    # Refused: a fifth instance, a 2g at an odd slice, the full instance beside anything else.
    assert validate_layout(
        g, parse_layout(" + ".join(f"1g.24gb@{s}" for s in range(4)) + " + 1g.24gb@0")
    )
    assert validate_layout(g, parse_layout("2g.48gb@1"))
    assert validate_layout(g, parse_layout("4g.96gb@0 + 1g.24gb@3"))
    assert validate_layout(g, [Instance(0, "7g.96gb")])  # the A100-style 7g does not exist here
    state = MigState()
    for _ in range(4):
        state = state.place(g, next(p for p in g.mig.profiles if p.name == "1g.24gb"))
    assert state.free_slices(g) == 0
    assert mig.full_profile(g).name == "4g.96gb"


def test_rtx_pro_6000_vgpu_types(catalog):
    v = catalog.gpus["rtx-pro-6000-bse"].vgpu
    # NVIDIA vgpu-device-manager examples/config-example.yaml (vGPU 19.0, commit b61f3842):
    # time-sliced C-series types and their maximum per GPU.
    expect = {
        "DC-96C": 1,
        "DC-48C": 2,
        "DC-32C": 3,
        "DC-24C": 4,
        "DC-16C": 6,
        "DC-12C": 8,
        "DC-8C": 12,
    }
    assert {p.name: p.max_per_gpu for p in v.profiles} == expect
    for p in v.profiles:
        assert p.framebuffer_gb * p.max_per_gpu == 96, p.name
    assert v.type_prefix == "DC"


def test_rtx_pro_6000_time_sliced_mig_backed_types(catalog):
    g = catalog.gpus["rtx-pro-6000-bse"]
    v = g.vgpu
    # Same configuration: per-GPU maxima of the MIG-backed types smaller than their instance,
    # divided by the instances of that profile (4 x 1g, 2 x 2g, 1 x 4g) per the MIG maxima.
    per_gpu = {"DC-1-12C": 8, "DC-1-8C": 12, "DC-2-24C": 4, "DC-2-16C": 6, "DC-2-12C": 8,
               "DC-4-48C": 2, "DC-4-32C": 3, "DC-4-24C": 4}  # fmt: skip
    instances = {"1g.24gb": 4, "2g.48gb": 2, "4g.96gb": 1}
    got = {p.name: p for p in v.mig_time_sliced}
    assert set(got) == set(per_gpu)
    profiles = {p.name: p for p in g.mig.profiles}
    for name, n in per_gpu.items():
        p = got[name]
        assert p.max_per_instance * instances[p.mig_profile] == n, name
        assert p.framebuffer_gb * p.max_per_instance <= profiles[p.mig_profile].memory_gb, name
        assert name.startswith(f"DC-{profiles[p.mig_profile].compute_slices}-"), name
    assert v.mig_time_sliced_min_release == "19.0"


def test_rtx_pro_6000_mig_backed_names_follow_nvidia(catalog):
    g = catalog.gpus["rtx-pro-6000-bse"]
    # vGPU 19.0 configuration: DC-1-24C, DC-2-48C, DC-4-96C back the plain GPU instances.
    profiles = {p.name: p for p in g.mig.profiles}
    assert g.mig_vgpu_type(profiles["1g.24gb"]) == "DC-1-24C"
    assert g.mig_vgpu_type(profiles["2g.48gb"]) == "DC-2-48C"
    assert g.mig_vgpu_type(profiles["4g.96gb"]) == "DC-4-96C"


def test_rtx_pro_6000_mixed_size_is_left_out_until_nvidia_publishes_it(catalog):
    """No NVIDIA document read prints this board's mixed-size maxima, so none is planned: no
    type has max_per_gpu_mixed, the first mixed-size release is unset and marked unsettled,
    and the engine packs one vGPU size per GPU."""
    from wizard.engine.placement.vgpu import mixed_supported

    g = catalog.gpus["rtx-pro-6000-bse"]
    assert all(p.max_per_gpu_mixed is None for p in g.vgpu.profiles)
    assert g.vgpu.mixed_size_min_release is None
    assert not mixed_supported(g)
    assert "vgpu.mixed_size_min_release" in g.unsettled
    assert "Not settled: mixed-size mode" in g.source_note
    # The documents checked are named, so a reader knows where to look next.
    for doc in ("Blackwell Architecture vGPU Types", "vGPU 19.0 release notes", "commit 61b0001c"):
        assert doc in g.source_note, doc
    assert "https://docs.nvidia.com/vgpu/19.0/grid-vgpu-release-notes-vmware-vsphere/" in g.source


def test_rtx_pro_6000_type_lists_match_the_vgpu_20_configuration(catalog):
    """NVIDIA vgpu-device-manager examples/config-example.yaml, commit 61b0001c 'Update default
    vGPU devices config for vGPU 20.0': the board's C types are those of vGPU 19.0 plus 'CGFX'
    variants on the +gfx GPU instances. Every plain type is in the catalog: time-sliced in
    profiles, whole-instance MIG-backed as the names of the MIG profiles, and the rest in
    mig_time_sliced. The whole-instance CGFX names are those of the +gfx profiles."""
    g = catalog.gpus["rtx-pro-6000-bse"]
    # Type -> per-GPU maximum, as the configuration prints them (C types only).
    config_c = {
        "DC-96C": 1, "DC-48C": 2, "DC-32C": 3, "DC-24C": 4, "DC-16C": 6, "DC-12C": 8,
        "DC-8C": 12, "DC-1-24C": 4, "DC-1-12C": 8, "DC-1-8C": 12, "DC-2-48C": 2,
        "DC-2-24C": 4, "DC-2-16C": 6, "DC-2-12C": 8, "DC-4-96C": 1, "DC-4-48C": 2,
        "DC-4-32C": 3, "DC-4-24C": 4,
    }  # fmt: skip
    profiles = {p.name: p for p in g.mig.profiles}
    have = {p.name: p.max_per_gpu for p in g.vgpu.profiles}
    for p in g.mig.profiles:
        if not p.name.endswith("+gfx"):
            have[g.mig_vgpu_type(p)] = p.max_count
    for t in g.vgpu.mig_time_sliced:
        have[t.name] = t.max_per_instance * profiles[t.mig_profile].max_count
    assert have == config_c
    # Same configuration: "DC-1-24CGFX: 4", "DC-2-48CGFX: 2", "DC-4-96CGFX: 1".
    gfx = {g.mig_vgpu_type(p): p.max_count for p in g.mig.profiles if p.name.endswith("+gfx")}
    assert gfx == {"DC-1-24CGFX": 4, "DC-2-48CGFX": 2, "DC-4-96CGFX": 1}
    # The time-sliced CGFX variants (vGPU 20.0 onwards) are named in the note, not listed.
    assert not any(t.name.endswith("GFX") for t in g.vgpu.mig_time_sliced)
    assert "DC-1-12CGFX (8)" in g.source_note


# ---------------------------------------------------------------------------------- B300


def test_b300_figures(catalog):
    g = catalog.gpus["b300-sxm"]
    assert g.architecture == "Blackwell"
    # NVIDIA Blackwell Architecture Technical Brief v2.1, Table 3, HGX B300 per GPU:
    # "270 GB HBM3e", "7.7 TB/s", max TDP "1100 W", NVLink 5 and PCIe Gen6. What a VM or MIG
    # instance can use is 269 GB: vGPU type B300X-269C and MIG profile 7g.269gb (NVIDIA
    # vgpu-device-manager and mig-parted default configurations), so the plan uses 269.
    assert g.memory_gb == 269
    assert g.vgpu is not None and max(p.framebuffer_gb for p in g.vgpu.profiles) == 269
    assert g.mig is not None and max(p.memory_gb for p in g.mig.profiles) == 269
    assert g.memory_bandwidth_gbs == 7700
    assert g.tdp_w == 1100
    assert g.pcie_gen == 6
    # NVIDIA HGX page, HGX B300: GPU-to-GPU NVLink 1.8 TB/s, NVLink 5.
    assert (g.nvlink.kind.value, g.nvlink.generation, g.nvlink.bandwidth_gbs) == ("sxm", 5, 1800)
    assert g.form_factor.value == "sxm" and g.slot_width == 0


def test_b300_tensor_figures_from_hgx_totals(catalog):
    t = catalog.gpus["b300-sxm"].tflops
    # NVIDIA HGX page, HGX B300 (8 GPUs), sparse totals; "Dense is 1/2 sparse spec shown".
    assert t.fp8 == pytest.approx(72_000 / 8 / 2)
    assert t.bf16 == t.fp16 == pytest.approx(36_000 / 8 / 2)
    assert t.tf32 == pytest.approx(18_000 / 8 / 2)
    assert t.int8 == pytest.approx(2_000 / 8 / 2)  # INT8 Tensor Core 2 POPS
    # Dense (no sparsity) totals: FP32 600 TF, FP64 / FP64 Tensor 10 TF.
    assert t.fp32 == pytest.approx(600 / 8)
    assert t.fp64 == pytest.approx(10 / 8)


def test_b300_mig_and_vgpu(catalog):
    g = catalog.gpus["b300-sxm"]
    # NVIDIA mig-parted config-default.yaml (commit 47c56d96, device 0x3182).
    expect = {"1g.34gb": 7, "1g.34gb+me": 1, "1g.67gb": 4, "2g.67gb": 3, "3g.135gb": 2,
              "4g.135gb": 1, "7g.269gb": 1}  # fmt: skip
    assert {p.name: p.max_count for p in g.mig.profiles} == expect
    assert (g.mig.compute_slices, g.mig.memory_slices) == (7, 8)
    for p in g.mig.profiles:
        assert p.memory_gb <= g.memory_gb, p.name
    # vgpu-device-manager config for vGPU 20.0 (commit 61b0001c): B300X-269C, 1 per GPU, and
    # MIG-backed types named B300X-<slices>-<GB>C[ME].
    assert [(p.name, p.max_per_gpu) for p in g.vgpu.profiles] == [("B300X-269C", 1)]
    names = {g.mig_vgpu_type(p) for p in g.mig.profiles}
    assert names == {"B300X-1-34C", "B300X-1-34CME", "B300X-1-67C", "B300X-2-67C",
                     "B300X-3-135C", "B300X-4-135C", "B300X-7-269C"}  # fmt: skip


def test_b200_vgpu_types(catalog):
    g = catalog.gpus["b200-sxm"]
    # vgpu-device-manager config for vGPU 19.0 (commit b61f3842): one time-sliced type.
    assert [(p.name, p.framebuffer_gb, p.max_per_gpu) for p in g.vgpu.profiles] == [
        ("B200X-180C", 180, 1)
    ]
    names = {g.mig_vgpu_type(p) for p in g.mig.profiles}
    assert names == {"B200X-1-23C", "B200X-1-23CME", "B200X-1-45C", "B200X-2-45C",
                     "B200X-3-90C", "B200X-4-90C", "B200X-7-180C"}  # fmt: skip


# ---------------------------------------------------------------------------------- NICs


def test_connectx8_supernic(catalog):
    n = catalog.nics["cx8-800g-1p"]
    # ConnectX-8 firmware release notes v40.44.0208: "800Gb/s or XDR IB or 2 x 400GbE".
    assert (n.ports, n.port_speed_gbps) == (1, 800)
    assert set(n.protocols) == {"infiniband", "ethernet"}
    assert {"infiniband", "roce-v2"} <= set(n.rdma) and n.gpudirect_rdma
    # NVIDIA adapter catalog: C8180, OPN 900-9X81E-00EX-ST0, PCIe Gen6 x16.
    assert (n.pcie_gen, n.pcie_lanes) == (6, 16)
    assert n.part_number == "900-9X81E-00EX-ST0"


def test_bluefield3_supernic(catalog):
    n = catalog.nics["bf3-supernic-400g-1p"]
    # Firmware description of 900-9D3D4-00EN-HA0: "B3140H E-series HHHL SuperNIC; 400GbE
    # (default mode) / NDR IB; Single-port QSFP112; PCIe Gen5.0 x16".
    assert (n.ports, n.port_speed_gbps, n.pcie_gen, n.pcie_lanes) == (1, 400, 5, 16)
    assert set(n.protocols) == {"ethernet", "infiniband"}
    # BlueField-3 silicon with its own Arm cores, DDR and BMC: a BlueField-class card, so the
    # recommendation still prefers the plain ConnectX-7 adapter at 400 Gb/s.
    assert n.kind.value == "dpu"
    assert n.part_number == "900-9D3D4-00EN-HA0"
    # The existing ConnectX-7 single-port NDR entry still covers the 400G ConnectX-7 card.
    cx7 = catalog.nics["cx7-ndr-1p"]
    assert (cx7.ports, cx7.port_speed_gbps, cx7.pcie_gen) == (1, 400, 5)


def test_supernics_leave_the_400g_recommendation_on_connectx7(catalog):
    from wizard.app.recommend import recommend_nic
    from wizard.model.design import Fabric, Rdma

    for fabric, rdma in [(Fabric.IB_NDR, Rdma.INFINIBAND), (Fabric.GBE_400, Rdma.ROCE)]:
        nic, _ = recommend_nic(catalog, fabric, rdma)
        assert nic.id == "cx7-ndr-1p", fabric
