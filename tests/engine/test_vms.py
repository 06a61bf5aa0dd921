"""The VMs a group's GPUs are handed out in: a training member's data-parallel replicas share one
VM per host (GPUs of different VMs cannot talk peer to peer), everything else a VM per replica."""

from types import SimpleNamespace

import pytest

from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict
from wizard.engine.demand.vms import vm_gpus, vm_sizes
from wizard.engine.size import size
from wizard.model.design import SharingMode, WorkloadKind


def _group(kind=WorkloadKind.TRAINING, mode=SharingMode.VGPU):
    return SimpleNamespace(kind=kind, sharing_mode=mode)


def _sizing(gpr=1, replicas=4, members=1, planned_slice=None, share=1.0):
    return SimpleNamespace(
        gpus_per_replica=gpr,
        replicas_per_member=replicas,
        gpus_total=gpr * replicas * members,
        planned_slice=planned_slice,
        planned_compute_share=share,
    )


def test_the_hgx_lora_run_is_one_eight_gpu_vm_with_its_mmio(sized):
    """hgx-h200-llm: LoRA on 8 GPUs (FSDP pairs, rounded up to a partition) of an 8-GPU host is
    one VM of 8 GPUs, an NVSwitch partition, whose 64-bit MMIO is 8 x NVIDIA's 512 GB per H200 =
    4,096 GB; the chat's
    replicas take one GPU each (70 GB of FP8 weights and their FP8 cache fit one 141 GB H200),
    so each VM has one GPU's 512 GB (NVIDIA AI Enterprise 6, MMIO table: 'NVIDIA H200 (all
    variants) 512GB')."""
    r = sized["hgx-h200-llm"]
    mmio = {m.workload: (m.gpus_per_vm, m.mmio_size_gb) for m in r.software.vm_mmio}
    assert mmio["Llama 3.1 70B LoRA fine-tuning"] == (8, 8 * 512)
    assert mmio["Llama 3.3 70B chat service"] == (1, 512)
    assert "hgx-vm-size" not in {w.code for w in r.warnings}
    lora = next(h for h in r.packing.hosts for g in h.gpus for s in g.slots
                if s.workload.startswith("Llama 3.1"))  # fmt: skip
    on_host = [g for g in lora.gpus if any(s.workload.startswith("Llama 3.1") for s in g.slots)]
    assert len(on_host) == 8  # the VM's GPUs sit on one host


def test_a_member_larger_than_a_host_takes_a_vm_per_host(catalog):
    """bert-large-25gbe: 16 one-GPU replicas on 4-GPU hosts: four VMs of 4 GPUs, the ring
    between them over the network as before."""
    d = design_from_dict(design_dict("bert-large-25gbe"))
    r = size(d, catalog)
    g, w = d.workloads[0], r.workloads[0]
    assert (w.gpus_per_replica, w.replicas_per_member) == (1, 16)
    assert vm_gpus(g, w, 4) == 4
    assert vm_sizes(g, w, 4) == [(4, 4)]


def test_a_member_that_does_not_divide_ends_in_a_smaller_vm():
    """12 GPUs of one member on 8-GPU hosts: a VM of 8 and a VM of 4; two such members: 2 of
    each."""
    g = _group()
    assert vm_sizes(g, _sizing(replicas=12), 8) == [(1, 8), (1, 4)]
    assert vm_sizes(g, _sizing(replicas=12, members=2), 8) == [(2, 8), (2, 4)]


@pytest.mark.parametrize(
    ("group", "sizing", "want"),
    [
        (_group(mode=SharingMode.MIG), _sizing(planned_slice="3g.40gb"), 1),  # MIG: no P2P
        (_group(), _sizing(share=0.5), 1),  # a slice of a GPU per replica
        (_group(mode=SharingMode.REMOTE), _sizing(), 1),  # a pool's clients
        (_group(kind=WorkloadKind.INFERENCE), _sizing(gpr=2, replicas=3), 2),  # serving replicas
        (_group(), _sizing(gpr=2, replicas=1), 2),  # one replica: the replica
        (_group(mode=SharingMode.PASSTHROUGH), _sizing(replicas=4), 4),  # whole GPUs, one VM
    ],
)
def test_only_whole_gpu_data_parallel_training_shares_a_vm(group, sizing, want):
    assert vm_gpus(group, sizing, 8) == want


def test_a_vm_on_an_nvswitch_board_is_rounded_up_to_a_partition(catalog):
    """hgx-h200-llm's LoRA run meets its 24 h target on 6 GPUs (three FSDP pairs); a VM there
    holds 1, 2, 4 or 8 GPUs (NVIDIA Fabric Manager User Guide), and divmod(6, 8) = (0, 6) leaves 6
    on the last host, so the plan takes 8 and says so; the VM is a valid partition, no
    hgx-vm-size. Negative case: at a 12 h target it needs 12 GPUs (six pairs: on five, 32
    sequences over 10 copies leave some copy 4 of them, and the step waits for it), divmod(12, 8)
    = (1, 4), and 4 is a partition already: nothing rounded, nothing said."""
    r = size(design_from_dict(design_dict("hgx-h200-llm")), catalog)
    lora = r.workloads[0]
    assert lora.training.gpus_for_target_time == 6
    assert lora.gpus_total == 8
    codes = [w.code for w in r.warnings]
    assert "nvswitch-partition-rounded" in codes and "hgx-vm-size" not in codes
    doc = design_dict("hgx-h200-llm")
    doc["workloads"][0]["training"]["target_hours"] = 12
    r = size(design_from_dict(doc), catalog)
    assert r.workloads[0].gpus_total == r.workloads[0].training.gpus_for_target_time == 12
    assert "nvswitch-partition-rounded" not in {w.code for w in r.warnings}
