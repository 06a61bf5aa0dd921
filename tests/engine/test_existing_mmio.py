"""What changes on the kept VMs: their 64-bit MMIO settings as read against what the plan gives
the VMs of their group, each short one a VM setting to change with a power cycle, no host
reboot; settings not read are said, not guessed.

NVIDIA AI Enterprise 6, 'Using NVIDIA vGPU (C-Series) on GPUs Requiring 64GB or More of MMIO
Space with Large-Memory VMs': 'the VM's MMIO space must be increased to the amount that the GPU
requires', A100 80GB: 256 GB; NVIDIA AI Enterprise 5: '64-bit MMIO and EFI boot must be
enabled for the VM'; Broadcom KB 323402: 'If it is set too low the VM won't boot'. A
MIG-backed vGPU VM holds one GPU's vGPU, so the notebooks' VMs need 256 GB."""

from __future__ import annotations

import json

from tests.conftest import ROOT
from wizard.app.io import design_from_dict
from wizard.engine.decide.planning import plan

SAMPLE = ROOT / "tests" / "data" / "estate" / "expansion.json"


def _sample() -> dict:
    return json.loads(SAMPLE.read_text(encoding="utf-8"))


def _set(d: dict, values: list[tuple[bool | None, int | None]]) -> dict:
    """MMIO as read for nb-10, nb-11, nb-20, nb-21, nb-30, nb-31 in that order."""
    uses = [u for h in d["existing"]["clusters"][0]["hosts"] for u in h["in_use"]]
    for u, (on, size) in zip(uses, values, strict=True):
        u["mmio_64bit"], u["mmio_size_gb"] = on, size
    return d


def _mmio(p):
    return [w for w in p.estate.work if w.change.startswith("VM MMIO")]


def test_short_windows_are_changed_on_their_vms_with_a_power_cycle_each(catalog):
    d = _set(_sample(), [(True, 128), (True, 256), (False, 256), (True, 512), (True, 256),
                         (True, 256)])  # fmt: skip
    (w,) = _mmio(plan(design_from_dict(d), catalog))
    # nb-10: 128 < 256; nb-20: 64-bit MMIO not on. nb-11, nb-30, nb-31 at 256 and nb-21 at 512
    # already hold the A100 80GB's 256 GB
    assert w.vms == ["nb-10", "nb-20"]
    assert w.hosts == ["esx01.example.com", "esx02.example.com"]
    assert (w.reboots, w.vm_restarts) == (0, 2)
    assert "pciPassthru.64bitMMIOSizeGB = 256" in w.what
    assert "won't boot" in w.source and "A100 80GB 256GB" in w.source


def test_windows_that_hold_the_gpu_are_no_work(catalog):
    d = _set(_sample(), [(True, 256)] * 5 + [(True, 1024)])
    p = plan(design_from_dict(d), catalog)
    assert _mmio(p) == []
    assert not any("MMIO" in x.text for x in p.estate.decisions)


def test_settings_not_read_are_said_and_not_guessed(catalog):
    p = plan(design_from_dict(_sample()), catalog)  # the sample reads no MMIO settings
    assert _mmio(p) == []
    (x,) = [x for x in p.estate.decisions if "MMIO" in x.text]
    assert "6 VMs running 'Notebooks' were not read" in x.text
    assert "at least 256" in x.text


def test_a_vm_that_runs_no_group_of_the_design_is_not_the_plans_to_change(catalog):
    d = _set(_sample(), [(True, 256)] * 6)
    d["existing"]["clusters"][0]["hosts"][0]["in_use"].append(
        {"vm": "old-1", "vgpu_type": "A100D-3-40C", "mmio_64bit": True, "mmio_size_gb": 64}
    )
    assert _mmio(plan(design_from_dict(d), catalog)) == []
