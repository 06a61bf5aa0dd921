"""A group sized by GPUs per member (a capacity analysis, not a model): each member's GPUs are
whole GPUs, so its memory is the GPU's memory times its GPUs, all of it workspace (no model's
weights or states are counted), and it fits one GPU only when it asks for one."""

from __future__ import annotations

import pytest

from wizard.app.io import design_from_dict
from wizard.engine.size import size

H100 = {"gpu": "h100-sxm5-80gb", "server": "dell-xe9680", "gpus_per_host": 8, "nvlink": True}


@pytest.mark.parametrize(("gpus", "by_hand"), [(1, 80), (2, 160), (4, 320)])
def test_a_members_memory_is_its_gpus_memory(catalog, gpus, by_hand):
    """H100 SXM5 80GB: 1 x 80 = 80 GB, 2 x 80 = 160 GB, 4 x 80 = 320 GB a member; three
    members take 3 x the GPUs."""
    doc = {
        "workloads": [{"name": "Jobs", "kind": "training", "count": 3, "gpus_per_member": gpus,
                       "sharing_mode": "vgpu"}],
        "hardware": H100,
    }  # fmt: skip
    w = size(design_from_dict(doc), catalog).workloads[0]
    assert w.gpus_per_replica == gpus and w.gpus_total == 3 * gpus
    assert w.memory_gb_per_replica == by_hand
    assert w.memory_gb.total == w.memory_gb.workspace == 80
    m = w.memory_gb
    # no model: nothing is counted as weights, gradients, optimizer, activations, cache or overhead
    assert (m.weights, m.gradients, m.optimizer, m.activations, m.kv_cache, m.overhead) == (0,) * 6
    assert w.fits_one_gpu == (gpus == 1)
