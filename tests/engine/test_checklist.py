"""The platform checklist as data: a closed vocabulary of conditions, mode groups and facts,
refused when a rule steps outside it, and every rule reachable by some design."""

from __future__ import annotations

import json

import pytest

from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict, design_from_text
from wizard.base.bundled import example_names, example_text
from wizard.engine.platform.checklist import RULES, Rule, check_rules, fill
from wizard.engine.size import size


def test_an_unknown_condition_mode_group_or_fact_is_refused():
    ok = Rule("vm", "Firmware", "EFI", "all", "", "src")
    check_rules((ok,))
    with pytest.raises(ValueError, match="unknown condition 'gpu-is-fast'"):
        check_rules((Rule("vm", "x", "y", "all", "", "src", when="gpu-is-fast"),))
    with pytest.raises(ValueError, match="unknown mode group 'some'"):
        check_rules((Rule("vm", "x", "y", "some", "", "src"),))
    with pytest.raises(ValueError, match=r"unknown fact \['gpu_price'\]"):
        check_rules((Rule("vm", "x", "{gpu_price}", "all", "", "src"),))


def test_facts_are_put_in_as_text():
    assert fill(
        "{gpu_name} maps {gpu_memory_gb} GB", {"gpu_name": "A {x}", "gpu_memory_gb": "80"}
    ) == ("A {x} maps 80 GB")


def _settings(doc: dict, catalog) -> set[str]:
    r = size(design_from_dict(doc), catalog)
    return {i.setting for i in r.software.checklist}


def test_conditions_hold_only_where_they_should(catalog):
    """Large-BAR settings only for GPUs mapping more than 16 GB (T4: 16 GB, V100: 32 GB);
    SR-IOV only for the generations whose vGPUs are virtual functions (not Turing)."""
    starter = design_dict("starter")  # T4, 16 GB, Turing
    starter["workloads"][0]["sharing_mode"] = "vgpu"
    small = _settings(starter, catalog)
    assert "pciPassthru.use64bitMMIO" not in small and "SR-IOV" not in small
    mig = _settings(design_dict("mig-shared"), catalog)  # H100 80 GB, Hopper, MIG
    assert {"pciPassthru.use64bitMMIO", "SR-IOV", "MIG mode"} <= mig
    assert "PCI device passthrough" not in mig  # no group runs in passthrough there


def test_every_rule_is_reached_by_some_example(catalog):
    """Every rule is reached by a bundled example, or (MIG in the guest, which no example uses)
    by mig-shared with its MIG groups partitioned in the guest."""
    reached: set[str] = set()
    for name in example_names():
        r = size(design_from_text(example_text(name), name), catalog)
        reached |= {i.setting for i in r.software.checklist}
    guest = json.loads(example_text("mig-shared"))
    for w in guest["workloads"]:
        w["sharing_mode"] = "mig-guest"
    r = size(design_from_text(json.dumps(guest), "mig-shared"), catalog)
    reached |= {i.setting for i in r.software.checklist}
    assert {r.setting for r in RULES} <= reached


def test_the_host_driver_setting_names_the_chosen_release(catalog):
    """mig-shared runs NVIDIA AI Enterprise 9 (vGPU branch 21, no point release recorded in the
    catalog): the ESXi host driver setting names that release. Negative case: with no release
    in the software catalog it says where the driver comes from instead of naming one."""
    host = "NVIDIA AI Enterprise host driver (NVD-AIE VIB)"
    design = design_from_dict(design_dict("mig-shared"))
    r = size(design, catalog)
    (item,) = [i for i in r.software.checklist if i.setting == host]
    assert item.value == "vGPU 21 (NVIDIA AI Enterprise 9)"
    bare = catalog.model_copy(update={"software": {}})
    r = size(design, bare)
    (item,) = [i for i in r.software.checklist if i.setting == host]
    assert item.value == "the release's vSphere package"
