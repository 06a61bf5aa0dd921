"""Placement rules pinned at their edges: a host part-filled by a smaller replica keeps only its
real free GPUs, a MIG-backed vGPU GPU is told apart from one partitioned in the guest, mixed-size
vGPU is offered only where NVIDIA prints mixed-size maxima, a MIG profile holds a need equal to
its memory, and a network-attached pool charges each replica its share of the target."""

from __future__ import annotations

import json

import pytest

from tests.conftest import ROOT
from wizard.engine.placement import mig, sharing, vgpu
from wizard.engine.placement.cluster import Demand, ha_hosts, hosts_needed
from wizard.engine.size import size
from wizard.model.design import Design, HaLevel, HaPolicy, SharingMode


def _design(name: str) -> dict:
    return json.loads((ROOT / "resources" / "examples" / f"{name}.json").read_text())


# ----------------------------------------------------------------- hosts for whole-GPU replicas


def test_a_part_filled_host_keeps_only_its_real_free_gpus():
    """8 GPUs per host. A 4-GPU replica opens host A (4 free); a 2-GPU replica goes into A
    (2 free); four 1-GPU replicas: two fill A, two open host B. 4 + 2 + 4 x 1 = 10 GPUs, more than
    one host's 8, so 2 hosts; a placement that counted host A's 2 free GPUs twice would fit all
    four 1-GPU replicas into A and say 1."""
    assert hosts_needed([Demand(4, 1), Demand(2, 1), Demand(1, 4)], 8) == 2


def test_a_part_filled_host_takes_exactly_what_it_has_free():
    """Negative case of the one above: with two 1-GPU replicas it is 4 + 2 + 2 = 8 GPUs, one host
    filled exactly, so 1 host; with three, 9 GPUs, 2 hosts."""
    assert hosts_needed([Demand(4, 1), Demand(2, 1), Demand(1, 2)], 8) == 1
    assert hosts_needed([Demand(4, 1), Demand(2, 1), Demand(1, 3)], 8) == 2


# ----------------------------------------------------------------- a GPU's mode in the listing


def _gpu_modes(doc: dict, catalog) -> set[str]:
    r = size(Design.model_validate(doc), catalog)
    return {g.mode for h in r.packing.hosts for g in h.gpus if g.mode != "free"}


def test_mig_backed_vgpu_gpus_are_listed_as_mig(catalog):
    """The mig-shared example runs MIG-backed vGPU: vSphere places the instances (NVIDIA AI
    Enterprise, 'MIG-backed vGPU'), so every used GPU is a MIG GPU, none partitioned in the
    guest; the power-on order check reads exactly these GPUs."""
    assert _gpu_modes(_design("mig-shared"), catalog) == {"mig"}


def test_mig_in_the_guest_gpus_are_listed_as_mig_guest(catalog):
    """Negative case: the same groups with MIG in the guest (the GPU passed through and
    partitioned by the VM's driver) are listed as such, not as vSphere's MIG."""
    doc = _design("mig-shared")
    for g in doc["workloads"]:
        g["sharing_mode"] = "mig-guest"
    assert _gpu_modes(doc, catalog) == {"mig-guest"}


def test_time_sliced_vgpu_gpus_are_listed_as_vgpu(catalog):
    """Negative case: groups on time-sliced vGPU are vGPU GPUs, never MIG ones."""
    doc = _design("mig-shared")
    for g in doc["workloads"]:
        g["sharing_mode"] = "vgpu"
        g["constraints"] = {}  # time slicing gives no performance isolation
    assert _gpu_modes(doc, catalog) == {"vgpu"}


# ----------------------------------------------------------------- mixed-size vGPU


def test_mixed_size_vgpu_only_where_nvidia_prints_mixed_size_maxima(catalog):
    """NVIDIA AI Enterprise, 'Virtual GPU Types for Supported GPUs': the A10 and A30 tables have
    a 'Maximum vGPUs per GPU in Mixed-Size Mode' column (e.g. A10-8C: 3 equal-size, 2 mixed);
    Volta and Turing do not support mixed-size mode (the V100 and T4 catalog entries cite it), so
    a V100 or T4 holds one vGPU size; a GPU without vGPU (the H100 SXM5 has it, the catalog's
    no-vGPU copy does not) has no mixed mode either."""
    assert vgpu.mixed_supported(catalog.gpus["a10"])
    assert vgpu.mixed_supported(catalog.gpus["a30"])
    assert catalog.gpus["t4"].vgpu is not None and not vgpu.mixed_supported(catalog.gpus["t4"])
    v100 = catalog.gpus["v100-pcie-32gb"]
    assert v100.vgpu is not None and not vgpu.mixed_supported(v100)
    bare = catalog.gpus["h100-sxm5-80gb"].model_copy(update={"vgpu": None})
    assert not vgpu.mixed_supported(bare)


# ----------------------------------------------------------------- MIG profile at its memory


def test_a_mig_profile_holds_a_need_equal_to_its_memory(catalog):
    """NVIDIA MIG User Guide, 'Supported MIG Profiles' (H100 80GB): 1g.10gb holds 10 GB (the
    catalog's memory_gb), 1g.20gb 20 GB. A member needing exactly 10 GB, or 10 GB plus float
    noise from summing its parts, takes the 1g.10gb; one needing 10.1 GB takes the next larger
    memory size, the 1g.20gb."""
    gpu = catalog.gpus["h100-pcie-80gb"]
    assert mig.choose_profile(gpu, 10.0, 0.0).name == "1g.10gb"
    assert mig.choose_profile(gpu, 10.0 + 1e-9, 0.0).name == "1g.10gb"
    assert mig.choose_profile(gpu, 10.1, 0.0).name == "1g.20gb"


# ----------------------------------------------------------------- a network-attached GPU pool


def _remote_assistant(target_tokens_per_s: float) -> dict:
    doc = _design("mig-shared")
    g = doc["workloads"][1]  # the Llama 3 8B assistant, one member
    g["sharing_mode"] = "remote"
    g["constraints"] = {"remote_ok": True}
    g["inference"]["target_tokens_per_s"] = target_tokens_per_s
    doc["workloads"] = [g]
    return doc


@pytest.mark.parametrize("target", [150, 2000])
def test_a_pooled_replica_takes_its_share_of_the_target(catalog, target):
    """A remote GPU pool shares a GPU by the throughput a replica must carry. At 150 tokens/s
    one replica carries it all: 150 / (its tokens/s) of a GPU. At 2,000 tokens/s the member
    needs two replicas, each carrying 2,000 / 2 = 1,000 tokens/s: 1,000 / (tokens/s per replica)
    of a GPU each, under a whole GPU (not the whole target charged to each replica)."""
    d = Design.model_validate(_remote_assistant(target))
    r = size(d, catalog)
    w = r.workloads[0]
    assert w.serving is not None
    replicas = 1 if target == 150 else 2
    assert w.replicas_per_member == replicas
    tps = w.serving.tokens_per_s_per_replica
    assert target / replicas < tps  # each replica can carry its part
    (need,) = sharing.needs(d.workloads, d.hardware.gpus_per_host, catalog.gpus[r.gpu], r.workloads)
    assert need.count == replicas
    assert need.compute == pytest.approx((target / replicas) / tps)
    assert need.compute < 1


# ----------------------------------------------------------------- utilization of no GPUs


@pytest.mark.parametrize("detail", [True, False])
def test_no_gpus_used_means_no_utilization(catalog, detail):
    """Mean utilization is busy GPU-equivalents over GPUs used. With nothing to place no GPU is
    used and none is busy: 0 %, not a full 100 %, in the per-GPU listing and in the comparison's
    counted rows alike. Negative case: one 1-GPU member with a need of half a GPU on its own
    passthrough GPU: 0.5 busy / 1 used = 50 %."""
    rules = sharing.PackRules(gpus_per_host=4)
    gpu = catalog.gpus["h100-pcie-80gb"]
    mode = SharingMode.PASSTHROUGH
    empty = sharing.pack(rules, gpu, [], {}, detail=detail)
    assert (empty.gpus, empty.packing.mean_utilization) == (0, 0.0)
    half = sharing.Need("Half", 1, 1, 40.0, 0.5, 0.5)
    one = sharing.pack(rules, gpu, [half], {"Half": mode}, detail=detail)
    assert (one.gpus, one.packing.mean_utilization) == (1, pytest.approx(0.5))


def test_a_demand_of_no_replicas_or_no_gpus_adds_no_host():
    """A demand with no replicas (or fewer than none) or replicas of no GPUs asks nothing: two
    8-GPU replicas on 8-GPU hosts take 2 hosts, whatever empty demands stand beside them, never
    fewer (a negative count must not cancel hosts)."""
    assert hosts_needed([Demand(8, 2)], 8) == 2
    assert hosts_needed([Demand(8, 2), Demand(16, -1)], 8) == 2
    assert hosts_needed([Demand(8, 2), Demand(-8, 1)], 8) == 2
    assert hosts_needed([Demand(8, 2), Demand(3, 0), Demand(0, 3)], 8) == 2


def test_a_pooled_member_needing_a_whole_gpu_takes_it_whole(catalog):
    """The starter example's 14 users each need one whole T4 from the network-attached pool:
    a need of exactly one GPU is served as a whole GPU (14 'whole GPU' entries), not as a share
    of one. Negative case: six users at half a GPU each (gpu_fraction 0.5) are shares, two to a
    GPU: 6 / 2 = 3 GPUs of 2 shares, beside the 8 whole GPUs of the data scientists."""
    doc = _design("starter")
    r = size(Design.model_validate(doc), catalog)
    layouts = [g.layout for h in r.packing.hosts for g in h.gpus if g.mode != "free"]
    assert layouts == ["remote pool: whole GPU"] * 14
    doc["workloads"][1]["shared"] = {"gpu_fraction": 0.5}
    doc["workloads"][1].pop("gpus_per_member")
    r = size(Design.model_validate(doc), catalog)
    layouts = [g.layout for h in r.packing.hosts for g in h.gpus if g.mode != "free"]
    assert layouts.count("remote pool: whole GPU") == 8
    assert sum(t.startswith("remote pool: 2 shares") for t in layouts) == 3
    assert len(layouts) == 8 + 3


@pytest.mark.parametrize(
    ("percent", "capacity", "reserve"),
    [(30, 26, 12), (50, 51, 51), (25, 9, 3)],
)
def test_a_percentage_reserve_is_that_share_of_the_whole_cluster(percent, capacity, reserve):
    """A reserve of p % keeps p % of the whole cluster (capacity + reserve) free, with the
    fewest hosts that do. 30 % of 26: 12 / 38 = 31.6 % holds, 11 / 37 = 29.7 % does not, so 12.
    50 % of 51: 51 / 102 = 50 %, 50 / 101 under it, so 51. 25 % of 9: 3 / 12 = 25 % exactly,
    so 3 (negative case: not 4)."""
    policy = HaPolicy(level=HaLevel.PERCENT, reserve_percent=percent)
    got = ha_hosts(policy, capacity).ha_hosts
    assert got == reserve
    assert got / (capacity + got) >= percent / 100 > (got - 1) / (capacity + got - 1)


def test_a_full_framebuffer_vgpu_takes_its_gpu_alone(catalog):
    """NVIDIA AI Enterprise, H100 PCIe 80GB C-series types: H100-80C (80 GB, 1 per GPU) and
    H100-40C (40 GB, 2 per GPU). A one-GPU member needing 60 GB gets the H100-80C, the whole
    frame buffer: its slot takes the GPU alone, like a member of two GPUs (full-framebuffer
    types per GPU). Negative case: a member needing 30 GB gets the H100-40C, half a GPU, a slot
    another vGPU may join."""
    gpu = catalog.gpus["h100-pcie-80gb"]
    big = sharing.slot_for(SharingMode.VGPU, sharing.Need("Big", 1, 1, 60.0, 0.5, 0.75), gpu)
    assert (big.profile, big.share, big.whole) == ("H100-80C", 1.0, True)
    two = sharing.slot_for(SharingMode.VGPU, sharing.Need("Two", 1, 2, 60.0, 1.0, 1.0), gpu)
    assert (two.profile, two.whole) == ("H100-80C", True)
    half = sharing.slot_for(SharingMode.VGPU, sharing.Need("Half", 1, 1, 30.0, 0.2, 0.375), gpu)
    assert (half.profile, half.share, half.whole) == ("H100-40C", 0.5, False)
