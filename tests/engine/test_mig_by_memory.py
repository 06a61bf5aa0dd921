"""MIG is sized by memory: the smallest profile whose memory holds a user, unless the user states
a compute need (NVIDIA Multi-Instance GPU User Guide, 'Supported MIG Profiles': each profile is
named by its compute slices and memory, e.g. 3g.20gb; the counts per GPU below are the guide's
maxima). Each case fits one GPU by NVIDIA's tables."""

from __future__ import annotations

import pytest

from wizard.app.io import design_from_dict
from wizard.engine.size import size

# (GPU, server, users, GB each, the profile NVIDIA's table gives, at most per GPU)
CASES = [
    ("a100-pcie-40gb", "dell-r750xa", 2, 20, "3g.20gb", 2),  # 3g.20gb: 20 GB, two per GPU
    ("a100-pcie-40gb", "dell-r750xa", 4, 10, "1g.10gb", 4),  # 1g.10gb: 10 GB, four per GPU
    ("h100-pcie-80gb", "dell-r760xa", 2, 40, "3g.40gb", 2),  # 3g.40gb: 40 GB, two per GPU
    ("a100-pcie-80gb", "dell-r760xa", 2, 40, "3g.40gb", 2),
    ("h100-pcie-80gb", "dell-r760xa", 4, 20, "1g.20gb", 4),  # 1g.20gb: 20 GB, four per GPU
    ("h100-pcie-80gb", "dell-r760xa", 4, 10, "1g.10gb", 7),
    ("h100-nvl-94gb", "dell-r760xa", 7, 12, "1g.12gb", 7),  # 1g.12gb: 12 GB, seven per GPU
    ("h200-nvl-141gb", "dell-xe7740", 7, 18, "1g.18gb", 7),  # 1g.18gb: 18 GB, seven per GPU
    ("h200-nvl-141gb", "dell-xe7740", 1, 71, "3g.71gb", 2),  # 3g.71gb, not the whole GPU
]


def _design(gpu: str, server: str, users: int, gb: float, **shared) -> dict:
    return {
        "workloads": [
            {"name": "Notebooks", "kind": "development", "count": users,
             "shared": {"gpu_memory_gb": gb, **shared}, "sharing_mode": "mig"},
        ],
        "hardware": {"gpu": gpu, "server": server, "gpus_per_host": 1},
    }  # fmt: skip


@pytest.mark.parametrize(("gpu", "server", "users", "gb", "profile", "most"), CASES)
def test_users_fit_one_gpu_by_memory(catalog, gpu, server, users, gb, profile, most):
    assert users <= most  # the case is one GPU by NVIDIA's table
    r = size(design_from_dict(_design(gpu, server, users, gb)), catalog)
    (w,) = r.workloads
    assert w.sharing.slot_profile == profile
    assert r.cluster.gpus_demand == 1


def test_a_stated_compute_share_still_counts(catalog):
    """A user who states half a GPU's compute (gpu_fraction 0.5, the negative case) needs 4 of
    the 7 compute slices of an A100 40GB: ceil(0.5 x 7) = 4, so 4g.20gb, one per GPU, and two
    such users take 2 GPUs."""
    doc = _design("a100-pcie-40gb", "dell-r750xa", 2, 20)
    doc["workloads"][0]["shared"] = {"gpu_fraction": 0.5}
    r = size(design_from_dict(doc), catalog)
    assert r.workloads[0].sharing.slot_profile == "4g.20gb"
    assert r.cluster.gpus_demand == 2
