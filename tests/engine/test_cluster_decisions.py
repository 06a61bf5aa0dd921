"""The cluster's decisions as a stage of their own, from their facts alone: the HA hosts' reason
names the policy as the design states it, the vGPU, passthrough and pool decisions follow the
groups' modes, and the pool's warning counts the pooled groups' GPUs."""

from __future__ import annotations

from types import SimpleNamespace

from wizard.engine.basis.record import Recorder
from wizard.engine.placement.cluster import PlatformFloor
from wizard.engine.size import DecisionFacts, _decisions
from wizard.model.design import HaLevel, HaPolicy, SharingMode
from wizard.model.result import Cluster


def _cluster(**update) -> Cluster:
    base = {"gpus_demand": 12, "gpus_per_host": 4, "hosts_for_capacity": 3, "hosts_for_ha": 1,
            "hosts_for_maintenance": 0, "hosts_for_platform": 0, "hosts_total": 4,
            "hosts_existing": 0, "gpus_total": 16, "host_failures_tolerated": 1,
            "gpus_after_failures": 12, "gpus_after_failures_and_maintenance": 8,
            "capacity_after_failures_ok": True}  # fmt: skip
    return Cluster(**(base | update))


def _run(ha: HaPolicy, modes) -> Recorder:
    rec = Recorder()
    facts = DecisionFacts("NVIDIA L40S", ha, tuple(modes), PlatformFloor(vcf=False, vsan=False))
    pooled = [SimpleNamespace(name=n, gpus_total=5, gpus_per_replica=1, layout=None)
              for n, m in modes if m is SharingMode.REMOTE]  # fmt: skip
    _decisions(facts, pooled, _cluster(), rec)  # type: ignore[arg-type]
    return rec


def test_the_ha_reason_names_the_policy_as_stated():
    """A 25 % reserve is named as such; N+1 by its level."""
    percent = _run(HaPolicy(level=HaLevel.PERCENT, reserve_percent=25), [])
    assert any("1 for high availability (25 % reserve)" in d.text for d in percent.decisions)
    n1 = _run(HaPolicy(level=HaLevel.N1), [])
    assert any("1 for high availability (N+1)" in d.text for d in n1.decisions)


def test_the_modes_decide_the_decisions_and_the_pool_counts_its_gpus():
    """A vGPU group and a pooled group: the vGPU and pool decisions, none for passthrough; the
    pool's warning: 5 of the 12 GPUs the workloads need are reached through the pool."""
    rec = _run(HaPolicy(), [("a", SharingMode.VGPU), ("p", SharingMode.REMOTE)])
    said = " ".join(d.text for d in rec.decisions)
    assert "NVIDIA vGPU" in said and "GPU pool" in said and "DirectPath" not in said
    (warning,) = [w for w in rec.warnings if w.code == "bitfusion-end-of-availability"]
    assert warning.message.startswith("5 of the 12 GPUs the workloads need")
