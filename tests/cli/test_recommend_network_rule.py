"""Recommend's network rule: GPU traffic crosses hosts when one replica is larger than a host,
or when a training group's data-parallel replicas together need more GPUs than a host holds;
then RoCE v2 at 200 GbE for a PCIe Gen 5 (or later) GPU, 100 GbE before; else 25 GbE.

The design, sizing and GPU are stand-ins holding only the fields the rule reads, so each case
sits exactly at, below or above a boundary."""

from __future__ import annotations

from types import SimpleNamespace

from wizard.app.recommend import recommend_network
from wizard.model.design import Fabric, Rdma
from wizard.model.workloads import SharingMode

GPUS_PER_HOST = 8


def _network(per_replica: int, replicas: int, training: bool = True, pcie_gen: int = 5):
    design = SimpleNamespace(
        workloads=[SimpleNamespace(sharing_mode=SharingMode.VGPU)],
        hardware=SimpleNamespace(gpus_per_host=GPUS_PER_HOST),
    )
    group = SimpleNamespace(
        gpus_total=per_replica * replicas,
        gpus_per_replica=per_replica,
        replicas_per_member=replicas,
        training=object() if training else None,
    )
    result = SimpleNamespace(workloads=[group])
    fabric, rdma, _ = recommend_network(design, result, SimpleNamespace(pcie_gen=pcie_gen))
    return fabric, rdma


LOCAL = (Fabric.GBE_25, Rdma.NONE)


def test_data_parallel_replicas_that_fill_one_host_exactly_stay_local():
    """2 replicas x 4 GPUs = 8 GPUs, not more than the host's 8: the allreduce stays in the host."""
    assert _network(4, 2) == LOCAL


def test_data_parallel_replicas_one_gpu_past_a_host_cross_the_network():
    """3 replicas x 3 GPUs = 9 GPUs > 8 per host: the allreduce crosses hosts."""
    assert _network(3, 3) == (Fabric.GBE_200, Rdma.ROCE)
    assert _network(3, 2) == LOCAL  # 2 x 3 = 6 <= 8


def test_inference_replicas_never_allreduce():
    """The same 3 x 3 = 9 GPUs serving inference: replicas do not talk to each other."""
    assert _network(3, 3, training=False) == LOCAL


def test_one_replica_larger_than_a_host_crosses_the_network():
    """One replica of 9 GPUs on hosts of 8, inference or training; 8 fits one host."""
    assert _network(9, 1, training=False) == (Fabric.GBE_200, Rdma.ROCE)
    assert _network(8, 1, training=False) == LOCAL


def test_the_fabric_follows_the_gpus_pcie_generation():
    """A PCIe Gen 5 GPU (64 GB/s per direction at x16) or later gets 200 GbE; Gen 4 (32 GB/s)
    gets 100 GbE: the fabric is matched to the GPU's host link."""
    assert _network(3, 3, pcie_gen=4) == (Fabric.GBE_100, Rdma.ROCE)
    assert _network(3, 3, pcie_gen=5) == (Fabric.GBE_200, Rdma.ROCE)
    assert _network(3, 3, pcie_gen=6) == (Fabric.GBE_200, Rdma.ROCE)
