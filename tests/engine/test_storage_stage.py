"""The data path as a stage of its own: it reads the data answers, the groups, the design's
assumptions, the host's GPUs, NICs, fabric and RDMA, the chosen NIC and storage system and the
model presets, so it is tested from those alone (no design, no sizing: each group's sized
result is the two figures the stage reads of it), each figure by hand and each logged formula
giving its value."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from wizard.engine.basis.expr import evaluate
from wizard.engine.basis.record import Recorder
from wizard.engine.fitout.storage import StorageFacts, plan_storage
from wizard.model.design import Assumptions, DataPlan, Fabric, Rdma
from wizard.model.workloads import ModelChoice, WorkloadGroup

SERVING = WorkloadGroup(
    name="Chat",
    kind="inference",
    model=ModelChoice(preset="llama-3.1-8b"),
    sharing_mode="passthrough",
)
TRAINING = WorkloadGroup(name="Jobs", kind="training", count=2, gpus_per_member=4)


def _plan(catalog, gpu: str = "h100-pcie-80gb", **update):
    base = {
        "data": DataPlan(read_gbs_per_gpu=0.5),
        "groups": (SERVING, TRAINING),
        "assumptions": Assumptions(),
        "gpus_per_host": 4,
        "nics_per_host": 2,
        "fabric": Fabric.GBE_100,
        "rdma": Rdma.ROCE,
        "nic": None,
        "storage": None,
        # only the preset the serving group names: the stage reads no other
        "models": {"llama-3.1-8b": catalog.models["llama-3.1-8b"]},
    }
    facts = StorageFacts(**(base | update))
    sized = [
        SimpleNamespace(sized_from="model", gpus_total=2),
        SimpleNamespace(sized_from="gpus_per_member", gpus_total=8),
    ]
    rec = Recorder()
    result = plan_storage(facts, catalog.gpus[gpu], sized, rec)  # type: ignore[arg-type]
    for c in rec.calculations:
        assert evaluate(c.formula, c.inputs) == pytest.approx(c.value), c.id
    return result, rec


def test_the_groups_needs_come_from_the_facts(catalog):
    """The service keeps one copy of its BF16 weights, parameters x 2 bytes, and reads nothing
    per request; the training group sized by its GPU count reads the stated 0.5 GB/s on each of
    its 8 GPUs, 4 GB/s, and its checkpoints are not known. A host full of its GPUs reads
    0.5 x 4 = 2 GB/s; two 100 GbE NICs carry 2 x 100 / 8 = 25 GB/s."""
    s, _ = _plan(catalog)
    serving, training = s.needs
    assert serving.model_files_gb == pytest.approx(
        catalog.models["llama-3.1-8b"].parameters * 2 / 1e9
    )
    assert (serving.dataset_gb, serving.read_gbs, serving.checkpoints_gb) == (0.0, 0.0, 0.0)
    assert training.read_gbs == pytest.approx(4.0)
    assert training.checkpoints_gb is None and s.checkpoints_not_known == ["Jobs"]
    assert s.read_gbs_per_host_needed == pytest.approx(2.0)
    assert s.host_network_gbs == pytest.approx(25.0)


def test_the_host_figures_follow_the_hosts_facts(catalog):
    """Eight GPUs a host read 0.5 x 8 = 4 GB/s; one 10 GbE NIC carries 1.25 GB/s, less than
    that, and is warned about; with no NIC at all the host network is not known."""
    s, rec = _plan(catalog, gpus_per_host=8, nics_per_host=1, fabric=Fabric.GBE_10)
    assert s.read_gbs_per_host_needed == pytest.approx(4.0)
    assert s.host_network_gbs == pytest.approx(1.25)
    assert "nic-below-storage-need" in {w.code for w in rec.warnings}
    s, rec = _plan(catalog, nics_per_host=0)
    assert s.host_network_gbs is None
    assert "nic-below-storage-need" not in {w.code for w in rec.warnings}


def test_gpudirect_storage_reads_the_rdma_nic_storage_and_groups_from_the_facts(catalog):
    """With no storage system and no NIC chosen both are named as blockers; RoCE is not one.
    Without RDMA that is named too. A vGPU group on an Ampere GPU is a blocker (NVIDIA: no GDS
    with vGPU on Ampere); the same group passed through is not."""
    s, rec = _plan(catalog)
    assert not s.gpudirect_storage
    assert s.gpudirect_storage_blockers == [
        "no storage system is chosen (hardware.storage)",
        "no NIC is chosen (hardware.nic)",
    ]
    assert "storage-not-chosen" in {w.code for w in rec.warnings}
    s, _ = _plan(catalog, rdma=Rdma.NONE)
    assert any(b.startswith("there is no RDMA") for b in s.gpudirect_storage_blockers)
    vgpu = (SERVING.model_copy(update={"sharing_mode": "vgpu"}), TRAINING)
    s, _ = _plan(catalog, gpu="a100-pcie-80gb", groups=vgpu)
    assert any("vGPU on the Ampere" in b for b in s.gpudirect_storage_blockers)
    s, _ = _plan(catalog, gpu="a100-pcie-80gb")
    assert not any("vGPU on the Ampere" in b for b in s.gpudirect_storage_blockers)
