"""Published figures of the NVIDIA RTX PRO 4500 Blackwell Server Edition catalog entry.

Each expected value is written from its source, not from the TOML, with the source beside it:
- vPC guide: NVIDIA Virtual PC (vPC) Sizing and GPU Selection Guide, 'Recommended NVIDIA GPUs
  for NVIDIA vPC', Table 1 (https://docs.nvidia.com/vgpu/sizing/virtual-pc/latest/gpu-vpc.html)
- AIE 8: NVIDIA AI Enterprise 8 'Blackwell Architecture vGPU Types', Table 52 (MIG-backed) and
  Table 53 (time-sliced) for the RTX Pro 4500 SE 32 GB
  (https://docs.nvidia.com/ai-enterprise/release-8/latest/infra-software/vgpu/reference/blackwell.html)
- MIG guide: NVIDIA Multi-Instance GPU User Guide r610, 'Supported GPUs'
  (https://docs.nvidia.com/datacenter/tesla/mig-user-guide/610/supported-gpus.html)
"""

import pytest

from wizard.engine.placement.mig import MigState, parse_layout, validate_layout
from wizard.engine.placement.sharing import vgpu_type
from wizard.model.catalog import max_boards
from wizard.model.design import SharingMode

GPU = "rtx-pro-4500-bse"


def test_board_figures(catalog):
    g = catalog.gpus[GPU]
    assert g.name == "NVIDIA RTX PRO 4500 Blackwell Server Edition"
    assert g.architecture == "Blackwell"  # vPC guide Table 1: "Blackwell"
    assert g.gpus_per_board == 1  # vPC guide Table 1: "Number of GPUs / Board: 1"
    assert g.memory_gb == 32  # vPC guide Table 1: "32 GB GDDR7"; AIE 8: "RTX Pro 4500 SE 32 GB"
    assert g.memory_type == "GDDR7"  # vPC guide Table 1
    assert g.tdp_w == 165  # vPC guide Table 1: "Power 165W"
    assert g.form_factor.value == "pcie"  # vPC guide Table 1: "PCIe 5.0 Single Slot, FHFL"
    assert g.pcie_gen == 5  # same row: "PCIe 5.0"
    assert g.slot_width == 1  # same row: "Single Slot"
    assert g.nvlink.kind.value == "none"
    assert g.nvaie_supported  # AIE 8 Tables 52/53: "Required license edition: NVIDIA AI Enterprise"


def test_third_party_figures_are_marked_not_settled(catalog):
    g = catalog.gpus[GPU]
    # Exxact Corp. benchmark article (third party): "256-bit bus at 800 GB/s of bandwidth".
    assert g.memory_bandwidth_gbs == 800
    # technical.city (third party), RTX PRO 4500 Blackwell workstation card: 54.94 TFLOPS FP32.
    assert g.tflops.fp32 == pytest.approx(54.94)
    # No NVIDIA tensor or FP64 figure was found for this board: left out, not invented.
    t = g.tflops
    assert (t.fp64, t.tf32, t.bf16, t.fp16, t.fp8, t.fp4, t.int8, t.int4) == (None,) * 8
    for phrase in ("Not settled: memory_bandwidth_gbs 800", "Not settled: fp32 54.94"):
        assert phrase in g.source_note
    for url in (
        "https://docs.nvidia.com/vgpu/sizing/virtual-pc/latest/gpu-vpc.html",
        "https://docs.nvidia.com/ai-enterprise/release-8/latest/infra-software/vgpu/reference/blackwell.html",
        "https://docs.nvidia.com/datacenter/tesla/mig-user-guide/610/supported-gpus.html",
        "https://www.exxactcorp.com/blog/benchmark/nvidia-rtx-pro-4500-blackwell-llm-inference-benchmark",
    ):
        assert url in g.source, url


def test_mig_profiles(catalog):
    m = catalog.gpus[GPU].mig
    # MIG guide 'Supported GPUs': RTX PRO 4500 Blackwell, 32GB, max 2 instances; vPC guide Table
    # 1: "Yes, up to 2 MIG slices".
    assert (m.compute_slices, m.memory_slices) == (2, 2)
    # AIE 8 Table 52, 'Corresponding GPU Instance Profile' of the whole-instance types:
    # DC-1-16C -> MIG 1g.16gb, DC-2-32C -> MIG 2g.32gb; at most 2 instances.
    assert {p.name: (p.compute_slices, p.memory_gb, p.max_count) for p in m.profiles} == {
        "1g.16gb": (1, 16, 2),
        "2g.32gb": (2, 32, 1),
    }


def test_mig_slices_and_counts_are_consistent(catalog):
    """No profile uses more memory or compute slices than the GPU has; each profile's maximum
    count of placements fills the 2 slices exactly; memory scales with slices (16 GB each)."""
    g = catalog.gpus[GPU]
    for p in g.mig.profiles:
        assert p.memory_slices <= g.mig.memory_slices, p.name
        assert p.compute_slices <= g.mig.compute_slices, p.name
        assert p.memory_gb <= 32, p.name
        assert p.memory_gb == 16 * p.memory_slices, p.name
        assert p.placement_size == p.memory_slices, p.name
        assert len(p.placement_starts) == p.max_count, p.name
        covered = sorted(
            s for start in p.placement_starts for s in range(start, start + p.placement_size)
        )
        assert covered == [0, 1], p.name
        assert p.max_count * p.memory_slices == g.mig.memory_slices, p.name
        assert p.max_count * p.compute_slices == g.mig.compute_slices, p.name


def test_mig_layouts(catalog):
    g = catalog.gpus[GPU]
    assert validate_layout(g, parse_layout("1g.16gb@0 + 1g.16gb@1")) == []
    assert validate_layout(g, parse_layout("2g.32gb@0")) == []
    # Refused: a third instance, a 2g at slice 1, the whole GPU beside a 1g, a 6000 profile.
    assert validate_layout(g, parse_layout("1g.16gb@0 + 1g.16gb@1 + 1g.16gb@0"))
    assert validate_layout(g, parse_layout("2g.32gb@1"))
    assert validate_layout(g, parse_layout("2g.32gb@0 + 1g.16gb@1"))
    assert validate_layout(g, parse_layout("1g.24gb@0"))
    one_g = next(p for p in g.mig.profiles if p.name == "1g.16gb")
    state = MigState().place(g, one_g).place(g, one_g)
    assert state.free_slices(g) == 0
    assert state.place(g, one_g) is None


def test_time_sliced_vgpu_types(catalog):
    v = catalog.gpus[GPU].vgpu
    # AIE 8 Table 53: type -> (framebuffer GB, max per GPU equal-size, max per GPU mixed-size).
    expect = {"DC-32C": (32, 1, 1), "DC-16C": (16, 2, 2), "DC-8C": (8, 4, 4)}
    got = {p.name: (p.framebuffer_gb, p.max_per_gpu, p.max_per_gpu_mixed) for p in v.profiles}
    assert got == expect
    assert v.type_prefix == "DC"


def test_mixed_size_maxima_equal_the_equal_size_ones(catalog):
    """AIE 8 Table 53 prints 'Maximum vGPUs per GPU in Mixed-Size Mode' equal to 'Maximum vGPUs
    per GPU in Equal-Size Mode' for every type (DC-32C 1 1, DC-16C 2 2, DC-8C 4 4): never
    more, never fewer, and each mode's maximum fits the 32 GB framebuffer."""
    g = catalog.gpus[GPU]
    for p in g.vgpu.profiles:
        assert p.max_per_gpu_mixed == p.max_per_gpu, p.name
        assert p.framebuffer_gb * p.max_per_gpu_mixed <= g.memory_gb, p.name
    from wizard.engine.placement.vgpu import mixed_supported

    assert mixed_supported(g)


def test_first_release_is_vgpu_20(catalog):
    """The AIE 7.5 vGPU Types Reference lists the B200 HGX and RTX PRO 6000 Blackwell SE as its
    Blackwell boards; the 8.0 one adds "NVIDIA RTX Pro 4500 Blackwell SE" and "Time-Sliced
    MIG-Backed ... Blackwell (RTX Pro 4500, RTX Pro 6000)"; AI Enterprise 8 is vGPU 20, and
    vgpu-device-manager adds the board's types in 'Update default vGPU devices config for vGPU
    20.0'. So both first releases are 20.0, derived and marked unsettled."""
    g = catalog.gpus[GPU]
    v = g.vgpu
    assert (v.mixed_size_min_release, v.mig_time_sliced_min_release) == ("20.0", "20.0")
    assert {"vgpu.mixed_size_min_release", "vgpu.mig_time_sliced_min_release"} <= set(g.unsettled)
    assert "Not settled: mixed_size_min_release 20.0 and mig_time_sliced_min_release 20.0" in (
        g.source_note
    )
    # The release that first lists the board is vGPU 20 (AI Enterprise 8), not 19.
    branches = {r.vgpu_branch for r in catalog.software.values() if r.vgpu_branch}
    assert 20 in branches


def test_vgpu_20_configuration_agrees_with_per_instance_reading(catalog):
    """vgpu-device-manager config-example.yaml, commit 61b0001c (vGPU 20.0): "DC-1-16C: 2",
    "DC-2-8C: 4", "DC-2-32C: 1" per GPU - types only this board has. DC-1-16C twice per GPU
    is one per 1g.16gb instance on each of the two instances, as the catalog reads Table 52."""
    g = catalog.gpus[GPU]
    profiles = {p.name: p for p in g.mig.profiles}
    assert profiles["1g.16gb"].max_count == 2  # DC-1-16C: 2
    assert profiles["2g.32gb"].max_count == 1  # DC-2-32C: 1
    ts = {t.name: t for t in g.vgpu.mig_time_sliced}
    dc28 = ts["DC-2-8C"]
    assert dc28.max_per_instance * profiles[dc28.mig_profile].max_count == 4  # DC-2-8C: 4
    assert "commit 61b0001c" in g.source_note


def test_mig_backed_vgpu_types(catalog):
    g = catalog.gpus[GPU]
    profiles = {p.name: p for p in g.mig.profiles}
    # AIE 8 Table 52: DC-2-32C backs MIG 2g.32gb, DC-1-16C backs MIG 1g.16gb.
    assert g.mig_vgpu_type(profiles["2g.32gb"]) == "DC-2-32C"
    assert g.mig_vgpu_type(profiles["1g.16gb"]) == "DC-1-16C"
    assert vgpu_type(g, SharingMode.MIG, "2g.32gb") == "DC-2-32C"
    assert vgpu_type(g, SharingMode.MIG, "1g.16gb") == "DC-1-16C"
    assert vgpu_type(g, SharingMode.MIG, "1g.24gb") is None  # an RTX PRO 6000 profile


def test_time_sliced_mig_backed_vgpu_types(catalog):
    g = catalog.gpus[GPU]
    # AIE 8 Table 52: DC-2-16C 2 and DC-2-8C 4 on the single 2g.32gb instance; DC-1-8C 2 on a
    # 1g.16gb instance (the 1g rows read per instance, as the source_note explains).
    expect = {
        "DC-2-16C": ("2g.32gb", 16, 2),
        "DC-2-8C": ("2g.32gb", 8, 4),
        "DC-1-8C": ("1g.16gb", 8, 2),
    }
    got = {
        p.name: (p.mig_profile, p.framebuffer_gb, p.max_per_instance)
        for p in g.vgpu.mig_time_sliced
    }
    assert got == expect
    profiles = {p.name: p for p in g.mig.profiles}
    for p in g.vgpu.mig_time_sliced:
        assert p.framebuffer_gb * p.max_per_instance <= profiles[p.mig_profile].memory_gb, p.name


def test_shared_dc_names_resolve_per_board(catalog):
    """Both RTX PRO Blackwell Server Editions name their vGPU types 'DC-...': the same name
    means a different framebuffer and count on each board, and each board's lookups see only
    its own types."""
    g4, g6 = catalog.gpus[GPU], catalog.gpus["rtx-pro-6000-bse"]
    t4 = {p.name: p for p in g4.vgpu.profiles}
    t6 = {p.name: p for p in g6.vgpu.profiles}
    assert g4.vgpu.type_prefix == g6.vgpu.type_prefix == "DC"
    # DC-16C and DC-8C exist on both boards with different maxima per GPU.
    assert (t4["DC-16C"].max_per_gpu, t4["DC-8C"].max_per_gpu) == (2, 4)  # AIE 8 Table 53
    # RTX PRO 6000: vGPU 19.0 device-manager configuration, DC-16C 6, DC-8C 12 per GPU.
    assert (t6["DC-16C"].max_per_gpu, t6["DC-8C"].max_per_gpu) == (6, 12)
    assert "DC-96C" not in t4 and "DC-32C" in t4
    assert t6["DC-32C"].max_per_gpu == 3  # RTX PRO 6000: 3 x 32 GB of 96 GB
    assert max(p.framebuffer_gb for p in g4.vgpu.profiles) == 32
    assert max(p.framebuffer_gb for p in g6.vgpu.profiles) == 96
    # MIG-backed names: the 6000's lookups are unchanged by the 4500's entry.
    p6 = {p.name: p for p in g6.mig.profiles}
    assert g6.mig_vgpu_type(p6["1g.24gb"]) == "DC-1-24C"
    assert g6.mig_vgpu_type(p6["2g.48gb"]) == "DC-2-48C"
    assert g6.mig_vgpu_type(p6["4g.96gb"]) == "DC-4-96C"
    assert vgpu_type(g6, SharingMode.MIG, "1g.16gb") is None  # a 4500 profile
    ts4 = {p.name: p for p in g4.vgpu.mig_time_sliced}
    ts6 = {p.name: p for p in g6.vgpu.mig_time_sliced}
    assert ts4["DC-2-16C"].mig_profile == "2g.32gb"
    assert ts6["DC-2-16C"].mig_profile == "2g.48gb"  # same name, the 6000's 48 GB instance
    assert ts6["DC-1-8C"].mig_profile == "1g.24gb" and ts6["DC-1-8C"].max_per_instance == 3


def test_servers_that_hold_it(catalog):
    """Two vendor lists name it: the Supermicro SYS-522GA-NRT datasheet ('GPUs: RTX PRO 4500
    Blackwell Server Edition, RTX PRO 6000 Blackwell Server Edition', as transcribed) and, for
    the Dell XE7745, NVIDIA's own k8s-launch-kit preset 'PowerEdge-XE7745-RTX-PRO-4500'; other
    servers admit it only without a list of their own (judged by form factor, width and TDP)."""
    g = catalog.gpus[GPU]
    named = {s.id for s in catalog.servers.values() if GPU in s.qualified_gpus}
    assert named == {"supermicro-sys-522ga-nrt", "dell-xe7745"}
    assert "PowerEdge-XE7745-RTX-PRO-4500" in catalog.servers["dell-xe7745"].source
    holders = {s.id for s in catalog.servers_for_gpu(g)}
    assert named <= holders
    for sid in holders - named:
        s = catalog.servers[sid]
        assert s.qualified_gpus == [], sid
        assert max_boards(s, g) >= 1, sid
