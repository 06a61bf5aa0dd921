"""A kept cluster whose GPUs are in MIG mode today, and a plan that runs them time-sliced: MIG
mode is turned off on each host. NVIDIA AI Enterprise 6, 'Configuring a GPU for MIG-Backed
vGPUs', step 4: 'VMware vSphere ESXi with GPUs based only on the NVIDIA Ampere architecture:
Reboot the hypervisor host. If you are using ... GPUs based on the NVIDIA Hopper GPU
architecture or a later architecture, omit this step.' So three A100 hosts take three reboots
and three H100 hosts none."""

from __future__ import annotations

import json

import pytest

from tests.conftest import ROOT
from wizard.app.io import design_from_dict
from wizard.engine.decide.planning import plan

SAMPLE = ROOT / "tests" / "data" / "estate" / "expansion.json"


def _plan(catalog, gpu: str | None):
    d = json.loads(SAMPLE.read_text(encoding="utf-8"))
    d["workloads"] = [dict(d["workloads"][0], sharing_mode="vgpu")]  # the notebooks, time-sliced
    if gpu == "h100":
        for h in d["existing"]["clusters"][0]["hosts"]:
            h["gpu"] = "h100-pcie-80gb"
            for u in h["in_use"]:
                u["vgpu_type"] = "H100-3-40C"
        d["hardware"]["gpu"] = "h100-pcie-80gb"
    return plan(design_from_dict(d), catalog)


@pytest.mark.parametrize(("gpu", "reboots", "implication"), [
    ("a100", 3, "3 host reboots, one host at a time in maintenance mode"),
    ("h100", 0, "No host reboot"),
])  # fmt: skip
def test_mig_mode_is_turned_off_with_a_reboot_on_ampere_only(catalog, gpu, reboots, implication):
    p = _plan(catalog, gpu)
    (off,) = [w for w in p.estate.work if w.change == "MIG mode off"]
    assert len(off.hosts) == 3 and off.reboots == reboots
    (x,) = [x for x in p.estate.decisions if "MIG mode is turned off" in x.text]
    assert x.implication == implication
