"""Rounding a training job's GPUs up to an NVSwitch partition applies only where its VMs join the
NVLink fabric. hgx-h200-llm's LoRA run meets its target on 6 GPUs; with time-sliced vGPU or
passthrough a VM there holds 1, 2, 4 or 8 GPUs (NVIDIA Fabric Manager User Guide), so 6 become 8.
MIG-backed vGPUs take no part in the fabric (NVIDIA AI Enterprise 9.0, peer-to-peer: 'NVLink
P2P supports only NVIDIA vGPU for Compute time-sliced vGPUs'), so under MIG the 6 stay 6."""

from __future__ import annotations

import pytest

from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict
from wizard.engine.size import size


@pytest.mark.parametrize(("mode", "planned"), [("vgpu", 8), ("passthrough", 8), ("mig", 6)])
def test_only_fabric_vms_are_rounded_to_a_partition(catalog, mode, planned):
    doc = design_dict("hgx-h200-llm")
    doc["workloads"][0]["sharing_mode"] = mode
    r = size(design_from_dict(doc), catalog)
    lora = r.workloads[0]
    assert lora.training.gpus_for_target_time == 6
    assert lora.gpus_total == planned
    rounded = "nvswitch-partition-rounded" in {w.code for w in r.warnings}
    assert rounded == (planned != 6)
