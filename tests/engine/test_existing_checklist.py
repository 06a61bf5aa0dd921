"""The platform checklist of an existing cluster whose hosts are kept: a host setting stays only
where the plan changes it on those hosts, while every vCenter, VM and guest setting stays, since
the plan's new VMs need them whatever the hosts already run.

The sample (tests/data/estate/expansion.json): three Dell R750xa hosts with A100 PCIe 80GB on
MIG-backed vGPU and NVIDIA driver 535.230.02 (R535); the plan keeps MIG-backed vGPU there and
moves the hosts to a newer NVIDIA AI Enterprise driver branch, so of the host settings only the
host driver changes."""

from __future__ import annotations

import json

import pytest

from tests.conftest import ROOT
from wizard.app.io import design_from_dict
from wizard.engine.decide.planning import plan

SAMPLE = ROOT / "tests" / "data" / "estate" / "expansion.json"
KEPT = "Notebooks A100"
NEW = "GPU cluster"
HOST_SCOPES = {"host-bios", "esxi-host"}


@pytest.fixture(scope="module")
def checklists(catalog):
    p = plan(design_from_dict(json.loads(SAMPLE.read_text(encoding="utf-8"))), catalog)
    return {
        c.name: c.result.software.checklist
        for c in p.estate.clusters
        if c.result is not None and c.result.software is not None
    }


def _settings(items, scopes):
    return {c.setting for c in items if c.scope in scopes}


def test_the_new_vms_settings_all_stay_on_the_kept_cluster(checklists):
    """vCenter, VM and guest settings are the new VMs': the kept cluster lists the same ones the
    new cluster does, less those only time-sliced vGPU needs (unified memory of a vGPU)."""
    kept = checklists[KEPT]
    others = {"vcenter", "vm", "guest-os"}
    for scope in others:
        assert _settings(kept, {scope}), f"no {scope} setting left on the kept cluster"
    time_sliced_only = {s for s in _settings(checklists[NEW], others) if s.startswith("Unified")}
    assert len(time_sliced_only) == 1
    assert _settings(kept, others) == _settings(checklists[NEW], others) - time_sliced_only
    for setting in ("vgpu.hotmigrate.enabled", "Firmware", "Memory reservation",
                    "pciPassthru.use64bitMMIO", "Operating system"):  # fmt: skip
        assert setting in _settings(kept, others)


def test_only_the_host_settings_the_plan_changes_stay(checklists):
    """The negative case: no firmware step, so no BIOS setting; MIG stays on, so no graphics
    device or vGPU mode setting; the driver branch changes, so the host driver stays."""
    kept = checklists[KEPT]
    assert _settings(kept, {"host-bios"}) == set()
    esxi = _settings(kept, {"esxi-host"})
    assert len(esxi) == 1 and next(iter(esxi)).startswith("NVIDIA AI Enterprise host driver")
    # the new cluster's hosts are set up from scratch: every host setting
    assert _settings(checklists[NEW], {"host-bios"})
    assert len(_settings(checklists[NEW], {"esxi-host"})) > 1
