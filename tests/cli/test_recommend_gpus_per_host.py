"""Recommend's GPUs per host on a server whose slot count is not a power of two: tensor- and
data-parallel jobs run in groups of a power of two, so on a 10-GPU host (Supermicro
SYS-420GP-TNR, 10 double-width PCIe GPUs) 8 per host is tried beside 10, and the one that
draws less power wins."""

from __future__ import annotations

from wizard.app.io import design_from_dict
from wizard.app.recommend import recommend

SERVER = "supermicro-sys-420gp-tnr"


def _per_host(catalog, members: int, gpus_per_member: int) -> int:
    doc = {
        "workloads": [
            {
                "name": "Fine-tuning",
                "kind": "training",
                "count": members,
                "gpus_per_member": gpus_per_member,
                "sharing_mode": "passthrough",
            }
        ],
        "hardware": {"gpu": "a100-pcie-80gb", "server": SERVER, "gpus_per_host": 10},
    }
    rec = recommend(design_from_dict(doc), catalog, keep_gpu=True)
    assert rec.hardware.server == SERVER
    return rec.hardware.gpus_per_host


def test_8_gpu_jobs_get_8_per_host_not_10(catalog):
    """3 jobs of 8 GPUs: one job per host either way (8 + 8 > 10), so 3 hosts and the same HA
    host; at 10 per host each host carries 2 idle GPUs (3 x 10 = 30 GPUs against 3 x 8 = 24
    before the HA host), which draw power for nothing."""
    assert _per_host(catalog, 3, 8) == 8


def test_4_gpu_jobs_get_8_per_host_not_10(catalog):
    """3 jobs of 4 GPUs: 2 jobs per host either way (3 x 4 = 12 > 10), so 2 hosts; 16 GPUs at
    8 per host against 20 at 10."""
    assert _per_host(catalog, 3, 4) == 8


def test_a_job_of_10_gpus_fills_every_slot(catalog):
    """A 10-GPU job fills a 10-GPU host exactly; at 8 per host it would need 2 hosts (16 GPUs)."""
    assert _per_host(catalog, 3, 10) == 10
