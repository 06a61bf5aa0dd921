"""Packing under each sharing mode, the comparison, and the bundled mig-shared example."""

import json

import pytest

from tests.conftest import ROOT, run_cli
from wizard.engine.placement import sharing, vgpu
from wizard.engine.placement.cluster import Demand, hosts_needed
from wizard.engine.placement.mig import Instance, validate_layout
from wizard.engine.size import size
from wizard.model.design import Design, SharingMode

EXAMPLES = sorted((ROOT / "resources" / "examples").glob("*.json"))


def _design(name: str, **changes) -> Design:
    data = json.loads((ROOT / "resources" / "examples" / f"{name}.json").read_text())
    for path, value in changes.items():
        *parents, leaf = path.split(".")
        node = data
        for p in parents:
            node = node[int(p)] if p.isdigit() else node[p]
        node[leaf] = value
    return Design.model_validate(data)


def _mixed(mode: str | None = None) -> Design:
    """The mig-shared workloads without constraints, so every mode may serve them."""
    d = json.loads((ROOT / "resources" / "examples" / "mig-shared.json").read_text())
    for g in d["workloads"]:
        g["constraints"] = {"remote_ok": True}
        if mode:
            g["sharing_mode"] = mode
    return Design.model_validate(d)


def test_mig_shared_example_shows_per_gpu_layouts_in_nvidia_form(tmp_path):
    proc = run_cli("size", str(ROOT / "resources/examples/mig-shared.json"), "--json")
    assert proc.returncode == 0, proc.stderr
    r = json.loads(proc.stdout)["clusters"][0]["result"]  # the estate of one cluster
    layouts = [g["layout"] for h in r["packing"]["hosts"] for g in h["gpus"]]
    # the 8B assistant (8 GB of FP8 weights + 2 GB workspace) cannot run in 0.9 x 10 GB of a
    # 1g.10gb instance; 1g.20gb holds it and meets 150 tokens/s, so it takes 1g.20gb
    assert 8 + 2 > 0.9 * 10
    # counts, not start slices: vSphere places each instance when its VM powers on
    # the BERT fine-tune's 3g.40gb (3 + 1 + 1 of the 7 compute slices, 4 + 2 + 1 of the 8 memory
    # slices) leaves room for one 1g.10gb beside the assistant's 1g.20gb
    assert "3g.40gb + 1g.20gb + 1g.10gb" in layouts
    # 40 users x 1g.10gb at 7 per GPU: one on the mixed GPU, 39 = 5 x 7 + 4
    assert layouts.count("1g.10gb x7") == 5 and layouts.count("1g.10gb x4") == 1
    assert not any("@" in text for text in layouts)
    assert r["cluster"]["gpus_demand"] == 7
    gpu = _catalog().gpus[r["gpu"]]
    for g in (g for h in r["packing"]["hosts"] for g in h["gpus"] if g["mode"] == "mig"):
        placed = [Instance(s["start"], s["profile"]) for s in g["slots"] if s["kind"] == "mig"]
        assert validate_layout(gpu, placed) == [], g["layout"]


def _catalog():
    from wizard.app.catalog_loader import load_catalog

    return load_catalog(include_user=False)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_has_a_sharing_comparison(catalog, path):
    design = Design.model_validate_json(path.read_text())
    r = size(design, catalog)
    modes = [m.mode for m in r.sharing_comparison]
    assert modes == ["as-designed", "passthrough", "vgpu", "mig", "remote"]
    designed = r.sharing_comparison[0]
    assert designed.gpus == r.cluster.gpus_demand == r.packing.gpus_used
    assert designed.hosts_for_capacity == r.cluster.hosts_for_capacity
    assert designed.hosts_total == r.cluster.hosts_total
    gpu = catalog.gpus[r.gpu]
    if not gpu.mig_capable:
        mig_row = r.sharing_comparison[3]
        assert not mig_row.available and "does not support MIG" in mig_row.reason


@pytest.mark.parametrize("mode", ["passthrough", "vgpu", "mig", "remote"])
def test_mixed_design_packs_validly_under_each_mode(catalog, mode):
    """Fine-tuning + inference + 40 data scientists at 10 GB, all in one mode."""
    design = _mixed(mode)
    r = size(design, catalog)
    gpu = catalog.gpus[r.gpu]
    gpus = [g for h in r.packing.hosts for g in h.gpus if g.mode != "free"]
    assert len(gpus) == r.cluster.gpus_demand
    for g in gpus:
        assert 0 < g.utilization <= 1
        assert g.memory_used_gb <= gpu.memory_gb + 1e-6
        if g.mode == "mig":
            placed = [Instance(s.start, s.profile) for s in g.slots if s.kind == "mig"]
            assert validate_layout(gpu, placed) == [], g.layout
        if g.mode == "vgpu":
            profiles = {p.name: p for p in gpu.vgpu.profiles}
            counts: dict[str, int] = {}
            for s in g.slots:
                counts[s.profile] = counts.get(s.profile, 0) + 1
            assert len(counts) == 1  # equal-size mode: one profile per physical GPU
            ((name, n),) = counts.items()
            assert n <= profiles[name].max_per_gpu
    users = sum(s.workload == "Data scientists" for g in gpus for s in g.slots)
    assert users == 40
    expected = {"passthrough": 42, "vgpu": 7, "mig": 7, "remote": 6}[mode]
    assert r.cluster.gpus_demand == expected
    assert r.packing.mean_utilization == pytest.approx(sum(g.utilization for g in gpus) / len(gpus))


def test_sharing_raises_utilization_over_whole_gpus(catalog):
    rows = {m.mode: m for m in size(_mixed(), catalog).sharing_comparison}
    assert rows["passthrough"].mean_utilization < 0.3  # the seeds' siloed GPUs
    for mode in ("vgpu", "mig", "remote"):
        assert rows[mode].available
        assert rows[mode].mean_utilization > 2 * rows["passthrough"].mean_utilization
        assert rows[mode].gpus < rows["passthrough"].gpus


def test_vgpu_equal_size_versus_mixed_size(catalog):
    """One 40C and two 20C vGPUs: two GPUs in equal-size mode, one in mixed-size mode (40 + 20
    + 20 = 80 GB), within the catalog's mixed-size maxima."""
    gpu = catalog.gpus["a100-pcie-80gb"]
    p40 = vgpu.choose_profile(gpu, 40)
    p20 = vgpu.choose_profile(gpu, 20)
    assert (p40.framebuffer_gb, p20.framebuffer_gb) == (40, 20)
    for mixed, expected in ((False, 2), (True, 1)):
        gpus: list[vgpu.VgpuState] = []
        for p in (p40, p20, p20):
            for i, st in enumerate(gpus):
                nxt = st.place(gpu, p, 0.1, mixed)
                if nxt is not None:
                    gpus[i] = nxt
                    break
            else:
                gpus.append(vgpu.VgpuState().place(gpu, p, 0.1, mixed))
        assert len(gpus) == expected
    # equal-size maximum: A100D-20C at most 4 per GPU; a fifth needs another GPU
    st = vgpu.VgpuState()
    for _ in range(p20.max_per_gpu):
        st = st.place(gpu, p20, 0.0, False)
    assert st.place(gpu, p20, 0.0, False) is None


def test_mixed_sizes_in_a_design(catalog):
    d = _mixed("vgpu")
    equal = size(d, catalog).cluster.gpus_demand
    mixed = size(d.model_copy(update={"hardware": d.hardware.model_copy(
        update={"vgpu_mixed_sizes": True})}), catalog)  # fmt: skip
    assert mixed.cluster.gpus_demand <= equal
    layouts = [g.layout for h in mixed.packing.hosts for g in h.gpus]
    assert any(" + " in layout for layout in layouts)  # two sizes share a GPU


def test_passthrough_ha_keeps_whole_gpus_for_restart(catalog):
    d = _design("bert-large-25gbe", **{"ha.level": "n+1"})
    r = size(d, catalog)
    assert r.cluster.hosts_for_ha == 1
    assert r.cluster.gpus_after_failures >= r.cluster.gpus_demand
    row = next(m for m in r.sharing_comparison if m.mode == "passthrough")
    assert row.live_migration.startswith("No")
    assert "restart" in row.ha_behaviour
    off = size(_design("bert-large-25gbe", **{"ha.passthrough_spares": False}), catalog)
    assert "passthrough-no-restart-spares" in {w.code for w in off.warnings}


def test_constraints_mark_modes_unavailable(catalog):
    r = size(_design("mig-shared"), catalog)
    rows = {m.mode: m for m in r.sharing_comparison}
    assert rows["mig"].available and rows["passthrough"].available
    assert not rows["vgpu"].available
    assert "performance isolation required" in rows["vgpu"].reason
    # Time-sliced vGPU isolates memory and faults (own framebuffer per VM); what it does not
    # isolate is performance. MIG isolates all three in hardware.
    assert rows["vgpu"].isolation.startswith("Memory and faults: isolated")
    assert "Performance: not isolated" in rows["vgpu"].isolation
    assert "performance: isolated in hardware" in rows["mig"].isolation
    assert "remote GPUs not accepted" in rows["remote"].reason
    # on a server without an NVSwitch board the group's own constraint is the reason
    live = size(_design("enterprise"), catalog)
    assert {m.mode: m for m in live.sharing_comparison}["passthrough"].reason == (
        "High-performance researchers: live migration required"
    )


def test_remote_pool_states_end_of_availability_and_checks_network(catalog):
    r = size(_design("starter"), catalog)
    remote = next(m for m in r.sharing_comparison if m.mode == "remote")
    assert any("ended the availability" in c for c in remote.caveats)
    codes = {w.code for w in r.warnings}
    assert "bitfusion-end-of-availability" in codes
    assert "remote-without-rdma" in codes
    # 2 T4 per host over one 10 GbE link: 2 x 10 Gb/s needed, 10 available
    assert "remote-network-bandwidth" in codes
    calc = next(c for c in r.calculations if c.id == "sharing.remote_gbps_per_host")
    assert calc.value == 20
    fast = size(_design("starter", **{"hardware.fabric": "25gbe"}), catalog)
    assert "remote-network-bandwidth" not in {w.code for w in fast.warnings}


def test_host_placement_matches_the_host_count_rule():
    """Explicit placement uses as many hosts as the counting rule, replicas kept whole."""
    from wizard.engine.placement.packing import Unit, place_on_hosts

    for gph, sizes in [
        (4, [4, 4, 4, 2, 2, 1, 1, 1]),
        (8, [3, 3, 3, 2, 1]),
        (2, [1] * 7),
        (8, [10]),
    ]:
        units = [Unit([f"r{i}"] * s) for i, s in enumerate(sizes)]
        hosts = place_on_hosts(units, gph)
        demands = [Demand(s, 1) for s in sizes]
        assert len(hosts) == hosts_needed(demands, gph)
        for i, s in enumerate(sizes):
            if s <= gph:  # a replica that fits one host is never split
                assert sum(1 for h in hosts if f"r{i}" in h) == 1


def test_ten_thousand_users_pack_seven_to_a_gpu(catalog):
    """10,000 users of 1g.10gb instances: three share the GPU of the fine-tune (2g.20gb) and
    the assistant (1g.20gb); the other 9,997 fill H100s seven at a time, ceil(9,997 / 7) = 1,429
    GPUs. (Its speed is measured by benchmarks/run.py.)"""
    d = _mixed("mig")
    d.workloads[2].count = 10_000
    d = Design.model_validate(d.model_dump())
    r = size(d, catalog)
    assert -(-9_997 // 7) == 1_429
    assert r.cluster.gpus_demand == 1 + 1_429


def test_needs_read_compute_share_from_targets(catalog):
    """The BERT-Large fine-tune keeping every activation needs 30.9 GB (a 3g.40gb); with full
    recomputation it needs 15.6 GB, which the 2g.20gb instance holds, but timed on its 2 of 7
    compute slices it misses the 24 h target (31 h), so the smallest slice that meets the target
    is the 3g.40gb and the packing places exactly that instance. Negative case: at a 36 h target
    the 2g.20gb with full recomputation meets it and wins."""
    r = size(_design("mig-shared"), catalog)
    ft = r.workloads[0]
    assert ft.planned_slice == "3g.40gb" and ft.sharing.slot_profile == "3g.40gb"
    assert ft.layout.recompute == "none" and 20 < ft.memory_gb.total < 40
    assert ft.planned_compute_share == pytest.approx(3 / 7)
    assert ft.training.time_to_train_hours < 24
    d = _design("mig-shared")
    need = sharing.needs(d.workloads, d.hardware.gpus_per_host, catalog.gpus[r.gpu], r.workloads)[0]
    assert need.compute == pytest.approx(3 / 7)
    d = _design("mig-shared").model_dump(mode="json")
    d["workloads"][0]["training"]["target_hours"] = 36
    w = size(Design.model_validate(d), catalog).workloads[0]
    assert w.planned_slice == "2g.20gb" and w.layout.recompute == "full"
    assert w.memory_gb.total < 20 and 24 < w.training.time_to_train_hours <= 36


def test_mode_problems_for_hardware(catalog):
    d = _design("starter")
    assert sharing.mode_problems(SharingMode.MIG, d.workloads, catalog.gpus["t4"]) == [
        "the NVIDIA T4 does not support MIG"
    ]


def test_an_nvswitch_board_offers_time_sliced_vgpu_only(catalog):
    """NVIDIA AI Enterprise 8.0, 'NVIDIA NVSwitch': only time-sliced vGPUs are supported, and
    GPU passthrough is not supported on systems that include NVSwitch under vSphere. The HGX
    H200 design's comparison of modes says so for passthrough and MIG-backed vGPU, and keeps
    time-sliced vGPU; PCIe H100s (mig-shared, Dell R760xa) leave both available."""
    r = size(_design("hgx-h200-llm"), catalog)
    rows = {m.mode: m for m in r.sharing_comparison}
    for mode, name in (("passthrough", "GPU passthrough"), ("mig", "MIG-backed vGPU")):
        assert not rows[mode].available
        assert "NVSwitch board" in rows[mode].reason and name in rows[mode].reason
    assert rows["vgpu"].available
    pcie = size(_design("mig-shared"), catalog)
    modes = {m.mode: m for m in pcie.sharing_comparison}
    assert modes["passthrough"].available and modes["mig"].available


def test_a_group_named_like_a_gpu_reason_is_still_a_group_reason(catalog):
    """Hardware reasons are told apart by where they come from, not by their wording: a group
    called "the lab" that refuses remote GPUs leaves the remote row sized (GPUs counted), only
    marked unavailable, as for any other group name."""
    d = _design("mig-shared", **{"workloads.0.name": "the lab"})  # remote_ok is off
    r = size(d, catalog)
    (remote,) = [m for m in r.sharing_comparison if m.mode == "remote"]
    assert not remote.available
    assert remote.reason.startswith("the lab: ")
    assert remote.gpus > 0


def test_planning_for_active_users_says_idle_vms_must_be_off(catalog):
    """40 data scientists on MIG at 50 % active: 20 instances planned, which holds only if the
    other 20 VMs are powered off, since a VM keeps its vGPU while it runs. At 100 %: no note;
    on a network-attached pool (no vGPU in the VM): no note."""
    half = _design("mig-shared", **{"workloads.2.shared.concurrency": 0.5})
    r = size(half, catalog)
    notes = [w for w in r.warnings if w.code == "idle-vms-hold-their-vgpu"]
    assert len(notes) == 1 and "Data scientists" in notes[0].message
    assert r.workloads[2].gpus_total == 20
    full = size(_design("mig-shared"), catalog)
    assert "idle-vms-hold-their-vgpu" not in {w.code for w in full.warnings}
    pool = size(
        _design(
            "mig-shared",
            **{
                "workloads.2.shared.concurrency": 0.5,
                "workloads.2.sharing_mode": "remote",
                "workloads.2.constraints": {"remote_ok": True},
            },
        ),
        catalog,
    )
    assert "idle-vms-hold-their-vgpu" not in {w.code for w in pool.warnings}
