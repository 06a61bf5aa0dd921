"""The placement room's stages from their own inputs: packing reads only its rules (GPUs per
host, mixed vGPU sizes, MIG time slices), the sharing-mode comparison only the rules, the HA
policy, the platform's floor and the groups, and the sharing checks only the groups, the
rules, the passthrough spares and the fabric. Each input is built here by hand, with no design
and no sizing; each figure is worked out in the test."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from wizard.engine.basis.expr import evaluate
from wizard.engine.basis.record import Recorder
from wizard.engine.placement import sharing
from wizard.engine.placement.cluster import PlatformFloor
from wizard.engine.placement.sharing import ModeFacts, Need, PackRules
from wizard.engine.placement.sharing_checks import SharingFacts, sharing_checks
from wizard.model.design import Fabric, HaLevel, HaPolicy, Rdma, SharingMode
from wizard.model.workloads import Constraints, WorkloadGroup

WHOLE = SharingMode.PASSTHROUGH
NO_FLOOR = PlatformFloor(vcf=False, vsan=False)


def _group(name: str, mode: SharingMode, **constraints: bool) -> WorkloadGroup:
    return WorkloadGroup(
        name=name,
        kind="inference",
        gpus_per_member=1,
        sharing_mode=mode,
        constraints=Constraints(**constraints),
    )


@pytest.mark.parametrize("detail", [True, False])
@pytest.mark.parametrize(
    ("gph", "members", "gpus", "hosts"),
    [
        (4, 6, 1, 2),  # 6 single GPUs on hosts of 4: ceil(6 / 4) = 2
        (8, 6, 1, 1),  # on hosts of 8: 1
        (4, 3, 3, 3),  # 3 replicas of 3 GPUs, one per host of 4 (a replica stays whole): 3
        (8, 3, 3, 2),  # two per host of 8 (6 of 8 GPUs), the third on a second host: 2
    ],
)
def test_packing_reads_the_gpus_per_host_from_its_rules(catalog, detail, gph, members, gpus, hosts):
    """Whole GPUs by passthrough: the GPUs are members x GPUs each; the hosts follow the rules'
    GPUs per host alone, in the per-GPU listing and in the comparison's counted form."""
    gpu = catalog.gpus["h100-pcie-80gb"]
    need = Need("A", members, gpus, 80.0, 1.0, 1.0)
    mp = sharing.pack(PackRules(gph), gpu, [need], {"A": WHOLE}, detail=detail)
    assert (mp.gpus, mp.hosts) == (members * gpus, hosts)


def test_mig_time_slices_come_only_with_the_rule(catalog):
    """Six members of 7 GB and 2 % of a GPU each, under MIG-backed vGPU, on an RTX PRO 6000
    Blackwell Server Edition (four 1g.24gb instances, a quarter of the GPU each). Without time
    slices each member takes an instance: 6 instances, 4 to a GPU, 2 GPUs. With them the
    DC-1-8C type (8 GB, three to a 1g.24gb instance: 3 x 0.02 of compute within 0.25) costs a
    member 0.25 / 3 of a GPU, less than any other type that holds 7 GB: ceil(6 / 3) = 2
    instances, 1 GPU, a share of 2 x 0.25 = 0.5 GPU."""
    gpu = catalog.gpus["rtx-pro-6000-bse"]
    need = Need("Dev", 6, 1, 7.0, 0.02, 0.02)
    mode = {"Dev": SharingMode.MIG}
    own = sharing.pack(PackRules(4), gpu, [need], mode)
    assert (own.gpus, own.profile_by_workload["Dev"]) == (2, "1g.24gb")
    assert "Dev" not in own.type_by_workload
    sliced = sharing.pack(PackRules(4, mig_time_slicing=True), gpu, [need], mode)
    assert (sliced.gpus, sliced.type_by_workload["Dev"]) == (1, "DC-1-8C")
    assert sliced.share_by_workload["Dev"] == pytest.approx(0.5)


def _comparison(catalog, facts: ModeFacts, need: Need):
    gpu = catalog.gpus["h100-pcie-80gb"]
    mode_of = {g.name: g.sharing_mode for g in facts.groups}
    chosen = sharing.pack(facts.rules, gpu, [need], mode_of)
    return {r.mode: r for r in sharing.compare(facts, gpu, [need], chosen)}


def test_the_comparison_counts_hosts_from_its_ha_and_floor(catalog):
    """Six whole GPUs. On hosts of 4: 2 for capacity + 1 for N+1 = 3, the vSAN VCF floor of 3
    already. On hosts of 8: 1 + 1 = 2, raised by one to the floor's 3; without VCF, 2. N+0 on
    hosts of 4 without VCF: 2."""
    need = Need("A", 6, 1, 80.0, 1.0, 1.0)
    groups = (_group("A", WHOLE),)
    vsan = PlatformFloor(vcf=True, vsan=True)
    n1, n0 = HaPolicy(level=HaLevel.N1), HaPolicy(level=HaLevel.N0)

    def hosts(gph, ha, floor):
        return _comparison(catalog, ModeFacts(PackRules(gph), ha, floor, groups), need)[
            "as-designed"
        ].hosts_total

    assert hosts(4, n1, vsan) == 3
    assert hosts(8, n1, vsan) == 3
    assert hosts(8, n1, NO_FLOOR) == 2
    assert hosts(4, n0, NO_FLOOR) == 2


def test_the_groups_constraints_rule_modes_out_by_name(catalog):
    """A group that needs performance isolation rules out time-sliced vGPU and the pool; one
    that needs live migration rules out passthrough; MIG stays open to both. Negative case: the
    same groups without constraints leave every mode the GPU offers open."""
    need = Need("Chat", 2, 1, 20.0, 0.3, 0.3)
    bound = (
        _group("Chat", SharingMode.MIG, isolation_required=True),
        _group("Notebooks", SharingMode.MIG, live_migration_required=True),
    )
    facts = ModeFacts(PackRules(4), HaPolicy(), NO_FLOOR, bound)
    rows = _comparison(catalog, facts, need)
    assert rows["vgpu"].reason == "Chat: performance isolation required"
    assert rows["remote"].reason == (
        "Chat: performance isolation required and remote GPUs not accepted; "
        "Notebooks: remote GPUs not accepted"
    )
    assert rows["passthrough"].reason == "Notebooks: live migration required"
    assert rows["mig"].available
    free = tuple(_group(n, SharingMode.MIG, remote_ok=True) for n in ("Chat", "Notebooks"))
    facts = ModeFacts(PackRules(4), HaPolicy(), NO_FLOOR, free)
    rows = _comparison(catalog, facts, need)
    assert all(rows[m].available for m in ("vgpu", "remote", "passthrough", "mig"))


def _checks(catalog, facts: SharingFacts, need: Need) -> Recorder:
    gpu = catalog.gpus["h100-pcie-80gb"]
    mode_of = {g.name: g.sharing_mode for g in facts.groups}
    chosen = sharing.pack(facts.rules, gpu, [need], mode_of)
    rec = Recorder()
    # the groups' sized results matter only to the profile and idle-VM decisions, not here
    unsized = [SimpleNamespace(gpus_total=0) for _ in facts.groups]
    rows = sharing.compare(
        ModeFacts(facts.rules, HaPolicy(), NO_FLOOR, facts.groups), gpu, [need], chosen
    )
    sharing_checks(facts, gpu, unsized, chosen, rows, rec)  # type: ignore[arg-type]
    for calc in rec.calculations:
        assert evaluate(calc.formula, calc.inputs) == pytest.approx(calc.value), calc.id
    return rec


def _facts(mode: SharingMode, **update) -> SharingFacts:
    base = {
        "groups": (_group("A", mode, remote_ok=mode is SharingMode.REMOTE),),
        "rules": PackRules(4),
        "passthrough_spares": False,
        "fabric": Fabric.GBE_25,
        "nics_per_host": 1,
        "rdma": Rdma.ROCE,
    }
    return SharingFacts(**(base | update))


def test_passthrough_without_restart_spares_is_warned_only_without_them(catalog):
    need = Need("A", 2, 1, 80.0, 1.0, 1.0)
    codes = {w.code for w in _checks(catalog, _facts(WHOLE), need).warnings}
    assert "passthrough-no-restart-spares" in codes
    spares = _checks(catalog, _facts(WHOLE, passthrough_spares=True), need)
    assert "passthrough-no-restart-spares" not in {w.code for w in spares.warnings}


def test_a_pool_host_needs_10_gbps_per_gpu_equivalent_it_serves(catalog):
    """Four pooled members of half a GPU each, two to a GPU, on one host of 4: the host serves
    4 x 0.5 = 2 GPU-equivalents, 2 x 10 = 20 Gb/s. One 25 GbE port holds it; one 10 GbE port
    does not, two do (20 Gb/s). Without RDMA the pool's latency is also warned about."""
    need = Need("A", 4, 1, 20.0, 0.5, 0.5)
    pool = SharingMode.REMOTE

    def warned(**update) -> set[str]:
        rec = _checks(catalog, _facts(pool, **update), need)
        (calc,) = [c for c in rec.calculations if c.id == "sharing.remote_gbps_per_host"]
        assert calc.value == pytest.approx(20.0)
        return {w.code for w in rec.warnings}

    assert "remote-network-bandwidth" not in warned()
    assert "remote-network-bandwidth" in warned(fabric=Fabric.GBE_10)
    assert "remote-network-bandwidth" not in warned(fabric=Fabric.GBE_10, nics_per_host=2)
    assert "remote-without-rdma" not in warned()
    assert "remote-without-rdma" in warned(rdma=Rdma.NONE)
